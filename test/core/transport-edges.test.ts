/** Transport edge cases: redirect memory per hop, body time-outs, option checks, 429 holds, error details. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http, passthrough } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  InternalServerError,
  MarketplaceClient,
  PermissionDeniedError,
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

/** Real loopback servers (msw lets their requests through), closed after each test. */
const loopbackServers: Server[] = [];
afterEach(async () => {
  for (const s of loopbackServers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** Starts `handler` on a loopback port and returns its base URL. */
async function loopback(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const started = createServer(handler);
  loopbackServers.push(started);
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
  server.use(http.all(`${baseUrl}/*`, () => passthrough()));
  return baseUrl;
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
  /** A server that sends the headers and the start of a body, then nothing more. */
  const stallingServer = (declaredLength?: number): Promise<string> =>
    loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declaredLength ? { 'content-length': String(declaredLength) } : {}) });
      res.write('{"order": {"code": "A", ');
    });

  // Every body is read as a stream; the bound holds whether or not its length is declared.
  it.each([
    ['without a length', undefined],
    ['of declared length', 1000],
  ])('covers the body too: headers that arrive and a body %s that stalls give a TimeoutError', async (_, declaredLength) => {
    const baseUrl = await stallingServer(declaredLength);
    const client = new MarketplaceClient({ baseUrl, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });
    const started = Date.now();
    const error = await rejection(client.orders.get('A', { timeout: 300 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("an abort while a body of declared length stalls rejects at once with the caller's reason", async () => {
    const baseUrl = await stallingServer(1000);
    const client = new MarketplaceClient({ baseUrl, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });
    const controller = new AbortController();
    const reason = new Error('user left');
    setTimeout(() => controller.abort(reason), 100);
    const error = await rejection(client.orders.get('A', { timeout: 30_000, signal: controller.signal }));
    expect(error).toBe(reason);
  });

  it('stops each stalled body at its own deadline: a shorter one that starts later ends first, the longer one still ends', async () => {
    const baseUrl = await stallingServer();
    // Two clients: one client sends a token's second request only once its first is answered.
    const client = () => new MarketplaceClient({ baseUrl, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });
    const ended: string[] = [];
    const call = (code: string, timeout: number) =>
      rejection(client().orders.get(code, { timeout })).then((error) => {
        ended.push(code);
        return error;
      });
    const long = call('LONG', 900);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const short = call('SHORT', 200);
    const [longError, shortError] = await Promise.all([long, short]);
    expect(shortError).toBeInstanceOf(TimeoutError);
    expect(longError).toBeInstanceOf(TimeoutError);
    expect(ended).toEqual(['SHORT', 'LONG']);
  });

  it('still stops the stalled bodies around one that ended between them', async () => {
    // FIRST's body stalls, MIDDLE's ends 150 ms after its headers, LAST's stalls: MIDDLE leaves the watch between the two.
    const baseUrl = await loopback((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"order": {"code": "MIDDLE"');
      if (req.url?.endsWith('/MIDDLE')) setTimeout(() => res.end('}}'), 150);
    });
    const client = () => new MarketplaceClient({ baseUrl, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
    const ended: string[] = [];
    const call = (code: string, timeout: number) =>
      client()
        .orders.get(code, { timeout })
        .then(
          (order) => order.code,
          (error: unknown) => error,
        )
        .finally(() => ended.push(code));
    const first = call('FIRST', 900);
    await pause();
    const middle = call('MIDDLE', 5_000);
    await pause();
    const last = call('LAST', 400);
    const [firstError, middleCode, lastError] = await Promise.all([first, middle, last]);
    expect(middleCode).toBe('MIDDLE');
    expect(lastError).toBeInstanceOf(TimeoutError);
    expect(firstError).toBeInstanceOf(TimeoutError);
    expect(ended).toEqual(['MIDDLE', 'LAST', 'FIRST']);
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
  /** A 429 with Retry-After: 1 first, then the category; returns the arrival times. */
  function limitedOnce(): number[] {
    const arrivals: number[] = [];
    server.use(
      http.get(`${BASE}/categories/:id`, () => {
        arrivals.push(Date.now());
        return arrivals.length === 1
          ? HttpResponse.json({ errors: [{ code: 'too_many_requests', messages: ['Slow down'] }] }, { status: 429, headers: { 'retry-after': '1' } })
          : HttpResponse.json({ category: { id: 1 } });
      }),
    );
    return arrivals;
  }

  it('are retried after Retry-After', async () => {
    const arrivals = limitedOnce();
    expect((await makeClient({ cache: false, maxRetries: 1 }).catalog.categories.get(1)).id).toBe(1);
    expect(arrivals).toHaveLength(2);
    expect((arrivals[1] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(950);
  });

  it('hold the next request of the token for Retry-After when no reset header came', async () => {
    const arrivals = limitedOnce();
    const { logger, lines } = recordingLogger();
    const client = makeClient({ cache: false, maxRetries: 0, logger });
    expect(await rejection(client.catalog.categories.get(1))).toBeInstanceOf(RateLimitError);
    await client.catalog.categories.get(1);
    expect((arrivals[1] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(950);
    expect(lines.some((line) => /rate limit: remaining 0, waiting \d+ ms/.test(line))).toBe(true);
  });
});

describe('body text', () => {
  /** A server that sends `parts` as the body, one write each, with its length declared or not. */
  function bodyServer(parts: Buffer[], declared: boolean): Promise<string> {
    const bytes = Buffer.concat(parts);
    return loopback(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(bytes.length) } : {}) });
      for (const part of parts) {
        res.write(part);
        // Each part its own chunk on the wire, so a character split between them arrives split.
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  }

  // A byte-order mark, Greek text with a character split between two chunks, and a byte that is not UTF-8.
  const greek = Buffer.from('{"order": {"code": "A", "comments": "Παράδοση στο κατάστημα');
  const parts = [Buffer.from([0xef, 0xbb, 0xbf]), greek.subarray(0, greek.length - 1), greek.subarray(greek.length - 1), Buffer.from([0x20, 0xff, 0x22, 0x7d, 0x7d])];

  it.each([
    ['of declared length', true],
    ['without a length', false],
  ])('a body %s reads as fetch reads it: the byte-order mark dropped, split characters joined, a bad byte replaced', async (_, declared) => {
    const baseUrl = await bodyServer(parts, declared);
    const client = new MarketplaceClient({ baseUrl, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });
    const order = await client.orders.get('A');
    expect(order.comments).toBe('Παράδοση στο κατάστημα \uFFFD');
    const byFetch = (await (await fetch(`${baseUrl}/merchants/ecommerce/orders/A`)).json()) as { order: { comments: string } };
    expect(order.comments).toBe(byFetch.order.comments);
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

describe('answers a careful client does not take at face value', () => {
  it('a rate-limit window far away (a reset sent in milliseconds) refuses at once instead of holding or spinning', async () => {
    const arrivals: number[] = [];
    server.use(
      http.get(`${BASE}/categories/:id`, () => {
        arrivals.push(Date.now());
        const headers = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 60_000) };
        return HttpResponse.json({ category: { id: 1 } }, { headers });
      }),
    );
    const client = makeClient({ cache: false });
    await client.catalog.categories.get(1);
    const started = Date.now();
    const error = await rejection(client.catalog.categories.get(1));
    expect(error).toBeInstanceOf(RateLimitBudgetError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(arrivals).toHaveLength(1);
  });

  it('relative Link targets resolve against the page URL, and keep the token on the same origin', async () => {
    const seen: { page: string | null; auth: string | null }[] = [];
    server.use(
      http.get(`${BASE}/v3/categories`, ({ request }) => {
        const page = new URL(request.url).searchParams.get('page');
        seen.push({ page, auth: request.headers.get('authorization') });
        const link = page === null ? '</v3/categories?page=2>; rel="next"' : page === '2' ? '<categories?page=3>; rel="next"' : '';
        return HttpResponse.json({ categories: [{ id: Number(page ?? 1) }] }, { headers: link ? { link } : {} });
      }),
    );
    const client = makeClient({ baseUrl: `${BASE}/v3`, cache: false, rateLimit: false });
    const ids: number[] = [];
    for await (const category of client.catalog.categories.list()) ids.push(category.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(seen.map((s) => s.page)).toEqual([null, '2', '3']);
    expect(seen.every((s) => s.auth === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('a redirect to a scheme other than http(s) is a RedirectError, not followed and not retried', async () => {
    const hits = hitsOf({ '/categories/4': () => redirect(302, 'data:application/json,{"category":{"id":666}}') });
    const error = await rejection(makeClient({ cache: false }).catalog.categories.get(4));
    expect(error).toBeInstanceOf(RedirectError);
    expect(hits).toHaveLength(1);
  });

  it("a 304 to the caller's own If-None-Match is not answered from the cache", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/categories/:id`, () => {
        calls++;
        return calls === 1
          ? HttpResponse.json({ category: { id: 1, name: 'v1' } }, { headers: { etag: '"v1"' } })
          : new HttpResponse(null, { status: 304 });
      }),
    );
    const client = makeClient();
    await client.catalog.categories.get(1);
    // The caller's own conditional request gets the service's answer, not the cached v1.
    const error = await rejection(client.catalog.categories.get(1, {}, { headers: { 'If-None-Match': '"v2"' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 304 });
  });

  it('a 403 whose body is an errors list is a permission refusal, whatever its entries', async () => {
    server.use(http.get(`${BASE}/categories/:id`, () => HttpResponse.json({ errors: ['Forbidden'] }, { status: 403 })));
    expect(await rejection(makeClient({ maxRetries: 2 }).catalog.categories.get(1))).toBeInstanceOf(PermissionDeniedError);
  });

  it.each(['ABC\u0085DEF', 'ABC\u009bDEF', 'A\ud800B'])('refuses the path parameter %j before sending', async (code) => {
    const error = await rejection(makeClient().orders.get(code));
    expect(error).toBeInstanceOf(RequestValidationError);
  });
});

describe('what the attempt waits for cannot outlive it', () => {
  const never = () => new Promise<never>(() => {});

  it('an abort stops a slow token function', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const client = makeClient({ token: () => never() });
    const started = Date.now();
    const error = await rejection(client.orders.get('A', { signal: controller.signal }));
    expect((error as Error).message).toBe('user left');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a call aborted before it starts leaves its failing token function handled (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const failsLater = () => new Promise<string>((_, reject) => setTimeout(reject, 5, new Error('token store down')));
      const error = await rejection(makeClient({ token: failsLater }).orders.get('A', { signal: AbortSignal.abort(new Error('user left')) }));
      expect((error as Error).message).toBe('user left');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('a token function slower than the time-out is a TimeoutError', async () => {
    const error = await rejection(makeClient({ token: () => never() }).orders.get('A', { timeout: 100 }));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('a cache store that hangs costs the cache, not the request', async () => {
    const hits = hitsOf({ '/categories/1': () => HttpResponse.json({ category: { id: 1 } }, { headers: { etag: '"v1"' } }) });
    const { logger, lines } = recordingLogger();
    const hanging = { get: never, set: never, delete: never };
    const client = makeClient({ cache: hanging, logger });
    expect((await client.catalog.categories.get(1, {}, { timeout: 100 })).id).toBe(1);
    expect(hits).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('cache read failed') || line.startsWith('cache write failed'))).toHaveLength(2);
  });
});

describe('queries and pages', () => {
  it('a q of one character is refused even when it takes two UTF-16 units', async () => {
    const hits = hitsOf({ '/search': () => HttpResponse.json({ skus: [] }) });
    expect(await rejection(makeClient().catalog.search('😀'))).toBeInstanceOf(RequestValidationError);
    expect(hits).toHaveLength(0);
  });

  it('empty lists are left out of the query; an empty fieldset is refused', async () => {
    const queries: string[] = [];
    server.use(
      http.get(`${BASE}/categories/40/skus`, ({ request }) => {
        queries.push(new URL(request.url).search);
        return HttpResponse.json({ skus: [] });
      }),
    );
    const client = makeClient({ cache: false, rateLimit: false });
    await client.catalog.categories.skus(40, { embed: [], include_meta: [], filter_ids: [], per: 5 });
    expect(queries).toEqual(['?per=5']);
    const error = await rejection(client.catalog.categories.skus(40, { fields: { root: [] } }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(queries).toHaveLength(1);
  });

  it('a next page that failed can be asked for again: it is not a loop', async () => {
    let secondPageCalls = 0;
    server.use(
      http.get(`${BASE}/categories`, ({ request }) => {
        const page = new URL(request.url).searchParams.get('page');
        if (page === '2' && ++secondPageCalls === 1) return HttpResponse.json({ errors: [{ code: 'boom', messages: ['boom'] }] }, { status: 500 });
        return HttpResponse.json(
          { categories: [{ id: Number(page ?? 1) }] },
          { headers: page === null ? { link: `<${BASE}/categories?page=2>; rel="next"` } : {} },
        );
      }),
    );
    const first = await makeClient({ cache: false, rateLimit: false, maxRetries: 0 }).catalog.categories.list();
    expect(await rejection(first.nextPage())).toBeInstanceOf(InternalServerError);
    expect((await first.nextPage()).items).toEqual([{ id: 2 }]);
  });
});
