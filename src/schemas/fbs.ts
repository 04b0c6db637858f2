/**
 * FBS (fulfilled by the marketplace) wire shapes, the FBS API documentation: the warehouse's stock,
 * purchase orders that bring stock in, and the shop's suppliers. Answers are tolerant
 * (typed from the recordings); requests are strict and checked before sending.
 */
import * as z from 'zod/mini';
import { isCalendarDate } from '../core/calendar-date.js';
import { bool, listPage, num, PageMeta, strict, text } from './catalog/base.js';
import { answer, expected, flag, type Infer, integer, lazy, maybe, nonEmptyString, type Schema } from './common.js';

/** The recordings send numbers where the documentation says identifier: both pass. */
const identifier = maybe(z.union([z.string(), z.number()]));

const fbsProductShape = () => ({
  id: identifier,
  /** The shop's own product id: a purchase order's `product_uid`. */
  shop_uid: text,
  active: bool,
  /** Units in the warehouse. */
  quantity: num,
});
/** One product in the warehouse: `GET /merchants/ecommerce/fbs/products`. */
export interface FbsProduct extends Infer<typeof fbsProductShape> {}
export const FbsProduct: Schema<FbsProduct> = /* @__PURE__ */ answer(fbsProductShape);
export const FbsProductsPage = /* @__PURE__ */ listPage('products', FbsProduct);

const purchaseOrderShape = () => ({
  /** `YYMMDD-NNNN-NNNN`; required, as `lineItems` needs it. */
  code: z.string(),
  /** When the warehouse received it (`YYYY-MM-DDTHH:MM:SS+HH:MM`); null until then. */
  received_at: text,
  created_at: text,
  /** `YYYY-MM-DD`. */
  expected_date: text,
});
/** A purchase order: stock the shop sends to the warehouse. */
export interface PurchaseOrder extends Infer<typeof purchaseOrderShape> {}
export const PurchaseOrder: Schema<PurchaseOrder> = /* @__PURE__ */ answer(purchaseOrderShape);
export const PurchaseOrdersPage = /* @__PURE__ */ listPage('purchase_orders', PurchaseOrder);

const purchaseOrderLineItemShape = () => ({
  product_id: identifier,
  shop_uid: text,
  active: bool,
  expected_quantity: num,
  /** Counted on receipt; null until then. */
  actual_quantity: num,
});
/** One line of a purchase order: what was expected and what the warehouse counted. */
export interface PurchaseOrderLineItem extends Infer<typeof purchaseOrderLineItemShape> {}
export const PurchaseOrderLineItem: Schema<PurchaseOrderLineItem> = /* @__PURE__ */ answer(purchaseOrderLineItemShape);

/** The line items' answer: the recording's root key is `purchase_order_line_items`, the documentation's table says `line_items`. */
export const PurchaseOrderLineItemsAnswer = /* @__PURE__ */ answer(() => ({
  purchase_order_line_items: maybe(z.array(PurchaseOrderLineItem)),
  line_items: maybe(z.array(PurchaseOrderLineItem)),
  meta: maybe(PageMeta),
}));

const purchaseOrderCreatedShape = () => ({
  success: bool,
  /**
   * The new purchase order's code. Answers documented from 2022-09 to 2024-09 carry only
   * `{ success: true }`: the purchase order was made all the same (the call resolves and the
   * missing code is reported as drift); find it with `purchaseOrders.list()` rather than
   * creating it again.
   */
  code: expected(z.string()),
});
/** The answer to a created purchase order: `{ success: true, code }`. */
export interface PurchaseOrderCreated extends Infer<typeof purchaseOrderCreatedShape> {}
export const PurchaseOrderCreated: Schema<PurchaseOrderCreated> = /* @__PURE__ */ answer(purchaseOrderCreatedShape);

const supplierFields = () => ({
  code: text,
  name: text,
  address: text,
  city: text,
  area: text,
  zip_code: text,
  phone: text,
  tax_number: text,
  email: text,
});
const supplierShape = () => ({ id: z.string(), ...supplierFields() });
/** A supplier of the shop; `id` is required, as `suppliers.update` needs it. */
export interface Supplier extends Infer<typeof supplierShape> {}
export const Supplier: Schema<Supplier> = /* @__PURE__ */ answer(supplierShape);
export const SuppliersPage = /* @__PURE__ */ listPage('suppliers', Supplier);

