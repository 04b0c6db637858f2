/**
 * User-account resources and notifications of document 3: favorite lists,
 * favorites, the profile, addresses, saved orders, notifications. Answers are
 * tolerant (see common.ts); request bodies are in query.ts.
 */
import * as z from 'zod/mini';
import { bool, id, listPage, num, single, text, texts } from './catalog/base.js';
import { Images } from './catalog/skus.js';
import { maybe, openEnum, record } from './common.js';

export const FavoriteList = record({
  /** Auto lists have negative ids. */
  id,
  name: text,
  /** Auto lists are tied to a category. */
  category_id: num,
  /** `custom` or `auto` (in the create answer); the owned list is a virtual list. */
  type: maybe(openEnum(['custom', 'auto'])),
});
export type FavoriteList = z.infer<typeof FavoriteList>;

export const Favorite = record({
  id,
  user_id: num,
  sku_id: num,
  /**
   * The list it is in; null for an owned favorite (document 3, kinds of list). The spec's
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
export type Favorite = z.infer<typeof Favorite>;

export const UserStats = record({
  sku_review_count: num,
  shop_review_count: num,
  sku_comment_count: num,
  received_votes: num,
});
export type UserStats = z.infer<typeof UserStats>;

export const EmailNotificationSetting = record({
  field: maybe(openEnum(['notifications', 'mail_events', 'sku_review_email', 'shop_review_email', 'smart_cart_email'])),
  label: text,
  description: text,
  enabled: bool,
});
export type EmailNotificationSetting = z.infer<typeof EmailNotificationSetting>;

export const User = record({
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
export type User = z.infer<typeof User>;

export const Address = record({
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
export type Address = z.infer<typeof Address>;

/** `GET /user/addresses/new`: which fields an address needs, and the regions to choose from. */
export const AddressForm = record({
  /** Required field names: label, first_name, last_name, street_name, street_number, city, zip, region_id. */
  required: texts,
  /** Optional field names: phone, mobile. */
  optional: texts,
  /** Region name → region id (1 to 57). */
  regions: maybe(z.record(z.string(), z.number())),
});
export type AddressForm = z.infer<typeof AddressForm>;

export const SavedOrderLineItem = record({
  name: text,
  quantity: num,
  price: num,
  image: text,
  sku_id: num,
  product_id: num,
  category_id: num,
});
export type SavedOrderLineItem = z.infer<typeof SavedOrderLineItem>;

/** A saved order; the spec gives it no `id` (`order_code` names it). */
export const SavedOrder = record({
  date: text,
  products_cost: num,
  shipping_cost: num,
  total_cost: num,
  shop_id: num,
  order_code: text,
  line_items: maybe(z.array(SavedOrderLineItem)),
});
export type SavedOrder = z.infer<typeof SavedOrder>;

/** Known notification event types (document 3, Events); others may come. */
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

/**
 * What the event saw. The spec shows it only for `price_drop`; every other
 * field is kept as sent.
 */
export const NotificationSnapshot = record({
  /** price_drop. */
  price_min: num,
  /** price_drop. */
  latest_price: num,
  /** price_drop. */
  change_rate: num,
  /** price_drop: whether the drop crossed the favorite's threshold. */
  from_threshold: bool,
});
export type NotificationSnapshot = z.infer<typeof NotificationSnapshot>;

/** The SKU a notification is about. */
export const NotificationSku = record({
  id,
  category_id: num,
  display_name: text,
  images: maybe(Images),
  click_url: text,
  virtual: bool,
  future: bool,
  first_product_shop_info: text,
});
export type NotificationSku = z.infer<typeof NotificationSku>;

export const Notification = record({
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
   * sku_review. Document 3 names this field for sku_review events without
   * showing where it sits; a top-level field is assumed (the object is loose either way).
   */
  review_rating: num,
  /** sku_review, not aggregated; placement assumed as for `review_rating`. */
  review_text: text,
  /** sku_review, not aggregated: the review's author; placement assumed as for `review_rating`. */
  author: maybe(record({ id: num, username: text, avatar: text })),
});
export type Notification = z.infer<typeof Notification>;

/** `GET /favorite_lists`. */
export const FavoriteListsPage = listPage('favorite_lists', FavoriteList);
export type FavoriteListsPage = z.infer<typeof FavoriteListsPage>;

/** `POST /favorite_lists` (201). */
export const FavoriteListAnswer = single('favorite_list', FavoriteList);
export type FavoriteListAnswer = z.infer<typeof FavoriteListAnswer>;

/**
 * `GET /favorites`, `GET /favorite_lists/:id/favorites`, `GET /skus/:id/favorite`,
 * and `GET /categories/:id/favorites` (shape from recorded answers).
 */
export const FavoritesPage = listPage('favorites', Favorite);
export type FavoritesPage = z.infer<typeof FavoritesPage>;

/** `GET /favorites/:id`, `POST /favorites` (201), `PUT /favorites/:id`. */
export const FavoriteAnswer = single('favorite', Favorite);
export type FavoriteAnswer = z.infer<typeof FavoriteAnswer>;

/** `GET /user`, `PATCH /user`. */
export const UserAnswer = single('user', User);
export type UserAnswer = z.infer<typeof UserAnswer>;

/** `GET /user/avatars`: image URLs; a file name from them is an `avatar_preset`. */
export const AvatarsAnswer = record({ avatars: z.array(z.string()) });
export type AvatarsAnswer = z.infer<typeof AvatarsAnswer>;

/** `GET /user/addresses`. */
export const AddressesPage = listPage('addresses', Address);
export type AddressesPage = z.infer<typeof AddressesPage>;

/** `POST /user/addresses` (201), `PUT /user/addresses/:id`. */
export const AddressAnswer = single('address', Address);
export type AddressAnswer = z.infer<typeof AddressAnswer>;

/** `GET /user/addresses/new`. */
export const AddressFormAnswer = single('address_form', AddressForm);
export type AddressFormAnswer = z.infer<typeof AddressFormAnswer>;

/** `GET /user/saved_orders`. */
export const SavedOrdersPage = listPage('saved_orders', SavedOrder);
export type SavedOrdersPage = z.infer<typeof SavedOrdersPage>;

/** `GET /notifications`. */
export const NotificationsPage = listPage('notifications', Notification);
export type NotificationsPage = z.infer<typeof NotificationsPage>;

/** `GET /notifications/:id`. */
export const NotificationAnswer = single('notification', Notification);
export type NotificationAnswer = z.infer<typeof NotificationAnswer>;
