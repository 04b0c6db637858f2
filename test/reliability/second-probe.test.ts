/**
 * The second hostile-server probe (issue 25): what a server, proxy or redirect target can
 * still do with a token endpoint, a request id, an error body, a header value, a redirect
 * target's rate limits, a hanging renewal, odd hooks and loggers, empty pages and a 304.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  type ClientOptions,
  clientCredentials,
  MarketplaceClient,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from 'emporio';
import { startMockMarketplace } from 'emporio/testing';
import { endless, failure, listen } from '../helpers/loopback.js';
import { recordingLogger } from '../helpers/server.js';
import { runScript } from '../helpers/run-script.js';

const TOKEN = 'tok/SECRET+orders=7f3a9c~Zq';
/** Parts of the token long enough to tell it: none may show anywhere. */
const TOKEN_PARTS = [TOKEN.slice(0, 10), TOKEN.slice(8, 20), TOKEN.slice(-10)];
const ORDER = JSON.stringify({ order: { code: 'A-1', state: 'accepted' } });
const CATEGORY = JSON.stringify({ category: { id: 1, name: 'Phones' } });
const MiB = 1024 * 1024;

function client(url: string, options: Partial<ClientOptions> = {}) {
  return new MarketplaceClient({ baseUrl: url, vendor: 'marketplace', token: TOKEN, ...options });
}

function expectNoToken(text: string) {
  for (const part of TOKEN_PARTS) expect(text).not.toContain(part);
}

/** Answers a token request (its body read first, as a server does) with `answer`. */
function tokenEndpoint(answer: (req: IncomingMessage, res: ServerResponse, written: { bytes: number }, count: number) => void) {
  let count = 0;
  return listen((req, res, written) => {
    req.resume();
    req.on('end', () => answer(req, res, written, ++count));
  });
}

const tokenAnswer = (token: string) => JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 3600 });

