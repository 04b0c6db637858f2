/**
 * The mock's stored orders: the record kept of each, the order as it goes out (options only while
 * open, in the vendor's spelling), and the state transitions, each emitting the webhook event the
 * documentation names. A sandbox DEMO-* order stays as it is: an action works on a throwaway copy.
 * The seeded and created orders are in order-fixtures.ts, the routes in order-routes.ts.
 */
import type { Random } from './random.js';
import type { Change, MockOrder, MockPickupWindow, MockWebhookEvent } from './types.js';
import { lastMileCourier, vendorSpelling } from '../schemas/vendor.js';
import { copy, fail, timestamp } from './wire.js';

/** The marketplace's own last-mile courier (SLM): the only courier set_as_ready applies to. */
export const MARKETPLACE_COURIER = 'Marketplace Last Mile';
export const HOUR = 3_600_000;

/** Where the kit serves an order's courier voucher. */
export const voucherUrl = (baseUrl: string, code: string): string => `${baseUrl}/__mock/vouchers/${encodeURIComponent(code)}.pdf`;

/** An order's expiry a day later than it stands (than `now`, without one): what an extension does. */
export const dayLater = (order: MockOrder, now: number): string => timestamp((order.expires_at ? Date.parse(order.expires_at) : now) + 24 * HOUR);

export interface OrdersContext {
  /** The operator's name: orders go out in its spelling (the service's documentation today). */
  vendor: string;
  baseUrl: () => string;
  now: () => number;
  random: Random;
  emit: (event: MockWebhookEvent) => void;
  resend: (code: string) => boolean;
}

export type CancelledBy = 'user' | 'support' | 'merchant';
export type TrackingDetail = { courier: string; tracking_code: string };
type Fulfilment = 'core' | 'fbs' | 'store_pickup' | 'fbm';

export interface OrderRecord {
  order: MockOrder;
  /** from/to of each offered pickup window id, so an accept can set `pickup_window`. */
  windows: Map<number, MockPickupWindow>;
  invoices: { filename: string; contentType: string; bytes: Uint8Array<ArrayBuffer> }[];
  tracking: TrackingDetail[][];
  cancelledBy?: CancelledBy | undefined;
  /** A sandbox DEMO-* order: actions on it succeed as often as asked and change nothing. */
  sandbox?: true | undefined;
  /** A sandbox order's throwaway copy: what an action does to it is dropped, and no event goes out. */
  discarded?: true | undefined;
}

/** How the order is shipped, from the fields the Orders API documentation gives. */
export function fulfilmentOf(order: MockOrder): Fulfilment {
  if (order.fulfilled_by_marketplace) return 'fbs';
  if (order.store_pickup) return 'store_pickup';
  if (order.fulfillment_mode != null && order.fulfillment_mode !== 'core') return 'fbm';
  return order.courier === MARKETPLACE_COURIER ? 'core' : 'fbm';
}

