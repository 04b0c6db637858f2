/** Transport edge cases: redirect memory per hop, body time-outs, option checks, 429 holds, error details. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http, passthrough } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MarketplaceClient,
  RateLimitBudgetError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
} from 'emporio';
import { BASE, makeClient, recordingLogger, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();
const redirect = (status: number, location: string, headers: Record<string, string> = {}) =>
  new HttpResponse(null, { status, headers: { location, ...headers } });
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

function hitsOf(paths: Record<string, () => Response>) {
  const hits: string[] = [];
  server.use(
    ...Object.entries(paths).map(([path, answer]) =>
      http.get(`${BASE}${path}`, () => {
        hits.push(path);
        return answer();
      }),
    ),
  );
  return hits;
}

describe('redirect memory', () => {
  it('remembers the hop that answered 301, not the 302 before it', async () => {
    const hits = hitsOf({
      '/categories/1': () => redirect(302, '/categories/2'),
      '/categories/2': () => redirect(301, '/categories/3'),
      '/categories/3': () => HttpResponse.json({ category: { id: 3 } }),
    });
    const client = makeClient({ cache: false });
    expect((await client.catalog.categories.get(1)).id).toBe(3);
    expect((await client.catalog.categories.get(1)).id).toBe(3);
    // The second call asks the temporary URL again and skips only the permanent hop.
    expect(hits).toEqual(['/categories/1', '/categories/2', '/categories/3', '/categories/1', '/categories/3']);
  });

  it('remembers a 308 like a 301', async () => {
    const hits = hitsOf({
      '/categories/5': () => redirect(308, '/categories/6'),
      '/categories/6': () => HttpResponse.json({ category: { id: 6 } }),
    });
    const client = makeClient({ cache: false });
    await client.catalog.categories.get(5);
    await client.catalog.categories.get(5);
    expect(hits).toEqual(['/categories/5', '/categories/6', '/categories/6']);
  });

  it('a redirect error carries the request id of the answer', async () => {
    hitsOf({ '/categories/7': () => redirect(302, '/categories/7', { 'x-request-id': 'req-loop-1' }) });
    const error = await rejection(makeClient({ cache: false }).catalog.categories.get(7));
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ requestId: 'req-loop-1' });
  });

  it('every hop counts against the daily budget', async () => {
    hitsOf({
      '/categories/8': () => redirect(302, '/categories/9'),
      '/categories/9': () => HttpResponse.json({ category: { id: 9 } }),
    });
    const client = makeClient({ cache: false, rateLimit: { perMinute: 100, perDay: 3 } });
    await client.catalog.categories.get(8); // two requests
    await client.catalog.categories.get(9); // the third
    expect(await rejection(client.catalog.categories.get(9))).toBeInstanceOf(RateLimitBudgetError);
  });
});

describe('time-outs', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  it('covers the body too: headers that arrive and a body that stalls give a TimeoutError', async () => {
    const stalling = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"order": {"code": "A", ');
    });
    servers.push(stalling);
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
    server.use(http.all(`${baseUrl}/*`, () => passthrough())); // a real socket that stalls
    const client = new MarketplaceClient({ baseUrl, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });
    const started = Date.now();
    const error = await rejection(client.orders.get('A', { timeout: 300 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it.each([0, -1, Number.NaN, 3e9])('refuses a per-request timeout of %s before sending', async (timeout) => {
    const hits = hitsOf({ '/categories/1': () => HttpResponse.json({ category: { id: 1 } }) });
    const error = await rejection(makeClient().catalog.categories.get(1, {}, { timeout }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['timeout']);
    expect(hits).toHaveLength(0);
  });

  it('refuses a client timeout past the longest timer', () => {
    expect(() => makeClient({ timeout: 3e9 })).toThrow(/timeout/);
  });
});

describe('429 answers', () => {
  const limited = () =>
    HttpResponse.json({ errors: [{ code: 'too_many_requests', messages: ['Slow down'] }] }, { status: 429, headers: { 'retry-after': '1' } });

  it('are retried after Retry-After', async () => {
    const arrivals: number[] = [];
    server.use(
      http.get(`${BASE}/categories/:id`, () => {
        arrivals.push(Date.now());
        return arrivals.length === 1 ? limited() : HttpResponse.json({ category: { id: 1 } });
      }),
    );
    expect((await makeClient({ cache: false, maxRetries: 1 }).catalog.categories.get(1)).id).toBe(1);
    expect(arrivals).toHaveLength(2);
    expect((arrivals[1] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(950);
  });

  it('hold the next request of the token for Retry-After when no reset header came', async () => {
    const arrivals: number[] = [];
    server.use(
      http.get(`${BASE}/categories/:id`, () => {
        arrivals.push(Date.now());
        return arrivals.length === 1 ? limited() : HttpResponse.json({ category: { id: 1 } });
      }),
    );
    const { logger, lines } = recordingLogger();
    const client = makeClient({ cache: false, maxRetries: 0, logger });
    expect(await rejection(client.catalog.categories.get(1))).toBeInstanceOf(RateLimitError);
    await client.catalog.categories.get(1);
    expect((arrivals[1] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(950);
    expect(lines.some((line) => /rate limit: remaining 0, waiting \d+ ms/.test(line))).toBe(true);
  });
});

describe('error details', () => {
  it('a body that is not JSON gives no parser message that could quote it', async () => {
    server.use(http.get(`${BASE}/merchants/ecommerce/orders/A`, () => new HttpResponse(`Bearer ${TOKEN} is not JSON`, { status: 200 })));
    const error = (await rejection(makeClient().orders.get('A'))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.cause).toBeUndefined();
    expect(`${error.message} ${String(error)}`).not.toMatch(/tok_SECRET|Bearer/);
  });

  it('nextPage() past the last page is a RequestValidationError', async () => {
    server.use(http.get(`${BASE}/categories`, () => HttpResponse.json({ categories: [], meta: { pagination: { page: 1, total_pages: 1 } } })));
    const page = await makeClient({ cache: false }).catalog.categories.list();
    expect(page.hasNextPage()).toBe(false);
    await expect(page.nextPage()).rejects.toBeInstanceOf(RequestValidationError);
  });
});
