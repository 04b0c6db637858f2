/**
 * The webhook inbox in memory, through the public API: the handler appends and answers before any
 * business logic, redeliveries are not appended again, processInbox keeps each order's events in
 * order and one at a time, retries with backoff, takes over a lapsed hold, and dead letters.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMemoryInbox,
  createWebhookHandler,
  processInbox,
  toNodeHandler,
  type WebhookEvent,
  type WebhookEventContext,
  type WebhookInbox,
} from 'emporio/webhooks';
import { startMockMarketplace } from 'emporio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { newOrderBody, orderUpdatedBody, recordedOrder } from './events.js';

const SERVICE = '185.6.76.10';
const post = (body: unknown, url = 'https://shop.example/webhooks') =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
const order = recordedOrder();
const newOrder = (code: string) => newOrderBody({ ...order, code });
const update = (code: string, time: string, state: string) => ({
  ...orderUpdatedBody({ ...order, code }),
  event_time: time,
  changes: { state: { old: 'open', new: state } },
});
const codeOf = (event: WebhookEvent) => String(event.order?.code);
const RETURNS = new URL('../fixtures/recorded-2026h2/', import.meta.url);
const returnPayload = (name: string) => JSON.parse(readFileSync(new URL(`${name}.json`, RETURNS), 'utf8')) as Record<string, unknown>;

/** Runs processInbox until `done()` holds (bounded by `maxMs`), then stops it and waits for it to settle. */
async function runUntil(options: Omit<Parameters<typeof processInbox>[0], 'signal'>, done: () => boolean, maxMs = 10_000) {
  const stop = new AbortController();
  const running = processInbox({ pollMs: 20, ...options, signal: stop.signal });
  const started = Date.now();
  while (!done() && Date.now() - started < maxMs) await new Promise((resolve) => setTimeout(resolve, 5));
  stop.abort();
  await running;
}

describe('createWebhookHandler({ inbox })', () => {
  it('answers 200 once the inbox holds the delivery, before any business logic; a redelivery is not appended again', async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: false });
    const response = await handler(post(newOrder('A-1'), 'https://shop.example/webhooks?x=1'), { remoteAddress: SERVICE });
    expect(response.status).toBe(200);
    const claims = await inbox.claim('look', 10, 1_000);
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ sequence: 'order:A-1', entry: { sourceAddress: SERVICE, url: 'https://shop.example/webhooks?x=1', attempts: 0 } });
    expect(codeOf(claims[0]!.entry.event)).toBe('A-1');

    const again = await handler(post(newOrder('A-1')), { remoteAddress: SERVICE });
    expect([again.status, await again.text()]).toEqual([200, 'already received']);
    // Completed, and redelivered later: still not appended.
    expect(await inbox.complete(claims[0]!)).toBeUndefined();
    expect((await handler(post(newOrder('A-1')), { remoteAddress: SERVICE })).status).toBe(200);
    expect(await inbox.claim('look', 10, 1_000)).toEqual([]);
  });

  it('runs every check first: a refused delivery is not appended', async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: 'a-secret-of-16-characters', onError: () => {} });
    expect((await handler(post(newOrder('B-1')), { remoteAddress: SERVICE })).status).toBe(404);
    expect((await handler(post(newOrder('B-1'), 'https://shop.example/webhooks/a-secret-of-16-characters'), { remoteAddress: '10.0.0.1' })).status).toBe(403);
    const bad = new Request('https://shop.example/webhooks/a-secret-of-16-characters', { method: 'POST', body: '{"event_type":' });
    expect((await handler(bad, { remoteAddress: SERVICE })).status).toBe(400);
    expect(await inbox.claim('look', 10, 1_000)).toEqual([]);
    // The URL the worker is told of carries no secret.
    expect((await handler(post(newOrder('B-1'), 'https://shop.example/webhooks/a-secret-of-16-characters'), { remoteAddress: SERVICE })).status).toBe(200);
    const [claim] = await inbox.claim('look', 10, 1_000);
    expect(claim?.entry.url).not.toContain('a-secret-of-16-characters');
    expect(claim?.entry.body).not.toContain('a-secret-of-16-characters');
  });

  it('giving both inbox and onEvent, or an inbox without append, is a TypeError', () => {
    expect(() => createWebhookHandler({ inbox: createMemoryInbox(), onEvent: () => {}, urlSecret: false })).toThrow(TypeError);
    expect(() => createWebhookHandler({ inbox: {} as WebhookInbox, urlSecret: false })).toThrow(TypeError);
  });

  it('an inbox that fails answers 500, so the service retries', async () => {
    const inbox: WebhookInbox = { ...createMemoryInbox(), append: () => Promise.reject(new Error('down')) };
    const reasons: string[] = [];
    const handler = createWebhookHandler({ inbox, urlSecret: false, onError: (_, info) => reasons.push(info.reason) });
    expect((await handler(post(newOrder('C-1')), { remoteAddress: SERVICE })).status).toBe(500);
    expect(reasons).toEqual(['inbox_failed']);
  });

  describe('node:http handler', () => {
    let server: Server | undefined;
    afterEach(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    it('appends over a real socket and answers 200 before onEvent runs', async () => {
      const inbox = createMemoryInbox();
      server = createServer(toNodeHandler(createWebhookHandler({ inbox, allowedRanges: ['127.0.0.0/8'], urlSecret: false })));
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      const response = await fetch(url, { method: 'POST', body: JSON.stringify(newOrder('N-1')) });
      expect(response.status).toBe(200);
      const seen: string[] = [];
      await runUntil({ inbox, onEvent: (event) => void seen.push(codeOf(event)) }, () => seen.length === 1);
      expect(seen).toEqual(['N-1']);
    });
  });
});

