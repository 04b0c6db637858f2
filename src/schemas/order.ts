/**
 * Orders API wire shapes (the merchant API documentation): the order answer (also the `order` of webhook
 * events) and the request bodies of the order actions.
 *
 * Answers are tolerant: only `code` is required, every other field may be absent or
 * null, objects keep unknown fields, enums accept values added later.
 * Requests are strict objects: a misspelt key is refused before anything is sent.
 */
import * as z from 'zod/mini';
import { answer, type Infer, integer, lazy, maybe, nonEmptyString, openEnum, record, type Schema } from './common.js';

// ---------------------------------------------------------------------------
// Known enum values (open: other strings pass through)
// ---------------------------------------------------------------------------

/** The eleven order states of the merchant API documentation. */
export const ORDER_STATES = [
  'open',
  'accepted',
  'rejected',
  'cancelled',
  'expired',
  'dispatched',
  'delivered',
  'partially_returned',
  'returned',
  'for_return',
  'partially_delivered',
] as const;
export type OrderState = (typeof ORDER_STATES)[number] | (string & {});

const INVOICE_DOCUMENTS = ['receipt', 'invoice', 'invoice_39a', 'invoice_vies'] as const;
/**
 * Couriers named today (the order documentation's history); the real service spells its own as `<Vendor> Last
 * Mile`. Older lists add `SendX` and `COURIER CENTER`; recordings show `CourierCenter`.
 */
const COURIERS = [
  'Marketplace Last Mile',
  'ACS',
  'Speedex',
  'Elta',
  'EasyMail',
  'DHL',
  'Dpd',
  'Diakinisis',
  'Delatolas',
  'OB Streem',
  'Beinoglou',
  'Geniki Taxydromiki',
  'SendX',
  'COURIER CENTER',
  'CourierCenter',
] as const;
/** Courier names. `Marketplace Last Mile` is the marketplace's own (the real service writes `<Vendor> Last Mile`); `OB Streem` was `Beinoglou`. Others may come. */
export type Courier = (typeof COURIERS)[number] | (string & {});
const PAYMENT_METHODS = ['card', 'cash_on_delivery', 'loan', 'bank_transfer', 'iris', 'wallet', 'edenred', 'revolut'] as const;
/** How the customer paid. Others may come. */
export type PaymentMethod = (typeof PAYMENT_METHODS)[number] | (string & {});
/** Couriers `sendTrackingDetails` knows by name (the order documentation's history); others may come. */
const TRACKING_COURIERS = ['acs', 'dhl', 'geniki_taxydromiki', 'dpd', 'gls'] as const;
/** A courier of `sendTrackingDetails`. Others may come. */
export type TrackingCourier = (typeof TRACKING_COURIERS)[number] | (string & {});
/**
 * Line item tags: `plus_deal`, `coupon_deal`, `two_plus_deal`, `coupons`, `price_optimizer`,
 * `cc_installments`. Others may come.
 */
const LINE_ITEM_TAGS = ['plus_deal', 'coupon_deal', 'two_plus_deal', 'coupons', 'price_optimizer', 'cc_installments'] as const;
export type LineItemTag = (typeof LINE_ITEM_TAGS)[number] | (string & {});
const CUSTOM_TAGS = ['GIFT-WRAP', 'RETURN-FROM-SERVICE', 'RETURN-AS-IS'] as const;
// The known values above serve the types only (openEnum accepts any string), so the calls below
// pass an empty list: the bundles do not carry the names.
/** Why a line item was rejected. */
const LINE_ITEM_REJECTION_REASONS = ['limited_stock', 'no_stock', 'discontinuation', 'wrong_price', 'content_mistake'] as const;
/** Why a line item was returned. */
const LINE_ITEM_RETURN_REASONS = ['faulty', 'wrong_product', 'withdrawal', 'wrong_size'] as const;
const REJECTION_ACTORS = ['marketplace', 'merchant'] as const;
const REPLACEMENT_TYPES = ['from_service', 'as_is_return'] as const;
const VAT_EXCLUSION_METHODS = ['service', 'documents'] as const;
const FULFILLMENT_MODES = ['core'] as const;

