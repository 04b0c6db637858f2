/**
 * The outage that "never miss an order" is about, replayed against the mock with the service's retry
 * schedule (4 attempts, shortened): the merchant's order system is down (its handler throws) for a
 * simulated 25 minutes, longer than the retries last. Without an inbox the attempts all fail, and the
 * tracker, listing open orders, finds the order; with the durable inbox the first attempt is stored and
 * retried until the system is back. Either way the order is alerted before it expires and accepted
 * once the system is back. Simulated time moves by steps (the mock clock and `checkDeadlines(now)`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MarketplaceClient, type Order, type WebhookEvent } from 'emporio';
import { createOrderTracker, type OrderTracker } from 'emporio/orders-tracker';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { createMemoryInbox, createWebhookHandler, processInbox, toNodeHandler, type WebhookHandler } from 'emporio/webhooks';
import { afterEach, expect, it } from 'vitest';

const MINUTE = 60_000;
/** The mock's clock stands still but for `advance`: simulated time, whatever the machine's pace. */
const START = Date.parse('2026-11-28T09:00:00Z');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The mock (4 attempts 30 ms apart: the service's 5 minutes, shortened), a client, and the merchant's order system. */
function shop() {
  const mock = createMockMarketplace({ seedDemoOrders: false, webhookIntervalMs: 30, webhookMaxAttempts: 4, clock: () => START });
  cleanups.push(() => mock.close());
  const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, token: mock.tokens.orders, fetch: mock.fetch, maxRetries: 0 });
  const system = { down: true, failures: 0, handled: [] as string[] };
  /** The merchant's order system: accepts each new order with its first offered options; throws while down. */
  const orderSystem = async (event: WebhookEvent) => {
    if (system.down) {
      system.failures++;
      throw new Error('order system unavailable');
    }
    if (event.event_type !== 'new_order' || !('order' in event) || event.order === undefined) return;
    const options = (event.order as Order).accept_options;
    await client.orders.accept(event.order.code, {
      pickup_location: options?.pickup_location?.[0]?.id as string,
      pickup_window: options?.pickup_window?.[0]?.id as number,
      number_of_parcels: 1,
    });
    system.handled.push(event.order.code);
  };
  return { mock, client, system, orderSystem };
}

/** Serves `handler` on loopback and registers it with the mock as the shop's webhook URL. */
async function serveWebhook(mock: MockMarketplace, handler: WebhookHandler) {
  const receiver = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });
  mock.webhooks.register(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
}

/** Simulated minutes 5 to 35, 5 at a time: the mock clock moves, `step` runs; the system is back from minute 25. */
async function simulate(mock: MockMarketplace, system: { down: boolean }, step: (now: number, minute: number) => Promise<void>) {
  const t0 = mock.clock.now();
  for (let minute = 5; minute <= 35; minute += 5) {
    mock.clock.advance(5 * MINUTE);
    if (minute >= 25) system.down = false;
    await step(t0 + minute * MINUTE, minute);
  }
}


it('without an inbox: the 4 attempts fail, the tracker finds the order in the listing, alerts before expiry, hands it over once the system is back', async () => {
  const { mock, client, system, orderSystem } = shop();
  const alerts: { kind: string; at: number }[] = [];
  let now = mock.clock.now();
  const tracker: OrderTracker = createOrderTracker({
    client,
    pollOpenOrders: true,
    logger: { warn: () => {} },
    onEvent: async (event) => {
      await orderSystem(event);
      await tracker.track(event);
    },
    onDeadline: (_order, kind) => void alerts.push({ kind, at: now }),
  });
  // The webhook as the README advises: throwing while the system is down, so the service retries.
  await serveWebhook(
    mock,
    createWebhookHandler({
      allowedRanges: false,
      urlSecret: false,
      onError: () => {},
      onEvent: async (event) => {
        await orderSystem(event);
        await tracker.track(event);
      },
    }),
  );
  const expiresAt = mock.clock.now() + 40 * MINUTE;
  const order = mock.orders.create({ expires_at: new Date(expiresAt).toISOString() });
  await mock.webhooks.idle();
  expect(mock.webhooks.deliveries.map((d) => d.status)).toEqual([500, 500, 500, 500]);

  await simulate(mock, system, async (at) => {
    now = at;
    await tracker.reconcile();
    await tracker.checkDeadlines(new Date(at));
  });
  expect(system.handled).toEqual([order.code]);
  expect(mock.orders.get(order.code)?.state).toBe('accepted');
  expect(alerts).toEqual([{ kind: 'expires_soon', at: expiresAt - 30 * MINUTE }]);
  await mock.webhooks.idle();
  expect((await tracker.tracked()).map((t) => [t.order.code, t.order.state, t.handed])).toEqual([[order.code, 'accepted', true]]);
});

it('with the inbox: the first attempt is stored, the tracker alerts before expiry while it is retried, and it is handled once the system is back', async () => {
  const { mock, client, system, orderSystem } = shop();
  const alerts: { kind: string; at: number }[] = [];
  let now = mock.clock.now();
  const tracker = createOrderTracker({ client, onEvent: orderSystem, onDeadline: (_order, kind) => void alerts.push({ kind, at: now }) });
  const inbox = createMemoryInbox();
  await serveWebhook(mock, createWebhookHandler({ inbox, allowedRanges: false, urlSecret: false }));
  const stop = new AbortController();
  const worker = processInbox({
    inbox,
    pollMs: 10,
    retryDelayMs: 10,
    logger: { warn: () => {} },
    signal: stop.signal,
    // Tracked first: its deadlines are watched while the order system is down.
    onEvent: async (event) => {
      await tracker.track(event);
      await orderSystem(event);
    },
  });
  cleanups.push(async () => {
    stop.abort();
    await worker;
  });
  const expiresAt = mock.clock.now() + 40 * MINUTE;
  const order = mock.orders.create({ expires_at: new Date(expiresAt).toISOString() });
  await mock.webhooks.idle();
  expect(mock.webhooks.deliveries.map((d) => d.status)).toEqual([200]);

  // More failures than the service's 4 attempts before the system comes back (bounded: about 0.3 s of retries).
  await waitFor(() => system.failures >= 5);
  await simulate(mock, system, async (at) => {
    now = at;
    await tracker.checkDeadlines(new Date(at));
    if (system.down || system.handled.length > 0) return;
    await waitFor(() => system.handled.length > 0);
    // The acceptance's own webhook, through the inbox to the tracker: the order is followed as accepted.
    await waitFor(async () => (await tracker.tracked())[0]?.order.state === 'accepted');
  });
  expect(system.handled).toEqual([order.code]);
  expect(mock.orders.get(order.code)?.state).toBe('accepted');
  expect(alerts).toEqual([{ kind: 'expires_soon', at: expiresAt - 30 * MINUTE }]);
  expect(await inbox.deadLetters()).toEqual([]);
});

/** Waits until `done()` holds, checking every 5 ms, for at most 10 s. */
async function waitFor(done: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 2_000 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await done()).toBe(true);
}