describe('the OAuth token answer is bounded (item 1)', () => {
  it('an endless token answer: ResponseTooLargeError at the client’s maxResponseBytes, and the connection is closed', async () => {
    const endpoint = await tokenEndpoint((_req, res, written) => endless(res, written, 3_000));
    const sdk = new MarketplaceClient({
      baseUrl: endpoint.url,
      vendor: 'marketplace',
      maxResponseBytes: MiB,
      tokens: { catalog: clientCredentials({ clientId: 'id', clientSecret: 'secret', tokenUrl: `${endpoint.url}/oauth2/token` }) },
    });
    const error = await failure(sdk.catalog.categories.get(1));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(MiB);
    expect(await endpoint.closed).toBeLessThan(MiB + 8 * MiB);
  });

  it('a gzip bomb as the token answer counts its decoded bytes', async () => {
    const bomb = gzipSync(Buffer.alloc(16 * MiB, 0x20), { level: 9 });
    const endpoint = await tokenEndpoint((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const sdk = new MarketplaceClient({
      baseUrl: endpoint.url,
      vendor: 'marketplace',
      maxResponseBytes: MiB,
      tokens: { catalog: clientCredentials({ clientId: 'id', clientSecret: 'secret', tokenUrl: `${endpoint.url}/oauth2/token` }) },
    });
    expect(await failure(sdk.catalog.categories.get(1))).toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('X-Request-Id echoing the token (item 2)', () => {
  const echo = { 'x-request-id': `rid-${TOKEN}` };

  it.each([
    ['a redirect error', (res: ServerResponse) => res.writeHead(302, echo).end(), RedirectError],
    ['a too-large answer', (res: ServerResponse) => res.writeHead(200, echo).end('x'.repeat(2048)), ResponseTooLargeError],
    ['an answer that is not JSON', (res: ServerResponse) => res.writeHead(200, echo).end('<html>'), ResponseValidationError],
  ] as const)('%s: neither util.inspect(error) nor error.requestId shows it', async (_what, answer, ErrorClass) => {
    const server = await listen((_req, res) => answer(res));
    const error = await failure(client(server.url, { maxResponseBytes: 1024, maxRetries: 0 }).orders.get('A-1'));
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as ApiError).requestId).toBe('rid-[redacted]');
    expectNoToken(inspect(error, { depth: 5 }));
  });

  it('withResponse().response.requestId and checkKeys() show the request id without the token', async () => {
    const server = await listen((_req, res) => res.writeHead(200, { ...echo, 'content-type': 'application/json' }).end(ORDER));
    const sdk = client(server.url);
    const { response } = await sdk.orders.get('A-1').withResponse();
    expect(response.requestId).toBe('rid-[redacted]');
    const report = await sdk.checkKeys();
    expect(report.orders).toEqual({ ok: true, requestId: 'rid-[redacted]' });
  });
});

describe('the CLI (items 2 and 11)', () => {
  it('check-keys prints neither the token of a request-id echo nor a terminal escape sequence of a server message', async () => {
    const server = await listen((req, res) => {
      if (req.headers.authorization === `Bearer ${TOKEN}`) {
        res.writeHead(200, { ...{ 'x-request-id': `rid-${TOKEN}` }, 'content-type': 'application/json' }).end(ORDER);
        return;
      }
      const hostile = '\u001b]0;pwned\u0007\u001b[2J\u009b31mrefused';
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ code: 'Unauthorized', messages: [hostile] }] }));
    });
    const cli = fileURLToPath(new URL('../../src/cli/emporio.ts', import.meta.url));
    const { code, stdout, stderr } = await runScript(cli, ['check-keys', '--base-url', server.url, '--vendor', 'marketplace'], {
      env: { PATH: process.env.PATH ?? '', EMPORIO_ORDERS_TOKEN: TOKEN, EMPORIO_PRODUCTS_TOKEN: 'other-key-1234' },
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(/orders\s+ok\s+request id rid-\[redacted\]/);
    expect(stdout).toMatch(/products\s+refused/);
    expect(stdout).toContain('refused');
    expectNoToken(stdout + stderr);
    // Nothing but line breaks below 0x20, no DEL nor C1 control.
    expect([...(stdout + stderr)].filter((c) => (c < ' ' && c !== '\n') || (c >= '\u007f' && c <= '\u009f'))).toEqual([]);
  });
});

describe('error bodies are scrubbed before they are cut (item 3)', () => {
  it('messages and codes that are objects: no part of the token reaches the message', async () => {
    // The excerpt is cut at 160 characters: the padding puts the cut inside the token.
    const note = { note: `${'p'.repeat(160 - 10 - TOKEN.length)}${TOKEN}${'q'.repeat(50)}` };
    const server = await listen((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ code: note, messages: [note, ['list', note]] }] }));
    });
    const error = await failure(client(server.url).orders.get('A-1'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toContain('[redacted]');
    expectNoToken(`${(error as Error).message}\n${inspect(error, { depth: 5 })}`);
  });
});

