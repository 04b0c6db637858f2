/**
 * createOrderTracker against the mock marketplace: changes no webhook brought found by reconcile,
 * deadline alerts once per order, kind and lead time, the open-orders listing and its 404.
 */
import { createOrderTracker as createFromRoot, MarketplaceClient, type NewOrderEvent, type OrderUpdatedEvent } from 'emporio';
import { createOrderTracker, memoryOrderTrackerStore, type OrderTrackerEventContext } from 'emporio/orders-tracker';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { afterEach, describe, expect, it } from 'vitest';

const MINUTE = 60_000;
let mock: MockMarketplace;
afterEach(() => mock?.close());

function setUp(options: Parameters<typeof createMockMarketplace>[0] = {}) {
  // No webhook URL is registered: what the mock changes reaches the merchant only through the tracker.
  mock = createMockMarketplace({ seedDemoOrders: false, ...options });
  const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, token: mock.tokens.orders, fetch: mock.fetch, maxRetries: 0 });
  const events: { event: NewOrderEvent | OrderUpdatedEvent; context: OrderTrackerEventContext }[] = [];
  const warnings: string[] = [];
  const logger = { warn: (line: string) => void warnings.push(line) };
  return { client, events, warnings, logger, onEvent: (event: NewOrderEvent | OrderUpdatedEvent, context: OrderTrackerEventContext) => void events.push({ event, context }) };
}
const requestsTo = (path: string) => mock.requests.filter((r) => r.path === path).length;

describe('reconcile', () => {
  it('finds a cancellation no webhook brought, hands it over as order_updated from reconcile, then forgets the order', async () => {
    const { client, events, onEvent, logger } = setUp();
    const tracker = createOrderTracker({ client, onEvent, logger });
    const { code } = mock.orders.create();
    expect(await tracker.track(await client.orders.get(code))).toBe(true);
    expect(await tracker.reconcile()).toBe(0);

    mock.orders.cancel(code);
    expect(await tracker.reconcile()).toBe(1);
    expect(events).toHaveLength(1);
    const [{ event, context }] = events as [(typeof events)[number]];
    expect(context).toEqual({ source: 'reconcile' });
    expect(event.event_type).toBe('order_updated');
    expect(event.order.code).toBe(code);
    expect(event.order.state).toBe('cancelled');
    expect(event.changes).toEqual({ state: { old: 'open', new: 'cancelled' } });
    expect(event.event_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);

    // Final: kept a while (so a late redelivery does not bring it back), never read again.
    const reads = requestsTo(`/merchants/ecommerce/orders/${code}`);
    expect(await tracker.reconcile()).toBe(0);
    expect(requestsTo(`/merchants/ecommerce/orders/${code}`)).toBe(reads);
    const [held] = await tracker.tracked();
    expect(held?.order.state).toBe('cancelled');
    expect(held?.forgetAt).toBeGreaterThan(Date.now());
    expect(await tracker.track({ event_type: 'new_order', order: { code, state: 'open' } })).toBe(false);
  });

  it('finds an extension: expires_at and dispatch_until as { old, new }', async () => {
    const { client, events, onEvent } = setUp();
    const tracker = createOrderTracker({ client, onEvent });
    const created = mock.orders.create();
    await tracker.track(created);
    const extended = mock.orders.extend(created.code, { expires_at: '2030-01-02T10:00:00+00:00', dispatch_until: '2030-01-04T10:00:00+00:00' });
    expect(await tracker.reconcile()).toBe(1);
    expect(events[0]?.event.changes).toEqual({
      expires_at: { old: created.expires_at, new: extended.expires_at },
      dispatch_until: { old: created.dispatch_until, new: extended.dispatch_until },
    });
    expect((await tracker.tracked())[0]?.order.expires_at).toBe('2030-01-02T10:00:00+00:00');
  });

  it('a change the webhook brought (passed to track) is not handed over again', async () => {
    const { client, events, onEvent } = setUp();
    const tracker = createOrderTracker({ client, onEvent });
    const { code } = mock.orders.create();
    await tracker.track(await client.orders.get(code));
    mock.orders.autoAccept(code);
    await tracker.track(mock.events.at(-1) as OrderUpdatedEvent);
    expect(await tracker.reconcile()).toBe(0);
    expect(events).toEqual([]);
  });

  it('an onEvent that throws gets the same change again at the next reconcile', async () => {
    const { client, onEvent, events, logger, warnings } = setUp();
    let down = true;
    const tracker = createOrderTracker({
      client,
      logger,
      onEvent: (event, context) => {
        if (down) throw new Error('order system down');
        onEvent(event, context);
      },
    });
    const { code } = mock.orders.create();
    await tracker.track(await client.orders.get(code));
    mock.orders.cancel(code);
    expect(await tracker.reconcile()).toBe(1);
    expect(warnings.join('\n')).toContain('order system down');
    down = false;
    expect(await tracker.reconcile()).toBe(1);
    expect(events.map((e) => e.event.changes)).toEqual([{ state: { old: 'open', new: 'cancelled' } }]);
    expect(await tracker.reconcile()).toBe(0);
  });

  it('two trackers on one store: only one reconciles at a time', async () => {
    const { client, onEvent } = setUp();
    const store = memoryOrderTrackerStore();
    const a = createOrderTracker({ client, onEvent, store });
    const b = createOrderTracker({ client, onEvent, store });
    const { code } = mock.orders.create();
    await a.track(await client.orders.get(code));
    mock.orders.cancel(code);
    const reads = requestsTo(`/merchants/ecommerce/orders/${code}`);
    expect((await Promise.all([a.reconcile(), b.reconcile()])).sort()).toEqual([0, 1]);
    expect(requestsTo(`/merchants/ecommerce/orders/${code}`)).toBe(reads + 1);
  });
});