export function createOrderStore(context: OrdersContext) {
  const { random, now } = context;
  const records = new Map<string, OrderRecord>();

  const spelling = vendorSpelling(context.vendor);
  const ownCourier = spelling === undefined ? MARKETPLACE_COURIER : lastMileCourier(spelling.vendor);
  /** The kit keeps the documentation's spelling; what goes out is in the vendor's (the service's documentation today). */
  const spelt = (order: MockOrder): MockOrder => {
    if (spelling === undefined) return order;
    const rename = (fields: Record<string, unknown> | null | undefined, from: string, to: string) => {
      if (fields == null || !(from in fields)) return;
      fields[to] = fields[from];
      delete fields[from];
    };
    rename(order, 'fulfilled_by_marketplace', spelling.fulfilledBy);
    rename(order.fees as Record<string, unknown> | undefined, 'marketplace_coins_fee', spelling.coinsFee);
    rename(order.customer as Record<string, unknown> | undefined, 'marketplace_plus_user', spelling.plusUser);
    if (order.courier === MARKETPLACE_COURIER) order.courier = ownCourier;
    const info = order.rejection_info as { actor?: unknown } | null | undefined;
    if (info?.actor === 'marketplace') info.actor = spelling.vendor;
    return order;
  };

  const view = (record: OrderRecord): MockOrder => {
    const order = copy(record.order);
    if (order.state !== 'open') {
      delete order.accept_options;
      delete order.reject_options;
    }
    return spelt(order);
  };

  const emit = (record: OrderRecord, eventType: MockWebhookEvent['event_type'], changes?: Record<string, Change>) => {
    const event: MockWebhookEvent = { event_type: eventType, event_time: timestamp(now()), order: view(record) };
    if (changes?.courier) {
      for (const side of ['old', 'new'] as const) if (changes.courier[side] === MARKETPLACE_COURIER) changes.courier[side] = ownCourier;
    }
    if (changes) event.changes = changes;
    context.emit(event);
  };

  /** Sets members and emits order_updated with `{ old, new }` for each. */
  const update = (record: OrderRecord, patch: Partial<MockOrder>) => {
    if (record.discarded) return;
    const changes: Record<string, Change> = {};
    for (const [key, value] of Object.entries(patch)) {
      changes[key] = { old: copy(record.order[key] ?? null), new: copy(value) };
      record.order[key] = value;
    }
    emit(record, 'order_updated', changes);
  };

  const windowTimes = (count: number): { from: string; to: string }[] => {
    const start = Math.ceil(now() / HOUR) * HOUR + 2 * HOUR;
    return Array.from({ length: count }, (_, i) => ({
      from: timestamp(start + i * 3 * HOUR),
      to: timestamp(start + (i + 1) * 3 * HOUR),
    }));
  };

  const makeRecord = (order: MockOrder): OrderRecord => {
    const offered = order.accept_options?.pickup_window ?? [];
    const times = windowTimes(offered.length);
    const windows = new Map(offered.map((w, i) => [w.id ?? i + 1, times[i] as MockPickupWindow]));
    return { order, windows, invoices: [], tracking: [] };
  };

  const expireIfDue = (record: OrderRecord): boolean => {
    const expiresAt = record.order.expires_at ? Date.parse(record.order.expires_at) : Number.NaN;
    if (record.order.state !== 'open' || !(expiresAt <= now())) return false;
    update(record, { state: 'expired' });
    return true;
  };

  const find = (code: string): OrderRecord => {
    const record = records.get(code);
    if (!record) return fail(404, 'order_error', 'Order not found');
    expireIfDue(record);
    return record;
  };

  /** The record an action works on: a sandbox order's throwaway copy, so it stays as it is. */
  const findForAction = (code: string): OrderRecord => {
    const record = find(code);
    return record.sandbox ? { ...structuredClone(record), sandbox: undefined, discarded: true } : record;
  };

  const accept = (record: OrderRecord, windowId: number, address: string, parcels: number) => {
    update(record, {
      state: 'accepted',
      pickup_window: record.windows.get(windowId) ?? windowTimes(1)[0] ?? null,
      number_of_parcels: parcels,
      pickup_address: address,
    });
  };

  /** The courier voucher of the order stored as `code` is created (emits courier_voucher and courier_tracking_codes changes). */
  const issueVoucher = (record: OrderRecord, code: string) =>
    update(record, {
      courier_voucher: voucherUrl(context.baseUrl(), code),
      courier_tracking_codes: [String(random.int(100_000_000, 999_999_999))],
    });

  /** The merchant downloads the voucher; true when that marked the order ready (not-enrolled shops only). */
  const downloadVoucher = ({ order }: OrderRecord): boolean => {
    if (order.set_as_ready_required === true || order.state !== 'accepted' || order.is_ready_for_dispatch === true) {
      return false;
    }
    order.is_ready_for_dispatch = true;
    return true;
  };

  return { records, ownCourier, view, emit, update, windowTimes, makeRecord, expireIfDue, find, findForAction, accept, issueVoucher, downloadVoucher };
}

export type OrderStore = ReturnType<typeof createOrderStore>;
