/**
 * Known values of the Orders API (the merchant API documentation): order states, couriers, payment
 * methods, tags, reasons and the identity document types. Every enum of an answer is open: other
 * strings pass through, so these lists give the types and documentation, not a limit.
 */

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

export const INVOICE_DOCUMENTS = ['receipt', 'invoice', 'invoice_39a', 'invoice_vies'] as const;
/**
 * Couriers named today (the order documentation's history); the real service spells its own as `<Vendor> Last
 * Mile`. Older lists add `SendX` and `COURIER CENTER`; recordings show `CourierCenter`.
 */
export const COURIERS = [
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
export const PAYMENT_METHODS = ['card', 'cash_on_delivery', 'loan', 'bank_transfer', 'iris', 'wallet', 'edenred', 'revolut'] as const;
/** How the customer paid. Others may come. */
export type PaymentMethod = (typeof PAYMENT_METHODS)[number] | (string & {});
/** Couriers `sendTrackingDetails` knows by name (the order documentation's history); others may come. */
export const TRACKING_COURIERS = ['acs', 'dhl', 'geniki_taxydromiki', 'dpd', 'gls'] as const;
/** A courier of `sendTrackingDetails`. Others may come. */
export type TrackingCourier = (typeof TRACKING_COURIERS)[number] | (string & {});
/**
 * Line item tags: `plus_deal`, `coupon_deal`, `two_plus_deal`, `coupons`, `price_optimizer`,
 * `cc_installments`. Others may come.
 */
export const LINE_ITEM_TAGS = ['plus_deal', 'coupon_deal', 'two_plus_deal', 'coupons', 'price_optimizer', 'cc_installments'] as const;
export type LineItemTag = (typeof LINE_ITEM_TAGS)[number] | (string & {});
export const CUSTOM_TAGS = ['GIFT-WRAP', 'RETURN-FROM-SERVICE', 'RETURN-AS-IS'] as const;
// The known values above serve the types only (openEnum accepts any string), so the answer shapes
// (order.ts) pass an empty list: the bundles do not carry the names.
/** Why a line item was rejected. */
export const LINE_ITEM_REJECTION_REASONS = ['limited_stock', 'no_stock', 'discontinuation', 'wrong_price', 'content_mistake'] as const;
/** Why a line item was returned. */
export const LINE_ITEM_RETURN_REASONS = ['faulty', 'wrong_product', 'withdrawal', 'wrong_size'] as const;
export const REJECTION_ACTORS = ['marketplace', 'merchant'] as const;
export const REPLACEMENT_TYPES = ['from_service', 'as_is_return'] as const;
export const VAT_EXCLUSION_METHODS = ['service', 'documents'] as const;
export const FULFILLMENT_MODES = ['core'] as const;

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
export type IdTypeValue = (typeof ID_TYPES)[number]['value'];
