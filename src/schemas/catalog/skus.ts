/** SKUs, products (shop offers), personalization and price history (the Catalog API documentation). */
import * as z from 'zod/mini';
import { answer, type Infer, maybe, record, type Schema } from '../common.js';
import { bool, id, listPage, num, Pagination, single, text, texts } from './base.js';
import { ListMeta, Specification, SpecificationGroup } from './categories.js';
import { Shop } from './shops.js';

const imagesShape = () => ({
  main: text,
  alternatives: texts,
});
export interface Images extends Infer<typeof imagesShape> {}
export const Images: Schema<Images> = /* @__PURE__ */ answer(imagesShape);

const skuShape = () => ({
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
  /** Shape from recorded answers; the documentation does not show it. */
  ecommerce_available: bool,
  /** Truncated; the full text is in the specifications' `meta.full_description`. */
  description: text,
});
export interface Sku extends Infer<typeof skuShape> {}
export const Sku: Schema<Sku> = /* @__PURE__ */ answer(skuShape);

const blpShape = () => ({
  shipping_cost: num,
  payment_method_cost: num,
  final_price: num,
});
/** Costs computed from the personalization (the user's address and payment method). */
export interface Blp extends Infer<typeof blpShape> {}
export const Blp: Schema<Blp> = /* @__PURE__ */ answer(blpShape);

const productShape = () => ({
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
  /** In product cards. Shape from recorded answers; the documentation does not show it. */
  color: text,
});
export interface Product extends Infer<typeof productShape> {}
export const Product: Schema<Product> = /* @__PURE__ */ answer(productShape);

const personalizationShape = () => ({
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
/** The address used to compute shipping and payment costs. */
export interface Personalization extends Infer<typeof personalizationShape> {}
export const Personalization: Schema<Personalization> = /* @__PURE__ */ answer(personalizationShape);

const pricePointShape = () => ({ date: text, price: num });
export interface PricePoint extends Infer<typeof pricePointShape> {}
export const PricePoint: Schema<PricePoint> = /* @__PURE__ */ answer(pricePointShape);

const priceHistoryShape = () => ({
  average: maybe(z.array(PricePoint)),
  lowest: maybe(z.array(record({ date: text, price: num, shop_name: text }))),
});
/** The last 6 months; no data for too new SKUs. */
export interface PriceHistory extends Infer<typeof priceHistoryShape> {}
export const PriceHistory: Schema<PriceHistory> = /* @__PURE__ */ answer(priceHistoryShape);

const productCardShape = () => ({
  products: maybe(z.array(Product)),
  shop: maybe(Shop),
  blp: maybe(Blp),
});
/** One shop's offers of a SKU. Shape from recorded answers; the documentation does not show it. */
export interface ProductCard extends Infer<typeof productCardShape> {}
export const ProductCard: Schema<ProductCard> = /* @__PURE__ */ answer(productCardShape);

const productCardGroupShape = () => ({ cards: maybe(z.array(ProductCard)) });
/** An entry of `product_cards`: a group of cards. Shape from recorded answers; the documentation does not show it. */
export interface ProductCardGroup extends Infer<typeof productCardGroupShape> {}
export const ProductCardGroup: Schema<ProductCardGroup> = /* @__PURE__ */ answer(productCardGroupShape);

const productsMetaShape = () => ({
  pagination: maybe(Pagination),
  /** e.g. `net_price`. */
  ordered_by: text,
  personalization: maybe(Personalization),
});
/** `meta` of a SKU's products and product cards. Shape from recorded answers; the documentation does not show it. */
export interface ProductsMeta extends Infer<typeof productsMetaShape> {}
export const ProductsMeta: Schema<ProductsMeta> = /* @__PURE__ */ answer(productsMetaShape);

/** `GET /skus/:id`. Shape from recorded answers; the documentation does not show it. */
export const SkuAnswer = /* @__PURE__ */ single('sku', Sku);
export interface SkuAnswer extends z.output<typeof SkuAnswer> {}

/**
 * `GET /categories/:category_id/skus`, `GET /manufacturers/:id/skus`, and
 * `GET /skus/:id/similar` (shape from recorded answers).
 */
export const SkusPage = /* @__PURE__ */ listPage('skus', Sku, ListMeta);
export interface SkusPage extends z.output<typeof SkusPage> {}

const skuSpecificationsAnswerShape = () => ({
  specifications: z.array(Specification),
  groups: maybe(z.array(SpecificationGroup)),
  meta: maybe(record({ /** The SKU's full description, when it has one. */ full_description: text })),
});
/** `GET /skus/:id/specifications` (`groups` with `include=group`). */
export interface SkuSpecificationsAnswer extends Infer<typeof skuSpecificationsAnswerShape> {}
export const SkuSpecificationsAnswer: Schema<SkuSpecificationsAnswer> = /* @__PURE__ */ answer(skuSpecificationsAnswerShape);

/** `GET /skus/:id/price_history`. */
export const PriceHistoryAnswer = /* @__PURE__ */ single('history', PriceHistory);
export interface PriceHistoryAnswer extends z.output<typeof PriceHistoryAnswer> {}

const productAnswerShape = () => ({
  product: Product,
  meta: maybe(record({ personalization: maybe(Personalization) })),
});
/** `GET /products/:id`. */
export interface ProductAnswer extends Infer<typeof productAnswerShape> {}
export const ProductAnswer: Schema<ProductAnswer> = /* @__PURE__ */ answer(productAnswerShape);

/**
 * `GET /skus/:id/products` (shape from recorded answers) and
 * `GET /shops/:shop_id/products/search`.
 */
export const ProductsPage = /* @__PURE__ */ listPage('products', Product, ProductsMeta);
export interface ProductsPage extends z.output<typeof ProductsPage> {}

/** `GET /skus/:id/product_cards`. Shape from recorded answers; the documentation does not show it. */
export const ProductCardsPage = /* @__PURE__ */ listPage('product_cards', ProductCardGroup, ProductsMeta);
export interface ProductCardsPage extends z.output<typeof ProductCardsPage> {}

/** `GET /personalization`, `PUT /personalization`. */
export const PersonalizationAnswer = /* @__PURE__ */ single('personalization', Personalization);
export interface PersonalizationAnswer extends z.output<typeof PersonalizationAnswer> {}