/**
 * Identity document types of a VAT-exclusion representative, as issued by the tax
 * authority: `id` is the authority's number, `value` the text that `id_type` carries.
 */
export const ID_TYPES = [
  { id: 1, value: 'ΑΤ Αστυνομική Ταυτότητα' },
  { id: 2, value: 'ΕΣ Ελληνικός Στρατός' },
  { id: 3, value: 'ΠΝ Πολεμικό Ναυτικό' },
  { id: 4, value: 'ΠΑ Πολεμική Αεροπορία' },
  { id: 5, value: 'ΕΑ Ελληνική Αστυνομία' },
  { id: 6, value: 'ΛΣ Λιμενικό Σώμα' },
  { id: 7, value: 'ΠΣ Πυροσβεστικό Σώμα' },
  { id: 8, value: 'Διαβατήριο' },
  { id: 9, value: 'ΚΑ Κέντρο Αλλοδαπών' },
  { id: 11, value: 'Εντολέας ΦΠ' },
  { id: 12, value: 'ΚΠ Κάρτα Παραμονής Περιορισμένης Χρονικής Διάρκειας' },
  { id: 13, value: 'Ταυτότητα Ευρωπαϊκής Ένωσης' },
  { id: 14, value: 'Ταυτότητα Ανιθαγενή (Ν.139/1975)' },
  { id: 15, value: 'Ταυτότητα Ομογενούς' },
  { id: 16, value: 'Αριθμός Κοινωνικής Ασφάλισης Η.Π.Α.' },
  { id: 17, value: 'ΕΔΤ Πολιτικού Πρόσφυγα Υπό Αναγνώριση' },
  { id: 18, value: 'Ειδικό Δελτίο Πολιτικού Φυγάδα' },
  { id: 19, value: 'Άδεια Παραμονής Πρόσφυγα Ατελώς' },
  { id: 20, value: 'Ειδικό Δελτίο Πρόσφυγα Ανθρωπιστικού Καθεστώτος' },
  { id: 22, value: 'Πιστοποιητικό γέννησης αλλοδαπού' },
  // The spec's own spelling ("Ευωπαϊκής") is kept: the value must match the wire text.
  { id: 23, value: 'Ταυτότητα Χώρας Εκτός Ευωπαϊκής Ένωσης' },
  { id: 24, value: 'ΑΓ Ελληνική Αγροφυλακή' },
  { id: 25, value: 'Δελτίο Αιτούντος Διεθνή Προστασία' },
  { id: 26, value: 'Άδεια Διαμονής Υπηκόου Τρίτης Χώρας Χωρίς Διαβατήριο' },
  { id: 27, value: 'Άδεια Διαμονής/Δικαιούχος Διεθνούς Προστασίας' },
] as const;
type IdTypeValue = (typeof ID_TYPES)[number]['value'];

// ---------------------------------------------------------------------------
// Answer shapes
// ---------------------------------------------------------------------------

const customerAddressShape = () => ({
  /** Street name. */
  street_name: maybe(z.string()),
  /** Street number, a string. */
  street_number: maybe(z.string()),
  /** Floor, free text such as `1ος όροφος`; `''` when the parcel goes to a collection point. */
  floor: maybe(z.string()),
  /** Postal code, a string. */
  zip: maybe(z.string()),
  /** City. */
  city: maybe(z.string()),
  /** Region. */
  region: maybe(z.string()),
  /** Country code (the documentation gives no format). */
  country_code: maybe(z.string()),
  /** True when the customer collects the parcel at a collection point. */
  pickup_from_collection_point: maybe(z.boolean()),
  /** Address of the collection point, when the address is one. */
  collection_point_address: maybe(z.string()),
  /** The customer's comments on the address. */
  comments: maybe(z.string()),
});
/** The customer's delivery address. */
export interface CustomerAddress extends Infer<typeof customerAddressShape> {}
export const CustomerAddress: Schema<CustomerAddress> = /* @__PURE__ */ answer(customerAddressShape);

