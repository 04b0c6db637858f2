/**
 * `createOrderTracker`: remembers the orders the merchant still has to act on (open, accepted),
 * re-reads them to find what the webhooks did not bring (`reconcile`), and tells of deadlines
 * coming (`checkDeadlines`), once per order, kind and lead time across the instances sharing a store.
 */
import type { MarketplaceClient } from '../client.js';
import { NotFoundError } from '../core/errors.js';
import { type Logger, thrownText } from '../core/logger.js';
import { sleep, within } from '../core/time.js';
import type { Order } from '../schemas/order.js';
import type { NewOrderEvent, OrderUpdatedEvent, WebhookEvent } from '../schemas/webhook.js';
import { checkLeads, positiveMs } from './options.js';
import { changesBetween, isFollowed, snapshotOf, stage, type TrackedOrderFields } from './snapshot.js';
import { memoryOrderTrackerStore, type OrderTrackerStore, type TrackedOrder } from './store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The one lease of the reconcile, among the instances sharing a store. */
const RECONCILE_LEASE = 'reconcile';

/** How `onEvent` is told the event came from the tracker, not from a webhook delivery. */
export interface OrderTrackerEventContext {
  source: 'reconcile';
}

/** Which deadline is near: an open order's `expires_at`, or an accepted order's `dispatch_until`. */
export type DeadlineKind = 'expires_soon' | 'dispatch_due';

/** `onDeadline`'s third argument. */
export interface DeadlineInfo {
  /** The lead time whose window the order entered (one of `expiresWithinMs` or `dispatchWithinMs`). */
  leadMs: number;
  /** The deadline itself: the order's `expires_at` or `dispatch_until`. */
  deadline: string;
}

export interface OrderTrackerOptions {
  /** The client whose `orders.get` (and with `pollOpenOrders`, `orders.list`) the tracker calls. */
  client: Pick<MarketplaceClient, 'orders'>;
  /**
   * Told of what `reconcile` finds, with `context.source === 'reconcile'`: an `order_updated` event
   * whose `changes` name what differs from what the tracker last knew, or a `new_order` event for an
   * open order it never heard of (`pollOpenOrders`). Throwing offers the same again at the next reconcile.
   */
  onEvent: (event: NewOrderEvent | OrderUpdatedEvent, context: OrderTrackerEventContext) => unknown;
  /** Told once per order, kind and lead time that a deadline is near (a page on the phone). Throwing makes it fire again at the next check. */
  onDeadline?: ((order: TrackedOrderFields, kind: DeadlineKind, info: DeadlineInfo) => unknown) | undefined;
  /** How long before an open order's `expires_at` `'expires_soon'` fires: one lead time or several. Default 30 and 10 minutes. */
  expiresWithinMs?: number | readonly number[] | undefined;
  /** How long before an accepted order's `dispatch_until` `'dispatch_due'` fires. Default 3 hours and 1 hour. */
  dispatchWithinMs?: number | readonly number[] | undefined;
  /** Where orders, alert marks and the reconcile lease are kept. Default this process's memory; `redisStores(...).orders` to share them. */
  store?: OrderTrackerStore | undefined;
  /** How often `start` reconciles. Default 5 minutes. */
  reconcileEveryMs?: number | undefined;
  /** How often `start` checks deadlines. Default 30 seconds. */
  checkDeadlinesEveryMs?: number | undefined;
  /**
   * Also list the open orders (`orders.list({ state: 'open' })`, the listing shop plugins use, not in
   * the service's documentation) at each reconcile, and hand any the tracker never heard of to
   * `onEvent` as `new_order`. A 404 or 405 to the listing stops it for this process. Default false.
   */
  pollOpenOrders?: boolean | undefined;
  /** How long an order is kept once neither open nor accepted (so a late redelivery does not bring it back). Default 24 hours. */
  forgetAfterMs?: number | undefined;
  /** How long one instance holds the reconcile without renewing it (it renews it as it goes). Default 60 seconds. */
  leaseMs?: number | undefined;
  /** Where failures are reported (an order that could not be read, an `onEvent` that threw). Default `console`. */
  logger?: Pick<Logger, 'warn'> | undefined;
}

