/** toNodeHandler inside a real Express 5 app, with each of Express's body parsers and without one. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, toNodeHandler, WEBHOOK_SOURCE_RANGES, type WebhookEvent } from 'emporio/webhooks';
import { newOrderBody } from './events.js';
import { recordingLogger } from '../helpers/server.js';

/** The handlers' warnings (one line per delivery not answered 200): kept for the tests that assert them, off the console. */
const { lines: warnings, logger } = recordingLogger();

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function app(parser: RequestHandler | undefined, allowedRanges = ['127.0.0.0/8', '::1/128']) {
  const events: WebhookEvent[] = [];
  const app = express();
  if (parser) app.use(parser);
  app.post('/webhooks/orders', toNodeHandler(createWebhookHandler({ urlSecret: false, logger, allowedRanges, onEvent: (event) => void events.push(event) })));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return { events, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/orders` };
}

const body = JSON.stringify(newOrderBody());
const post = (url: string, text = body) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: text });

describe('toNodeHandler in an Express app', () => {
  it.each([
    ['no body parser', undefined],
    ['express.json()', express.json()],
    ['express.raw()', express.raw({ type: '*/*' })],
    ['express.text()', express.text({ type: '*/*' })],
  ])('with %s: handles the delivery once and deduplicates the redelivery', async (_name, parser) => {
    const { events, url } = await app(parser);
    expect((await post(url)).status).toBe(200);
    expect((await post(url)).status).toBe(200);
    expect(events).toEqual([newOrderBody()]);
  });

  it('takes the address from the socket: the documented ranges refuse a loopback peer', async () => {
    const { events, url } = await app(express.json(), [...WEBHOOK_SOURCE_RANGES]);
    expect((await post(url)).status).toBe(403);
    expect(events).toHaveLength(0);
    // Ranges given (here the published ones) are meant as given: no hint about the mock.
    expect(warnings.at(-1)).toMatch(/answered 403 \(source_address\): source address (::ffff:)?127\.0\.0\.1 is not in allowedRanges \{/);
  });

  it('answers 400 to a body that is not an event, behind any parser that lets it through', async () => {
    const { url } = await app(express.text({ type: '*/*' }));
    expect((await post(url, '{"event_type": 5}')).status).toBe(400);
  });
});