const customerShape = () => ({
  /** Unique customer id. */
  id: maybe(z.string()),
  /** The customer's first name. */
  first_name: maybe(z.string()),
  /** The customer's last name. */
  last_name: maybe(z.string()),
  /** Only for merchant-fulfilled (FBM) orders or orders with an invoice. */
  phone: maybe(z.string()),
  /** Only for merchant-fulfilled (FBM) orders or orders with an invoice. */
  mobile: maybe(z.string()),
  /** The customer subscribes to the marketplace's loyalty subscription. */
  marketplace_plus_user: maybe(z.boolean()),
  /** The customer's address, with the collection-point fields: see {@link CustomerAddress}. */
  address: maybe(CustomerAddress),
});
export interface Customer extends Infer<typeof customerShape> {}
export const Customer: Schema<Customer> = /* @__PURE__ */ answer(customerShape);

const invoiceAddressShape = () => ({
  /** Billing street name. */
  street_name: maybe(z.string()),
  /** Billing street number, a string. */
  street_number: maybe(z.string()),
  /** Billing postal code, a string. */
  zip: maybe(z.string()),
  /** Billing city. */
  city: maybe(z.string()),
  /** Billing region. */
  region: maybe(z.string()),
});
/** Billing address of an invoice. */
export interface InvoiceAddress extends Infer<typeof invoiceAddressShape> {}
export const InvoiceAddress: Schema<InvoiceAddress> = /* @__PURE__ */ answer(invoiceAddressShape);

const vatExclusionRepresentativeShape = () => ({
  /** Identity document type: the value text of one of {@link ID_TYPES}. */
  // The values live in ID_TYPES; openEnum needs them for the type only, so the bundle does not carry them twice.
  id_type: maybe(openEnum<readonly IdTypeValue[]>([])),
  /** Last 5 digits of the identity document number. */
  id_number: maybe(z.string()),
  /** One-time password of the confirmation. */
  otp: maybe(z.string()),
  /** The representative's mobile number. */
  mobile: maybe(z.string()),
});
/** The person who confirmed a VAT exclusion through the tax authority's service. */
export interface VatExclusionRepresentative extends Infer<typeof vatExclusionRepresentativeShape> {}
export const VatExclusionRepresentative: Schema<VatExclusionRepresentative> = /* @__PURE__ */ answer(vatExclusionRepresentativeShape);

const invoiceDetailsShape = () => ({
  /** Company name. */
  company: maybe(z.string()),
  /** Profession. */
  profession: maybe(z.string()),
  /** VAT number. */
  vat_number: maybe(z.string()),
  /** Public economic service (tax office). */
  doy: maybe(z.string()),
  /** Billing address. */
  address: maybe(InvoiceAddress),
  /** VAT exclusion requested (article 39a service, or EU cross-border B2B exemption). */
  vat_exclusion_requested: maybe(z.boolean()),
  /** `service` or `documents`; present for 39a orders when exclusion is requested. */
  vat_exclusion_verification_method: maybe(openEnum(VAT_EXCLUSION_METHODS)),
  /** Document URLs; present when the method is `documents`. */
  vat_exclusion_documents: maybe(z.array(z.string())),
  /** Present when the method is `service`. */
  vat_exclusion_representative: maybe(VatExclusionRepresentative),
});
export interface InvoiceDetails extends Infer<typeof invoiceDetailsShape> {}
export const InvoiceDetails: Schema<InvoiceDetails> = /* @__PURE__ */ answer(invoiceDetailsShape);

