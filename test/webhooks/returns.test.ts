/**
 * The returns webhook: each documented payload parsed as a typed ReturnEvent, drift and broken
 * shapes, and both handlers (fetch and node:http) deduplicating a return event by return code,
 * event type and event time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookHandler,
  type DriftReport,
  isReturnEvent,
  parseWebhook,
  type ReturnEvent,
  toNodeHandler,
  type WebhookEvent,
  WebhookParseError,
} from 'emporio/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { newOrderBody } from './events.js';

const DIR = new URL('../fixtures/recorded-2026h2/', import.meta.url);
const payload = (name: string) => JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as Record<string, unknown> & { return: Record<string, unknown> };
const PAYLOADS = readdirSync(DIR)
  .filter((file) => file.startsWith('returns_webhook_'))
  .map((file) => file.replace(/\.json$/, ''));

describe('parseWebhook: the returns webhook', () => {
  it('the five documented payloads are all here', () => {
    expect(PAYLOADS).toHaveLength(5);
  });

  it.each(PAYLOADS)('%s: a ReturnEvent as sent, no drift, accepted when strict', (name) => {
    const body = payload(name);
    const reports: DriftReport[] = [];
    const event = parseWebhook(JSON.stringify(body), { strict: true, onDrift: (report) => reports.push(report) });
    expect(event).toEqual(body);
    expect(isReturnEvent(event)).toBe(true);
    expect(reports).toEqual([]);
    if (!isReturnEvent(event)) return;
    expect(event.return.return_code).toBe('R-111111-1111111');
    expect(event.event_time).toMatch(/Z$/);
    expect(event.order).toBeUndefined();
  });

  it('changes are typed member by member, old null where data first appears', () => {
    const shipment = parseWebhook(payload('returns_webhook_updated_shipment_info')) as ReturnEvent;
    expect(shipment.changes?.state).toEqual({ old: 'pending_merchant_review', new: 'returning' });
    expect(shipment.changes?.courier).toEqual({ old: null, new: 'ACS' });
    expect(shipment.changes?.returning_address?.new?.city).toBe('Athens');
    const tracking = parseWebhook(payload('returns_webhook_updated_tracking_ids')) as ReturnEvent;
    expect(tracking.changes?.courier_tracking_ids?.new).toEqual(['ACS1234567890']);
    const created = parseWebhook(payload('returns_webhook_created')) as ReturnEvent;
    expect(created.changes).toBeUndefined();
    expect(created.return.return_line_items?.[0]?.return_reason).toBe('wrong_product');
  });

  it('the DEMO-RETURN answer and the review option lists fit the return of an event', () => {
    const demo = JSON.parse(readFileSync(new URL('returns_show_demo_return.json', DIR), 'utf8')).response.body.return;
    for (const list of ['faulty', 'missing_part', 'withdrawal']) {
      const options = payload(`returns_review_options_${list}`).review_options;
      const body = { event_type: 'merchant_return_updated', event_time: '2026-09-01T10:00:00Z', return: { ...demo, state: 'pending_merchant_review', review_options: options } };
      expect(parseWebhook(body, { strict: true })).toEqual(body);
    }
  });

  it('drift is reported and passes; when strict it is refused', () => {
    const body = payload('returns_webhook_updated_state');
    const drifted = { ...body, return: { ...body.return, courier: 5, courier_tracking_ids: 'ACS1' } };
    const reports: DriftReport[] = [];
    expect(parseWebhook(drifted, { onDrift: (r) => reports.push(r) })).toBe(drifted);
    expect(reports.map((r) => r.path).sort()).toEqual(['$.return.courier', '$.return.courier_tracking_ids']);
    expect(() => parseWebhook(drifted, { strict: true })).toThrow(WebhookParseError);
  });

  it('each member of a documented event replaced by a value of another type: passes as sent and is reported; only the return and its code are refused', () => {
    type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
    const paths = (value: Json, prefix: (string | number)[] = []): (string | number)[][] =>
      value === null || typeof value !== 'object'
        ? []
        : (Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value)).flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key])]);
    const other = (value: Json): Json =>
      typeof value === 'string' ? 12345 : typeof value === 'number' ? 'text' : typeof value === 'boolean' ? 'yes' : value === null ? ['list'] : Array.isArray(value) ? 'text' : 'text';
    const shipment = payload('returns_webhook_updated_shipment_info') as unknown as { [key: string]: Json; return: { [key: string]: Json } };
    const body: { [key: string]: Json } = { ...shipment, return: { ...shipment.return, review_options: payload('returns_review_options_missing_part').review_options as Json } };
    let swept = 0;
    for (const path of paths(body).filter(([root]) => root === 'return' || root === 'changes')) {
      const mutated = structuredClone(body);
      let node = mutated as Json;
      for (const key of path.slice(0, -1)) node = (node as Record<string | number, Json>)[key] as Json;
      const last = path.at(-1) as string | number;
      (node as Record<string | number, Json>)[last] = other((node as Record<string | number, Json>)[last] as Json);
      if (path.join('.') === 'return' || path.join('.') === 'return.return_code') {
        expect(() => parseWebhook(mutated)).toThrow(expect.objectContaining({ path }));
        continue;
      }
      const reports: DriftReport[] = [];
      expect(parseWebhook(mutated, { onDrift: (r) => reports.push(r) })).toBe(mutated);
      expect(reports.length, path.join('.')).toBeGreaterThan(0);
      swept++;
    }
    expect(swept).toBeGreaterThan(40);
  });

  it('refused only without a usable return: no return, or a return_code that is not a string', () => {
    const body = payload('returns_webhook_created');
    const { return: _, ...bare } = body;
    expect(() => parseWebhook(bare)).toThrow(expect.objectContaining({ path: ['return'] }));
    expect(() => parseWebhook({ ...body, return: { ...body.return, return_code: 17 } })).toThrow(expect.objectContaining({ path: ['return', 'return_code'] }));
    // An order-shaped body under a return event type is not an order event either.
    expect(() => parseWebhook({ event_type: 'merchant_return_created', order: { code: 'X' } })).toThrow(WebhookParseError);
  });

  it('isReturnEvent is false for order events and for unknown events', () => {
    expect(isReturnEvent(parseWebhook(newOrderBody()))).toBe(false);
    const unknown = parseWebhook({ event_type: 'merchant_return_deleted', return: { return_code: 'R-1' } });
    expect('raw' in unknown).toBe(true);
    expect(isReturnEvent(unknown)).toBe(false);
  });
});

const SERVICE = '185.6.76.10';
const post = (body: unknown) =>
  new Request('https://shop.example/webhooks/returns', { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('the handlers deduplicate a return event by return code, event type and event time', () => {
  it('fetch handler: a redelivery whose bytes differ is still the same event; another time or type is another event', async () => {
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({ urlSecret: false, onEvent: (event) => void events.push(event) });
    const created = payload('returns_webhook_created');
    expect((await handler(post(created), { remoteAddress: SERVICE })).status).toBe(200);
    // The same event, written differently (spacing, member order, a later copy of the return).
    const rewritten = JSON.stringify({ return: { ...created.return, state: 'pending_merchant_review' }, event_time: created.event_time, event_type: created.event_type }, null, 2);
    const again = await handler(post(rewritten), { remoteAddress: SERVICE });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('already handled');
    expect(events).toHaveLength(1);

    await handler(post({ ...created, event_time: '2026-08-18T09:12:04Z' }), { remoteAddress: SERVICE });
    await handler(post({ ...created, event_type: 'merchant_return_updated' }), { remoteAddress: SERVICE });
    await handler(post({ ...created, return: { ...created.return, return_code: 'R-111111-1111112' } }), { remoteAddress: SERVICE });
    expect(events).toHaveLength(4);
  });

  it('order events keep the body as their key: two different bodies of one second are two events', async () => {
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({ urlSecret: false, onEvent: (event) => void events.push(event) });
    const order = newOrderBody();
    await handler(post(order), { remoteAddress: SERVICE });
    await handler(post({ ...order, order: { ...order.order, comments: 'changed' } }), { remoteAddress: SERVICE });
    expect(events).toHaveLength(2);
  });

  it('a return event without event_time falls back to its body', async () => {
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({ urlSecret: false, onEvent: (event) => void events.push(event) });
    const { event_time: _, ...timeless } = payload('returns_webhook_updated_state');
    await handler(post(timeless), { remoteAddress: SERVICE });
    await handler(post(timeless), { remoteAddress: SERVICE });
    await handler(post({ ...timeless, changes: {} }), { remoteAddress: SERVICE });
    expect(events).toHaveLength(2);
  });

  describe('node:http handler', () => {
    let server: Server | undefined;
    afterEach(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    it('the same dedupe over a real socket', async () => {
      const events: WebhookEvent[] = [];
      server = createServer(toNodeHandler(createWebhookHandler({ urlSecret: false, allowedRanges: ['127.0.0.0/8', '::1/128'], onEvent: (e) => void events.push(e) })));
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/returns`;
      const send = (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body });
      const updated = payload('returns_webhook_updated_courier_reassigned');
      expect((await send(JSON.stringify(updated))).status).toBe(200);
      expect((await send(JSON.stringify(updated, null, 1))).status).toBe(200);
      expect(events).toHaveLength(1);
      const event = events[0] as WebhookEvent;
      expect(isReturnEvent(event) ? event.changes?.courier : undefined).toEqual({ old: 'ACS', new: 'Speedex' });
    });
  });
});