describe('track', () => {
  it('holds open and accepted orders only, and never takes one back to an earlier state', async () => {
    const { client, onEvent } = setUp();
    const tracker = createOrderTracker({ client, onEvent });
    const { code } = mock.orders.create();
    const opened = mock.events.at(-1) as NewOrderEvent;
    mock.orders.autoAccept(code);
    expect(await tracker.track(mock.orders.get(code) as never)).toBe(true);
    // A late redelivery of new_order: the order stays accepted.
    expect(await tracker.track(opened)).toBe(false);
    expect((await tracker.tracked())[0]?.order.state).toBe('accepted');
    // Nothing to follow: a final order never seen, a return event.
    expect(await tracker.track({ code: '260101-1', state: 'rejected' })).toBe(false);
    expect(await tracker.track({ event_type: 'merchant_return_created', return: { return_code: 'R-1' } } as never)).toBe(false);
    await expect(tracker.track({} as never)).rejects.toThrow(TypeError);
  });

  it('refuses bad options with a TypeError naming them', () => {
    const { client, onEvent } = setUp();
    expect(() => createOrderTracker({ client, onEvent: undefined as never })).toThrow(/onEvent/);
    expect(() => createOrderTracker({ client: {} as never, onEvent })).toThrow(/client/);
    expect(() => createOrderTracker({ client, onEvent, expiresWithinMs: [] })).toThrow(/expiresWithinMs/);
    expect(() => createOrderTracker({ client, onEvent, dispatchWithinMs: -1 })).toThrow(/dispatchWithinMs/);
    expect(() => createOrderTracker({ client, onEvent, reconcileEveryMs: 0 })).toThrow(/reconcileEveryMs/);
    expect(() => createOrderTracker({ client, onEvent, pollOpenOrders: 'yes' as never })).toThrow(/pollOpenOrders/);
    expect(() => createOrderTracker({ client, onEvent, reconcileEveryMs: undefined, store: undefined })).not.toThrow();
  });
});

