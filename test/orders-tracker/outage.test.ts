/**
 * The outage of issue "never miss an order", replayed against the mock with the service's retry
 * schedule (4 attempts, shortened): the merchant's order system is down (its handler throws) for
 * longer than the retries last. The webhook's attempts all fail; the tracker, listing open orders,
 * finds the order, warns before it expires, and hands it over once the system is back: it is
 * accepted before its expiry. Simulated time moves by steps (the mock clock and `checkDeadlines(now)`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MarketplaceClient, type Order, type WebhookEvent } from 'emporio';
import { createOrderTracker } from 'emporio/orders-tracker';
import { createMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler } from 'emporio/webhooks';
import { expect, it } from 'vitest';

const MINUTE = 60_000;

it('an order placed while the order system is down for 25 minutes is alerted before it expires and accepted once the system is back', async () => {
  // The service's schedule: 4 attempts about 5 minutes apart, here 30 ms apart.
  const mock = createMockMarketplace({ seedDemoOrders: false, webhookIntervalMs: 30, webhookMaxAttempts: 4 });
  const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, token: mock.tokens.orders, fetch: mock.fetch, maxRetries: 0 });
  let down = true;
  const handled: string[] = [];
  /** The merchant's order system: accepts each new order with its first offered options. */
  const orderSystem = async (event: { event_type: string; order: Order }) => {
    if (down) throw new Error('order system unavailable');
    if (event.event_type !== 'new_order') return;
    const options = event.order.accept_options;
    await client.orders.accept(event.order.code, {
      pickup_location: options?.pickup_location?.[0]?.id as string,
      pickup_window: options?.pickup_window?.[0]?.id as number,
      number_of_parcels: 1,
    });
    handled.push(event.order.code);
  };
  const alerts: { code: string; kind: string; at: number }[] = [];
  let simulatedNow = mock.clock.now();
  const tracker = createOrderTracker({
    client,
    pollOpenOrders: true,
    logger: { warn: () => {} },
    onEvent: async (event) => {
      await orderSystem(event);
      await tracker.track(event);
    },
    onDeadline: (order, kind) => void alerts.push({ code: order.code, kind, at: simulatedNow }),
  });
  // The webhook as the README advises: throwing while the system is down, so the service retries.
  const handler = createWebhookHandler({
    allowedRanges: false,
    urlSecret: false,
    onError: () => {},
    onEvent: async (event: WebhookEvent) => {
      if (!('order' in event) || event.order === undefined || 'raw' in event) return;
      await orderSystem(event as { event_type: string; order: Order });
      await tracker.track(event);
    },
  });
  const receiver = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    mock.webhooks.register(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    const t0 = mock.clock.now();
    const order = mock.orders.create({ expires_at: new Date(t0 + 40 * MINUTE).toISOString() });
    const expiresAt = t0 + 40 * MINUTE;
    await mock.webhooks.idle();
    expect(mock.webhooks.deliveries.map((d) => d.status)).toEqual([500, 500, 500, 500]);

    // Every 5 simulated minutes: a reconcile, and a deadline check; the system is back after 25.
    for (let minute = 5; minute <= 35 && handled.length === 0; minute += 5) {
      mock.clock.advance(5 * MINUTE);
      simulatedNow = t0 + minute * MINUTE;
      if (minute >= 25) down = false;
      await tracker.reconcile();
      await tracker.checkDeadlines(new Date(simulatedNow));
    }
    expect(handled).toEqual([order.code]);
    expect(mock.orders.get(order.code)?.state).toBe('accepted');
    expect(alerts).toEqual([{ code: order.code, kind: 'expires_soon', at: t0 + 10 * MINUTE }]);
    expect(alerts[0]?.at).toBeLessThan(expiresAt);
    expect(mock.clock.now()).toBeLessThan(expiresAt);
    // Accepted: the tracker now watches its dispatch deadline instead.
    await mock.webhooks.idle();
    expect((await tracker.tracked()).map((t) => [t.order.code, t.order.state, t.handed])).toEqual([[order.code, 'accepted', true]]);
  } finally {
    mock.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
