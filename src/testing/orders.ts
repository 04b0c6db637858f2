/**
 * The Orders API of the merchant API documentation, assembled: the stored orders and their state
 * transitions (order-record.ts), the seeded and created orders (order-fixtures.ts), the routes
 * (order-routes.ts) over the request checks (order-checks.ts), the pickup moves (order-moves.ts);
 * and here the kit's own actions (cancel, extend, voucher, expiry, dispatch, returns, resend) that
 * move an order the way the marketplace would, each emitting the webhook event the documentation names.
 */
import { sniffInvoiceType } from './order-checks.js';
import { createOrderFixtures } from './order-fixtures.js';
import { createOrderMoves } from './order-moves.js';
import {
  type CancelledBy,
  createOrderStore,
  dayLater,
  fulfilmentOf,
  type OrderRecord,
  type OrdersContext,
  type TrackingDetail,
} from './order-record.js';
import { createOrderRoutes } from './order-routes.js';
import type { Route } from './router.js';
import type { MockOrder } from './types.js';
import { copy, timestamp } from './wire.js';

export function createOrders(context: OrdersContext) {
  const { now } = context;
  const store = createOrderStore(context);
  const { records, view, update, expireIfDue, findForAction } = store;
  const { create, newReturn, seedDemoOrders } = createOrderFixtures(context, store);

  const moves = createOrderMoves({
    vendor: context.vendor,
    now,
    find: (code) => findForAction(code),
    update: (record, patch) => update(record as OrderRecord, patch),
    issueVoucher: (record) => store.issueVoucher(record as OrderRecord, record.order.code),
    fulfilment: fulfilmentOf,
    sniff: sniffInvoiceType,
  });
  const orderRoutes = createOrderRoutes(context, store, moves.withActionOptions);
  const routes: Route[] = [...orderRoutes.routes, ...moves.routes];

  // ---- kit actions -----------------------------------------------------------------------

  const must = (code: string): OrderRecord => {
    const record = records.get(code);
    if (!record) throw new Error(`mock.orders: no order ${code}`);
    return record;
  };
  const requireState = (record: OrderRecord, action: string, states: readonly string[]) => {
    if (!states.includes(record.order.state ?? '')) {
      throw new Error(`mock.orders.${action}: order ${record.order.code} is ${record.order.state}, expected ${states.join(' or ')}`);
    }
  };
  const toTimestamp = (value: string | number | Date) =>
    typeof value === 'string' ? value : timestamp(typeof value === 'number' ? value : value.getTime());

  const kit = {
    create,
    ...moves.kit,
    /** A copy of the order as GET would answer it (options only while open). */
    get(code: string): MockOrder | undefined {
      const record = records.get(code);
      return record ? view(record) : undefined;
    },
    list(): MockOrder[] {
      return [...records.values()].map(view);
    },
    /** Sets members without any event (test set-up); prefer the actions below. */
    patch(code: string, fields: Partial<MockOrder>): MockOrder {
      const record = must(code);
      Object.assign(record.order, copy(fields));
      return view(record);
    },
    cancel(code: string, { by = 'user' }: { by?: CancelledBy | undefined } = {}): MockOrder {
      const record = must(code);
      // The service allows a cancellation after dispatch too (the parcel comes back).
      requireState(record, 'cancel', ['open', 'accepted', 'dispatched']);
      record.cancelledBy = by;
      update(record, { state: 'cancelled' });
      return view(record);
    },
    extend(
      code: string,
      { expires_at, dispatch_until }: { expires_at?: string | number | Date | undefined; dispatch_until?: string | number | Date | undefined } = {},
    ): MockOrder {
      const record = must(code);
      const patch: Partial<MockOrder> = {};
      if (expires_at !== undefined) patch.expires_at = toTimestamp(expires_at);
      if (dispatch_until !== undefined) patch.dispatch_until = toTimestamp(dispatch_until);
      if (expires_at === undefined && dispatch_until === undefined) patch.expires_at = dayLater(record.order, now());
      update(record, patch);
      return view(record);
    },
    /**
     * The courier voucher is created (emits courier_voucher and courier_tracking_codes changes).
     * With `download` (default true) the merchant also downloads it, which marks the order ready
     * only for shops not enrolled in the set-as-ready programme (`set_as_ready_required: false`).
     */
    createVoucher(code: string, { download = true }: { download?: boolean | undefined } = {}): MockOrder {
      const record = must(code);
      requireState(record, 'createVoucher', ['accepted']);
      store.issueVoucher(record, code);
      if (download) kit.downloadVoucher(code);
      return view(record);
    },
    /** The merchant downloads the voucher; returns true when that marked the order ready (not-enrolled shops only). */
    downloadVoucher(code: string): boolean {
      const record = must(code);
      if (!record.order.courier_voucher) throw new Error(`mock.orders.downloadVoucher: order ${code} has no voucher`);
      return store.downloadVoucher(record);
    },
    /** Expires every open order whose expires_at has passed on the mock clock; returns their codes. */
    expireDue(): string[] {
      return [...records.values()].filter(expireIfDue).map((record) => record.order.code);
    },
    /** The automated acceptance of express orders (the API refuses them), with the first offered options. */
    autoAccept(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'autoAccept', ['open']);
      const options = record.order.accept_options;
      const windowId = options?.pickup_window?.[0]?.id ?? 1;
      store.accept(record, windowId, options?.pickup_location?.[0]?.label ?? '', options?.number_of_parcels?.[0] ?? 1);
      return view(record);
    },
    /** The courier picks the order up. */
    dispatch(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'dispatch', ['accepted']);
      update(record, { state: 'dispatched' });
      return view(record);
    },
    /** Delivered: the service names no event for it, so none is sent. */
    deliver(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'deliver', ['dispatched']);
      record.order.state = 'delivered';
      return view(record);
    },
    /** Some items come back: a return joins the order's `returns`; the event's changes name the state. */
    partiallyReturn(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'partiallyReturn', ['dispatched', 'delivered', 'partially_delivered']);
      record.order.returns = [...(record.order.returns ?? []), newReturn(1)];
      update(record, { state: 'partially_returned' });
      return view(record);
    },
    /** The rest comes back: a return joins the order's `returns`; the event's changes name the state. */
    returnOrder(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'returnOrder', ['dispatched', 'delivered', 'partially_delivered', 'partially_returned', 'for_return']);
      record.order.returns = [...(record.order.returns ?? []), newReturn(1)];
      update(record, { state: 'returned' });
      return view(record);
    },
    /** The panel's manual send: the latest event of that order again, same payload. False when it has none. */
    resend(code: string): boolean {
      must(code);
      return context.resend(code);
    },
    /** Every tracking_details list the merchant sent for the order, in order. */
    trackingDetails(code: string): TrackingDetail[][] {
      return copy(must(code).tracking);
    },
    /** Who cancelled the order (kit bookkeeping; not on the wire). */
    cancelledBy(code: string): CancelledBy | undefined {
      return records.get(code)?.cancelledBy;
    },
  };

  return { routes, kit, serveFile: orderRoutes.serveFile, seedDemoOrders };
}
