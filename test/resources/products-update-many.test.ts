import { InternalServerError, RequestValidationError, UnprocessableEntityError } from 'emporio';
import type { UpdateManyProgress, UpdateManyReport } from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const BATCH = `${BASE}/merchants/products/batch`;
const client = makeClient({ maxRetries: 0 });

const id = (n: number) => `P-${String(n).padStart(5, '0')}`;
const update = (n: number) => ({ product_id: id(n), quantity: n % 7, enabled: n % 3 !== 0, price: 100 + n });
const scanning = () =>
  HttpResponse.json({ errors: [{ code: 'invalid_shop_state', messages: ['We are currently scanning your XML. Please try again later.'] }] }, { status: 422 });

/** The batch endpoint: records each request's product ids; `answer` decides per request. */
function batchEndpoint(answer: (ids: string[], attempt: number) => Response = () => HttpResponse.json({ success: true })) {
  const requests: string[][] = [];
  server.use(
    http.post(BATCH, async ({ request }) => {
      const body = (await request.json()) as { data: { product_id: string }[] };
      const ids = body.data.map((u) => u.product_id);
      requests.push(ids);
      return answer(ids, requests.length);
    }),
  );
  return requests;
}

/** Every input id in exactly one of applied and failed; duplicates listed apart. */
function expectAccounted(report: UpdateManyReport, inputIds: string[]) {
  const applied = new Set(report.applied);
  const failed = report.failed.map((f) => f.product_id);
  expect(applied.size).toBe(report.applied.length);
  expect(failed.filter((f) => applied.has(f))).toEqual([]);
  expect(new Set([...report.applied, ...failed])).toEqual(new Set(inputIds));
  expect(report.applied.length + report.failed.length + report.duplicates.length).toBe(inputIds.length);
}

