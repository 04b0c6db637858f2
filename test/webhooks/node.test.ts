import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, toNodeHandler, type WebhookEvent, type WebhookHandlerOptions } from 'emporio/webhooks';
import { newOrderBody } from './events.js';
import { recordingLogger } from '../helpers/server.js';

/** The handlers' warnings (one line per delivery not answered 200): kept for the tests that assert them, off the console. */
const { lines: warnings, logger } = recordingLogger();

const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/orders`;
}

function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  const events: WebhookEvent[] = [];
  const handler = createWebhookHandler({ urlSecret: false, logger, allowedRanges: LOOPBACK, onEvent: (event) => void events.push(event), ...options });
  return { events, node: toNodeHandler(handler) };
}

/** What a JSON body parser (Express `json()`) does before the route runs: read, parse, set req.body. */
function withBodyParser(
  route: (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => void,
  parse: (raw: Buffer) => unknown,
) {
  return (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      req.body = parse(Buffer.concat(chunks));
      route(req, res);
    });
  };
}

const body = JSON.stringify(newOrderBody());
const send = (url: string, init: RequestInit = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body, ...init });

describe('toNodeHandler on a real node:http server', () => {
  it('reads the raw body from the stream and answers 200; the redelivery is deduplicated', async () => {
    const { events, node } = receiver();
    const url = await listen(node);
    const response = await send(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    expect((await send(url)).status).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual(newOrderBody());
  });

  it('passes the socket address: the documented ranges refuse loopback with 403', async () => {
    const events: WebhookEvent[] = [];
    const url = await listen(toNodeHandler(createWebhookHandler({ urlSecret: false, logger, onEvent: (e) => void events.push(e) })));
    const response = await send(url, { headers: { 'x-forwarded-for': '185.6.76.10' } });
    expect(response.status).toBe(403);
    expect(events).toHaveLength(0);
    expect(warnings.at(-1)).toMatch(/answered 403 \(source_address\): source address (::ffff:)?127\.0\.0\.1 is not in allowedRanges \(the mock\? see mockDeliveryOptions/);
  });

  it('honours X-Forwarded-For only with trustProxy (the socket peer being the proxy)', async () => {
    const { events, node } = receiver({ allowedRanges: undefined, trustProxy: ['127.0.0.0/8'] });
    const url = await listen(node);
    expect((await send(url, { headers: { 'x-forwarded-for': '185.6.76.10' } })).status).toBe(200);
    expect((await send(url, { headers: { 'x-forwarded-for': '203.0.113.9' }, body: `${body} ` })).status).toBe(403);
    expect(events).toHaveLength(1);
  });

  it('405, 400 and 413 through the adapter', async () => {
    const { events, node } = receiver({ maxBodyBytes: 2048 });
    const url = await listen(node);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const invalid = await send(url, { body: '{oops' });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toBe('body is not valid JSON');
    const big = await send(url, { body: JSON.stringify({ event_type: 'new_order', pad: 'x'.repeat(10_000) }) });
    expect(big.status).toBe(413);
    expect(events).toHaveLength(0);
  });

  it.each([
    ['413 to a chunked body over the limit', { maxBodyBytes: 64 * 1024 }, 413],
    ['403 to a refused source', { allowedRanges: ['192.0.2.0/24'] }, 403],
  ] as const)('%s: the body is read at most up to the limit, then the connection closes', async (_name, options, status) => {
    const { events, node } = receiver(options);
    let served = 0;
    const url = await listen(node);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        served++;
        if (served > 2_000) controller.close(); // bound: 32 MB if the server read everything
        else controller.enqueue(new Uint8Array(16 * 1024).fill(32));
      },
    });
    const response = await fetch(url, { method: 'POST', body: endless, duplex: 'half' } as RequestInit).catch((error: unknown) => error);
    // Depending on timing the client sees the answer or the closed socket.
    if (response instanceof Response) {
      expect(response.status).toBe(status);
      expect(response.headers.get('connection')).toBe('close');
    }
    expect(served).toBeLessThan(2_000);
    expect(events).toHaveLength(0);
  });

  it('405 for methods fetch itself refuses (TRACE), and a backslash path does not name a host', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({ urlSecret: false, logger, allowedRanges: LOOPBACK, onEvent: (_event, context) => void seen.push(context.request.url) });
    const url = await listen(toNodeHandler(handler));
    const { port } = new URL(url);
    const raw = (head: string, payload = '') =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${head}\r\nHost: x\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString('latin1');
        });
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    expect(await raw('TRACE /webhooks/orders HTTP/1.1')).toMatch(/^HTTP\/1\.1 405[\s\S]*allow: POST/i);
    expect(await raw('POST /\\evil.example/hook HTTP/1.1', body)).toMatch(/^HTTP\/1\.1 200/);
    expect(seen).toEqual(['http://localhost/']);
  });

  it('after a JSON body parser: uses the parsed req.body', async () => {
    const { events, node } = receiver();
    const url = await listen(withBodyParser(node, (raw) => JSON.parse(raw.toString('utf8'))));
    expect((await send(url)).status).toBe(200);
    expect((await send(url)).status).toBe(200);
    expect(events).toEqual([newOrderBody()]);
  });

  it('after a raw or text body parser: uses the bytes or the string', async () => {
    const raw = receiver();
    const rawUrl = await listen(withBodyParser(raw.node, (bytes) => bytes));
    expect((await send(rawUrl)).status).toBe(200);
    expect(raw.events).toHaveLength(1);

    const text = receiver();
    const textUrl = await listen(withBodyParser(text.node, (bytes) => bytes.toString('utf8')));
    expect((await send(textUrl)).status).toBe(200);
    expect((await send(textUrl, { body: '[' })).status).toBe(400);
    expect(text.events).toHaveLength(1);
  });

  it('a body parser that skipped the request (wrong content type) leaves the stream to the adapter', async () => {
    const { events, node } = receiver();
    // Express's json() sets req.body = {} and does not read a body whose type it does not handle.
    const url = await listen((req: IncomingMessage & { body?: unknown }, res) => {
      req.body = {};
      node(req, res);
    });
    expect((await send(url, { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('a throwing onEvent is a 500 and the retry is handled', async () => {
    let calls = 0;
    const url = await listen(
      toNodeHandler(
        createWebhookHandler({
          urlSecret: false, logger,
          allowedRanges: LOOPBACK,
          onEvent: () => {
            calls++;
            if (calls === 1) throw new Error('first attempt fails');
          },
        }),
      ),
    );
    expect((await send(url)).status).toBe(500);
    expect((await send(url)).status).toBe(200);
    expect(calls).toBe(2);
  });
});
