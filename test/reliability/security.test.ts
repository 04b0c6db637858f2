/**
 * Security cases through the public API: hostile path parameters refused before anything is
 * sent (several namespaces), no Authorization to another origin (redirects, next-page links),
 * no token in errors or logs when requests fail (the legacy token travels in the query), and
 * an oversized webhook body refused with 413 without being read.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { MarketplaceClient, RequestValidationError } from 'emporio';
import { createMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler } from 'emporio/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { fullNewOrderEvent } from '../../bench/full-order.js';
import { recordingLogger } from '../helpers/server.js';

/** The handlers' warnings (one line per delivery not answered 200): kept for the tests that assert them, off the console. */
const { lines: warnings, logger } = recordingLogger();

const TOKEN = 'tok_SECRET_security_5d1e';

// ---- path parameters -------------------------------------------------------------------

const HOSTILE = [
  '',
  '.',
  '..',
  '../etc/passwd',
  'a/../../b',
  '..%2F..%2Fadmin',
  '%2F',
  'a%2Fb',
  '%2e%2e',
  'a/b',
  'a\\b',
  'a b',
  'a\u0000b',
  'a\r\nHost: evil.test',
  'tab\there',
  '\u007f',
  'line\u2028sep',
  'x'.repeat(10_000),
];
const BAD_IDS = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60];

/** A client on the mock kit whose fetch counts what would be sent. */
function countingClient() {
  const mock = createMockMarketplace({ seedDemoOrders: false });
  const sent: string[] = [];
  const client = new MarketplaceClient({
    baseUrl: mock.baseUrl,
    vendor: mock.vendor,
    tokens: mock.tokens,
    maxRetries: 0,
    fetch: (input, init) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return mock.fetch(input, init);
    },
  });
  return { client, sent, mock };
}