describe('the dedupe key of an event includes what changed', () => {
  it('two different merchant_return_updated of one return in one second both reach onEvent; a redelivery does not', async () => {
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({ onEvent: (event) => void events.push(event), urlSecret: false });
    const first = returnPayload('returns_webhook_updated_state');
    const second = { ...first, changes: { courier: { old: 'ACS', new: 'Speedex' } } };
    for (const body of [first, second, first, second]) expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
    expect(events.map((event) => (event as { changes?: unknown }).changes)).toEqual([first.changes, second.changes]);
  });

  it('the same for the inbox, and for order events', async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: false });
    const first = returnPayload('returns_webhook_updated_state');
    const second = { ...first, changes: { courier: { old: 'ACS', new: 'Speedex' } } };
    const accepted = update('O-1', '2026-01-01T10:00:00+02:00', 'accepted');
    const cancelled = update('O-1', '2026-01-01T10:00:00+02:00', 'cancelled');
    const answers = [];
    for (const body of [first, second, first, accepted, cancelled, accepted]) answers.push(await (await handler(post(body), { remoteAddress: SERVICE })).text());
    expect(answers).toEqual(['ok', 'ok', 'already received', 'ok', 'ok', 'already received']);
  });
});

describe('processInbox', () => {
  it("hands each order's events one at a time in event-time order, then arrival; other orders in parallel up to concurrency", async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: false });
    const orders = ['P-1', 'P-2', 'P-3', 'P-4', 'P-5', 'P-6'];
    for (const code of orders) {
      // Arrival out of event-time order: the later update arrives first.
      for (const body of [update(code, '2026-01-01T10:00:02+02:00', 'cancelled'), newOrder(code), update(code, '2026-01-01T10:00:01+02:00', 'accepted')]) {
        await handler(post(body), { remoteAddress: SERVICE });
      }
    }
    const seen = new Map<string, string[]>();
    let running = 0;
    let most = 0;
    const busy = new Set<string>();
    await runUntil(
      {
        inbox,
        concurrency: 3,
        onEvent: async (event) => {
          const code = codeOf(event);
          expect(busy.has(code)).toBe(false);
          busy.add(code);
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 10));
          seen.set(code, [...(seen.get(code) ?? []), event.event_type === 'new_order' ? 'new' : String((event as { changes?: { state?: { new?: string } } }).changes?.state?.new)]);
          busy.delete(code);
          running--;
        },
      },
      () => [...seen.values()].flat().length === orders.length * 3,
    );
    // new_order's event_time (2021) is earliest; then the two updates by event time.
    for (const code of orders) expect(seen.get(code)).toEqual(['new', 'accepted', 'cancelled']);
    expect(most).toBe(3);
  });

  it('settles once the signal aborts and the events under way are finished; the rest stay in the inbox', async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: false });
    await handler(post(newOrder('S-1')), { remoteAddress: SERVICE });
    await handler(post(update('S-1', '2026-01-01T10:00:01+02:00', 'accepted')), { remoteAddress: SERVICE });
    const stop = new AbortController();
    let finished = 0;
    const done = processInbox({
      inbox,
      pollMs: 10,
      signal: stop.signal,
      onEvent: async () => {
        stop.abort();
        await new Promise((resolve) => setTimeout(resolve, 30));
        finished++;
      },
    });
    await done;
    expect(finished).toBe(1);
    const [claim] = await inbox.claim('next', 1, 1_000);
    expect(claim?.entry.event.event_type).toBe('order_updated');
  });

  it('retries a throwing onEvent with doubling delays, holding back the order, and tells it the attempt', async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: false });
    await handler(post(newOrder('R-1')), { remoteAddress: SERVICE });
    await handler(post(update('R-1', '2026-01-01T10:00:01+02:00', 'accepted')), { remoteAddress: SERVICE });
    const calls: { type: string; attempt: number | undefined; at: number }[] = [];
    const errors: string[] = [];
    await runUntil(
      {
        inbox,
        retryDelayMs: 20,
        onError: (error, info) => errors.push(`${info.attempts} ${error.message}`),
        onEvent: (event, context: WebhookEventContext) => {
          calls.push({ type: event.event_type, attempt: context.attempt, at: Date.now() });
          expect(context.request.method).toBe('POST');
          if (event.event_type === 'new_order' && (context.attempt ?? 0) < 4) throw new Error('order system down');
        },
      },
      () => calls.some((call) => call.type === 'order_updated'),
    );
    expect(calls.map((call) => `${call.type}#${call.attempt}`)).toEqual(['new_order#1', 'new_order#2', 'new_order#3', 'new_order#4', 'order_updated#1']);
    const gaps = calls.slice(1, 4).map((call, i) => call.at - (calls[i] as { at: number }).at);
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(38);
    expect(gaps[2]).toBeGreaterThanOrEqual(78);
    expect(errors).toEqual(['1 order system down', '2 order system down', '3 order system down']);
  });

  it('after retryForMs an event becomes a dead letter with its last error; the order goes on; retry puts it back, drop removes it', async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: false });
    await handler(post(newOrder('D-1')), { remoteAddress: SERVICE });
    await handler(post(update('D-1', '2026-01-01T10:00:01+02:00', 'accepted')), { remoteAddress: SERVICE });
    await handler(post(newOrder('D-2')), { remoteAddress: SERVICE });
    const handled: string[] = [];
    let failing = true;
    const options = {
      inbox,
      retryDelayMs: 10,
      retryForMs: 100,
      onError: () => {},
      onEvent: (event: WebhookEvent) => {
        if (failing && event.event_type === 'new_order') throw new Error(`no room for ${codeOf(event)}`);
        handled.push(`${codeOf(event)} ${event.event_type}`);
      },
    };
    await runUntil(options, () => handled.length === 1);
    expect(handled).toEqual(['D-1 order_updated']);
    const dead = await inbox.deadLetters();
    expect(dead.map((letter) => [codeOf(letter.event), letter.error])).toEqual([
      ['D-1', 'no room for D-1'],
      ['D-2', 'no room for D-2'],
    ]);
    const [first, second] = dead as [(typeof dead)[0], (typeof dead)[0]];
    expect(first.attempts).toBeGreaterThanOrEqual(3);
    expect(first.lastTriedAt.getTime() - first.firstSeenAt.getTime()).toBeGreaterThanOrEqual(100);
    // A dead letter's redelivery is not appended again.
    expect(await (await handler(post(newOrder('D-1')), { remoteAddress: SERVICE })).text()).toBe('already received');

    expect(await inbox.retry(first.id)).toBe(true);
    expect(await inbox.drop(second.id)).toBe(true);
    expect(await inbox.retry(second.id)).toBe(false);
    failing = false;
    await runUntil(options, () => handled.length === 2);
    expect(handled).toEqual(['D-1 order_updated', 'D-1 new_order']);
    expect(await inbox.deadLetters()).toEqual([]);
    expect(await (await handler(post(newOrder('D-2')), { remoteAddress: SERVICE })).text()).toBe('already received');
  });

  it("takes over an order whose worker stopped renewing its hold, once the lease lapsed, and completes it once", async () => {
    const inbox = createMemoryInbox();
    const handler = createWebhookHandler({ inbox, urlSecret: false });
    await handler(post(newOrder('L-1')), { remoteAddress: SERVICE });
    // A worker that took the order and died.
    const [lost] = await inbox.claim('dead-worker', 1, 100);
    const handled: number[] = [];
    const takenAt = Date.now();
    await runUntil({ inbox, leaseMs: 100, onEvent: () => void handled.push(Date.now() - takenAt) }, () => handled.length === 1);
    expect(handled[0]).toBeGreaterThanOrEqual(95);
    // The dead worker's late completion changes nothing.
    expect(await inbox.complete(lost!)).toBeUndefined();
    expect(await inbox.renew(lost!, 100)).toBe(false);
    expect(await inbox.claim('look', 1, 100)).toEqual([]);
  });

  it('refuses bad options with a TypeError', async () => {
    await expect(processInbox({ inbox: {} as WebhookInbox, onEvent: () => {} })).rejects.toThrow(TypeError);
    await expect(processInbox({ inbox: createMemoryInbox(), onEvent: () => {}, concurrency: 0 })).rejects.toThrow(TypeError);
  });
});