export interface OrderTracker {
  /**
   * Remembers an order that is open or accepted (an `Order`, or an order webhook event), or updates
   * one held; resolves false when there was nothing to hold (a final state, a return event, an
   * update older than what it holds). Call it once your code has the order: from the webhook's
   * `onEvent`, and with what your own calls read (`tracker.track(await client.orders.get(code))`).
   */
  track(orderOrEvent: Order | WebhookEvent): Promise<boolean>;
  /**
   * Re-reads every order held (`orders.get`, one at a time) and hands each difference from what it
   * knew to `onEvent` as `order_updated`; with `pollOpenOrders`, also the open orders it never heard
   * of, as `new_order`. Resolves with how many it found (0 when another instance sharing the store is reconciling).
   */
  reconcile(): Promise<number>;
  /** Calls `onDeadline` for each deadline whose window `now` has entered, once per order, kind and lead time; resolves with how many fired. */
  checkDeadlines(now?: Date): Promise<number>;
  /** Reconciles every `reconcileEveryMs` and checks deadlines every `checkDeadlinesEveryMs` until `signal` aborts; settles once the work under way is done. */
  start(options?: { signal?: AbortSignal | undefined }): Promise<void>;
  /** The orders held. */
  tracked(): Promise<TrackedOrder[]>;
}

/**
 * Never miss an order: the tracker remembers orders that are open or accepted, re-reads them
 * (`reconcile`) to hand `onEvent` the changes no webhook brought (a cancellation, an extension, a
 * state missed while the order system was down), and calls `onDeadline` before an open order
 * expires and before an accepted one must be dispatched.
 *
 * @example
 * const tracker = createOrderTracker({ client, onEvent: handleOrderEvent, onDeadline: (order, kind) => page(order.code, kind) });
 * const webhook = createWebhookHandler({ onEvent: async (event) => { await handleOrderEvent(event); await tracker.track(event); } });
 * tracker.start({ signal });
 */
