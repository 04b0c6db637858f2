import { BatchItemError, BatchTimeoutError, type DriftReport, NotFoundError, RequestValidationError, ResponseValidationError, TimeoutError } from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, useMswServer } from '../helpers/server.js';
import { laterRecording, recordedPath } from '../helpers/later-recordings.js';

const server = useMswServer();
const client = makeClient({ maxRetries: 0 });
const BATCH = `${BASE}/merchants/products/batch`;
const status = (id: string) => `${BASE}/merchants/products/batch/${id}/status`;

const update = (id: string) => ({ product_id: id, quantity: 3, enabled: true, price: 1999 });

/** A batch status body: every product `in_progress` for the first `pending` reads, then as given. */
function statusBody(id: string, results: Record<string, unknown>[], state: 'in_progress' | 'completed' = 'completed') {
  return { id, status: state, created_at: '2026-09-02T15:04:44+03:00', results };
}

describe('products.batchUpdate (recorded)', () => {
  it('resolves the recorded answer { success, id } as sent, after sending the recorded body', async () => {
    const recording = laterRecording('merchants_products_batch_with_id');
    let sent: unknown;
    server.use(
      http.post(`${BASE}${recordedPath(recording)}`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(recording.response.body as object);
      }),
    );
    const data = (recording.request.params as { data: never[] }).data;
    await expect(client.products.batchUpdate(data)).resolves.toEqual({ success: true, id: '6a9810dcd4ff840001bf0f32' });
    expect(sent).toEqual({ data });
  });

  it('reads an empty 2xx (older service versions) as { success: true } without id', async () => {
    server.use(http.post(BATCH, () => new HttpResponse(null, { status: 200 })));
    await expect(client.products.batchUpdate([update('A')])).resolves.toEqual({ success: true });
  });
});