describe('products.updateMany', () => {
  it('2,501 updates with one invalid row and one chunk failing for good: every id accounted for', async () => {
    const updates: unknown[] = Array.from({ length: 2501 }, (_, n) => update(n));
    updates[1234] = { ...update(1234), price: -1 };
    // The 4th request (rows 1501..2000 once row 1234 is left out) always fails with a 500.
    const failing = id(1800);
    const requests = batchEndpoint((ids) =>
      ids.includes(failing) ? HttpResponse.json({ errors: [] }, { status: 500, headers: { 'retry-after': '0' } }) : HttpResponse.json({ success: true }),
    );
    const progress: UpdateManyProgress[] = [];
    const report = await makeClient({ maxRetries: 1 }).products.updateMany(updates as never, { onProgress: (p) => progress.push(p) });

    const sentIds = requests.flat();
    expect(requests.map((r) => r.length)).toEqual([500, 500, 500, 500, 500, 500]); // the failing one tried twice
    expect(sentIds).not.toContain(id(1234));
    const failedChunk = Array.from({ length: 500 }, (_, k) => id(1501 + k));
    expect(requests[3]).toEqual(failedChunk);
    expect(requests[4]).toEqual(failedChunk); // the transport's retry of a transient failure

    expect(report.requests).toBe(6); // every request on the wire, the retry included
    expect(report.duplicates).toEqual([]);
    expect(report.failed[0]?.product_id).toBe(id(1234));
    expect(report.failed[0]?.error).toBeInstanceOf(RequestValidationError);
    expect((report.failed[0]?.error as RequestValidationError | undefined)?.issues).toEqual([{ path: [1234, 'price'], message: expect.any(String) }]);
    expect(report.failed.slice(1).map((f) => f.product_id)).toEqual(failedChunk);
    expect(report.failed.slice(1).every((f) => f.error instanceof InternalServerError)).toBe(true);
    expect(report.applied).toHaveLength(2000);
    expect(report.applied).not.toContain(failing);
    expectAccounted(report, updates.map((_, n) => id(n)));

    expect(progress).toHaveLength(5);
    expect(progress.at(-1)).toEqual({ sent: 2500, applied: 2000, failed: 501, total: 2501 });
    expect(progress.map((p) => p.sent)).toEqual([500, 1000, 1500, 2000, 2500]);
  });

  it('streams an async generator, reading ahead no more than the chunks in flight', async () => {
    let yielded = 0;
    async function* feed() {
      for (let n = 0; n < 3000; n++) {
        yielded++;
        yield update(n);
      }
    }
    const yieldedAtRequest: number[] = [];
    batchEndpoint(() => {
      yieldedAtRequest.push(yielded);
      return HttpResponse.json({ success: true });
    });
    const progress: UpdateManyProgress[] = [];
    const report = await client.products.updateMany(feed(), { onProgress: (p) => progress.push(p) });
    expect(report.requests).toBe(6);
    expect(report.applied).toHaveLength(3000);
    // Request k (from 0) leaves while chunk k+1 at most is being filled: never the whole feed.
    for (const [k, count] of yieldedAtRequest.entries()) expect(count).toBeLessThanOrEqual(500 * (k + 2));
    expect(yieldedAtRequest[0]).toBeLessThan(3000);
    expect(progress.every((p) => p.total === undefined && !('total' in p))).toBe(true);
  });

  it('sends the first occurrence of a product id and lists later ones as duplicates', async () => {
    function* feed() {
      for (let n = 0; n < 700; n++) yield update(n);
      yield { ...update(3), price: 1 };
      yield update(699);
      yield update(3);
    }
    const requests = batchEndpoint();
    const report = await client.products.updateMany(feed());
    expect(report.duplicates).toEqual([id(3), id(699), id(3)]);
    const sent = requests.flat();
    expect(sent).toHaveLength(700);
    expect(new Set(sent).size).toBe(700);
    expect(report.applied).toHaveLength(700);
    expectAccounted(report, [...Array.from({ length: 700 }, (_, n) => id(n)), id(3), id(699), id(3)]);
  });

  it('waits out a "scanning your XML" answer and sends the chunk again', async () => {
    const requests = batchEndpoint((_ids, attempt) => (attempt === 1 ? scanning() : HttpResponse.json({ success: true })));
    const report = await client.products.updateMany(
      Array.from({ length: 10 }, (_, n) => update(n)),
      { shopBusy: { delay: 5 } },
    );
    expect(requests).toHaveLength(2);
    expect(requests[1]).toEqual(requests[0]);
    expect(report).toEqual({ applied: requests[0], unchanged: [], failed: [], batches: [], duplicates: [], requests: 2 });
  });

  it('gives up on a scan after the configured number of retries', async () => {
    const requests = batchEndpoint(() => scanning());
    const report = await client.products.updateMany([update(1), update(2)], { shopBusy: { retries: 2, delay: 1 } });
    expect(requests).toHaveLength(3);
    expect(report.requests).toBe(3);
    expect(report.applied).toEqual([]);
    expect(report.failed.map((f) => f.product_id)).toEqual([id(1), id(2)]);
    expect(report.failed[0]?.error).toBeInstanceOf(UnprocessableEntityError);
    expect(report.failed[0]?.error).toMatchObject({ code: 'invalid_shop_state' });
  });

  it('does not wait out the other invalid_shop_state answer', async () => {
    const requests = batchEndpoint(() =>
      HttpResponse.json({ errors: [{ code: 'invalid_shop_state', messages: ['Shop is not in a valid state to perform this action.'] }] }, { status: 422 }),
    );
    const report = await client.products.updateMany([update(1)], { shopBusy: { delay: 1 } });
    expect(requests).toHaveLength(1);
    expect(report.failed).toHaveLength(1);
  });

  it('reports updates without a usable product id, and sends the rest', async () => {
    const requests = batchEndpoint();
    const report = await client.products.updateMany([update(1), { quantity: 1 } as never, { ...update(2), product_id: 42 } as never, update(3)]);
    expect(requests).toEqual([[id(1), id(3)]]);
    expect(report.failed.map((f) => [f.product_id, (f.error as RequestValidationError).issues[0]?.path])).toEqual([
      ['', [1, 'product_id']],
      ['42', [2, 'product_id']],
    ]);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server.use(
      http.post(BATCH, async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return HttpResponse.json({ success: true });
      }),
    );
    const report = await client.products.updateMany(
      Array.from({ length: 4000 }, (_, n) => update(n)),
      { concurrency: 3 },
    );
    expect(report.requests).toBe(8);
    expect(report.applied).toHaveLength(4000);
    expect(most).toBe(3);
  });

  it.each([
    ['with', { 'X-RateLimit-Limit': '100' }],
    ['without', {}], // document 1 does not show the merchant limits: Remaining and Reset must suffice
  ])('holds the next batch until X-RateLimit-Reset when an answer says Remaining 0 (%s a Limit header)', async (_with, limit) => {
    const paced = makeClient({ maxRetries: 0 });
    const arrivals: number[] = [];
    let resetMs = 0;
    const requests = batchEndpoint((_ids, attempt) => {
      arrivals.push(Date.now());
      if (attempt !== 1) return HttpResponse.json({ success: true });
      const reset = Math.ceil(Date.now() / 1000) + 1; // epoch seconds, 1-2 s ahead
      resetMs = reset * 1000;
      return HttpResponse.json(
        { success: true },
        { headers: { ...limit, 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) } },
      );
    });
    const report = await paced.products.updateMany(Array.from({ length: 1000 }, (_, n) => update(n)));
    expect(requests.map((r) => r.length)).toEqual([500, 500]);
    expect(arrivals[1]).toBeGreaterThanOrEqual(resetMs - 50);
    expect(report).toEqual({ applied: Array.from({ length: 1000 }, (_, n) => id(n)), unchanged: [], failed: [], batches: [], duplicates: [], requests: 2 });
    if ('X-RateLimit-Limit' in limit) expect(paced.rateLimit).toEqual({ limit: 100, remaining: 0, reset: resetMs / 1000 });
    else expect(paced.rateLimit).toBeUndefined(); // client.rateLimit reports whole figures only
  });

  it('refuses bad options and input before sending', async () => {
    const requests = batchEndpoint();
    await expect(client.products.updateMany([update(1)], { concurrency: 0 })).rejects.toMatchObject({ issues: [{ path: ['concurrency'] }] });
    await expect(client.products.updateMany(42 as never)).rejects.toBeInstanceOf(RequestValidationError);
    expect(requests).toHaveLength(0);
  });

  it('an abort rejects with the signal reason, after the requests in flight settle', async () => {
    const controller = new AbortController();
    const requests = batchEndpoint(() => {
      controller.abort(new Error('stop'));
      return HttpResponse.json({ success: true });
    });
    await expect(
      client.products.updateMany(Array.from({ length: 1500 }, (_, n) => update(n)), {}, { signal: controller.signal }),
    ).rejects.toThrow('stop');
    expect(requests).toHaveLength(1);
  });
});
