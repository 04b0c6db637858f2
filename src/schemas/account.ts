/**
 * User-account resources and notifications of the Account API documentation: favorite lists,
 * favorites, the profile, addresses, saved orders, notifications. Answers are
 * tolerant (see common.ts); request bodies are in query.ts.
 */
import * as z from 'zod/mini';
import { bool, created, id, listPage, num, single, text, texts } from './catalog/base.js';
import { Images } from './catalog/skus.js';
import { answer, type Infer, maybe, openEnum, record, type Schema } from './common.js';

const favoriteListShape = () => ({
  /** Auto lists have negative ids. */
  id,
  name: text,
  /** Auto lists are tied to a category. */
  category_id: num,
  /** `custom` or `auto` (in the create answer); the owned list is a virtual list. */
  type: maybe(openEnum(['custom', 'auto'])),
});
export interface FavoriteList extends Infer<typeof favoriteListShape> {}
export const FavoriteList: Schema<FavoriteList> = /* @__PURE__ */ answer(favoriteListShape);

const favoriteShape = () => ({
  id,
  user_id: num,
  sku_id: num,
  /**
   * The list it is in; null for an owned favorite (the Account API documentation, kinds of list). The documentation's
   * favorite table leaves it out, but its rules and the service's answers use it.
   */
  favorite_list_id: num,
  /** True: owned, and then in no list. */
  have_it: bool,
  user_notes: text,
  created_at: text,
  updated_at: text,
  /** Price threshold for alerts, as decimal text (e.g. `"250.0"`). */
  get_absolute_threshold: text,
});
export interface Favorite extends Infer<typeof favoriteShape> {}
export const Favorite: Schema<Favorite> = /* @__PURE__ */ answer(favoriteShape);

const userStatsShape = () => ({
  sku_review_count: num,
  shop_review_count: num,
  sku_comment_count: num,
  received_votes: num,
});
export interface UserStats extends Infer<typeof userStatsShape> {}
export const UserStats: Schema<UserStats> = /* @__PURE__ */ answer(userStatsShape);

const emailNotificationSettingShape = () => ({
  field: maybe(openEnum(['notifications', 'mail_events', 'sku_review_email', 'shop_review_email', 'smart_cart_email'])),
  label: text,
  description: text,
  enabled: bool,
});
export interface EmailNotificationSetting extends Infer<typeof emailNotificationSettingShape> {}
export const EmailNotificationSetting: Schema<EmailNotificationSetting> = /* @__PURE__ */ answer(emailNotificationSettingShape);

const userShape = () => ({
  id,
  username: text,
  /** Account type: `marketplace`, `open_id`, or one naming an external identity provider. */
  type: maybe(openEnum(['marketplace', 'open_id'])),
  sex: maybe(openEnum(['male', 'female'])),
  /** Avatar image URI. */
  avatar: text,
  /** Account creation date. */
  created_at: text,
  email: text,
  birthyear: num,
  mobile: text,
  stats: maybe(UserStats),
  email_notifications: maybe(z.array(EmailNotificationSetting)),
  /** In the profile view. */
  resend_verification_email: bool,
  loyalty_tier_level: num,
  total_acquired_points: num,
  /** True for staff members. */
  is_staff: bool,
});
export interface User extends Infer<typeof userShape> {}
export const User: Schema<User> = /* @__PURE__ */ answer(userShape);

const addressShape = () => ({
  id,
  label: text,
  first_name: text,
  last_name: text,
  street_name: text,
  street_number: text,
  city: text,
  zip: text,
  /** Region name (addresses are created with a `region_id`). */
  region: text,
  phone: text,
  mobile: text,
  lng: text,
  lat: text,
});
export interface Address extends Infer<typeof addressShape> {}
export const Address: Schema<Address> = /* @__PURE__ */ answer(addressShape);

const addressFormShape = () => ({
  /** Required field names: label, first_name, last_name, street_name, street_number, city, zip, region_id. */
  required: texts,
  /** Optional field names: phone, mobile. */
  optional: texts,
  /** Region name → region id (1 to 57). */
  regions: maybe(z.record(z.string(), z.number())),
});
/** `GET /user/addresses/new`: which fields an address needs, and the regions to choose from. */
export interface AddressForm extends Infer<typeof addressFormShape> {}
export const AddressForm: Schema<AddressForm> = /* @__PURE__ */ answer(addressFormShape);

const savedOrderLineItemShape = () => ({
  name: text,
  quantity: num,
  price: num,
  image: text,
  sku_id: num,
  product_id: num,
  category_id: num,
});
export interface SavedOrderLineItem extends Infer<typeof savedOrderLineItemShape> {}
export const SavedOrderLineItem: Schema<SavedOrderLineItem> = /* @__PURE__ */ answer(savedOrderLineItemShape);

const savedOrderShape = () => ({
  date: text,
  products_cost: num,
  shipping_cost: num,
  total_cost: num,
  shop_id: num,
  order_code: text,
  line_items: maybe(z.array(SavedOrderLineItem)),
});
/** A saved order; the documentation gives it no `id` (`order_code` names it). */
export interface SavedOrder extends Infer<typeof savedOrderShape> {}
export const SavedOrder: Schema<SavedOrder> = /* @__PURE__ */ answer(savedOrderShape);

/** Known notification event types (the Account API documentation, Events); others may come. */
export const NOTIFICATION_ETYPES = [
  'price_drop',
  'price_up',
  'availability_true',
  'availability_false',
  'sku_release',
  'sku_review',
  'sku_review_rephrase_request',
  'sku_review_approve_after_update',
] as const;