describe("an order system down longer than the service's retries (its schedule shortened: 4 attempts 20 ms apart)", () => {
  /** One new order delivered by the mock to a receiver on loopback, the order system down for 400 ms; with `inbox`, a processInbox worker runs. */
  async function outage(inbox?: WebhookInbox) {
    const marketplace = await startMockMarketplace({ port: 0, seedDemoOrders: false, webhookIntervalMs: 20 });
    const downUntil = Date.now() + 400;
    const handled: string[] = [];
    const onEvent = (event: WebhookEvent) => {
      if (Date.now() < downUntil) throw new Error('order system down');
      handled.push(codeOf(event));
    };
    const common = { allowedRanges: false, urlSecret: false, onError: () => {} } as const;
    const server = createServer(toNodeHandler(createWebhookHandler(inbox ? { ...common, inbox } : { ...common, onEvent })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const working = inbox && runUntil({ inbox, retryDelayMs: 20, onError: () => {}, onEvent }, () => handled.length === 1);
    marketplace.mock.webhooks.register(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`);
    const code = marketplace.mock.orders.create().code;
    await marketplace.mock.webhooks.idle();
    await (working ?? new Promise((resolve) => setTimeout(resolve, Math.max(0, downUntil - Date.now()) + 50)));
    server.close();
    await marketplace.close();
    return { code, handled, attempts: marketplace.mock.webhooks.deliveries.map((delivery) => `${delivery.attempt}:${delivery.status}`) };
  }

  it('without the inbox, the order is lost: 4 attempts answered 500, never handled', async () => {
    const { attempts, handled } = await outage();
    expect(attempts).toEqual(['1:500', '2:500', '3:500', '4:500']);
    expect(handled).toEqual([]);
  });

  it('with the inbox, the first attempt is answered 200 and the order handled once the system is back', async () => {
    const { attempts, handled, code } = await outage(createMemoryInbox());
    expect(attempts).toEqual(['1:200']);
    expect(handled).toEqual([code]);
  });
});
