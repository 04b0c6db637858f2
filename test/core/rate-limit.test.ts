import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http, passthrough } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitBudgetError, RateLimitError, type RateLimitStore } from 'emporio';
import { BASE, makeClient, recordingLogger, useMswServer } from '../helpers/server';

const server = useMswServer();

function categoryServer(headersFor: (call: number) => Record<string, string> = () => ({})) {
  const arrivals: number[] = [];
  server.use(
    http.get(`${BASE}/categories/:id`, ({ params }) => {
      arrivals.push(Date.now());
      return HttpResponse.json({ category: { id: Number(params.id) } }, { headers: headersFor(arrivals.length) });
    }),
  );
  return arrivals;
}

describe('rate limits', () => {
  it('exposes the latest X-RateLimit figures as client.rateLimit', async () => {
    categoryServer((n) => ({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': String(100 - n), 'x-ratelimit-reset': '1900000000' }));
    const client = makeClient({ cache: false });
    expect(client.rateLimit).toBeUndefined();
    await client.catalog.categories.get(1);
    expect(client.rateLimit).toEqual({ limit: 100, remaining: 99, reset: 1900000000 });
    await client.catalog.categories.get(2);
    expect(client.rateLimit?.remaining).toBe(98);
  });

  it('holds the next request until the reset once Remaining is 0 (budget off too)', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 1;
    const arrivals = categoryServer(() => ({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }));
    const client = makeClient({ cache: false, rateLimit: false });
    await client.catalog.categories.get(1);
    await client.catalog.categories.get(2);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('a token whose answers carried no figures is paced again once they appear', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 1;
    const figures = { 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) };
    // Two answers without figures (nothing to pace by), then a full window.
    const arrivals = categoryServer((n) => (n <= 2 ? {} : figures));
    const client = makeClient({ cache: false, rateLimit: false });
    for (let id = 1; id <= 4; id++) await client.catalog.categories.get(id);
    expect(arrivals).toHaveLength(4);
    expect(arrivals[2]).toBeLessThan(reset * 1000);
    expect(arrivals[3]).toBeGreaterThanOrEqual(reset * 1000);
    expect(client.rateLimit).toEqual({ limit: 3, remaining: 0, reset });
  });

  it('refuses, before sending, a request that would cross the daily budget', async () => {
    const arrivals = categoryServer();
    const client = makeClient({ cache: false, rateLimit: { perDay: 3 } });
    for (let id = 1; id <= 3; id++) await client.catalog.categories.get(id);
    const error = await client.catalog.categories.get(4).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitBudgetError);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitBudgetError).retryAt % 86_400).toBe(0);
    expect(arrivals).toHaveLength(3);
  });

  it('does not budget the merchant APIs', async () => {
    let calls = 0;
    server.use(http.get(`${BASE}/merchants/ecommerce/orders/:code`, () => {
      calls++;
      return HttpResponse.json({ order: { code: 'A' } });
    }));
    const client = makeClient({ cache: false, rateLimit: { perDay: 1, perMinute: 1 } });
    for (let i = 0; i < 5; i++) await client.orders.get('A');
    expect(calls).toBe(5);
  });

  it('paces the catalog to the per-minute budget: the request over it waits (and can be aborted)', async () => {
    const arrivals = categoryServer();
    const client = makeClient({ cache: false, rateLimit: { perMinute: 2 } });
    await client.catalog.categories.get(1);
    await client.catalog.categories.get(2);
    const controller = new AbortController();
    const third = client.catalog.categories.get(3, {}, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 100));
    expect(arrivals).toHaveLength(2);
    controller.abort(new Error('enough'));
    await expect(third).rejects.toThrow('enough');
    expect(arrivals).toHaveLength(2);
  });

  it('rateLimit: false turns off only the budget', async () => {
    const arrivals = categoryServer();
    const client = makeClient({ cache: false, rateLimit: false });
    for (let id = 1; id <= 5; id++) await client.catalog.categories.get(id);
    expect(arrivals).toHaveLength(5);
  });
});

/**
 * A real loopback service that counts strictly: `limit` requests per window of `windowMs` from
 * its start, a 403 `{ message }` past it, by its own clock (`skewMs` off this host's, told in `Date`). Remaining is computed on arrival and the answer may be
 * delayed after (`slow(n)` for the n-th request), as a busy service does.
 */
async function strictService(limit: number, windowMs: number, slow: (n: number) => number = () => 0, skewMs = 0) {
  const seen = { sent: 0, refused: 0 };
  const clock = () => Date.now() + skewMs;
  let windowStart = clock();
  let used = 0;
  const service = createServer(async (req, res) => {
    for await (const _ of req); // read the body
    const n = ++seen.sent;
    const now = clock();
    if (now - windowStart >= windowMs) {
      windowStart += Math.floor((now - windowStart) / windowMs) * windowMs;
      used = 0;
    }
    used++;
    const headers = {
      'content-type': 'application/json',
      date: new Date(now).toUTCString(),
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - used)),
      'x-ratelimit-reset': String(Math.ceil((windowStart + windowMs) / 1000)),
    };
    const refused = used > limit;
    if (slow(n) > 0) await new Promise((resolve) => setTimeout(resolve, slow(n)));
    if (refused) seen.refused++;
    const body = refused ? { message: 'Rate limit exceeded' } : req.url?.includes('products') ? { success: true } : { category: { id: 1 } };
    res.writeHead(refused ? 403 : 200, headers).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  services.push(service);
  const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  server.use(http.all(`${baseUrl}/*`, () => passthrough()));
  return { seen, baseUrl };
}

