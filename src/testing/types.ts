/**
 * Wire shapes as the mock stores and sends them. Derived from the SDK's answer types (one
 * definition of each wire shape), narrowed where the mock needs a member to be there.
 */
import type {
  AcceptOptions,
  Customer,
  CustomerAddress,
  LineItem,
  LineItemRejectionReason,
  Order,
  ORDER_STATES,
  PickupWindow,
  RejectOptions,
} from '../schemas/order.js';
import type { Return } from '../schemas/returns.js';

export type MockAddress = CustomerAddress;
export type MockCustomer = Customer;
export type MockLineItem = LineItem & { id: string; shop_uid: string };
export type MockAcceptOptions = AcceptOptions;
export type MockRejectionReason = LineItemRejectionReason;
export type MockRejectOptions = RejectOptions;
export type MockPickupWindow = PickupWindow;
export type OrderState = (typeof ORDER_STATES)[number];

/** The members the Orders API documentation lists (the recorded orders also carry others). */
export type MockOrderFields = Order;

/** An order as the mock stores it and as `GET .../orders/:code` and the webhook send it. */
export type MockOrder = Order & { [key: string]: unknown };

/** Overrides for `mock.orders.create`: any Order member; `customer` and its `address` merge with the defaults. */
export type OrderOverrides = Omit<Partial<MockOrderFields>, 'customer' | 'line_items'> & {
  [key: string]: unknown;
  customer?: Partial<MockCustomer> | undefined;
  /** Items are completed with defaults (id, shop_uid, prices...) member by member. */
  line_items?: Partial<MockLineItem>[] | undefined;
};

export interface Change<T = unknown> {
  old: T;
  new: T;
}

/** A webhook payload (the webhook documentation). */
export interface MockWebhookEvent {
  event_type: 'new_order' | 'order_updated';
  event_time: string;
  order: MockOrder;
  changes?: Record<string, Change> | undefined;
}

/** A return as the mock stores it and as `GET .../returns/:return_code` and the returns webhook send it. */
export type MockReturn = Return & { [key: string]: unknown };

/** A returns webhook payload: created once, then updated on a state, courier or tracking change. */
export interface MockReturnEvent {
  event_type: 'merchant_return_created' | 'merchant_return_updated';
  /** `YYYY-MM-DDTHH:MM:SSZ`, UTC. */
  event_time: string;
  return: MockReturn;
  changes?: Record<string, Change> | undefined;
}

/** One product as the Products API last set it. */
export interface InventoryItem {
  product_id: string;
  quantity: number;
  enabled: boolean;
  /** Integer cents. */
  price: number;
  /** Merged by `variation_id` across batches. */
  variations?: InventoryVariation[] | undefined;
  /** How many accepted batch requests have set this product (repeats are harmless: the values are absolute). */
  updates: number;
}

export interface InventoryVariation {
  variation_id: string;
  quantity: number;
  enabled: boolean;
  price: number;
}
