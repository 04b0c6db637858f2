/**
 * FBS (fulfilled by the marketplace) wire shapes, spec/4 section 6: the warehouse's stock,
 * purchase orders that bring stock in, and the shop's suppliers. Answers are tolerant
 * (typed from the recordings); requests are strict and checked before sending.
 */
import * as z from 'zod/mini';
import { isCalendarDate } from '../core/calendar-date.js';
import { maybe, record } from './common.js';
import { PageMeta } from './catalog/base.js';

const text = maybe(z.string());
const num = maybe(z.number());
const bool = maybe(z.boolean());
/** The recordings send numbers where the spec says identifier: both pass. */
const identifier = maybe(z.union([z.string(), z.number()]));

/** One product in the warehouse: `GET /merchants/ecommerce/fbs/products`. */
export const FbsProduct = record({
  id: identifier,
  /** The shop's own product id: a purchase order's `product_uid`. */
  shop_uid: text,
  active: bool,
  /** Units in the warehouse. */
  quantity: num,
});
export type FbsProduct = z.infer<typeof FbsProduct>;

export const FbsProductsPage = record({ products: z.array(FbsProduct), meta: maybe(PageMeta) });

/** A purchase order: stock the shop sends to the warehouse. */
export const PurchaseOrder = record({
  /** `YYMMDD-NNNN-NNNN`; required, as `lineItems` needs it. */
  code: z.string(),
  /** When the warehouse received it (`YYYY-MM-DDTHH:MM:SS+HH:MM`); null until then. */
  received_at: text,
  created_at: text,
  /** `YYYY-MM-DD`. */
  expected_date: text,
});
export type PurchaseOrder = z.infer<typeof PurchaseOrder>;

export const PurchaseOrdersPage = record({ purchase_orders: z.array(PurchaseOrder), meta: maybe(PageMeta) });

/** One line of a purchase order: what was expected and what the warehouse counted. */
export const PurchaseOrderLineItem = record({
  product_id: identifier,
  shop_uid: text,
  active: bool,
  expected_quantity: num,
  /** Counted on receipt. */
  actual_quantity: num,
});
export type PurchaseOrderLineItem = z.infer<typeof PurchaseOrderLineItem>;

/** The line items' answer: the recording's root key is `purchase_order_line_items`, the spec's table says `line_items`. */
export const PurchaseOrderLineItemsAnswer = record({
  purchase_order_line_items: maybe(z.array(PurchaseOrderLineItem)),
  line_items: maybe(z.array(PurchaseOrderLineItem)),
  meta: maybe(PageMeta),
});

/** The answer to a created purchase order: `{ success: true, code }`. */
export const PurchaseOrderCreated = record({ success: bool, code: z.string() });
export type PurchaseOrderCreated = z.infer<typeof PurchaseOrderCreated>;

const supplierFields = {
  code: text,
  name: text,
  address: text,
  city: text,
  area: text,
  zip_code: text,
  phone: text,
  tax_number: text,
  email: text,
};

/** A supplier of the shop; `id` is required, as `suppliers.update` needs it. */
export const Supplier = record({ id: z.string(), ...supplierFields });
export type Supplier = z.infer<typeof Supplier>;

export const SuppliersPage = record({ suppliers: z.array(Supplier), meta: maybe(PageMeta) });

/** What creating or changing a supplier answers: the recordings show `{ success: true }`, the spec the supplier. */
export const SupplierAnswer = record({ success: bool, id: text, ...supplierFields });
export type SupplierAnswer = z.infer<typeof SupplierAnswer>;

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

const strictObject = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field: ${issue.keys.join(', ')}` : 'expected an object'),
  });
const nonEmpty = z.string({ error: 'expected a non-empty string' }).check(z.minLength(1, 'expected a non-empty string'));
const positiveInt = z.int({ error: 'expected a positive integer' }).check(z.positive('expected a positive integer'));

/** A real calendar date `YYYY-MM-DD` (2023-02-30 is refused). */
const calendarDate = z
  .string({ error: 'expected a date YYYY-MM-DD' })
  .check(z.refine(isCalendarDate, 'expected a real calendar date YYYY-MM-DD'));

/** How the warehouse keeps the product: 0 dry, 1 air-conditioned, 2 refrigerated, 3 frozen. */
export type StorageCondition = 0 | 1 | 2 | 3;

export const PurchaseOrderLineInput = strictObject({
  /** The shop's product id (`shop_uid` in stock listings). */
  product_uid: nonEmpty,
  expected_quantity: positiveInt,
  keep_serial_numbers: z.boolean({ error: 'expected a boolean' }),
  has_expiration_date: z.boolean({ error: 'expected a boolean' }),
  /** 0 dry, 1 air-conditioned, 2 refrigerated, 3 frozen. */
  storage_conditions: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
    error: 'expected 0 (dry), 1 (air-conditioned), 2 (refrigerated) or 3 (frozen)',
  }),
});
export type PurchaseOrderLineInput = z.input<typeof PurchaseOrderLineInput>;

/** `purchaseOrders.create`'s body. */
export const PurchaseOrderInput = strictObject({
  /** The day the stock reaches the warehouse: `YYYY-MM-DD`. */
  expected_date: calendarDate,
  /** A supplier's `id`. */
  supplier_id: nonEmpty,
  line_items: z.array(PurchaseOrderLineInput).check(z.minLength(1, 'must list at least one line item')),
});
export type PurchaseOrderInput = z.input<typeof PurchaseOrderInput>;

const supplierInput = {
  code: z.optional(nonEmpty),
  address: z.optional(nonEmpty),
  city: z.optional(nonEmpty),
  area: z.optional(nonEmpty),
  zip_code: z.optional(nonEmpty),
  phone: z.optional(nonEmpty),
  tax_number: z.optional(nonEmpty),
  email: z.optional(nonEmpty),
};

/** `suppliers.create`'s body: a name, and any other field as a non-empty string. */
export const SupplierInput = strictObject({ id: z.optional(nonEmpty), name: nonEmpty, ...supplierInput });
export type SupplierInput = z.input<typeof SupplierInput>;

/** `suppliers.update`'s changes: only the fields to change, at least one. */
export const SupplierChanges = strictObject({ name: z.optional(nonEmpty), ...supplierInput }).check(
  z.refine((changes) => Object.keys(changes).length > 0, 'must change at least one field'),
);
export type SupplierChanges = z.input<typeof SupplierChanges>;

/** Paging of FBS lists. */
export const FbsListParams = strictObject({ page: z.optional(positiveInt), per: z.optional(positiveInt) });
export type FbsListParams = z.input<typeof FbsListParams>;