const services: Server[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) {
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  }
});

describe("the service's window, with requests in flight", () => {
  it("an answer's Remaining does not count the requests still in flight: updateMany at concurrency 4 earns no 403", async () => {
    const { seen, baseUrl } = await strictService(5, 2_000, (n) => (n >= 2 && n <= 5 ? 300 : 0));
    const client = makeClient({ baseUrl, maxRetries: 0 });
    const updates = Array.from({ length: 3_000 }, (_, i) => ({ product_id: `P${i}`, quantity: 1, enabled: true, price: 100 }));
    const report = await client.products.updateMany(updates, { concurrency: 4 });
    expect(seen.refused).toBe(0);
    expect(report.failed).toEqual([]);
    expect(report.applied).toHaveLength(3_000);
  });

  it('a backlog held for the reset goes out at most Limit at a time', async () => {
    const { seen, baseUrl } = await strictService(3, 2_000);
    const client = makeClient({ baseUrl, cache: false, maxRetries: 0, rateLimit: false });
    await client.catalog.categories.get(1);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => client.catalog.categories.get(1)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(seen.refused).toBe(0);
  });
});

describe('a shared rate-limit store that is slow', () => {
  /** A store whose every step hangs: the client must not wait past the call's own bounds. */
  const hanging: RateLimitStore = { step: () => new Promise(() => {}) };

  it("waits for it no longer than the call's timeout, then sends by its own view (and says so)", async () => {
    const arrivals = categoryServer();
    const { lines, logger } = recordingLogger();
    const client = makeClient({ cache: false, rateLimit: false, rateLimitStore: hanging, logger, timeout: 200 });
    const started = Date.now();
    await client.catalog.categories.get(1);
    // A store bounds its own calls; past the call's timeout the client waits no longer.
    expect(Date.now() - started).toBeLessThan(800);
    expect(arrivals).toHaveLength(1);
    expect(lines.some((line) => line.includes("this process's own view"))).toBe(true);
  });

  it('a budgeted call fails closed: the store not answering within its timeout, it is refused unsent, never counted by this process alone', async () => {
    const arrivals = categoryServer();
    const failing: RateLimitStore = { step: () => Promise.reject(new Error('store down')) };
    const client = makeClient({ cache: false, rateLimit: { perDay: 1_000 }, rateLimitStore: failing, timeout: 600 });
    const error = await client.catalog.categories.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitBudgetError);
    expect(error).toMatchObject({ errors: [{ code: 'store_unavailable' }] });
    expect((error as Error).message).toContain('not sent');
    expect(arrivals).toHaveLength(0);
  });

  it('an abort while it waits for the store rejects at once, and nothing is sent', async () => {
    const arrivals = categoryServer();
    const client = makeClient({ cache: false, rateLimit: false, rateLimitStore: hanging, timeout: 10_000 });
    const controller = new AbortController();
    const call = client.catalog.categories.get(1, {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('enough')), 50);
    const started = Date.now();
    await expect(call).rejects.toThrow('enough');
    expect(Date.now() - started).toBeLessThan(800);
    expect(arrivals).toHaveLength(0);
  });
});

describe('many calls on one AbortSignal', () => {
  const hanging: RateLimitStore = { step: () => new Promise(() => {}) };

  it('add one listener to it, so Node warns of no leak; its abort reaches every call, and nothing is sent', async () => {
    const arrivals = categoryServer();
    const client = makeClient({ cache: false, rateLimit: false, rateLimitStore: hanging, timeout: 10_000 });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const calls = Array.from({ length: 30 }, () => client.catalog.categories.get(1, {}, { signal: controller.signal }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      controller.abort(new Error('shutting down'));
      const results = await Promise.allSettled(calls);
      expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'resolved'))).toEqual(Array(30).fill('shutting down'));
      expect(arrivals).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('leave no listener on it once they are over', async () => {
    // A fetch that answers at once and never looks at the signal: what stays on it is the SDK's.
    const fetch = async () => Response.json({ category: { id: 1 } }, { headers: { 'content-type': 'application/json' } });
    const client = makeClient({ cache: false, rateLimit: false, rateLimitStore: hanging, timeout: 100, fetch });
    const controller = new AbortController();
    const results = await Promise.all(Array.from({ length: 12 }, () => client.catalog.categories.get(1, {}, { signal: controller.signal })));
    expect(results.map((category) => category.id)).toEqual(Array(12).fill(1));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('before the first figures, and on a host whose clock is off', () => {
  it('sends one request at a time until the first answer tells the figures: 16 at once against 10 a second earn no 403', async () => {
    const { seen, baseUrl } = await strictService(10, 1_000);
    const client = makeClient({ baseUrl, cache: false, maxRetries: 0, rateLimit: false });
    const results = await Promise.allSettled(Array.from({ length: 16 }, () => client.catalog.categories.get(1)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(seen.refused).toBe(0);
    expect(seen.sent).toBe(16);
  });

  it.each([-1_500, -200])("paces by the service's Date, not this host's clock: a service %i ms behind earns no 403", async (skewMs) => {
    const { seen, baseUrl } = await strictService(4, 1_000, () => 0, skewMs);
    const client = makeClient({ baseUrl, cache: false, maxRetries: 0, rateLimit: false });
    for (let i = 0; i < 10; i++) await client.catalog.categories.get(1);
    expect(seen.refused).toBe(0);
  });
});