const lineItemSizeShape = () => ({
  /** What the size measures, a Greek word such as Νούμερο, Μέγεθος, Ηλικία. */
  label: maybe(z.string()),
  /** The marketplace's value, e.g. `14 χρονών`. */
  value: maybe(z.string()),
  /** The merchant's own value, e.g. `12-14`. */
  shop_value: maybe(z.string()),
  /** The merchant's variation identifier. */
  shop_variation_uid: maybe(z.string()),
  /** The variation's EAN. */
  ean: maybe(z.string()),
  /** The variation's MPN. */
  mpn: maybe(z.string()),
});
/** A line item's size (since 2019-10-31). */
export interface LineItemSize extends Infer<typeof lineItemSizeShape> {}
export const LineItemSize: Schema<LineItemSize> = /* @__PURE__ */ answer(lineItemSizeShape);

const orderReturnShape = () => ({
  /** The return's id. */
  return_uuid: maybe(z.string()),
  /** Tracking ids of the returned parcels. */
  tracking_ids: maybe(z.array(z.string())),
});
/** A return of some of the order's items (since 2026-04-01). */
export interface OrderReturn extends Infer<typeof orderReturnShape> {}
export const OrderReturn: Schema<OrderReturn> = /* @__PURE__ */ answer(orderReturnShape);

const lineItemShape = () => ({
  /** Unique line item id (what `reject` takes). */
  id: maybe(z.string()),
  /** The merchant's product identifier; a string (real values have leading zeros). */
  shop_uid: maybe(z.string()),
  /** Product name (the documentation gives line item fields a name and type only). */
  product_name: maybe(z.string()),
  /** Quantity, an integer per the documentation. */
  quantity: maybe(z.number()),
  /** Euros. */
  unit_price: maybe(z.number()),
  /** Euros. */
  total_price: maybe(z.number()),
  /** Price includes VAT (name and type only in the documentation). */
  price_includes_vat: maybe(z.boolean()),
  /** Island VAT discount applied (name and type only in the documentation). */
  island_vat_discount_applied: maybe(z.boolean()),
  /** The product's EAN; optional. */
  ean: maybe(z.string()),
  /** The product's MPN; optional. */
  mpn: maybe(z.string()),
  /** Serial numbers, a string (documented as one; null in older payloads). */
  serial_numbers: maybe(z.string()),
  /** Commission, euros. */
  commission: maybe(z.number()),
  /** Commission rate, percent. */
  commission_rate: maybe(z.number()),
  /** Multi-line text with the options the customer chose. */
  extra_info: maybe(z.string()),
  /**
   * Line item tags: `plus_deal`, `coupon_deal`, `two_plus_deal`, `coupons`, `price_optimizer`,
   * `cc_installments`; others may come.
   */
  tags: maybe(z.array(openEnum<readonly (typeof LINE_ITEM_TAGS)[number][]>([]))),
  /** The merchant's variation identifier (since 2022-07-19). */
  shop_variation_uid: maybe(z.string()),
  /** The size the customer chose: see {@link LineItemSize}. */
  size: maybe(LineItemSize),
  /** Why the line item was rejected: `limited_stock`, `no_stock`, `discontinuation`, `wrong_price`, `content_mistake`. */
  rejection_reason: maybe(openEnum<readonly (typeof LINE_ITEM_REJECTION_REASONS)[number][]>([])),
  /** Why the line item was returned: `faulty`, `wrong_product`, `withdrawal`, `wrong_size`. */
  return_reason: maybe(openEnum<readonly (typeof LINE_ITEM_RETURN_REASONS)[number][]>([])),
  /** The VAT was readjusted for this line item (since 2024-10-03; the type is not documented). */
  readjusted_vat: maybe(z.boolean()),
  /** The VAT ratio applied (since 2024-10-03; the type is not documented). */
  vat_ratio: maybe(z.number()),
});
export interface LineItem extends Infer<typeof lineItemShape> {}
export const LineItem: Schema<LineItem> = /* @__PURE__ */ answer(lineItemShape);

