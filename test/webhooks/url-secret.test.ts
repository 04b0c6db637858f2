/**
 * `urlSecret` (spec/4 section 9): deliveries are unsigned, so the registered URL carries a secret.
 * Through the Node adapter on real loopback servers (node:http and Express), and the fetch handler.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  toNodeHandler,
  type WebhookEvent,
  type WebhookEventContext,
  type WebhookHandlerOptions,
} from 'emporio/webhooks';
import { newOrderBody } from './events.js';

const SECRET = 'wh-3c1f9a0e-7b2d-4e55-9f10-a8c4e2d7b6f1';
const NEXT_SECRET = 'wh-next-Q2x7Yk9Zr4Lm8Pn3Vb6Tc1';
const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const body = JSON.stringify(newOrderBody());
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Everything a test saw: answers (status, headers, text), the URLs onEvent was given, errors, console lines. */
const seen: string[] = [];
beforeEach(() => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void seen.push(args.map(String).join(' ')));
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const text of seen.splice(0)) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(NEXT_SECRET);
  }
});

async function serve(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  const events: WebhookEvent[] = [];
  const contexts: WebhookEventContext[] = [];
  const handler = createWebhookHandler({
    allowedRanges: LOOPBACK,
    urlSecret: SECRET,
    onEvent: (event, context) => {
      events.push(event);
      contexts.push(context);
      seen.push(context.request.url, JSON.stringify([...context.request.headers]));
    },
    ...options,
  });
  return { events, contexts, handler, node: toNodeHandler(handler) };
}

async function post(url: string, text = body, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, ...init });
  const shown = await response.clone().text();
  seen.push(`${response.status} ${shown} ${JSON.stringify([...response.headers])}`);
  return response;
}

