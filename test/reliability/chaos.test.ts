/**
 * Fault injection with the testing kit's chaos mode: 20% of requests fail in total, spread over
 * 5xx answers, time-outs and dropped connections, before or after the request takes effect.
 * The client gets enough retries for that rate: what this proves is that nothing is lost or
 * applied twice, not a retry count. Everything runs over a real loopback server.
 */
import { inspect } from 'node:util';
import { MarketplaceClient, type Order, type ProductUpdate } from 'emporio';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UPDATES = 10_000;
const ORDERS = 30;
const FAULT_RATE = 0.2;
/** The client gives up on an attempt after this; the mock's time-out faults hold answers longer. */
const CLIENT_TIMEOUT_MS = 400;

let server: RunningMockMarketplace;
let client: MarketplaceClient;
const logLines: string[] = [];
/** Every error the SDK handed to the caller during the run, for the token check. */
const surfaced: unknown[] = [];

const asked = (i: number): ProductUpdate => ({
  product_id: `chaos-${i}`,
  quantity: (i * 7) % 101,
  enabled: i % 3 !== 0,
  price: 500 + i,
  ...(i % 50 === 0 ? { variations: [{ variation_id: `chaos-${i}-v`, quantity: i % 9, enabled: true, price: 700 + i }] } : {}),
});

async function* feed() {
  for (let i = 0; i < UPDATES; i++) yield asked(i);
}

/**
 * What an application does around an order action: try it; when it fails, read the order
 * (reads are retried by the SDK) and try again only if the effect is not there.
 */
async function untilDone(action: () => Promise<void>, code: string, done: (order: Order) => boolean): Promise<number> {
  for (let attempt = 1; attempt <= 10; attempt++) {
    try {
      await action();
      return attempt;
    } catch (error) {
      surfaced.push(error);
      const order = await client.orders.get(code).catch((readError: unknown) => {
        surfaced.push(readError);
        return undefined;
      });
      if (order && done(order)) return attempt;
    }
  }
  throw new Error(`order ${code}: the action did not take effect in 10 attempts`);
}

describe('chaos: 20% of requests fail (5xx, time-out, dropped connection)', () => {
  let report: Awaited<ReturnType<MarketplaceClient['products']['updateMany']>>;
  const codes: { accept: string[]; reject: string[] } = { accept: [], reject: [] };

  beforeAll(async () => {
    server = await startMockMarketplace({
      port: 0,
      seed: 7,
      seedDemoOrders: false,
      faults: { rate: FAULT_RATE, kinds: ['5xx', 'timeout', 'drop'], phase: 'both', delayMs: 1_500, seed: 20260330 },
    });
    const sink = (message: string, details?: Record<string, unknown>) => {
      logLines.push(details ? `${message} ${JSON.stringify(details)}` : message);
    };
    client = new MarketplaceClient({
      baseUrl: server.url,
      vendor: 'marketplace',
      tokens: server.mock.tokens,
      timeout: CLIENT_TIMEOUT_MS,
      maxRetries: 8,
      logger: { debug: sink, info: sink, warn: sink, error: sink },
      hooks: {
        onRequest: (event) => sink('hook request', event),
        onResponse: (event) => sink('hook response', event),
      },
    });

    report = await client.products.updateMany(feed());

    for (let i = 0; i < ORDERS; i++) {
      const order = server.mock.orders.create();
      (i % 3 === 2 ? codes.reject : codes.accept).push(order.code);
    }
    for (const code of codes.accept) {
      const order = await client.orders.get(code);
      const options = order.accept_options;
      const pickup_location = options?.pickup_location?.[0]?.id as string;
      const pickup_window = options?.pickup_window?.[0]?.id as number;
      await untilDone(() => client.orders.accept(code, { pickup_location, pickup_window }), code, (o) => o.state === 'accepted');
      await untilDone(() => client.orders.setAsReady(code), code, (o) => o.is_ready_for_dispatch === true);
    }
    for (const code of codes.reject) {
      await untilDone(
        () => client.orders.reject(code, { rejection_reason_other: 'Out of stock' }),
        code,
        (o) => o.state === 'rejected',
      );
    }
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('really failed about a fifth of the requests, in all three ways, before and after the effect', () => {
    const faults = server.mock.faults.log;
    const requests = server.mock.requests.length;
    expect(requests).toBeGreaterThan(UPDATES / 500 + ORDERS * 2);
    expect(faults.length / requests).toBeGreaterThan(0.1);
    expect(faults.length / requests).toBeLessThan(0.3);
    expect(new Set(faults.map((f) => f.kind))).toEqual(new Set(['5xx', 'timeout', 'drop']));
    expect(new Set(faults.map((f) => f.phase))).toEqual(new Set(['before', 'after']));
    expect(faults.some((f) => f.path === '/merchants/products/batch')).toBe(true);
    // Lost answers of order actions that did take effect: the case exactly-once is about.
    expect(faults.some((f) => f.phase === 'after' && f.method === 'POST' && f.path.startsWith('/merchants/ecommerce/orders/'))).toBe(true);
  });

  it('updateMany: the final inventory is exactly what was asked, and the report lists no failures', () => {
    expect(report.failed).toEqual([]);
    expect(report.duplicates).toEqual([]);
    expect(report.applied).toHaveLength(UPDATES);
    expect(new Set(report.applied).size).toBe(UPDATES);
    const inventory = server.mock.inventory;
    expect(inventory.size).toBe(UPDATES);
    for (let i = 0; i < UPDATES; i++) {
      const want = asked(i);
      const { updates: _count, ...have } = inventory.get(want.product_id) ?? { updates: 0 };
      expect(have).toEqual(want);
    }
  });

  it('order actions took effect exactly once each, whatever was lost on the way', () => {
    const stateChanges = (code: string, state: string) =>
      server.mock.events.filter(
        (e) => e.order.code === code && e.event_type === 'order_updated' && e.changes?.state?.new === state,
      ).length;
    for (const code of codes.accept) {
      expect(stateChanges(code, 'accepted'), code).toBe(1);
      expect(server.mock.orders.get(code)?.is_ready_for_dispatch, code).toBe(true);
    }
    for (const code of codes.reject) expect(stateChanges(code, 'rejected'), code).toBe(1);
    // The SDK itself never repeats an action: each order action reached the mock once per call.
    const actionRequests = server.mock.requests.filter((r) => r.method === 'POST' && r.path.includes('/orders/'));
    expect(actionRequests.length).toBeLessThanOrEqual(codes.accept.length * 2 + codes.reject.length + surfaced.length);
  });

  it('no token appears in any error or log line produced under the faults', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.some((line) => line.startsWith('retry'))).toBe(true);
    const texts = [
      ...logLines,
      ...surfaced.flatMap((error) => [String(error), inspect(error, { depth: 8 }), JSON.stringify(error) ?? '']),
    ];
    for (const token of Object.values(server.mock.tokens)) {
      for (const text of texts) expect(text).not.toContain(token);
    }
  });
});
