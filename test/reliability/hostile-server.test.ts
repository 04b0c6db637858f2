/**
 * A hostile or broken server on loopback (issue 13, items 1-8, 10, 11): endless and
 * bomb bodies, corrupt encodings, tokens echoed in headers and bodies, bad headers,
 * dangerous redirects and hooks that throw.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ConnectionError,
  EmporioError,
  MarketplaceClient,
  type ClientOptions,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from 'emporio';
import { endless, failure, type Loopback, listen } from '../helpers/loopback.js';
import { BASE, recordingLogger, useMswServer } from '../helpers/server.js';

// Characters that URLs and forms encode, so every encoded form of it is exercised.
const TOKEN = 'tok/SECRET+orders=7f3a9c~Zq';
const LOWER_HEX = encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
const TOKEN_FORMS = [TOKEN, encodeURIComponent(TOKEN), LOWER_HEX, 'tok/SECRET', '7f3a9c~Zq'];
const ORDER = JSON.stringify({ order: { code: 'A-1', state: 'accepted' } });

/** 1 KiB every 5 ms, until the connection closes (at most 5 s). */
function trickle(_req: IncomingMessage, res: ServerResponse, written: { bytes: number }) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => {
    written.bytes += 1024;
    res.write(Buffer.alloc(1024, 0x20));
  }, 5);
  res.on('close', () => clearInterval(timer));
  setTimeout(() => clearInterval(timer), 5_000).unref();
}

/** Whether the server saw the connection close within `ms`. */
const closedWithin = (server: Loopback, ms: number) =>
  Promise.race([server.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))]);

function client(url: string, options: Partial<ClientOptions> = {}) {
  return new MarketplaceClient({ baseUrl: url, vendor: 'marketplace', token: TOKEN, ...options });
}

function expectNoToken(text: string) {
  for (const form of TOKEN_FORMS) expect(text).not.toContain(form);
}

const MiB = 1024 * 1024;
/** What may sit in socket buffers and in flight after the client stopped reading. */
const SLACK = 8 * MiB;