describe('header values are refused exactly as fetch refuses them (item 4)', () => {
  const refused = [1, 2, 3, 4, 5, 6, 7, 8, 0x0b, 0x0c, 0x0e, 0x0f, 0x10, 0x1b, 0x1f, 0x7f];

  it.each(refused.map((code) => [code.toString(16).padStart(2, '0')]))('0x%s in RequestOptions.headers or a token function: RequestValidationError, nothing sent', async (hex) => {
    const server = await listen((_req, res) => res.end(ORDER));
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    const inHeader = await failure(client(server.url).orders.get('A-1', { headers: { 'x-note': `a${char}b` } }));
    expect(inHeader).toBeInstanceOf(RequestValidationError);
    const inToken = await failure(client(server.url, { token: () => `tok${char}SECRET` }).orders.get('A-1'));
    expect(inToken).toBeInstanceOf(RequestValidationError);
    expect(String(inToken)).not.toContain('SECRET');
    expect(() => client(server.url, { token: `tok${char}SECRET` })).toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
    // What fetch sends still goes out: a tab, Latin-1 (Node's server reads header bytes as Latin-1).
    await client(server.url).orders.get('A-1', { headers: { 'x-note': 'a\tb\u00e9' } });
    expect(server.requests.map((r) => r.headers['x-note'])).toEqual(['a\tb\u00e9']);
  });

  it('an OAuth token with 0x01 is refused at the token step once, not kept: the next call gets a new token', async () => {
    const endpoint = await tokenEndpoint((_req, res, _w, count) => res.end(tokenAnswer(count === 1 ? 'bad\u0001token' : 'good-token')));
    const api = await listen((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(CATEGORY));
    const sdk = new MarketplaceClient({
      baseUrl: api.url,
      vendor: 'marketplace',
      tokens: { catalog: clientCredentials({ clientId: 'id', clientSecret: 'secret', tokenUrl: `${endpoint.url}/oauth2/token` }) },
    });
    expect(await failure(sdk.catalog.categories.get(1))).toBeInstanceOf(AuthenticationError);
    await expect(sdk.catalog.categories.get(1)).resolves.toMatchObject({ id: 1 });
    expect(endpoint.requests).toHaveLength(2);
    expect(api.requests.map((r) => r.headers.authorization)).toEqual(['Bearer good-token']);
  });
});

describe('rate limits only from the service’s origin (item 5)', () => {
  it('a redirect target elsewhere answering 429 Retry-After: 86400 does not hold the token', async () => {
    const other = await listen((_req, res) => res.writeHead(429, { 'retry-after': '86400' }).end('{"message":"slow down"}'));
    let redirect = true;
    const api = await listen((req, res) => {
      if (redirect) res.writeHead(302, { location: `${other.url}${req.url}` }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(ORDER);
    });
    const sdk = client(api.url);
    expect(await failure(sdk.orders.get('A-1'))).toBeInstanceOf(RateLimitError);
    redirect = false;
    await expect(sdk.orders.get('A-1', { signal: AbortSignal.timeout(2_000) })).resolves.toMatchObject({ code: 'A-1' });
  });

  it('a redirect target elsewhere sending X-RateLimit-Remaining: 0 sets no figures', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 86_400);
    const other = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset });
      res.end(ORDER);
    });
    const api = await listen((req, res) => res.writeHead(307, { location: `${other.url}${req.url}` }).end());
    const sdk = client(api.url);
    await sdk.orders.get('A-1');
    expect(sdk.rateLimit).toBeUndefined();
    await expect(sdk.orders.get('A-1', { signal: AbortSignal.timeout(2_000) })).resolves.toMatchObject({ code: 'A-1' });
  });
});