describe('hostile path parameters are refused before sending', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the values are deliberately of the wrong type
  const calls: [string, (client: MarketplaceClient, value: any) => Promise<unknown>][] = [
    ['orders.get', (c, v) => c.orders.get(v)],
    ['orders.accept', (c, v) => c.orders.accept(v, { pickup_location: 'LOC-1', pickup_window: 1 })],
    ['orders.reject', (c, v) => c.orders.reject(v, { rejection_reason_other: 'x' })],
    ['orders.setAsReady', (c, v) => c.orders.setAsReady(v)],
    ['orders.uploadInvoice', (c, v) => c.orders.uploadInvoice(v, new TextEncoder().encode('%PDF-1.4\n%%EOF'))],
    ['orders.sendTrackingDetails', (c, v) => c.orders.sendTrackingDetails(v, [{ courier: 'ACS', tracking_code: '1' }])],
    ['catalog.skus.get', (c, v) => c.catalog.skus.get(v)],
    ['catalog.shops.reviews (list)', (c, v) => c.catalog.shops.reviews(v)],
    ['catalog.categories.skus (iteration)', async (c, v) => {
      for await (const _ of c.catalog.categories.skus(v)) break;
    }],
    ['account.favorites.delete', (c, v) => c.account.favorites.delete(v)],
    ['account.addresses.update', (c, v) => c.account.addresses.update(v, {})],
  ];

  it.each(calls)('%s', async (_name, call) => {
    const { client, sent } = countingClient();
    for (const value of [...HOSTILE, ...BAD_IDS]) {
      await expect(call(client, value), JSON.stringify(value)?.slice(0, 40)).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(sent).toEqual([]);
  });

  it('any string either is refused unsent, or arrives as exactly one path segment equal to itself', async () => {
    const { client, sent } = countingClient();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...HOSTILE)), async (value) => {
        const before = sent.length;
        const outcome = await client.orders.get(value).catch((error: unknown) => error);
        if (outcome instanceof RequestValidationError) {
          expect(sent.length).toBe(before);
          return;
        }
        // Sent: the mock answered (404 for an unknown order); the path must hold the value intact.
        expect(sent.length).toBe(before + 1);
        const path = new URL(sent[sent.length - 1] as string).pathname;
        const segments = path.split('/');
        expect(segments.slice(0, 4)).toEqual(['', 'merchants', 'ecommerce', 'orders']);
        expect(segments).toHaveLength(5);
        expect(decodeURIComponent(segments[4] as string)).toBe(value);
        expect(['.', '..']).not.toContain(decodeURIComponent(segments[4] as string));
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});

// ---- redirects and links to another origin ---------------------------------------------

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handle: (req: Seen, respond: (status: number, headers: Record<string, string>, body?: string) => void) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
      seen.push(entry);
      handle(entry, (status, headers, body) => res.writeHead(status, headers).end(body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const ORDER = JSON.stringify({ order: { code: 'A-1', state: 'accepted' } });
const json = { 'content-type': 'application/json; charset=utf-8' };

describe('no Authorization to another origin', () => {
  it.each([301, 302, 303, 307, 308])('a %i redirect of orders.get to another origin drops it', async (status) => {
    const other = await listen((_req, respond) => respond(200, json, ORDER));
    const api = await listen((req, respond) => respond(status, { location: `${other.url}/elsewhere${req.url}` }));
    const client = new MarketplaceClient({ baseUrl: api.url, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });

    await expect(client.orders.get('A-1')).resolves.toMatchObject({ code: 'A-1' });
    expect(api.seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(other.seen)).not.toContain(TOKEN);
  });

  it('a 307 of an order action (POST) to another origin keeps the body but not the token', async () => {
    const other = await listen((_req, respond) => respond(200, json, '{"success":true}'));
    const api = await listen((req, respond) => respond(307, { location: `${other.url}${req.url}` }));
    const client = new MarketplaceClient({ baseUrl: api.url, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });

    await client.orders.accept('A-1', { pickup_location: 'LOC-1', pickup_window: 1 });
    expect(other.seen[0]?.method).toBe('POST');
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
  });

  it('a redirect back to the API origin carries it again (same origin)', async () => {
    let api: Awaited<ReturnType<typeof listen>> | undefined;
    api = await listen((req, respond) =>
      req.url?.startsWith('/moved/') ? respond(200, json, ORDER) : respond(302, { location: `${api?.url}/moved${req.url}` }),
    );
    const client = new MarketplaceClient({ baseUrl: api.url, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });
    await client.orders.get('A-1');
    expect(api.seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  // Found here: the token goes only to the configured API origin, never to a next-page link elsewhere.
  it('a next-page link to another origin is not sent the token', async () => {
    const page = (ids: number[]) => JSON.stringify({ skus: ids.map((id) => ({ id })), meta: {} });
    const other = await listen((_req, respond) => respond(200, json, page([3, 4])));
    const api = await listen((_req, respond) =>
      respond(200, { ...json, link: `<${other.url}/categories/40/skus?page=2>; rel="next"` }, page([1, 2])),
    );
    const client = new MarketplaceClient({ baseUrl: api.url, vendor: 'marketplace', token: TOKEN, maxRetries: 0, rateLimit: false });

    const ids: number[] = [];
    for await (const sku of client.catalog.categories.skus(40)) ids.push(sku.id);
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(api.seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
  });
});

// ---- tokens in errors and logs -----------------------------------------------------------

describe('no token in errors or logs when requests fail', () => {
  it('legacy v2 (token in the query), orders and catalog under 5xx, HTML error pages, echoes and dropped connections', async () => {
    let n = 0;
    const api = await listen((req, respond) => {
      n++;
      // An error page that echoes the request (a proxy's debug page) is the worst case.
      if (n % 3 === 0) respond(502, { 'content-type': 'text/html' }, `<html><body>Bad gateway for ${req.url} ${req.headers.authorization}</body></html>`);
      else if (n % 3 === 1) respond(500, json, JSON.stringify({ errors: [{ code: 'internal_error', messages: [`failed: ${req.url} ${req.headers.authorization}`] }] }));
      else respond(403, json, JSON.stringify({ message: `Rate limit for ${req.headers.authorization} ${req.url}` }));
    });
    const dropped = await listen(() => {
      /* never answers: the client times out */
    });
    const lines: string[] = [];
    const sink = (message: string, details?: Record<string, unknown>) => lines.push(`${message} ${JSON.stringify(details ?? {})}`);
    const make = (baseUrl: string) =>
      new MarketplaceClient({
        baseUrl,
        legacyBaseUrl: baseUrl,
        vendor: 'marketplace',
        token: TOKEN,
        tokens: { legacyV2: TOKEN },
        maxRetries: 1,
        timeout: 200,
        rateLimit: false,
        logger: { debug: sink, info: sink, warn: sink, error: sink },
        hooks: { onRequest: (e) => sink('request', e), onResponse: (e) => sink('response', e) },
      });

    const errors: unknown[] = [];
    for (const client of [make(api.url), make(dropped.url)]) {
      for (const call of [
        () => client.legacyV2.sku(1),
        () => client.orders.get('A-1'),
        () => client.catalog.skus.get(1),
        () => client.orders.accept('A-1', { pickup_location: 'LOC-1', pickup_window: 1 }),
      ]) {
        errors.push(await call().then(() => new Error('unexpected success'), (error: unknown) => error));
      }
    }
    expect(errors.every((e) => e instanceof Error && e.message !== 'unexpected success')).toBe(true);
    // The server really was sent the token, so its absence below is the SDK's doing.
    expect(api.seen.some((s) => s.url.includes(TOKEN) || s.headers.authorization?.includes(TOKEN))).toBe(true);
    const texts = [
      ...lines,
      ...errors.flatMap((e) => [String(e), (e as Error).stack ?? '', inspect(e, { depth: 10 }), JSON.stringify(e) ?? '']),
    ];
    for (const text of texts) expect(text).not.toContain(TOKEN);
  });
});

// ---- oversized webhook bodies ------------------------------------------------------------

const FIFTY_MB = 50 * 1024 * 1024;
const CHUNK = 64 * 1024;
const SENDER = '185.6.76.10';

/** 50 MB of a JSON-looking body, produced on demand; `pulled` counts what was read. */
function hugeBody() {
  const counter = { pulled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  const head = new TextEncoder().encode('{"event_type":"new_order","order":{"code":"A-1","comments":"');
  async function* chunks() {
    counter.pulled += head.length;
    yield head;
    while (counter.pulled < FIFTY_MB) {
      counter.pulled += CHUNK;
      yield chunk;
    }
  }
  const stream = () => {
    const iterator = chunks();
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await iterator.next();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      },
      { highWaterMark: 0 },
    );
  };
  return { counter, chunks, stream };
}

describe('an oversized webhook body is refused with 413 without being read', () => {
  const handlerFor = (calls: unknown[]) => createWebhookHandler({ urlSecret: false, logger, onEvent: (event) => void calls.push(event) });

  it('fetch handler, streamed without Content-Length: reading stops just past the limit', async () => {
    const calls: unknown[] = [];
    const body = hugeBody();
    const request = new Request('https://shop.test/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: body.stream(),
      duplex: 'half',
    } as RequestInit);
    const response = await handlerFor(calls)(request, { remoteAddress: SENDER });
    expect(response.status).toBe(413);
    expect(calls).toEqual([]);
    expect(body.counter.pulled).toBeLessThanOrEqual(1024 * 1024 + 2 * CHUNK);
  });

  it('fetch handler, with a Content-Length of 50 MB: refused before reading anything', async () => {
    const body = hugeBody();
    const request = new Request('https://shop.test/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(FIFTY_MB) },
      body: body.stream(),
      duplex: 'half',
    } as RequestInit);
    const response = await handlerFor([])(request, { remoteAddress: SENDER });
    expect(response.status).toBe(413);
    expect(warnings.at(-1)).toContain('answered 413 (body_too_large): body is larger than');
    expect(body.counter.pulled).toBeLessThanOrEqual(CHUNK + 128);
  });

  it('node adapter: the request stream is pulled only up to the limit', async () => {
    const body = hugeBody();
    const calls: unknown[] = [];
    const answered = new Promise<{ status: number; headers: Record<string, string> }>((resolve) => {
      const headers: Record<string, string> = {};
      const res = {
        statusCode: 0,
        headersSent: false,
        setHeader: (name: string, value: string) => {
          headers[name.toLowerCase()] = value;
        },
        end: () => resolve({ status: res.statusCode, headers }),
      };
      const req = Object.assign(body.chunks(), {
        method: 'POST',
        url: '/webhook',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        socket: { remoteAddress: SENDER },
      });
      toNodeHandler(handlerFor(calls))(req, res);
    });
    const { status, headers } = await answered;
    expect(status).toBe(413);
    expect(headers.connection).toBe('close');
    expect(calls).toEqual([]);
    expect(body.counter.pulled).toBeLessThanOrEqual(1024 * 1024 + 2 * CHUNK);
  });

  it('a real node:http server: a 50 MB upload is cut short, and a normal delivery still works', async () => {
    const calls: unknown[] = [];
    // 127.0.0.1 is not a marketplace address: allowed for this loopback server only.
    const handler = createWebhookHandler({ urlSecret: false, logger, onEvent: (event) => void calls.push(event), allowedRanges: ['127.0.0.0/8'] });
    const server = createServer(toNodeHandler(handler) as never);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;

    const body = hugeBody();
    const outcome = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body.stream(),
      duplex: 'half',
    } as RequestInit).then(
      (response) => response.status,
      () => 'connection closed while uploading',
    );
    // Either the 413 arrives or the server closes the upload; in both cases the rest is never sent.
    expect([413, 'connection closed while uploading']).toContain(outcome);
    expect(body.counter.pulled).toBeLessThan(16 * 1024 * 1024);
    expect(calls).toEqual([]);

    const ok = await fetch(url, { method: 'POST', headers: json, body: JSON.stringify(fullNewOrderEvent()) });
    expect(ok.status).toBe(200);
    expect(calls).toHaveLength(1);
  });
});