describe('bounded, cancelled bodies (items 1 and 2)', () => {
  it('an endless body: ResponseTooLargeError at maxResponseBytes, not retried, and the connection is closed', async () => {
    const server = await listen((_req, res, written) => endless(res, written));
    const error = await failure(client(server.url, { maxResponseBytes: MiB }).orders.get('A-1'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(EmporioError);
    expect((error as ResponseTooLargeError).limit).toBe(MiB);
    expect(server.requests).toHaveLength(1);
    const written = await server.closed;
    expect(written).toBeLessThan(MiB + SLACK);
  });

  it('a body whose declared length is past maxResponseBytes: ResponseTooLargeError, as for one of unknown length', async () => {
    const body = Buffer.alloc(256 * 1024, 0x20);
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    });
    const error = await failure(client(server.url, { maxResponseBytes: 64 * 1024 }).orders.get('A-1'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(64 * 1024);
    expect(server.requests).toHaveLength(1);
  });

  it('an endless slow body: after the TimeoutError the body is cancelled and the socket closed, not left downloading', async () => {
    const server = await listen(trickle);
    const error = await failure(client(server.url, { timeout: 200, maxRetries: 0 }).orders.get('A-1'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(await closedWithin(server, 1_000)).toBe(true);
  });

  it("an abort while the body streams rejects with the signal's reason and closes the socket", async () => {
    const server = await listen(trickle);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    const error = await failure(client(server.url, { maxRetries: 0 }).orders.get('A-1', { signal: controller.signal }));
    expect((error as Error).message).toBe('caller gave up');
    expect(await closedWithin(server, 1_000)).toBe(true);
  });

  it('a gzip bomb (64 KiB that decodes to 64 MiB) counts its decoded bytes: ResponseTooLargeError once, at the default limit', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MiB, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(MiB);
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const error = await failure(client(server.url).orders.get('A-1'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(32 * MiB);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['gzip', Buffer.from('this is not gzip at all, not in the least')],
    ['br', Buffer.from('xxxx this is not brotli either, not at all')],
  ])('a corrupt %s body is a ResponseValidationError, not a retried ConnectionError', async (encoding, bytes) => {
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(bytes);
    });
    const error = await failure(client(server.url).orders.get('A-1'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(new RegExp(`could not be decoded \\(content-encoding: ${encoding}\\)`));
    expect(server.requests).toHaveLength(1);
  });

  it('a gzip answer whose connection drops mid-body is still a ConnectionError, retried', async () => {
    const gz = gzipSync(Buffer.from(ORDER.repeat(2000)));
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(gz.length) });
      res.write(gz.subarray(0, gz.length >> 1));
      setTimeout(() => res.destroy(), 20);
    });
    const error = await failure(client(server.url, { maxRetries: 1 }).orders.get('A-1'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(2);
  });
});

describe('no token in hooks, error headers, messages (items 3, 4, 5)', () => {
  it('a Location and a WWW-Authenticate echoing the token reach neither the hooks nor util.inspect(error)', async () => {
    const seen: unknown[] = [];
    let api!: Loopback;
    api = await listen((req, res) => {
      if (!req.url?.startsWith('/moved')) {
        res.writeHead(302, { location: `${api.url}/moved?echo=${encodeURIComponent(TOKEN)}&lower=${LOWER_HEX}` });
        res.end();
      } else {
        res.writeHead(401, { 'www-authenticate': `Bearer realm="api", error="invalid_token", token="${TOKEN}"`, 'x-echo': TOKEN });
        res.end(JSON.stringify({ errors: [{ code: 'Unauthorized', messages: [`token ${TOKEN} refused`] }] }));
      }
    });
    const sdk = client(api.url, {
      hooks: { onRequest: (event) => void seen.push(event), onResponse: (event) => void seen.push(event) },
    });
    const error = await failure(sdk.orders.get('A-1'));
    expect(error).toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(4);
    expect(JSON.stringify(seen)).toContain('www-authenticate');
    expectNoToken(JSON.stringify(seen));
    expectNoToken(inspect(error, { depth: 5 }));
    expectNoToken(String((error as Error).stack));
    expectNoToken([...(error as ApiError).headers.values()].join('\n'));
    // What is not the token survives.
    expect((error as ApiError).headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('an HTML error page is scrubbed before it is cut: no part of the token in message or stack', async () => {
    const server = await listen((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(`<html><body><h1>Not found</h1><p>${'x'.repeat(130)} ${TOKEN} ${'y'.repeat(300)}</p></body></html>`);
    });
    const { lines, logger } = recordingLogger();
    const error = await failure(client(server.url, { logger }).orders.get('A-1'));
    expect(error).toBeInstanceOf(ApiError);
    expectNoToken(`${(error as Error).message}\n${(error as Error).stack}\n${lines.join('\n')}`);
  });

  it('a token with NUL is refused before sending, hooks or not, and no error shows it', async () => {
    const server = await listen((_req, res) => res.end(ORDER));
    const bad = 'tok\0SECRET-part-7f3a9c';
    const thrown = (() => {
      try {
        client(server.url, { token: bad, hooks: { onRequest: () => {} } });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(TypeError);
    expect(String(thrown)).not.toContain('SECRET');

    const error = await failure(
      client(server.url, { token: () => bad, hooks: { onRequest: () => {} } }).orders.get('A-1'),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(inspect(error)).not.toContain('SECRET');
    expect(server.requests).toHaveLength(0);
  });
});

describe('request headers are checked before sending (item 6)', () => {
  it.each([
    ['x-note', 'a\r\nx-injected: 1'],
    ['x-note', 'nul\0byte'],
    ['x-note', 'price in €'],
    ['transfer-encoding', 'chunked'],
    ['content-length', '5'],
    ['bad name', 'x'],
  ])('%s: %j is a RequestValidationError and nothing is sent', async (name, value) => {
    const server = await listen((_req, res) => res.end(ORDER));
    const error = await failure(client(server.url).orders.get('A-1', { headers: { [name]: value } }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['headers', name]);
    expect(server.requests).toHaveLength(0);
  });

  it('ordinary custom headers still go', async () => {
    const server = await listen((_req, res) => res.end(ORDER));
    await client(server.url).orders.get('A-1', { headers: { 'X-Trace': 'abc; q=1', 'x-latin': 'café' } });
    expect(server.requests[0]?.headers['x-trace']).toBe('abc; q=1');
  });
});

describe('redirect rules (items 7, 8)', () => {
  it('a redirect to a URL with userinfo is a RedirectError without the credentials, not retried', async () => {
    const server = await listen((_req, res) => {
      res.writeHead(302, { location: 'http://admin:hunter2-pass@127.0.0.1:9/steal' });
      res.end();
    });
    const error = await failure(client(server.url).orders.get('A-1'));
    expect(error).toBeInstanceOf(RedirectError);
    expect(inspect(error)).not.toContain('hunter2');
    expect(server.requests).toHaveLength(1);
  });

  it('a cross-origin redirect drops every credential-like header, not only Authorization (and every other header the caller added)', async () => {
    const other = await listen((_req, res) => res.end(ORDER));
    const api = await listen((req, res) => {
      res.writeHead(307, { location: `${other.url}${req.url}` });
      res.end();
    });
    const headers = { 'x-api-key': 'k-123', cookie: 'session=abc', 'proxy-authorization': 'Basic eHh4', 'x-auth-token': 'at', 'x-trace': 't' };
    await client(api.url).orders.get('A-1', { headers });
    expect(api.requests[0]?.headers['x-api-key']).toBe('k-123');
    const sent = other.requests[0]?.headers ?? {};
    for (const name of ['authorization', 'x-api-key', 'cookie', 'proxy-authorization', 'x-auth-token']) expect(sent[name]).toBeUndefined();
    expect(sent['x-trace']).toBeUndefined();
  });

  describe('https to http', () => {
    const msw = useMswServer();
    it('is refused with a RedirectError: no body nor custom header is sent in clear text', async () => {
      const plain: Request[] = [];
      msw.use(
        http.post(`${BASE}/merchants/ecommerce/orders/A-1/accept`, () => new HttpResponse(null, { status: 307, headers: { location: 'http://api.marketplace.test/merchants/ecommerce/orders/A-1/accept' } })),
        http.all('http://api.marketplace.test/*', ({ request }) => {
          plain.push(request);
          return HttpResponse.json({ success: true });
        }),
      );
      const sdk = new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', token: TOKEN });
      const error = await failure(sdk.orders.accept('A-1', { pickup_location: 'LOC-1', pickup_window: 1 }, { headers: { 'x-note': 'n' } }));
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as Error).message).toMatch(/https to http/);
      expect(plain).toHaveLength(0);
    });
  });
});

describe('hooks that throw (item 10)', () => {
  it('never change the outcome: the call resolves, and the failure is logged once', async () => {
    const server = await listen((_req, res) => res.end(ORDER));
    const { lines, logger } = recordingLogger();
    const sdk = client(server.url, {
      logger,
      hooks: {
        onRequest: () => {
          throw new Error(`request hook broke ${TOKEN}`);
        },
        onResponse: () => {
          throw new Error('response hook broke');
        },
      },
    });
    await expect(sdk.orders.get('A-1')).resolves.toMatchObject({ code: 'A-1' });
    await expect(sdk.orders.get('A-1')).resolves.toMatchObject({ code: 'A-1' });
    expect(server.requests).toHaveLength(2);
    const warnings = lines.filter((line) => line.includes('threw'));
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/hooks\.onRequest/);
    expect(warnings.join('\n')).toMatch(/hooks\.onResponse/);
    expectNoToken(lines.join('\n'));
  });

  it('an async hook that rejects is caught too', async () => {
    const server = await listen((_req, res) => res.end(ORDER));
    const sdk = client(server.url, { hooks: { onResponse: (async () => Promise.reject(new Error('late'))) as () => void } });
    await expect(sdk.orders.get('A-1')).resolves.toMatchObject({ code: 'A-1' });
  });
});

describe('error bodies of odd shapes (item 11)', () => {
  it('non-string code and messages read as their values, never [object Object]', async () => {
    const server = await listen((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ code: { kind: 'stock' }, messages: [{ field: 'quantity' }, 42, null] }, { code: 7, messages: 'one string' }] }));
    });
    const error = (await failure(client(server.url).orders.get('A-1'))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).not.toContain('[object Object]');
    expect(error.code).toBe('{"kind":"stock"}');
    expect(error.errors).toEqual([
      { code: '{"kind":"stock"}', messages: ['{"field":"quantity"}', '42'] },
      { code: '7', messages: ['one string'] },
    ]);
  });
});