const supplierAnswerShape = () => ({ success: bool, id: text, ...supplierFields() });
/** What creating or changing a supplier answers: the recordings show `{ success: true }`, the documentation the supplier. */
export interface SupplierAnswer extends Infer<typeof supplierAnswerShape> {}
export const SupplierAnswer: Schema<SupplierAnswer> = /* @__PURE__ */ answer(supplierAnswerShape);

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------


/** How the warehouse keeps the product: 0 dry, 1 air-conditioned, 2 refrigerated, 3 frozen. */
export type StorageCondition = 0 | 1 | 2 | 3;

export const PurchaseOrderLineInput = /* @__PURE__ */ lazy(() =>
  strict({
    /** The shop's product id (`shop_uid` in stock listings). */
    product_uid: nonEmptyString(),
    expected_quantity: integer(1),
    keep_serial_numbers: flag(),
    has_expiration_date: flag(),
    /** 0 dry, 1 air-conditioned, 2 refrigerated, 3 frozen. */
    storage_conditions: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
      error: 'expected 0 (dry), 1 (air-conditioned), 2 (refrigerated) or 3 (frozen)',
    }),
  }),
);
/** One line of `purchaseOrders.create`. */
export interface PurchaseOrderLineInput extends z.input<typeof PurchaseOrderLineInput> {}

export const PurchaseOrderInput = /* @__PURE__ */ lazy(() =>
  strict({
    /** The day the stock reaches the warehouse: a real `YYYY-MM-DD` date. */
    expected_date: z.string({ error: 'expected a date YYYY-MM-DD' }).check(z.refine(isCalendarDate, 'expected a real calendar date YYYY-MM-DD')),
    /** A supplier's `id`. */
    supplier_id: nonEmptyString(),
    /** The products expected, at least one. */
    line_items: z.array(PurchaseOrderLineInput).check(z.minLength(1, 'must list at least one line item')),
  }),
);
/** `purchaseOrders.create`'s body. */
export interface PurchaseOrderInput extends z.input<typeof PurchaseOrderInput> {}

const supplierInput = () => ({
  /** The supplier's code. */
  code: z.optional(nonEmptyString()),
  /** Street and number. */
  address: z.optional(nonEmptyString()),
  /** City. */
  city: z.optional(nonEmptyString()),
  /** Area or region. */
  area: z.optional(nonEmptyString()),
  /** Postal code. */
  zip_code: z.optional(nonEmptyString()),
  /** Phone number. */
  phone: z.optional(nonEmptyString()),
  /** Tax registration number (VAT number). */
  tax_number: z.optional(nonEmptyString()),
  /** E-mail address for purchase orders. */
  email: z.optional(nonEmptyString()),
});

export const SupplierInput = /* @__PURE__ */ lazy(() =>
  strict({
    /** The supplier's id. */
    id: z.optional(nonEmptyString()),
    /** The supplier's name. */
    name: nonEmptyString(),
    ...supplierInput(),
  }),
);
/** `suppliers.create`'s body: a name, and any other field as a non-empty string. */
export interface SupplierInput extends z.input<typeof SupplierInput> {}

export const SupplierChanges = /* @__PURE__ */ lazy(() =>
  strict({
    /** The supplier's name. */
    name: z.optional(nonEmptyString()),
    ...supplierInput(),
  }).check(
    z.refine((changes) => Object.values(changes).some((value) => value !== undefined), 'must change at least one field'),
  ),
);
/** `suppliers.update`'s changes: only the fields to change, at least one. */
export interface SupplierChanges extends z.input<typeof SupplierChanges> {}

export const FbsListParams = /* @__PURE__ */ lazy(() => strict({ page: z.optional(integer(1)), per: z.optional(integer(1)) }));
/** Paging of FBS lists: `page` (1-based) and `per`. */
export interface FbsListParams extends z.input<typeof FbsListParams> {}