/* @__NO_SIDE_EFFECTS__ */
function Choice<T extends z.ZodMiniType>(id: T) {
  return record({
    /** Option id: pass it to `accept` (a string for pickup locations, an integer for pickup windows). */
    id: maybe(id),
    /** The option's label. */
    label: maybe(z.string())
  });
}

const acceptOptionsShape = () => ({
  /** Allowed parcel counts. */
  number_of_parcels: maybe(z.array(z.number())),
  /** Pickup locations: pass an `id` as `pickup_location`. */
  pickup_location: maybe(z.array(Choice(z.string()))),
  /** Pickup windows: pass an `id` as `pickup_window`. */
  pickup_window: maybe(z.array(Choice(z.number()))),
});
/** What `accept` may be called with; present while the order is open. */
export interface AcceptOptions extends Infer<typeof acceptOptionsShape> {}
export const AcceptOptions: Schema<AcceptOptions> = /* @__PURE__ */ answer(acceptOptionsShape);

const lineItemRejectionReasonShape = () => ({
  /** Pass as `reason_id` when rejecting line items. */
  id: maybe(z.number()),
  /** The reason's label. */
  label: maybe(z.string()),
  /** When true, the rejection must carry `available_quantity`. */
  requires_available_quantity: maybe(z.boolean()),
});
export interface LineItemRejectionReason extends Infer<typeof lineItemRejectionReasonShape> {}
export const LineItemRejectionReason: Schema<LineItemRejectionReason> = /* @__PURE__ */ answer(lineItemRejectionReasonShape);

const rejectOptionsShape = () => ({
  /** Reasons a line item may be rejected with: `id`, `label`, `requires_available_quantity`. */
  line_item_rejection_reasons: maybe(z.array(LineItemRejectionReason)),
});
/** What `reject` may be called with; present while the order is open. */
export interface RejectOptions extends Infer<typeof rejectOptionsShape> {}
export const RejectOptions: Schema<RejectOptions> = /* @__PURE__ */ answer(rejectOptionsShape);

const rejectionInfoShape = () => ({
  /** The reason text. */
  reason: maybe(z.string()),
  /** Who rejected: `marketplace` or `merchant`. */
  actor: maybe(openEnum(REJECTION_ACTORS)),
});
/** Present for orders rejected with an other-reason. */
export interface RejectionInfo extends Infer<typeof rejectionInfoShape> {}
export const RejectionInfo: Schema<RejectionInfo> = /* @__PURE__ */ answer(rejectionInfoShape);

const feesShape = () => ({
  /** Handling fee, euros; present only when positive. */
  handling_fee: maybe(z.number()),
  /** Loyalty scheme fee. */
  marketplace_coins_fee: maybe(z.number()),
  /** Installments fee, euros; present only when positive. */
  installments_fee: maybe(z.number()),
  /** Warehouse (FBS) fee, euros (since 2026-04-16). */
  fbs_fee: maybe(z.number()),
  /** Fee for a loyalty-subscription customer's order, euros (since 2026-05-24). */
  plus_user_fee: maybe(z.number()),
});
/** Fees in euros; each present only when positive (`{}` when none apply). */
export interface Fees extends Infer<typeof feesShape> {}
export const Fees: Schema<Fees> = /* @__PURE__ */ answer(feesShape);

const replacementShape = () => ({
  /** Code of the replacement suborder. */
  code: maybe(z.string()),
  /** `from_service` or `as_is_return`; omitted for standard replacements. */
  type: maybe(openEnum(REPLACEMENT_TYPES)),
});
export interface Replacement extends Infer<typeof replacementShape> {}
export const Replacement: Schema<Replacement> = /* @__PURE__ */ answer(replacementShape);

