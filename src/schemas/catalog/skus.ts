/** SKUs, products (shop offers), personalization and price history (document 2). */
import * as z from 'zod/mini';
import { maybe, record } from '../common.js';
import { bool, id, listPage, num, Pagination, single, text, texts } from './base.js';
import { ListMeta, Specification, SpecificationGroup } from './categories.js';
import { Shop } from './shops.js';

export const Images = record({
  main: text,
  alternatives: texts,
});
export type Images = z.infer<typeof Images>;

export const Sku = record({
  id,
  /** Barcode; may be empty. Recorded answers hold several, separated by spaces. */
  ean: text,
  /** Manufacturer part number; may be empty. */
  pn: text,
  name: text,
  display_name: text,
  category_id: num,
  manufacturer_id: num,
  /** `<shop_id>|<name>|<slug>`. */
  first_product_shop_info: text,
  click_url: text,
  price_max: num,
  price_min: num,
  reviewscore: num,
  shop_count: num,
  reviews_count: num,
  plain_spec_summary: text,
  /** A future SKU has an empty product list. */
  future: bool,
  virtual: bool,
  images: maybe(Images),
  web_uri: text,
  /** Only for requests made with a user token. */
  favorited: bool,
  comparable: bool,
  reviewable: bool,
  name_source: text,
  sizes: maybe(z.array(z.unknown())),
  ecommerce_enabled: bool,
  /** Shape from recorded answers; the spec does not show it. */
  ecommerce_available: bool,
  /** Truncated; the full text is in the specifications' `meta.full_description`. */
  description: text,
});
export type Sku = z.infer<typeof Sku>;

/** Costs computed from the personalization (the user's address and payment method). */
export const Blp = record({
  shipping_cost: num,
  payment_method_cost: num,
  final_price: num,
});
export type Blp = z.infer<typeof Blp>;

export const Product = record({
  id,
  name: text,
  sku_id: num,
  shop_id: num,
  category_id: num,
  availability: text,
  click_url: text,
  /** The shop's own product identifier from its feed (a string: real values have leading zeros). */
  shop_uid: text,
  /** Shipping cost set by the shop, or null. */
  expenses: num,
  web_uri: text,
  /** Size mapping. */
  sizes: maybe(z.array(z.unknown())),
  price: num,
  immediate_pickup: bool,
  blp: maybe(Blp),
  /** In product cards. Shape from recorded answers; the spec does not show it. */
  color: text,
});
export type Product = z.infer<typeof Product>;

/** The address used to compute shipping and payment costs. */
export const Personalization = record({
  location: maybe(
    record({
      /** A user address id; null for a quick (typed-in) address. */
      address_id: num,
      label: text,
      lat: text,
      lng: text,
      /** e.g. `address`, `quick_address`. */
      type: text,
      country_code: text,
    }),
  ),
  payment_method: maybe(record({ /** e.g. `spot_cash`. */ type: text })),
});
export type Personalization = z.infer<typeof Personalization>;

export const PricePoint = record({ date: text, price: num });
export type PricePoint = z.infer<typeof PricePoint>;

/** The last 6 months; no data for too new SKUs. */
export const PriceHistory = record({
  average: maybe(z.array(PricePoint)),
  lowest: maybe(z.array(record({ date: text, price: num, shop_name: text }))),
});
export type PriceHistory = z.infer<typeof PriceHistory>;

/** One shop's offers of a SKU. Shape from recorded answers; the spec does not show it. */
export const ProductCard = record({
  products: maybe(z.array(Product)),
  shop: maybe(Shop),
  blp: maybe(Blp),
});
export type ProductCard = z.infer<typeof ProductCard>;

/** An entry of `product_cards`: a group of cards. Shape from recorded answers; the spec does not show it. */
export const ProductCardGroup = record({ cards: maybe(z.array(ProductCard)) });
export type ProductCardGroup = z.infer<typeof ProductCardGroup>;

/** `meta` of a SKU's products and product cards. Shape from recorded answers; the spec does not show it. */
export const ProductsMeta = record({
  pagination: maybe(Pagination),
  /** e.g. `net_price`. */
  ordered_by: text,
  personalization: maybe(Personalization),
});
export type ProductsMeta = z.infer<typeof ProductsMeta>;

/** `GET /skus/:id`. Shape from recorded answers; the spec does not show it. */
export const SkuAnswer = single('sku', Sku);
export type SkuAnswer = z.infer<typeof SkuAnswer>;

/**
 * `GET /categories/:category_id/skus`, `GET /manufacturers/:id/skus`, and
 * `GET /skus/:id/similar` (shape from recorded answers).
 */
export const SkusPage = listPage('skus', Sku, ListMeta);
export type SkusPage = z.infer<typeof SkusPage>;

/** `GET /skus/:id/specifications` (`groups` with `include=group`). */
export const SkuSpecificationsAnswer = record({
  specifications: z.array(Specification),
  groups: maybe(z.array(SpecificationGroup)),
  meta: maybe(record({ /** The SKU's full description, when it has one. */ full_description: text })),
});
export type SkuSpecificationsAnswer = z.infer<typeof SkuSpecificationsAnswer>;

/** `GET /skus/:id/price_history`. */
export const PriceHistoryAnswer = single('history', PriceHistory);
export type PriceHistoryAnswer = z.infer<typeof PriceHistoryAnswer>;

/** `GET /products/:id`. */
export const ProductAnswer = record({
  product: Product,
  meta: maybe(record({ personalization: maybe(Personalization) })),
});
export type ProductAnswer = z.infer<typeof ProductAnswer>;

/**
 * `GET /skus/:id/products` (shape from recorded answers) and
 * `GET /shops/:shop_id/products/search`.
 */
export const ProductsPage = listPage('products', Product, ProductsMeta);
export type ProductsPage = z.infer<typeof ProductsPage>;

/** `GET /skus/:id/product_cards`. Shape from recorded answers; the spec does not show it. */
export const ProductCardsPage = listPage('product_cards', ProductCardGroup, ProductsMeta);
export type ProductCardsPage = z.infer<typeof ProductCardsPage>;

/** `GET /personalization`, `PUT /personalization`. */
export const PersonalizationAnswer = single('personalization', Personalization);
export type PersonalizationAnswer = z.infer<typeof PersonalizationAnswer>;
