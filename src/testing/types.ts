/**
 * Wire shapes as the mock stores and sends them (document 1). Written here rather than taken
 * from the SDK's schemas on purpose: the kit speaks the wire protocol, not the SDK's internals,
 * and it must be able to hold whatever the real service sends (recorded orders miss members).
 */

export interface MockAddress {
  street_name?: string;
  street_number?: string;
  zip?: string;
  city?: string;
  region?: string;
  country_code?: string;
  pickup_from_collection_point?: boolean;
  collection_point_address?: string;
  comments?: string;
  [key: string]: unknown;
}

export interface MockCustomer {
  id: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  mobile?: string;
  marketplace_plus_user?: boolean;
  address?: MockAddress;
  [key: string]: unknown;
}

export interface MockLineItem {
  id: string;
  shop_uid: string;
  product_name?: string;
  quantity?: number;
  unit_price?: number;
  total_price?: number;
  price_includes_vat?: boolean;
  island_vat_discount_applied?: boolean;
  ean?: string;
  mpn?: string;
  serial_numbers?: unknown;
  commission?: number;
  commission_rate?: number;
  extra_info?: string;
  tags?: string[];
  [key: string]: unknown;
}

export interface MockAcceptOptions {
  number_of_parcels: number[];
  pickup_location: { id: string; label: string }[];
  pickup_window: { id: number; label: string }[];
}

export interface MockRejectionReason {
  id: number;
  label: string;
  requires_available_quantity: boolean;
}

export interface MockRejectOptions {
  line_item_rejection_reasons: MockRejectionReason[];
}

export interface MockPickupWindow {
  from: string;
  to: string;
}

export type OrderState =
  | 'open'
  | 'accepted'
  | 'rejected'
  | 'cancelled'
  | 'expired'
  | 'dispatched'
  | 'delivered'
  | 'partially_returned'
  | 'returned'
  | 'for_return'
  | 'partially_delivered';

/** The members document 1 lists (the recorded orders also carry others). */
export interface MockOrderFields {
  code: string;
  state: OrderState | (string & {});
  customer?: MockCustomer;
  invoice?: boolean;
  uploaded_invoice_file?: string | null;
  invoice_details?: Record<string, unknown> | null;
  invoice_document?: string;
  comments?: string;
  courier?: string | null;
  courier_voucher?: string | null;
  courier_tracking_codes?: string[];
  line_items?: MockLineItem[];
  created_at?: string | null;
  expires_at?: string | null;
  dispatch_until?: string | null;
  express?: boolean;
  gift_wrap?: boolean;
  rejection_info?: { reason: string; actor: string };
  accept_options?: MockAcceptOptions;
  reject_options?: MockRejectOptions;
  fulfilled_by_marketplace?: boolean;
  fbs_delivery_note?: string | null;
  fbs_delivery_note_url?: string | null;
  store_pickup?: boolean;
  shipping_cost?: number;
  commission?: number;
  fees?: Record<string, number>;
  pickup_window?: MockPickupWindow | null;
  pickup_address?: string | null;
  set_as_ready_required?: boolean;
  is_ready_for_dispatch?: boolean;
  number_of_parcels?: number | null;
  replacements?: { code: string; type?: string }[];
  replaced?: string;
  custom?: string[];
  payment_method?: string;
  paid_by_user?: boolean;
  fulfillment_mode?: string;
}

/** An order as the mock stores it and as `GET .../orders/:code` and the webhook send it. */
export interface MockOrder extends MockOrderFields {
  [key: string]: unknown;
}

/** Overrides for `mock.orders.create`: any Order member; `customer` and its `address` merge with the defaults. */
export type OrderOverrides = Omit<Partial<MockOrderFields>, 'customer' | 'line_items'> & {
  [key: string]: unknown;
  customer?: Partial<MockCustomer>;
  /** Items are completed with defaults (id, shop_uid, prices...) member by member. */
  line_items?: Partial<MockLineItem>[];
};

export interface Change<T = unknown> {
  old: T;
  new: T;
}

/** A webhook payload (document 1, Events). */
export interface MockWebhookEvent {
  event_type: 'new_order' | 'order_updated';
  event_time: string;
  order: MockOrder;
  changes?: Record<string, Change>;
}

/** One product as the Products API last set it. */
export interface InventoryItem {
  product_id: string;
  quantity: number;
  enabled: boolean;
  /** Integer cents. */
  price: number;
  /** Merged by `variation_id` across batches. */
  variations?: InventoryVariation[];
  /** How many accepted batch requests have set this product (repeats are harmless: the values are absolute). */
  updates: number;
}

export interface InventoryVariation {
  variation_id: string;
  quantity: number;
  enabled: boolean;
  price: number;
}
