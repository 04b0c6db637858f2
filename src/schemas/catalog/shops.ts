/** Shops, their reviews and locations, and manufacturers (document 2). */
import * as z from 'zod/mini';
import { maybe, openEnum, record } from '../common.js';
import { bool, id, listPage, num, Pagination, single, text, texts } from './base.js';

export const ShopPaymentMethods = record({
  credit_card: bool,
  paypal: bool,
  bank: bool,
  spot_cash: bool,
  installments: text,
});
export type ShopPaymentMethods = z.infer<typeof ShopPaymentMethods>;

export const ShopShipping = record({
  free: bool,
  free_from: num,
  free_from_info: text,
  min_price: text,
  /** True when the shop has shipping rules. */
  shipping_cost_enabled: bool,
});
export type ShopShipping = z.infer<typeof ShopShipping>;

export const ShopExtraInfo = record({
  /** Readable text, e.g. `3+ years`. */
  time_on_platform: text,
  /** Readable text, e.g. `100+`. */
  orders_per_week: text,
});
export type ShopExtraInfo = z.infer<typeof ShopExtraInfo>;

export const Shop = record({
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
export type Shop = z.infer<typeof Shop>;

export const ShopReview = record({
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
export type ShopReview = z.infer<typeof ShopReview>;

export const ShopRatingBreakdownEntry = record({
  impression: maybe(openEnum(['positive', 'negative'])),
  percentage: num,
  count: num,
});
export type ShopRatingBreakdownEntry = z.infer<typeof ShopRatingBreakdownEntry>;

/** `meta` of a shop's reviews (`shop_rating_breakdown` with `include_meta=shop_rating_breakdown`). */
export const ShopReviewsMeta = record({
  shop_rating_breakdown: maybe(z.array(ShopRatingBreakdownEntry)),
  pagination: maybe(Pagination),
});
export type ShopReviewsMeta = z.infer<typeof ShopReviewsMeta>;

/** A location's address (`embed=address`); its fields are null when the location's format is unstructured. */
export const LocationAddress = record({
  /** May be null too: the SDK does not need it, and unstructured addresses are all nulls. */
  id: num,
  street_number: text,
  street: text,
  postcode: text,
  city: text,
  region: text,
  country: text,
});
export type LocationAddress = z.infer<typeof LocationAddress>;

export const Location = record({
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
export type Location = z.infer<typeof Location>;

export const Manufacturer = record({ id, name: text, image_url: text });
export type Manufacturer = z.infer<typeof Manufacturer>;

/** `GET /shops/:id`. */
export const ShopAnswer = single('shop', Shop);
export type ShopAnswer = z.infer<typeof ShopAnswer>;

/** `GET /shops/search`. */
export const ShopsPage = listPage('shops', Shop);
export type ShopsPage = z.infer<typeof ShopsPage>;

/** `GET /shops/:id/reviews`. */
export const ShopReviewsPage = listPage('reviews', ShopReview, ShopReviewsMeta);
export type ShopReviewsPage = z.infer<typeof ShopReviewsPage>;

/** `GET /shops/:shop_id/locations/:id`. */
export const LocationAnswer = single('location', Location);
export type LocationAnswer = z.infer<typeof LocationAnswer>;

/** `GET /shops/:shop_id/locations`, `GET /locations/find`. */
export const LocationsPage = listPage('locations', Location);
export type LocationsPage = z.infer<typeof LocationsPage>;

/** `GET /manufacturers/:id`. */
export const ManufacturerAnswer = single('manufacturer', Manufacturer);
export type ManufacturerAnswer = z.infer<typeof ManufacturerAnswer>;

/** `GET /manufacturers`, `GET /categories/:id/manufacturers` (the latter's shape from recorded answers). */
export const ManufacturersPage = listPage('manufacturers', Manufacturer);
export type ManufacturersPage = z.infer<typeof ManufacturersPage>;
