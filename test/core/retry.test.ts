import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConnectionError, InternalServerError, NotFoundError } from 'emporio';
import { BASE, makeClient, recordingLogger, useMswServer } from '../helpers/server';

const server = useMswServer();
const ORDER = `${BASE}/merchants/ecommerce/orders/:code`;
const PRODUCT = { product_id: 'A1', quantity: 3, enabled: true, price: 1999 };

/** Answers the given statuses in turn, then 200 with `ok`. Counts calls. */
function sequence(method: 'get' | 'post', url: string, statuses: number[], ok: Record<string, unknown>, headers: Record<string, string> = {}) {
  const state = { calls: 0 };
  server.use(
    http[method](url, () => {
      const status = statuses[state.calls++];
      if (status === undefined) return HttpResponse.json(ok);
      if (status === 0) return HttpResponse.error();
      return HttpResponse.json({ errors: [{ code: 'e', messages: ['transient'] }] }, { status, headers });
    }),
  );
  return state;
}

describe('retries', () => {
  it.each([500, 502, 503, 504, 0])('retries a GET after %i and succeeds', async (status) => {
    const state = sequence('get', ORDER, [status, status], { order: { code: 'A' } });
    const order = await makeClient({ maxRetries: 2 }).orders.get('A');
    expect(order.code).toBe('A');
    expect(state.calls).toBe(3);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const state = sequence('get', ORDER, [503, 503, 503, 503], { order: { code: 'A' } });
    await expect(makeClient({ maxRetries: 2 }).orders.get('A')).rejects.toBeInstanceOf(InternalServerError);
    expect(state.calls).toBe(3);
  });

  it('takes maxRetries per request over the client setting', async () => {
    const state = sequence('get', ORDER, [503, 503, 503], { order: { code: 'A' } });
    await expect(makeClient({ maxRetries: 5 }).orders.get('A', { maxRetries: 1 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(state.calls).toBe(2);
  });

  it('does not retry a client error', async () => {
    const state = sequence('get', ORDER, [404], { order: { code: 'A' } });
    await expect(makeClient({ maxRetries: 2 }).orders.get('A')).rejects.toBeInstanceOf(NotFoundError);
    expect(state.calls).toBe(1);
  });

  it('never repeats an order action, whatever the failure', async () => {
    for (const status of [500, 503]) {
      const state = sequence('post', `${ORDER}/accept`, [status, status], { success: true });
      await expect(
        makeClient({ maxRetries: 3 }).orders.accept('A', { pickup_location: 'L', pickup_window: 1 }),
      ).rejects.toBeInstanceOf(InternalServerError);
      expect(state.calls).toBe(1);
    }
    const dropped = sequence('post', `${ORDER}/set_as_not_ready`, [0, 0], { success: true });
    // The lost-answer check reads the order once; here that read fails too, so the original error stands.
    server.use(http.get(ORDER, () => HttpResponse.json({ errors: [{ code: 'x', messages: ['down'] }] }, { status: 404 })));
    await expect(makeClient({ maxRetries: 3 }).orders.setAsNotReady('A')).rejects.toBeInstanceOf(ConnectionError);
    expect(dropped.calls).toBe(1);
  });

  it('retries the Products API calls, which set absolute values', async () => {
    const state = sequence('post', `${BASE}/merchants/products/batch`, [503, 0], { success: true });
    await makeClient({ maxRetries: 2 }).products.batchUpdate([PRODUCT]);
    expect(state.calls).toBe(3);
  });

  it('honours Retry-After', async () => {
    const { lines, logger } = recordingLogger();
    sequence('get', ORDER, [503], { order: { code: 'A' } }, { 'retry-after': '0.25' });
    await makeClient({ maxRetries: 1, logger }).orders.get('A');
    expect(lines.some((l) => l.startsWith('retry 1/1 in 250 ms'))).toBe(true);
  });

  it('waits for the reset after a 403 rate limit, then retries', async () => {
    const { lines, logger } = recordingLogger();
    const reset = Math.ceil(Date.now() / 1000) + 1;
    let calls = 0;
    let retriedAt = 0;
    server.use(
      http.get(`${BASE}/categories/:id`, () => {
        if (calls++ === 0) {
          return HttpResponse.json(
            { message: 'Rate limit exceeded' },
            { status: 403, headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } },
          );
        }
        retriedAt = Date.now();
        return HttpResponse.json({ category: { id: 7 } });
      }),
    );
    const category = await makeClient({ maxRetries: 1, logger }).catalog.categories.get(7);
    expect(category.id).toBe(7);
    expect(calls).toBe(2);
    expect(retriedAt).toBeGreaterThanOrEqual(reset * 1000);
    expect(lines.some((l) => l.includes('Rate limit exceeded'))).toBe(true);
  });

  it('backs off with jitter: waits stay within the exponential ceiling', async () => {
    const { lines, logger } = recordingLogger();
    sequence('get', ORDER, [503, 503, 503], { order: { code: 'A' } });
    await makeClient({ maxRetries: 3, logger }).orders.get('A').catch(() => undefined);
    const waits = lines.filter((l) => l.startsWith('retry')).map((l) => Number(/in (\d+) ms/.exec(l)?.[1]));
    expect(waits).toHaveLength(3);
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(500 * 2 ** i);
    });
  });

  it('stops waiting between attempts when the caller aborts', async () => {
    sequence('get', ORDER, [503, 503, 503], { order: { code: 'A' } }, { 'retry-after': '30' });
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = makeClient({ maxRetries: 3 }).orders.get('A', { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });
});