export function createOrderTracker(options: OrderTrackerOptions): OrderTracker {
  const { client, onEvent, onDeadline } = options ?? ({} as OrderTrackerOptions);
  if (typeof client?.orders?.get !== 'function') throw new TypeError('createOrderTracker: client must be a MarketplaceClient');
  if (typeof onEvent !== 'function') throw new TypeError('createOrderTracker: onEvent must be a function');
  if (onDeadline !== undefined && typeof onDeadline !== 'function') throw new TypeError('createOrderTracker: onDeadline must be a function');
  const expiresWithin = checkLeads(options.expiresWithinMs, [30 * MINUTE, 10 * MINUTE], 'expiresWithinMs');
  const dispatchWithin = checkLeads(options.dispatchWithinMs, [3 * HOUR, HOUR], 'dispatchWithinMs');
  const reconcileEveryMs = positiveMs(options.reconcileEveryMs, 5 * MINUTE, 'reconcileEveryMs');
  const checkEveryMs = positiveMs(options.checkDeadlinesEveryMs, 30_000, 'checkDeadlinesEveryMs');
  const forgetAfterMs = positiveMs(options.forgetAfterMs, 24 * HOUR, 'forgetAfterMs');
  const leaseMs = positiveMs(options.leaseMs, MINUTE, 'leaseMs');
  if (options.pollOpenOrders !== undefined && typeof options.pollOpenOrders !== 'boolean') {
    throw new TypeError('createOrderTracker: pollOpenOrders must be true or false');
  }
  const store = options.store ?? memoryOrderTrackerStore();
  if (typeof store?.mark !== 'function' || typeof store.lease !== 'function') throw new TypeError('createOrderTracker: store must be an OrderTrackerStore');
  const logger = options.logger ?? console;
  const warn = (message: string) => {
    try {
      logger.warn?.(`emporio order tracker: ${message}`);
    } catch {
      // A log line is never worth the tracker's work.
    }
  };
  const holder = crypto.randomUUID();
  /** The open-orders listing, until the service says it has none for this shop. */
  let listing = options.pollOpenOrders === true;
  let reconciling: Promise<number> | undefined;

  const recordOf = (order: Order, handed: boolean): TrackedOrder =>
    isFollowed(order.state) ? { order: snapshotOf(order), handed } : { order: snapshotOf(order), handed, forgetAt: Date.now() + forgetAfterMs };

  /** Hands one event to `onEvent`; once it took it, the order is held as it now stands. A failure leaves the record, so the next reconcile offers it again. */
  const offer = async (event: NewOrderEvent | OrderUpdatedEvent): Promise<void> => {
    try {
      await within(Promise.resolve().then(() => onEvent(event, { source: 'reconcile' })), leaseMs, () => {
        throw new Error(`onEvent took longer than ${leaseMs} ms`);
      });
    } catch (error) {
      warn(`onEvent failed for order ${event.order.code} (offered again at the next reconcile): ${thrownText(error)}`);
      return;
    }
    // What a webhook brought meanwhile (the order accepted while onEvent ran) is not taken back.
    const held = await store.get(event.order.code);
    await store.put(held !== undefined && stage(held.order.state) > stage(event.order.state) ? { ...held, handed: true } : recordOf(event.order, true));
  };

  const eventOf = (order: Order, held: TrackedOrder): NewOrderEvent | OrderUpdatedEvent | undefined => {
    const event_time = eventTime();
    if (!held.handed) return { event_type: 'new_order', event_time, order };
    const changes = changesBetween(held.order, snapshotOf(order));
    return changes && { event_type: 'order_updated', event_time, order, changes };
  };

  /** Keeps the lease while the reconcile goes on; false once another instance has it. */
  let renewedAt = 0;
  const holdLease = async (): Promise<boolean> => {
    if (Date.now() - renewedAt < leaseMs / 3) return true;
    const held = await store.lease(RECONCILE_LEASE, holder, leaseMs);
    if (held) renewedAt = Date.now();
    return held;
  };

  const reconcileHeld = async (): Promise<number> => {
    let found = 0;
    const held = await store.all();
    for (const record of held) {
      const { code } = record.order;
      if (record.forgetAt !== undefined) {
        if (record.forgetAt <= Date.now()) await store.delete(code);
        continue;
      }
      if (!(await holdLease())) return found;
      let order: Order;
      try {
        order = await client.orders.get(code);
      } catch (error) {
        if (error instanceof NotFoundError) {
          warn(`order ${code} is not found any more; it is no longer tracked`);
          await store.delete(code);
        } else warn(`order ${code} could not be read (tried again at the next reconcile): ${thrownText(error)}`);
        continue;
      }
      const event = eventOf(order, record);
      if (event === undefined) continue;
      found++;
      await offer(event);
    }
    if (listing) found += await pollOpen(new Set(held.map((record) => record.order.code)));
    return found;
  };

  /** The open orders the tracker never heard of, from the listing: held at once (so their deadlines are watched), then offered as new_order. */
  const pollOpen = async (known: Set<string>): Promise<number> => {
    let found = 0;
    try {
      for await (const order of client.orders.list({ state: 'open', per: 50 })) {
        if (known.has(order.code)) continue;
        if (!(await holdLease())) break;
        if ((await store.get(order.code)) !== undefined) continue;
        const record = recordOf(order, false);
        await store.put(record);
        found++;
        const event = eventOf(order, record);
        if (event) await offer(event);
      }
    } catch (error) {
      if (error instanceof NotFoundError) {
        listing = false;
        warn(`the orders listing is not available for this shop; open orders are no longer polled in this process (${thrownText(error)})`);
      } else warn(`the open orders could not be listed (tried again at the next reconcile): ${thrownText(error)}`);
    }
    return found;
  };

  const reconcile = (): Promise<number> => {
    reconciling ??= (async () => {
      renewedAt = 0;
      if (!(await holdLease())) return 0;
      try {
        return await reconcileHeld();
      } finally {
        await Promise.resolve(store.release(RECONCILE_LEASE, holder)).catch(() => {});
      }
    })().finally(() => {
      reconciling = undefined;
    });
    return reconciling;
  };

  const checkDeadlines = async (now: Date = new Date()): Promise<number> => {
    if (onDeadline === undefined) return 0;
    const at = now.getTime();
    if (!Number.isFinite(at)) throw new TypeError('checkDeadlines: now must be a valid Date');
    let fired = 0;
    for (const { order, forgetAt } of await store.all()) {
      if (forgetAt !== undefined) continue;
      const due =
        order.state === 'open'
          ? { kind: 'expires_soon' as const, deadline: order.expires_at, leads: expiresWithin }
          : order.state === 'accepted'
            ? { kind: 'dispatch_due' as const, deadline: order.dispatch_until, leads: dispatchWithin }
            : undefined;
      const deadlineAt = Date.parse(due?.deadline ?? '');
      if (due === undefined || !(deadlineAt > at)) continue;
      // The tightest window entered: a check that comes late fires once, not once per lead time passed.
      const leadMs = due.leads.filter((lead) => at >= deadlineAt - lead).at(-1);
      if (leadMs === undefined) continue;
      // The deadline is part of the mark: an extended order is alerted again before its new deadline.
      const mark = `${order.code}:${due.kind}:${leadMs}:${deadlineAt}`;
      if (!(await store.mark(mark, deadlineAt - at + HOUR))) continue;
      try {
        await onDeadline(order, due.kind, { leadMs, deadline: due.deadline as string });
        fired++;
      } catch (error) {
        await store.unmark(mark);
        warn(`onDeadline failed for order ${order.code} (fired again at the next check): ${thrownText(error)}`);
      }
    }
    return fired;
  };

  const track = async (orderOrEvent: Order | WebhookEvent): Promise<boolean> => {
    const order = orderOf(orderOrEvent);
    if (order === undefined) return false;
    const held = await store.get(order.code);
    // A late redelivery of an earlier event does not take an order back (accepted to open).
    if (held !== undefined && stage(order.state) < stage(held.order.state)) return false;
    if (held === undefined && !isFollowed(order.state)) return false;
    await store.put(recordOf(order, true));
    return true;
  };

  const start = async ({ signal }: { signal?: AbortSignal | undefined } = {}): Promise<void> => {
    const every = async (ms: number, run: () => Promise<unknown>) => {
      while (!signal?.aborted) {
        await run().catch((error: unknown) => warn(thrownText(error)));
        await sleep(ms, signal).catch(() => {});
      }
    };
    await Promise.all([every(reconcileEveryMs, reconcile), every(checkEveryMs, () => checkDeadlines())]);
  };

  return { track, reconcile, checkDeadlines, start, tracked: async () => store.all() };
}

/** The order an `Order` or an order event carries; undefined for a return event or an event without an order. */
function orderOf(input: Order | WebhookEvent): Order | undefined {
  if (typeof input !== 'object' || input === null) throw new TypeError('track: expected an order or an order webhook event');
  const order = 'event_type' in input ? ('order' in input ? input.order : undefined) : input;
  if (order === undefined) return undefined;
  if (typeof order?.code !== 'string' || order.code === '') throw new TypeError('track: the order has no code');
  return order;
}

/** `YYYY-MM-DDTHH:MM:SS+00:00`, as the service writes `event_time`. */
const eventTime = (): string => new Date().toISOString().replace(/\.\d+Z$/, '+00:00');
