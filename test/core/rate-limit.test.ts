import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RateLimitBudgetError, RateLimitError } from 'emporio';
import { BASE, makeClient, useMswServer } from '../helpers/server';

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