describe('renewal after a 401 is bounded by the call (item 7)', () => {
  async function refusingApiWithHangingRenewal() {
    const endpoint = await tokenEndpoint((_req, res, _w, count) => {
      // The first token is issued; the renewal never answers (the source's own timeout is 30 s).
      if (count === 1) res.end(tokenAnswer('first-token'));
    });
    const api = await listen((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"errors":[{"code":"unauthorized","messages":["expired"]}]}'));
    return new MarketplaceClient({
      baseUrl: api.url,
      vendor: 'marketplace',
      tokens: { catalog: clientCredentials({ clientId: 'id', clientSecret: 'secret', tokenUrl: `${endpoint.url}/oauth2/token` }) },
    });
  }

  it("by the call's timeout: TimeoutError, not the token source's 30 s", async () => {
    const sdk = await refusingApiWithHangingRenewal();
    const started = Date.now();
    expect(await failure(sdk.catalog.categories.get(1, {}, { timeout: 300 }))).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("by the call's signal: the abort's reason at once", async () => {
    const sdk = await refusingApiWithHangingRenewal();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 300);
    const started = Date.now();
    expect(((await failure(sdk.catalog.categories.get(1, {}, { signal: controller.signal }))) as Error).message).toBe('caller gave up');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('hooks and loggers that throw change nothing (items 8 and 13)', () => {
  it.each([
    ['a null-prototype object', () => Object.create(null)],
    ['an object whose toString throws', () => ({ toString: () => { throw new Error('no'); } })],
  ])('hooks throwing %s: the call succeeds, the GET is sent once, the failure is logged', async (_what, thrown) => {
    const server = await listen((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(ORDER));
    const { lines, logger } = recordingLogger();
    const sdk = client(server.url, {
      logger,
      hooks: {
        onRequest: () => {
          throw thrown();
        },
        onResponse: () => Promise.reject(thrown()),
      },
    });
    await expect(sdk.orders.get('A-1')).resolves.toMatchObject({ code: 'A-1' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.requests).toHaveLength(1);
    expect(lines.filter((line) => line.includes('threw'))).toHaveLength(2);
  });

  it('a logger whose every method throws (or rejects) changes no outcome: redirects, retries, drift', async () => {
    let calls = 0;
    const server = await listen((req, res) => {
      calls++;
      if (req.url?.startsWith('/merchants/ecommerce/orders/A-1')) res.writeHead(302, { location: '/moved' }).end();
      else if (calls === 2) res.writeHead(503).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ order: { code: 'A-1', state: 42 } }));
    });
    const boom = () => {
      throw new Error('logger down');
    };
    const logger = { debug: boom, info: boom, warn: () => Promise.reject(new Error('async logger down')), error: boom };
    await expect(client(server.url, { logger, maxRetries: 1 }).orders.get('A-1')).resolves.toMatchObject({ code: 'A-1' });
    // 302, 503; then the retry: 302 again (not a permanent one), 200.
    expect(calls).toBe(4);
  });
});

describe('redactUrl keeps what the scrub must recognise (item 9)', () => {
  it('a token with a space and a + echoed in a redirect next to access_token reaches no hook nor log line', async () => {
    const token = 'tok en+SECRET_after_plus_9';
    let api!: { url: string };
    api = await listen((req, res) => {
      if (req.url?.startsWith('/moved')) res.writeHead(200, { 'content-type': 'application/json' }).end(ORDER);
      else res.writeHead(302, { location: `${api.url}/moved?access_token=other&echo=${token}&again=${encodeURIComponent(token)}` }).end();
    });
    const seen: string[] = [];
    const { lines, logger } = recordingLogger();
    const sdk = client(api.url, { token, logger, hooks: { onRequest: (event) => void seen.push(event.url) } });
    await sdk.orders.get('A-1');
    expect(seen[1]).toContain('access_token=%5Bredacted%5D');
    const shown = `${seen.join('\n')}\n${lines.join('\n')}`;
    expect(shown).not.toContain('SECRET_after_plus');
  });
});

describe('the mock’s token endpoint reads a bounded body (item 12)', () => {
  it('a 16 MiB token request is refused with 413 after 64 KiB, not read whole', async () => {
    const kit = await startMockMarketplace({ port: 0 });
    try {
      let pulled = 0;
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 16 * MiB) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const answer = await fetch(`${kit.url}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        // @ts-expect-error: Node's fetch needs duplex for a streamed body; lib.dom does not know it.
        duplex: 'half',
      });
      expect(answer.status).toBe(413);
      expect(pulled).toBeLessThan(16 * MiB);
    } finally {
      await kit.close();
    }
  });
});

describe('decided edges (item 13)', () => {
  it('an endless run of empty pages, each linking to the next: stopped after the 20th with a ResponseValidationError', async () => {
    let requests = 0;
    const server = await listen((req, res) => {
      requests++;
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      // Bounded here too: without the cap the listing ends after 200 empty pages, as a success.
      const link = page < 200 ? { link: `</categories?page=${page + 1}>; rel="next"` } : {};
      res.writeHead(200, { 'content-type': 'application/json', ...link }).end(JSON.stringify({ categories: [], meta: { pagination: { page } } }));
    });
    const sdk = client(server.url, { tokens: { catalog: TOKEN }, rateLimit: false });
    const error = await failure((async () => {
      for await (const _ of sdk.catalog.categories.list()) expect.unreachable();
    })());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/20 empty pages in a row/);
    expect(requests).toBe(20);
  });

  it('a 304 with no cached answer (the cache off): an ApiError of status 304 that says so, never an empty success', async () => {
    const server = await listen((_req, res) => res.writeHead(304).end());
    const error = await failure(client(server.url, { cache: false }).orders.get('A-1'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 304 });
    expect((error as Error).message).toMatch(/Not Modified, and the client holds no cached answer/);
  });
});