const rescheduleOptionShape = () => ({
  /** The new pickup date, `YYYY-MM-DD`: pass it as `reschedule_date`. */
  date: maybe(z.string()),
  /** The date as the panel shows it, e.g. `Fri 25/09/26`. */
  label: maybe(z.string()),
});
/** A pickup date an accepted order may move to (`orders.get(code, { actionOptions: true })`). */
export interface RescheduleOption extends Infer<typeof rescheduleOptionShape> {}
export const RescheduleOption: Schema<RescheduleOption> = /* @__PURE__ */ answer(rescheduleOptionShape);

const relocateOptionShape = () => ({
  /** A pickup location id: pass it as `pickup_location`. */
  id: maybe(z.string()),
  /** The location's address. */
  label: maybe(z.string()),
});
/** Another pickup location an accepted order may move to (the current one is not listed). */
export interface RelocateOption extends Infer<typeof relocateOptionShape> {}
export const RelocateOption: Schema<RelocateOption> = /* @__PURE__ */ answer(relocateOptionShape);

const pickupWindowShape = () => ({
  /** Timestamp, ISO 8601 with offset. */
  from: maybe(z.string()),
  /** Timestamp, ISO 8601 with offset. */
  to: maybe(z.string()),
});
/** The selected pickup window. */
export interface PickupWindow extends Infer<typeof pickupWindowShape> {}
export const PickupWindow: Schema<PickupWindow> = /* @__PURE__ */ answer(pickupWindowShape);