describe('checkDeadlines', () => {
  it("fires 'expires_soon' once per lead time, with a controllable now, and never twice across trackers sharing the store", async () => {
    const { client, onEvent } = setUp();
    const fired: string[] = [];
    const store = memoryOrderTrackerStore();
    const onDeadline = (order: { code: string }, kind: string, info: { leadMs: number }) => void fired.push(`${order.code} ${kind} ${info.leadMs / MINUTE}`);
    const a = createOrderTracker({ client, onEvent, onDeadline, store });
    const b = createOrderTracker({ client, onEvent, onDeadline, store });
    const order = mock.orders.create();
    await a.track(order);
    const expires = Date.parse(order.expires_at as string);
    const at = (minutesBefore: number) => new Date(expires - minutesBefore * MINUTE);

    expect(await a.checkDeadlines(at(31))).toBe(0);
    expect(await a.checkDeadlines(at(29))).toBe(1);
    expect(await b.checkDeadlines(at(28))).toBe(0);
    expect(await a.checkDeadlines(at(11))).toBe(0);
    expect(await b.checkDeadlines(at(9))).toBe(1);
    expect(await a.checkDeadlines(at(1))).toBe(0);
    expect(await a.checkDeadlines(at(-1))).toBe(0);
    expect(fired).toEqual([`${order.code} expires_soon 30`, `${order.code} expires_soon 10`]);
  });

  it('a late first check fires once, for the tightest window entered; an extension arms the alerts again', async () => {
    const { client, onEvent } = setUp();
    const fired: number[] = [];
    const tracker = createOrderTracker({ client, onEvent, onDeadline: (_order, _kind, info) => void fired.push(info.leadMs / MINUTE) });
    const order = mock.orders.create();
    await tracker.track(order);
    const expires = Date.parse(order.expires_at as string);
    expect(await tracker.checkDeadlines(new Date(expires - 5 * MINUTE))).toBe(1);
    expect(fired).toEqual([10]);

    const later = expires + 60 * MINUTE;
    mock.orders.extend(order.code, { expires_at: later });
    await tracker.reconcile();
    expect(await tracker.checkDeadlines(new Date(later - 20 * MINUTE))).toBe(1);
    expect(fired).toEqual([10, 30]);
  });

  it("fires 'dispatch_due' for an accepted order, and fires again at the next check when onDeadline threw", async () => {
    const { client, onEvent, logger } = setUp();
    const kinds: string[] = [];
    let fail = true;
    const tracker = createOrderTracker({
      client,
      onEvent,
      logger,
      dispatchWithinMs: 2 * 60 * MINUTE,
      onDeadline: (_order, kind) => {
        if (fail) throw new Error('pager down');
        kinds.push(kind);
      },
    });
    const { code } = mock.orders.create();
    const accepted = mock.orders.autoAccept(code);
    await tracker.track(accepted);
    const due = Date.parse(accepted.dispatch_until as string);
    expect(await tracker.checkDeadlines(new Date(due - 3 * 60 * MINUTE))).toBe(0);
    expect(await tracker.checkDeadlines(new Date(due - 90 * MINUTE))).toBe(0);
    fail = false;
    expect(await tracker.checkDeadlines(new Date(due - 80 * MINUTE))).toBe(1);
    expect(await tracker.checkDeadlines(new Date(due - 70 * MINUTE))).toBe(0);
    expect(kinds).toEqual(['dispatch_due']);
  });
});