const notificationSnapshotShape = () => ({
  /** price_drop. */
  price_min: num,
  /** price_drop. */
  latest_price: num,
  /** price_drop. */
  change_rate: num,
  /** price_drop: whether the drop crossed the favorite's threshold. */
  from_threshold: bool,
});
/**
 * What the event saw. The documentation shows it only for `price_drop`; every other
 * field is kept as sent.
 */
export interface NotificationSnapshot extends Infer<typeof notificationSnapshotShape> {}
export const NotificationSnapshot: Schema<NotificationSnapshot> = /* @__PURE__ */ answer(notificationSnapshotShape);

const notificationSkuShape = () => ({
  id,
  category_id: num,
  display_name: text,
  images: maybe(Images),
  click_url: text,
  virtual: bool,
  future: bool,
  first_product_shop_info: text,
});
/** The SKU a notification is about. */
export interface NotificationSku extends Infer<typeof notificationSkuShape> {}
export const NotificationSku: Schema<NotificationSku> = /* @__PURE__ */ answer(notificationSkuShape);

const notificationShape = () => ({
  id,
  etype: maybe(openEnum(NOTIFICATION_ETYPES)),
  eventable_id: num,
  /** e.g. `Sku`. */
  eventable_type: text,
  eventable_name: text,
  eventable_url: text,
  event_text: text,
  snapshot: maybe(NotificationSnapshot),
  is_viewed: bool,
  aggregated: bool,
  created_at: text,
  updated_at: text,
  sku: maybe(NotificationSku),
  /** For price notifications. */
  category_name: text,
  /**
   * sku_review. The Account API documentation names this field for sku_review events without
   * showing where it sits; a top-level field is assumed (the object is loose either way).
   */
  review_rating: num,
  /** sku_review, not aggregated; placement assumed as for `review_rating`. */
  review_text: text,
  /** sku_review, not aggregated: the review's author; placement assumed as for `review_rating`. */
  author: maybe(record({ id: num, username: text, avatar: text })),
});
export interface Notification extends Infer<typeof notificationShape> {}
export const Notification: Schema<Notification> = /* @__PURE__ */ answer(notificationShape);

/** `GET /favorite_lists`. */
export const FavoriteListsPage = /* @__PURE__ */ listPage('favorite_lists', FavoriteList);
export interface FavoriteListsPage extends z.output<typeof FavoriteListsPage> {}

/** `POST /favorite_lists` (201); recorded answers also send the list without its root key. */
export const FavoriteListAnswer = /* @__PURE__ */ created('favorite_list', FavoriteList);
export interface FavoriteListAnswer extends z.output<typeof FavoriteListAnswer> {}

/**
 * `GET /favorites`, `GET /favorite_lists/:id/favorites`, `GET /skus/:id/favorite`,
 * and `GET /categories/:id/favorites` (shape from recorded answers).
 */
export const FavoritesPage = /* @__PURE__ */ listPage('favorites', Favorite);
export interface FavoritesPage extends z.output<typeof FavoritesPage> {}

/** `GET /favorites/:id`, `PUT /favorites/:id`. */
export const FavoriteAnswer = /* @__PURE__ */ single('favorite', Favorite);
export interface FavoriteAnswer extends z.output<typeof FavoriteAnswer> {}

/** `POST /favorites` (201); recorded answers also send the favorite without its root key. */
export const FavoriteCreatedAnswer = /* @__PURE__ */ created('favorite', Favorite);
export interface FavoriteCreatedAnswer extends z.output<typeof FavoriteCreatedAnswer> {}

/** `GET /user`, `PATCH /user`. */
export const UserAnswer = /* @__PURE__ */ single('user', User);
export interface UserAnswer extends z.output<typeof UserAnswer> {}

const avatarsAnswerShape = () => ({ avatars: z.array(z.string()) });
/** `GET /user/avatars`: image URLs; a file name from them is an `avatar_preset`. */
export interface AvatarsAnswer extends Infer<typeof avatarsAnswerShape> {}
export const AvatarsAnswer: Schema<AvatarsAnswer> = /* @__PURE__ */ answer(avatarsAnswerShape);

/** `GET /user/addresses`. */
export const AddressesPage = /* @__PURE__ */ listPage('addresses', Address);
export interface AddressesPage extends z.output<typeof AddressesPage> {}

/** `POST /user/addresses` (201), `PUT /user/addresses/:id`. */
export const AddressAnswer = /* @__PURE__ */ single('address', Address);
export interface AddressAnswer extends z.output<typeof AddressAnswer> {}

/** `GET /user/addresses/new`. */
export const AddressFormAnswer = /* @__PURE__ */ single('address_form', AddressForm);
export interface AddressFormAnswer extends z.output<typeof AddressFormAnswer> {}

/** `GET /user/saved_orders`. */
export const SavedOrdersPage = /* @__PURE__ */ listPage('saved_orders', SavedOrder);
export interface SavedOrdersPage extends z.output<typeof SavedOrdersPage> {}

/** `GET /notifications`. */
export const NotificationsPage = /* @__PURE__ */ listPage('notifications', Notification);
export interface NotificationsPage extends z.output<typeof NotificationsPage> {}

/** `GET /notifications/:id`. */
export const NotificationAnswer = /* @__PURE__ */ single('notification', Notification);
export interface NotificationAnswer extends z.output<typeof NotificationAnswer> {}