const orderShape = () => ({
  /** Order code: six digits, hyphen, digits (sandbox codes such as `DEMO-OPEN` differ). The one required field. */
  code: z.string(),
  /** One of {@link ORDER_STATES}; other values pass through. */
  state: maybe(openEnum(ORDER_STATES)),
  /** The customer: see {@link Customer}. */
  customer: maybe(Customer),
  /** An invoice was requested. */
  invoice: maybe(z.boolean()),
  /** URL of the invoice or receipt file the merchant uploaded. */
  uploaded_invoice_file: maybe(z.string()),
  /** Present only when an invoice is requested. */
  invoice_details: maybe(InvoiceDetails),
  /** `receipt`, `invoice`, `invoice_39a` or `invoice_vies`; always present in webhook payloads. */
  invoice_document: maybe(openEnum(INVOICE_DOCUMENTS)),
  /** Order comments. */
  comments: maybe(z.string()),
  /**
   * Serving courier: `Marketplace Last Mile` (the marketplace's own last-mile courier; the real
   * service writes `<Vendor> Last Mile`), `ACS`, `Speedex`, `Elta`, `EasyMail`, `DHL`, `Dpd`,
   * `Diakinisis`, `Delatolas`, `OB Streem` (formerly `Beinoglou`), `Geniki Taxydromiki`; others may come.
   */
  courier: maybe(openEnum<readonly (typeof COURIERS)[number][]>([])),
  /** Voucher URL. */
  courier_voucher: maybe(z.string()),
  /** Courier tracking codes (no note in the documentation). */
  courier_tracking_codes: maybe(z.array(z.string())),
  /** The order's line items: see {@link LineItem}. */
  line_items: maybe(z.array(LineItem)),
  /** Creation time. */
  created_at: maybe(z.string()),
  /** Expiry time. */
  expires_at: maybe(z.string()),
  /** Latest dispatch time. */
  dispatch_until: maybe(z.string()),
  /** Express delivery order (cannot be accepted through the API). */
  express: maybe(z.boolean()),
  /** Gift wrap (no note in the documentation; compare the `GIFT-WRAP` tag of `custom`). */
  gift_wrap: maybe(z.boolean()),
  /** Present for orders rejected with an other-reason. */
  rejection_info: maybe(RejectionInfo),
  /** Present when the order can be accepted (state open). */
  accept_options: maybe(AcceptOptions),
  /** Present when the order can be rejected (state open). */
  reject_options: maybe(RejectOptions),
  /**
   * Pickup dates the order may move to (`reschedulePickup`); only with `get(code, { actionOptions: true })`,
   * `[]` when it cannot move. The list changes with time: read it right before rescheduling.
   */
  reschedule_options: maybe(z.array(RescheduleOption)),
  /**
   * Other pickup locations the order may move to (`relocatePickup`); only with
   * `get(code, { actionOptions: true })`, `[]` when it cannot move.
   */
  relocate_options: maybe(z.array(RelocateOption)),
  /** Fulfilled by the marketplace's warehouse (FBS). */
  fulfilled_by_marketplace: maybe(z.boolean()),
  /** Warehouse delivery note (FBS orders). */
  fbs_delivery_note: maybe(z.string()),
  /** PDF URL of the warehouse delivery note. */
  fbs_delivery_note_url: maybe(z.string()),
  /** The customer collects at the store. */
  store_pickup: maybe(z.boolean()),
  /** Euros; only for merchant-fulfilled (FBM) orders. */
  shipping_cost: maybe(z.number()),
  /** Total commission, euros. */
  commission: maybe(z.number()),
  /** Always present per the documentation; `{}` when no fees apply. */
  fees: maybe(Fees),
  /** The selected pickup window. */
  pickup_window: maybe(PickupWindow),
  /** Pickup location address. */
  pickup_address: maybe(z.string()),
  /** True when the shop must call set_as_ready (a voucher download does not mark the order ready). */
  set_as_ready_required: maybe(z.boolean()),
  /** True once marked ready for dispatch. */
  is_ready_for_dispatch: maybe(z.boolean()),
  /** Number of parcels, an integer per the documentation; set when the order is accepted. */
  number_of_parcels: maybe(z.number()),
  /** Replacement suborders from the same shop; omitted when none. */
  replacements: maybe(z.array(Replacement)),
  /** Code of the original suborder; present only when this suborder is a replacement. */
  replaced: maybe(z.string()),
  /** The name real answers use for `replaced` (code of the original suborder). From recordings, not the documentation. */
  replaced_suborder: maybe(z.string()),
  /**
   * Tags: `GIFT-WRAP`, `RETURN-FROM-SERVICE` (return after a service check), `RETURN-AS-IS`
   * (give back the returned items; nothing new is sent). A list in older answers; a string
   * such as `[GIFT-WRAP]` since 2026-04-24.
   */
  custom: maybe(z.union([z.string(), z.array(openEnum(CUSTOM_TAGS))])),
  /** Returns of the order's items (since 2026-04-01): see {@link OrderReturn}. */
  returns: maybe(z.array(OrderReturn)),
  /** `card`, `cash_on_delivery`, `loan`, `bank_transfer`, `iris`, `wallet`, `edenred`, `revolut`; others may come. */
  payment_method: maybe(openEnum<readonly (typeof PAYMENT_METHODS)[number][]>([])),
  /** Paid before assignment to the shop; false for cash_on_delivery. */
  paid_by_user: maybe(z.boolean()),
  /** Present in some payloads; `core` denotes a core marketplace order. */
  fulfillment_mode: maybe(openEnum(FULFILLMENT_MODES)),
});
/** An order, as `orders.get` returns it and as webhook events carry it. */
export interface Order extends Infer<typeof orderShape> {}
export const Order: Schema<Order> = /* @__PURE__ */ answer(orderShape);

/** The answer of GET order: `{ order }` (the root key is required). */
export const OrderEnvelope = /* @__PURE__ */ lazy(() => record({ /** The order: see {@link Order}. */ order: Order }));
export interface OrderEnvelope extends z.output<typeof OrderEnvelope> {}

// ---------------------------------------------------------------------------
// Request shapes (strict)
// ---------------------------------------------------------------------------

