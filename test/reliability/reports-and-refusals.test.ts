/**
 * Refusals that say what they are, and updateMany reports that tell the truth under
 * retries, lost answers and throwing inputs (issue 13 items 9, 11, 15; issue 14 item 12).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InternalServerError,
  MarketplaceClient,
  type ProductUpdate,
  RateLimitBudgetError,
  RateLimitError,
  type UpdateManyProgress,
  type UpdateManyReport,
} from 'emporio';
import { safeParseWebhook } from 'emporio/webhooks';
import { recordingLogger } from '../helpers/server.js';

const TOKEN = 'tok_SECRET_products_5c1e';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A loopback server; `handle` gets the request's parsed JSON body and its 1-based number. */
async function listen(handle: (req: IncomingMessage, res: ServerResponse, n: number, body: unknown) => void) {
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      handle(req, res, ++n, text ? JSON.parse(text) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => n };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const update = (n: number): ProductUpdate => ({ product_id: `P${n}`, price: 1000 + n, enabled: true, quantity: 5 });
const client = (url: string, maxRetries = 2) => new MarketplaceClient({ baseUrl: url, vendor: 'marketplace', token: TOKEN, maxRetries });

async function rejection(promise: Promise<unknown>): Promise<Error & { report?: UpdateManyReport }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error & { report?: UpdateManyReport }) => error,
  );
}

describe('a wait the service asked for is not a daily budget (item 9)', () => {
  it('after a 429 with Retry-After: 86400, later calls are refused as the service wait, with its retryAt', async () => {
    const server = await listen((_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '86400' }));
    const sdk = client(server.url);
    await expect(sdk.orders.get('A-1')).rejects.toBeInstanceOf(RateLimitError);
    const before = Date.now() / 1000;
    const error = await rejection(sdk.orders.get('A-2'));
    expect(error).toBeInstanceOf(RateLimitBudgetError);
    const refusal = error as RateLimitBudgetError;
    expect(refusal.code).toBe('service_wait');
    expect(refusal.message).toMatch(/the service asked this token to wait until/);
    expect(refusal.message).not.toMatch(/daily budget/);
    expect(refusal.retryAt).toBeGreaterThan(before + 86_000);
    expect(server.count()).toBe(1);
  });
});

describe('a number that overflows to Infinity (item 11)', () => {
  it('the webhook parse error says so instead of "expected a string, received number"', () => {
    const result = safeParseWebhook('{"event_type": 1e999, "order": {"code": "A-1"}}');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).toMatch(/too large.*Infinity/);
  });
});

describe('updateMany reports (item 15, issue 14 item 12)', () => {
  it('requests counts every request on the wire, retries included', async () => {
    const server = await listen((_req, res, n) => (n === 1 ? json(res, 503, { errors: [] }, { 'retry-after': '0' }) : json(res, 200, { success: true })));
    const report = await client(server.url).products.updateMany([update(1), update(2)]);
    expect(report.applied).toEqual(['P1', 'P2']);
    expect(server.count()).toBe(2);
    expect(report.requests).toBe(2);
  });

  it('a request whose first answer was lost and then failed reports maybeApplied, a plain failure does not', async () => {
    const server = await listen((req, res, n, body) => {
      const ids = (body as { data: ProductUpdate[] }).data.map((u) => u.product_id);
      if (ids.includes('P1') && n === 1) {
        req.socket.destroy(); // the request arrived; its answer is lost
        return;
      }
      json(res, 500, { errors: [{ code: 'internal', messages: ['boom'] }] }, { 'retry-after': '0' });
    });
    const sdk = client(server.url, 1);
    const lost = await sdk.products.updateMany([update(1)]);
    expect(lost.failed).toHaveLength(1);
    expect(lost.failed[0]?.error).toBeInstanceOf(InternalServerError);
    expect(lost.failed[0]?.maybeApplied).toBe(true);
    expect(lost.requests).toBe(2);

    const plain = await sdk.products.updateMany([update(2)]);
    expect(plain.failed[0]?.error).toBeInstanceOf(InternalServerError);
    expect(plain.failed[0]?.maybeApplied).toBeUndefined();
  });

  it('every attempt lost: the ConnectionError is reported maybeApplied', async () => {
    const server = await listen((req) => req.socket.destroy());
    const report = await client(server.url, 1).products.updateMany([update(1)]);
    expect(report.failed[0]?.error).toBeInstanceOf(ConnectionError);
    expect(report.failed[0]?.maybeApplied).toBe(true);
  });

  it('an input iterable that throws rejects with its error, carrying the partial report', async () => {
    const server = await listen((_req, res) => json(res, 200, { success: true }));
    function* feed() {
      for (let n = 0; n < 600; n++) yield update(n);
      throw new Error('the feed broke');
    }
    const error = await rejection(client(server.url).products.updateMany(feed()));
    expect(error.message).toBe('the feed broke');
    expect(error.report?.applied).toHaveLength(500);
    expect(error.report?.requests).toBe(1);
  });

  it('an onProgress that throws rejects with its error, carrying the partial report', async () => {
    const server = await listen((_req, res) => json(res, 200, { success: true }));
    const updates = Array.from({ length: 1200 }, (_, n) => update(n));
    const error = await rejection(
      client(server.url).products.updateMany(updates, {
        onProgress: () => {
          throw new Error('progress bar broke');
        },
      }),
    );
    expect(error.message).toBe('progress bar broke');
    expect(error.report?.applied).toHaveLength(500);
  });

  it('onProgress is called when every row is invalid (no request made)', async () => {
    const server = await listen((_req, res) => json(res, 200, { success: true }));
    const progress: UpdateManyProgress[] = [];
    const rows = [{ product_id: 'P1', price: -1 }, { product_id: 'P2', quantity: 'many' }] as unknown as ProductUpdate[];
    const { lines, logger } = recordingLogger();
    const quiet = new MarketplaceClient({ baseUrl: server.url, vendor: 'marketplace', token: TOKEN, logger });
    const report = await quiet.products.updateMany(rows, { onProgress: (p) => progress.push(p) });
    expect(server.count()).toBe(0);
    expect(report.failed).toHaveLength(2);
    expect(progress).toEqual([{ sent: 0, applied: 0, failed: 2, total: 2 }]);
    expect(lines).toEqual([expect.stringMatching(/^products\.updateMany: all 2 updates failed validation, so none was sent; the first: /)]);
  });

  it('rows found invalid after the last request are reported in a final progress call', async () => {
    const server = await listen((_req, res) => json(res, 200, { success: true }));
    const progress: UpdateManyProgress[] = [];
    const rows = [...Array.from({ length: 500 }, (_, n) => update(n)), { product_id: 'bad', price: -1 }] as ProductUpdate[];
    await client(server.url).products.updateMany(rows, { onProgress: (p) => progress.push(p) });
    expect(progress.at(-1)).toEqual({ sent: 500, applied: 500, failed: 1, total: 501 });
  });
});
