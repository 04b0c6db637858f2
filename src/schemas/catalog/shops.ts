/** Shops, their reviews and locations, and manufacturers (the Catalog API documentation). */
import * as z from 'zod/mini';
import { answer, type Infer, maybe, openEnum, type Schema } from '../common.js';
import { bool, id, listPage, num, Pagination, single, text, texts } from './base.js';

const shopPaymentMethodsShape = () => ({
  credit_card: bool,
  paypal: bool,
  bank: bool,
  spot_cash: bool,
  installments: text,
});
export interface ShopPaymentMethods extends Infer<typeof shopPaymentMethodsShape> {}
export const ShopPaymentMethods: Schema<ShopPaymentMethods> = /* @__PURE__ */ answer(shopPaymentMethodsShape);

const shopShippingShape = () => ({
  free: bool,
  free_from: num,
  free_from_info: text,
  min_price: text,
  /** True when the shop has shipping rules. */
  shipping_cost_enabled: bool,
});
export interface ShopShipping extends Infer<typeof shopShippingShape> {}
export const ShopShipping: Schema<ShopShipping> = /* @__PURE__ */ answer(shopShippingShape);

const shopExtraInfoShape = () => ({
  /** Readable text, e.g. `3+ years`. */
  time_on_platform: text,
  /** Readable text, e.g. `100+`. */
  orders_per_week: text,
});
export interface ShopExtraInfo extends Infer<typeof shopExtraInfoShape> {}
export const ShopExtraInfo: Schema<ShopExtraInfo> = /* @__PURE__ */ answer(shopExtraInfoShape);

const shopShape = () => ({
  id,
  name: text,
  link: text,
  phone: text,
  image_url: text,
  thumbshot_url: text,
  web_uri: text,
  reviews_count: num,
  /** Reviews counted in the score. */
  latest_reviews_count: num,
  /** Rounded to 1 decimal. */
  review_score: num,
  payment_methods: maybe(ShopPaymentMethods),
  shipping: maybe(ShopShipping),
  extra_info: maybe(ShopExtraInfo),
  top_positive_reasons: texts,
});
export interface Shop extends Infer<typeof shopShape> {}
export const Shop: Schema<Shop> = /* @__PURE__ */ answer(shopShape);

const shopReviewShape = () => ({
  id,
  user_id: num,
  review: text,
  rating: num,
  shop_reply: text,
  created_at: text,
  negative: bool,
  /** Positive or negative reasons, according to `negative`. */
  reasons: texts,
});
export interface ShopReview extends Infer<typeof shopReviewShape> {}
export const ShopReview: Schema<ShopReview> = /* @__PURE__ */ answer(shopReviewShape);

const shopRatingBreakdownEntryShape = () => ({
  impression: maybe(openEnum(['positive', 'negative'])),
  percentage: num,
  count: num,
});
export interface ShopRatingBreakdownEntry extends Infer<typeof shopRatingBreakdownEntryShape> {}
export const ShopRatingBreakdownEntry: Schema<ShopRatingBreakdownEntry> = /* @__PURE__ */ answer(shopRatingBreakdownEntryShape);

const shopReviewsMetaShape = () => ({
  shop_rating_breakdown: maybe(z.array(ShopRatingBreakdownEntry)),
  pagination: maybe(Pagination),
});
/** `meta` of a shop's reviews (`shop_rating_breakdown` with `include_meta=shop_rating_breakdown`). */
export interface ShopReviewsMeta extends Infer<typeof shopReviewsMetaShape> {}
export const ShopReviewsMeta: Schema<ShopReviewsMeta> = /* @__PURE__ */ answer(shopReviewsMetaShape);

const locationAddressShape = () => ({
  /** May be null too: the SDK does not need it, and unstructured addresses are all nulls. */
  id: num,
  street_number: text,
  street: text,
  postcode: text,
  city: text,
  region: text,
  country: text,
});
/** A location's address (`embed=address`); its fields are null when the location's format is unstructured. */
export interface LocationAddress extends Infer<typeof locationAddressShape> {}
export const LocationAddress: Schema<LocationAddress> = /* @__PURE__ */ answer(locationAddressShape);

const locationShape = () => ({
  id,
  headquarter: bool,
  pickup_point: bool,
  store: bool,
  phones: texts,
  full_address: text,
  format: maybe(openEnum(['structured', 'unstructured'])),
  lat: text,
  lng: text,
  info: text,
  /** Only from `locations/find`. */
  distance: num,
  /** With `embed=address`. */
  address: maybe(LocationAddress),
});
export interface Location extends Infer<typeof locationShape> {}
export const Location: Schema<Location> = /* @__PURE__ */ answer(locationShape);

const manufacturerShape = () => ({ id, name: text, image_url: text });
export interface Manufacturer extends Infer<typeof manufacturerShape> {}
export const Manufacturer: Schema<Manufacturer> = /* @__PURE__ */ answer(manufacturerShape);

/** `GET /shops/:id`. */
export const ShopAnswer = /* @__PURE__ */ single('shop', Shop);
export interface ShopAnswer extends z.output<typeof ShopAnswer> {}

/** `GET /shops/search`. */
export const ShopsPage = /* @__PURE__ */ listPage('shops', Shop);
export interface ShopsPage extends z.output<typeof ShopsPage> {}

/** `GET /shops/:id/reviews`. */
export const ShopReviewsPage = /* @__PURE__ */ listPage('reviews', ShopReview, ShopReviewsMeta);
export interface ShopReviewsPage extends z.output<typeof ShopReviewsPage> {}

/** `GET /shops/:shop_id/locations/:id`. */
export const LocationAnswer = /* @__PURE__ */ single('location', Location);
export interface LocationAnswer extends z.output<typeof LocationAnswer> {}

/** `GET /shops/:shop_id/locations`, `GET /locations/find`. */
export const LocationsPage = /* @__PURE__ */ listPage('locations', Location);
export interface LocationsPage extends z.output<typeof LocationsPage> {}

/** `GET /manufacturers/:id`. */
export const ManufacturerAnswer = /* @__PURE__ */ single('manufacturer', Manufacturer);
export interface ManufacturerAnswer extends z.output<typeof ManufacturerAnswer> {}

/** `GET /manufacturers`, `GET /categories/:id/manufacturers` (the latter's shape from recorded answers). */
export const ManufacturersPage = /* @__PURE__ */ listPage('manufacturers', Manufacturer);
export interface ManufacturersPage extends z.output<typeof ManufacturersPage> {}