describe('pollOpenOrders', () => {
  it('picks up an open order it never heard of as new_order from reconcile, once', async () => {
    const { client, events, onEvent } = setUp();
    const tracker = createOrderTracker({ client, onEvent, pollOpenOrders: true });
    const known = mock.orders.create();
    await tracker.track(known);
    const unseen = mock.orders.create();
    expect(await tracker.reconcile()).toBe(1);
    expect(events.map((e) => [e.event.event_type, e.event.order.code, e.context.source])).toEqual([['new_order', unseen.code, 'reconcile']]);
    expect((await tracker.tracked()).map((t) => [t.order.code, t.handed])).toEqual([
      [known.code, true],
      [unseen.code, true],
    ]);
    expect(await tracker.reconcile()).toBe(0);
  });

  it('an order found while onEvent fails is held (its deadlines watched) and offered again until taken', async () => {
    const { client, events, onEvent, logger } = setUp();
    let down = true;
    const fired: string[] = [];
    const tracker = createOrderTracker({
      client,
      logger,
      pollOpenOrders: true,
      onDeadline: (order, kind) => void fired.push(`${order.code} ${kind}`),
      onEvent: (event, context) => {
        if (down) throw new Error('down');
        onEvent(event, context);
      },
    });
    const order = mock.orders.create();
    expect(await tracker.reconcile()).toBe(1);
    expect((await tracker.tracked())[0]?.handed).toBe(false);
    expect(await tracker.checkDeadlines(new Date(Date.parse(order.expires_at as string) - 5 * MINUTE))).toBe(1);
    expect(fired).toEqual([`${order.code} expires_soon`]);
    down = false;
    expect(await tracker.reconcile()).toBe(1);
    expect(events.map((e) => e.event.event_type)).toEqual(['new_order']);
    expect((await tracker.tracked())[0]?.handed).toBe(true);
  });

  it('stops using the listing in this process after a 404', async () => {
    const { client, events, onEvent, logger, warnings } = setUp({ ordersListing: 404 });
    const tracker = createOrderTracker({ client, onEvent, pollOpenOrders: true, logger });
    mock.orders.create();
    expect(await tracker.reconcile()).toBe(0);
    expect(warnings.join('\n')).toContain('the orders listing is not available for this shop');
    mock.orders.setListing('served');
    expect(await tracker.reconcile()).toBe(0);
    expect(requestsTo('/merchants/ecommerce/orders')).toBe(1);
    expect(events).toEqual([]);
  });
});

describe('start', () => {
  it('reconciles and checks deadlines on its schedule until the signal aborts, then settles', async () => {
    const { client, events, onEvent } = setUp();
    const kinds: string[] = [];
    const tracker = createOrderTracker({
      client,
      onEvent,
      reconcileEveryMs: 5,
      checkDeadlinesEveryMs: 5,
      // The order below expires in 24 hours: a lead time of 25 hours has it due at once.
      expiresWithinMs: 25 * 60 * MINUTE,
      onDeadline: (order, kind) => void kinds.push(`${order.code} ${kind}`),
    });
    const { code } = mock.orders.create();
    const stillOpen = mock.orders.create().code;
    await tracker.track(await client.orders.get(code));
    await tracker.track(await client.orders.get(stillOpen));
    mock.orders.cancel(code);
    const stop = new AbortController();
    const running = tracker.start({ signal: stop.signal });
    const due = `${stillOpen} expires_soon`;
    for (let i = 0; i < 2_000 && (events.length === 0 || !kinds.includes(due)); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort();
    await running;
    expect(events.map((e) => e.event.changes)).toEqual([{ state: { old: 'open', new: 'cancelled' } }]);
    expect(kinds.filter((kind) => kind === due)).toEqual([due]);
  });
});

describe("createOrderTracker from 'emporio' (its code loaded with the first call)", () => {
  it('is the same tracker: a cancellation found by reconcile, an alert before expiry', async () => {
    const { client, events, onEvent, logger } = setUp();
    const alerts: string[] = [];
    const tracker = createFromRoot({ client, onEvent, logger, onDeadline: (order, kind) => void alerts.push(`${order.code} ${kind}`) });
    const { code, expires_at } = mock.orders.create();
    expect(await tracker.track(await client.orders.get(code))).toBe(true);
    expect((await tracker.tracked()).map((held) => held.order.code)).toEqual([code]);
    expect(await tracker.checkDeadlines(new Date(Date.parse(expires_at as string) - 5 * MINUTE))).toBe(1);
    expect(alerts).toEqual([`${code} expires_soon`]);
    mock.orders.cancel(code);
    expect(await tracker.reconcile()).toBe(1);
    expect(events.map(({ event, context }) => [event.order.state, context.source])).toEqual([['cancelled', 'reconcile']]);
  });

  it('a bad option rejects every call with the TypeError naming it, and nothing is read', async () => {
    const { client, onEvent } = setUp();
    const tracker = createFromRoot({ client, onEvent, reconcileEveryMs: -1 });
    await expect(tracker.reconcile()).rejects.toThrow(new TypeError('createOrderTracker: reconcileEveryMs must be a positive number of milliseconds'));
    await expect(tracker.start()).rejects.toBeInstanceOf(TypeError);
    expect(mock.requests).toHaveLength(0);
  });
});