describe('urlSecret through toNodeHandler on node:http', () => {
  it('accepts the secret as the last path segment or the secret parameter; onEvent never sees it', async () => {
    const { events, contexts, node } = receiver({ dedupe: false });
    const base = await serve(node);
    expect((await post(`${base}/webhooks/${SECRET}`)).status).toBe(200);
    expect((await post(`${base}/webhooks/${SECRET}/`)).status).toBe(200);
    expect((await post(`${base}/webhooks?secret=${SECRET}&shop=1`)).status).toBe(200);
    expect(events).toHaveLength(3);
    expect(contexts.map((c) => c.request.url)).toEqual([
      'http://localhost/webhooks/[redacted]',
      'http://localhost/webhooks/[redacted]/',
      'http://localhost/webhooks?shop=1',
    ]);
    expect(contexts[0]?.request.headers.get('content-type')).toBe('application/json');
  });

  it.each([
    ['no secret', '/webhooks'],
    ['another secret', '/webhooks/wh-00000000-0000-0000-0000-000000000000'],
    ['the secret less its last character', `/webhooks/${SECRET.slice(0, -1)}`],
    ['the secret and one more character', `/webhooks/${SECRET}x`],
    ['the secret in another segment', `/${SECRET}/webhooks`],
    ['the secret in another parameter', `/webhooks?token=${SECRET}`],
    ['a different-case secret', `/webhooks/${SECRET.toUpperCase()}`],
    ['an empty secret parameter', '/webhooks?secret='],
  ])('%s: 404 and nothing handled', async (_name, path) => {
    const { events, node } = receiver();
    const base = await serve(node);
    const response = await post(`${base}${path}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('not found');
    expect(events).toHaveLength(0);
  });

  it('answers 404 before the method, the source address, the size or the body are looked at', async () => {
    const { events, node } = receiver({ allowedRanges: ['192.0.2.0/24'], maxBodyBytes: 1024 });
    const base = await serve(node);
    expect((await fetch(`${base}/webhooks/wrong-secret-0123456789`)).status).toBe(404); // GET: not 405
    expect((await post(`${base}/webhooks/wrong-secret-0123456789`, '{oops')).status).toBe(404); // not 400
    expect((await post(`${base}/webhooks/wrong-secret-0123456789`, 'x'.repeat(4096))).status).toBe(404); // not 413
    expect((await post(`${base}/webhooks/${SECRET}`)).status).toBe(403); // with the secret, the other checks follow
    expect(events).toHaveLength(0);

    // A request that declares a body and never sends it is answered at once: the body is not waited for.
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('POST /webhooks/not-the-secret-123456 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"event_type":'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('not found')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
    seen.push(answer);
  });

  it('a 400 for a broken body at the secret URL does not echo the URL', async () => {
    const { node } = receiver();
    const base = await serve(node);
    const response = await post(`${base}/webhooks/${SECRET}`, '{"event_type": 5}');
    expect(response.status).toBe(400);
  });

  it('rotation: both secrets while the panel is changed, then the new one alone', async () => {
    const during = receiver({ urlSecret: [SECRET, NEXT_SECRET], dedupe: false });
    const base = await serve(during.node);
    expect((await post(`${base}/webhooks/${SECRET}`)).status).toBe(200);
    expect((await post(`${base}/webhooks/${NEXT_SECRET}`)).status).toBe(200);
    expect((await post(`${base}/webhooks?secret=${NEXT_SECRET}`)).status).toBe(200);
    expect(during.events).toHaveLength(3);

    const after = receiver({ urlSecret: [NEXT_SECRET] });
    const next = await serve(after.node);
    expect((await post(`${next}/webhooks/${SECRET}`)).status).toBe(404);
    expect((await post(`${next}/webhooks/${NEXT_SECRET}`)).status).toBe(200);
    expect(after.events).toHaveLength(1);
  });

  it('refuses a weak or malformed secret at construction, without quoting it', () => {
    for (const urlSecret of ['short-secret', `${SECRET}/x`, `${SECRET} x`, [], ['', SECRET], 42]) {
      let error: unknown;
      try {
        createWebhookHandler({ onEvent: () => {}, urlSecret: urlSecret as string });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain('urlSecret');
      seen.push((error as Error).message, (error as Error).stack ?? '');
      if (typeof urlSecret === 'string') expect((error as Error).message).not.toContain(urlSecret);
    }
  });
});

describe('urlSecret in Express', () => {
  async function app(mount: (app: express.Express, route: express.RequestHandler) => void) {
    const { events, contexts, node } = receiver();
    const app = express();
    mount(app, node as unknown as express.RequestHandler);
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return { events, contexts, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('a route with a :secret parameter', async () => {
    const { events, base } = await app((app, route) => app.post('/webhooks/:secret', route));
    expect((await post(`${base}/webhooks/${SECRET}`)).status).toBe(200);
    expect((await post(`${base}/webhooks/not-the-secret-0123456789`)).status).toBe(404);
    expect(events).toHaveLength(1);
  });

  it('mounted under a router, or at the secret path itself: the adapter reads the URL as requested', async () => {
    const nested = await app((app, route) => {
      const router = express.Router();
      router.post('/:secret', route);
      app.use('/webhooks', router);
    });
    expect((await post(`${nested.base}/webhooks/${SECRET}`)).status).toBe(200);
    const atPath = await app((app, route) => app.use(`/webhooks/${SECRET}`, route));
    expect((await post(`${atPath.base}/webhooks/${SECRET}`)).status).toBe(200);
    expect(atPath.contexts[0]?.request.url).toBe('http://localhost/webhooks/[redacted]');
  });

  it('behind express.json(): the query secret works and a wrong URL is still 404', async () => {
    const { events, base } = await app((app, route) => {
      app.use(express.json());
      app.post('/webhooks', route);
    });
    expect((await post(`${base}/webhooks?secret=${SECRET}`)).status).toBe(200);
    expect((await post(`${base}/webhooks?secret=nope-nope-nope-nope`)).status).toBe(404);
    expect(events).toHaveLength(1);
  });
});

describe('urlSecret on the fetch handler (Bun, Deno, Hono, workers)', () => {
  it('reads the Request URL as the runtime gives it', async () => {
    const { events, contexts, handler } = receiver();
    const delivery = (url: string) =>
      new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const ok = await handler(delivery(`https://shop.example/webhooks/${SECRET}`), { remoteAddress: '127.0.0.1' });
    const refused = await handler(delivery('https://shop.example/webhooks/orders'), { remoteAddress: '127.0.0.1' });
    expect([ok.status, refused.status]).toEqual([200, 404]);
    seen.push(await ok.text(), await refused.text());
    expect(events).toHaveLength(1);
    expect(contexts[0]?.request.url).toBe('https://shop.example/webhooks/[redacted]');
  });
});