describe('products.batchStatus', () => {
  it('resolves the recorded status as sent, variations and all', async () => {
    const recording = laterRecording('merchants_products_batch_status');
    server.use(http.get(`${BASE}${recordedPath(recording)}`, () => HttpResponse.json(recording.response.body as object)));
    const answer = await client.products.batchStatus('6a9810dcd4ff840001bf0f32');
    expect(answer).toEqual(recording.response.body);
    expect(answer.results?.[0]?.variations?.[1]?.status).toBe('no_change');
  });

  it('an unknown id is the recorded 404: a NotFoundError with the service message', async () => {
    const recording = laterRecording('products_batch_status_not_found');
    server.use(http.get(`${BASE}${recordedPath(recording)}`, () => HttpResponse.json(recording.response.body as object, { status: 404 })));
    const error = await client.products.batchStatus('unknown-batch-id').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('not_found');
    expect((error as Error).message).toContain('Batch not found.');
  });

  it('is tolerant: members of another type are drift (reported, passed as sent); a body that is not an object is refused', async () => {
    const reports: DriftReport[] = [];
    server.use(http.get(status('drifted'), () => HttpResponse.json({ status: 'completed', results: [{ product_id: 7, status: 'success' }] })));
    const answer = await makeClient({ hooks: { onDrift: (r) => reports.push(r) } }).products.batchStatus('drifted');
    expect(answer.results?.[0]?.product_id).toBe(7);
    expect(reports.map((r) => r.path)).toEqual(['$.results[].product_id']);
    server.use(http.get(status('list'), () => HttpResponse.json([])));
    await expect(client.products.batchStatus('list')).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('refuses an id with a path separator before sending', async () => {
    await expect(client.products.batchStatus('../orders')).rejects.toBeInstanceOf(RequestValidationError);
  });
});

describe('products.waitForBatch', () => {
  it('reads the status until it is no longer in_progress', async () => {
    let reads = 0;
    server.use(
      http.get(status('b1'), () => {
        reads++;
        const done = reads >= 3;
        return HttpResponse.json(statusBody('b1', [{ product_id: 'A', status: done ? 'success' : 'in_progress', message: null, executed_at: null }], done ? 'completed' : 'in_progress'));
      }),
    );
    const result = await client.products.waitForBatch('b1', { intervalMs: 100 });
    expect(reads).toBe(3);
    expect(result.status).toBe('completed');
    expect(result.results?.[0]?.status).toBe('success');
  });

  it('keeps polling through a status it does not know ("pending", none, 0), reports it as drift, and stops only at completed', async () => {
    const sequence: unknown[] = ['pending', undefined, 0, 'in_progress', 'completed'];
    let reads = 0;
    server.use(
      http.get(status('odd'), () => {
        const state = sequence[Math.min(reads++, sequence.length - 1)];
        return HttpResponse.json({ id: 'odd', ...(state === undefined ? {} : { status: state }), results: [] });
      }),
    );
    const reports: DriftReport[] = [];
    const result = await makeClient({ maxRetries: 0, hooks: { onDrift: (report) => reports.push(report) } }).products.waitForBatch('odd', { intervalMs: 100 });
    expect(reads).toBe(5);
    expect(result.status).toBe('completed');
    // Once per path, as every drift is reported; the value itself is never in the report.
    expect(reports).toEqual([
      { api: 'products', method: 'GET', url: `${BASE}/merchants/products/batch/odd/status`, path: '$.status', expected: 'in_progress | completed', received: 'string' },
    ]);
  });

  it('past timeoutMs rejects with a TimeoutError carrying the last status', async () => {
    let reads = 0;
    server.use(
      http.get(status('slow'), () => {
        reads++;
        return HttpResponse.json(statusBody('slow', [{ product_id: 'A', status: 'in_progress', message: null, executed_at: null }], 'in_progress'));
      }),
    );
    const error = await client.products.waitForBatch('slow', { intervalMs: 100, timeoutMs: 250 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(BatchTimeoutError);
    expect((error as BatchTimeoutError).lastStatus?.status).toBe('in_progress');
    expect((error as BatchTimeoutError).batchId).toBe('slow');
    const readsAtTimeout = reads;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(reads).toBe(readsAtTimeout); // no read after giving up
  });

  it("stops at the caller's abort with the signal's reason, and reads no more", async () => {
    let reads = 0;
    const controller = new AbortController();
    server.use(
      http.get(status('b2'), () => {
        reads++;
        if (reads === 2) controller.abort(new Error('stop waiting'));
        return HttpResponse.json(statusBody('b2', [], 'in_progress'));
      }),
    );
    await expect(client.products.waitForBatch('b2', { intervalMs: 100, signal: controller.signal })).rejects.toThrow('stop waiting');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(reads).toBe(2);
  });

  it("stops at either signal when the wait and the call each have one", async () => {
    let reads = 0;
    const own = new AbortController();
    const call = new AbortController();
    server.use(
      http.get(status('b3'), () => {
        reads++;
        if (reads === 2) call.abort(new Error('call aborted'));
        return HttpResponse.json(statusBody('b3', [], 'in_progress'));
      }),
    );
    await expect(client.products.waitForBatch('b3', { intervalMs: 100, signal: own.signal }, { signal: call.signal })).rejects.toThrow('call aborted');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(reads).toBe(2);
    const aborted = new AbortController();
    aborted.abort(new Error('before the first read'));
    await expect(client.products.waitForBatch('b3', { signal: own.signal }, { signal: aborted.signal })).rejects.toThrow('before the first read');
    expect(reads).toBe(2);
  });

  it('a 404 ends the wait at once', async () => {
    server.use(http.get(status('gone'), () => HttpResponse.json({ errors: [{ code: 'not_found', messages: ['Batch not found.'] }] }, { status: 404 })));
    await expect(client.products.waitForBatch('gone', { intervalMs: 100 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses bad options before reading', async () => {
    await expect(client.products.waitForBatch('b', { intervalMs: -1 })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.products.waitForBatch('b', { timeoutMs: 0 })).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('refuses an intervalMs under 100 ms (a tight polling loop) before reading; 100 is taken', async () => {
    let reads = 0;
    server.use(
      http.get(status('tight'), () => {
        reads++;
        return HttpResponse.json(statusBody('tight', [], 'completed'));
      }),
    );
    for (const intervalMs of [0, 1, 99.5]) {
      const error = await client.products.waitForBatch('tight', { intervalMs }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]).toMatchObject({ path: ['intervalMs'], message: expect.stringMatching(/>= 100\b/) });
    }
    await expect(client.products.updateMany([update('A')], { awaitResults: true, waitOptions: { intervalMs: 10 } })).rejects.toBeInstanceOf(RequestValidationError);
    expect(reads).toBe(0);
    await expect(client.products.waitForBatch('tight', { intervalMs: 100 })).resolves.toMatchObject({ status: 'completed' });
    expect(reads).toBe(1);
  });

  it('refuses a timeoutMs or intervalMs past what a timer can hold (it would fire at once), before reading', async () => {
    let reads = 0;
    server.use(
      http.get(status('long'), () => {
        reads++;
        return HttpResponse.json(statusBody('long', [], 'in_progress'));
      }),
    );
    for (const options of [{ timeoutMs: 2 ** 31 }, { intervalMs: 30 * 86_400_000 }]) {
      const error = await client.products.waitForBatch('long', options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.message).toMatch(/at most 2147483647/);
    }
    expect(reads).toBe(0);
  });

  it("polls through the client's rate limiter: a token's exhausted window holds the next read until its reset", async () => {
    const times: number[] = [];
    server.use(
      http.get(status('paced'), () => {
        times.push(Date.now());
        const done = times.length >= 2;
        const reset = Math.ceil(Date.now() / 1000) + 1;
        return HttpResponse.json(statusBody('paced', [], done ? 'completed' : 'in_progress'), {
          headers: { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) },
        });
      }),
    );
    await makeClient({ maxRetries: 0 }).products.waitForBatch('paced', { intervalMs: 100 });
    expect(times).toHaveLength(2);
    // The second read waited for the window's reset (a whole second boundary after the first).
    expect(new Date(times[1] as number).getUTCSeconds()).not.toBe(new Date(times[0] as number).getUTCSeconds());
  });
});

describe('products.updateMany: batches and results', () => {
  /** The batch endpoint answers each request with the next id; status answers from `results`. */
  function service(results: Record<string, Record<string, unknown>[]>, answer: (n: number) => Response | undefined = () => undefined) {
    let requests = 0;
    server.use(
      http.post(BATCH, () => {
        requests++;
        return answer(requests) ?? HttpResponse.json({ success: true, id: `batch-${requests}` });
      }),
      http.get(`${BASE}/merchants/products/batch/:id/status`, ({ params }) => {
        const id = String(params.id);
        const list = results[id];
        if (!list) return HttpResponse.json({ errors: [{ code: 'not_found', messages: ['Batch not found.'] }] }, { status: 404 });
        return HttpResponse.json(statusBody(id, list));
      }),
    );
  }

  it('always lists the batch ids; without awaitResults, applied means taken', async () => {
    service({});
    const updates = Array.from({ length: 501 }, (_, n) => update(`P${n}`));
    const report = await client.products.updateMany(updates);
    expect(report.batches).toEqual(['batch-1', 'batch-2']);
    expect(report.applied).toHaveLength(501);
    expect(report.unchanged).toEqual([]);
    expect(report.failed).toEqual([]);
  });

  it("with awaitResults, reports each product by the service's result: success, no_change, failure per product and per variation", async () => {
    service({
      'batch-1': [
        { product_id: 'OK', status: 'success', message: null, executed_at: '2026-09-02T15:04:44+03:00' },
        { product_id: 'SAME', status: 'no_change', message: null, executed_at: '2026-09-02T15:04:44+03:00' },
        { product_id: 'BAD', status: 'failure', message: 'Product not found', executed_at: '2026-09-02T15:04:44+03:00' },
        {
          product_id: 'VAR',
          status: 'success',
          message: null,
          executed_at: '2026-09-02T15:04:44+03:00',
          variations: [
            { variation_id: 'VAR-S', status: 'success', message: null, executed_at: '2026-09-02T15:04:44+03:00' },
            { variation_id: 'VAR-L', status: 'failure', message: 'Variation not found', executed_at: '2026-09-02T15:04:44+03:00' },
          ],
        },
      ],
    });
    const report = await client.products.updateMany([update('OK'), update('SAME'), update('BAD'), update('VAR'), update('GONE')], {
      awaitResults: true,
      waitOptions: { intervalMs: 100 },
    });
    expect(report.batches).toEqual(['batch-1']);
    expect(report.applied).toEqual(['OK', 'VAR']);
    expect(report.unchanged).toEqual(['SAME']);
    const failed = report.failed.map((f) => ({ product_id: f.product_id, variation_id: f.variation_id, message: f.error.message, maybe: f.maybeApplied }));
    expect(failed).toEqual([
      { product_id: 'BAD', variation_id: undefined, message: 'Product not found', maybe: undefined },
      { product_id: 'VAR', variation_id: 'VAR-L', message: 'Variation not found', maybe: undefined },
      // Sent and taken, but the status lists no result for it: its outcome is unknown.
      { product_id: 'GONE', variation_id: undefined, message: 'the batch status lists no result for this product', maybe: true },
    ]);
    const error = report.failed[0]?.error as BatchItemError;
    expect(error).toBeInstanceOf(BatchItemError);
    expect(error.code).toBe('batch_item_failed');
    expect(error.batchId).toBe('batch-1');
  });

  it('with awaitResults, products of a batch whose results never come are failed with maybeApplied', async () => {
    service({}, (n) => (n === 1 ? HttpResponse.json({ success: true }) : undefined));
    const report = await client.products.updateMany([update('A')], { awaitResults: true, waitOptions: { intervalMs: 100 } });
    expect(report.batches).toEqual([]);
    expect(report.applied).toEqual([]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]).toMatchObject({ product_id: 'A', maybeApplied: true });
    expect(report.failed[0]?.error.message).toMatch(/no batch id/);
  });

  it('a 2xx it cannot read (an HTML page) marks the request\'s ids maybeApplied', async () => {
    service({}, () => new HttpResponse('<html><body>Accepted by the proxy</body></html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    const report = await client.products.updateMany(Array.from({ length: 3 }, (_, n) => update(`H${n}`)));
    expect(report.applied).toEqual([]);
    expect(report.failed.map((f) => [f.product_id, f.maybeApplied])).toEqual([
      ['H0', true],
      ['H1', true],
      ['H2', true],
    ]);
  });

  it('an oversized 2xx marks the request\'s ids maybeApplied', async () => {
    service({}, () => HttpResponse.json({ success: true, id: 'x', padding: 'x'.repeat(4096) }));
    const report = await makeClient({ maxRetries: 0, maxResponseBytes: 1024 }).products.updateMany([update('BIG')]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]).toMatchObject({ product_id: 'BIG', maybeApplied: true });
  });

  it("an abort while waiting for results rejects with the signal's reason, the report so far attached", async () => {
    const controller = new AbortController();
    let reads = 0;
    server.use(
      http.post(BATCH, () => HttpResponse.json({ success: true, id: 'waiting' })),
      http.get(status('waiting'), () => {
        if (++reads === 2) controller.abort(new Error('shutting down'));
        return HttpResponse.json(statusBody('waiting', [], 'in_progress'));
      }),
    );
    const error = await client.products
      .updateMany([update('W')], { awaitResults: true, waitOptions: { intervalMs: 100 } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('shutting down');
    expect((error as { report?: { batches: string[] } }).report?.batches).toEqual(['waiting']);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads).toBe(2);
  });

  it('refuses bad awaitResults options before sending anything', async () => {
    let posts = 0;
    server.use(
      http.post(BATCH, () => {
        posts++;
        return HttpResponse.json({ success: true, id: 'x' });
      }),
    );
    await expect(client.products.updateMany([update('A')], { awaitResults: 'yes' as never })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.products.updateMany([update('A')], { awaitResults: true, waitOptions: { intervalMs: -5 } })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(posts).toBe(0);
  });

  it('a refused request (4xx) is failed without maybeApplied', async () => {
    service({}, () => HttpResponse.json({ errors: [{ code: 'invalid_format', messages: ['bad'] }] }, { status: 400 }));
    const report = await client.products.updateMany([update('R')]);
    expect(report.failed[0]?.maybeApplied).toBeUndefined();
  });
});