// Every schema constant is a /* @__PURE__ */ lazy(...) call, so that bundlers drop the ones an
// entry does not use (the webhooks entry needs none of these): esbuild does not carry
// no-side-effects marks across modules.
/* @__NO_SIDE_EFFECTS__ */
function nonEmptyArray<T extends z.ZodMiniType>(item: T, message: string) {
  return z.array(item).check(z.minLength(1, message));
}
/** A strict request object whose unknown-key issue names the keys. */
/* @__NO_SIDE_EFFECTS__ */
function requestObject<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : 'expected an object',
  });
}

/** Body of POST accept. */
export const AcceptParams = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** A pickup location id from `accept_options.pickup_location`. */
    pickup_location: nonEmptyString(),
    /** A pickup window id from `accept_options.pickup_window`. */
    pickup_window: integer(),
    /** Number of parcels; the service defaults to 1. */
    number_of_parcels: z.optional(integer(1)),
  })
);
export interface AcceptParams extends z.output<typeof AcceptParams> {}

export const RejectLineItem = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** Line item id. */
    id: nonEmptyString(),
    /** A reason id from `reject_options.line_item_rejection_reasons`. */
    reason_id: integer(),
    /** Required when the reason has `requires_available_quantity: true`. */
    available_quantity: z.optional(integer(0)),
  })
);
export interface RejectLineItem extends z.output<typeof RejectLineItem> {}

const RejectLineItems = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** The line items to reject, each with a reason. */
    line_items: nonEmptyArray(RejectLineItem, 'expected at least one line item'),
  })
);
const RejectWholeOrder = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** Free-text reason; rejects the whole order. */
    rejection_reason_other: nonEmptyString(),
  })
);

/**
 * Exactly one of two strict shapes, chosen by which key is given, so a mistake is
 * reported at its own path rather than as "matches neither".
 */
/* @__NO_SIDE_EFFECTS__ */
function eitherKey<A extends z.ZodMiniType, B extends z.ZodMiniType>(keyA: string, a: A, keyB: string, b: B) {
  // The value passes as given once the chosen shape accepts it (strict shapes change nothing).
  return z.unknown().check(
    z.superRefine((value, ctx) => {
      const body = typeof value === 'object' && value !== null ? value : undefined;
      const hasA = body !== undefined && keyA in body;
      const hasB = body !== undefined && keyB in body;
      if (hasA === hasB) {
        const message = hasA ? `give ${keyA} or ${keyB}, not both` : `expected an object with ${keyA} or ${keyB}`;
        ctx.addIssue({ code: 'custom', message, input: value });
        return;
      }
      const result = (hasA ? a : b).safeParse(value);
      if (!result.success) {
        for (const issue of result.error.issues) ctx.addIssue({ ...issue, input: value } as Parameters<typeof ctx.addIssue>[0]);
      }
    }),
  ) as unknown as z.ZodMiniType<z.output<A> | z.output<B>, z.input<A> | z.input<B>>;
}

/** Body of POST reject: chosen line items with reasons, or the whole order with a free-text reason; exactly one. */
export const RejectParams = /* @__PURE__ */ lazy(() =>
  eitherKey('line_items', RejectLineItems, 'rejection_reason_other', RejectWholeOrder));
export type RejectParams = z.output<typeof RejectParams>;

export const TrackingDetail = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** The courier of the shipment: `acs`, `dhl`, `geniki_taxydromiki`, `dpd`, `gls`, or another. */
    courier: nonEmptyString() as unknown as z.ZodMiniType<TrackingCourier>,
    /** The shipment's tracking code. */
    tracking_code: nonEmptyString(),
  })
);
export interface TrackingDetail extends z.output<typeof TrackingDetail> {}

/** Body member `tracking_details` of POST tracking_details: one entry per shipment. */
export const TrackingDetails = /* @__PURE__ */ lazy(() =>
  nonEmptyArray(TrackingDetail, 'expected at least one tracking detail'));
export type TrackingDetails = z.output<typeof TrackingDetails>;
