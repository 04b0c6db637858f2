/**
 * The mock as a dev loop for any stack: its admin API over plain HTTP (what a PHP or Python
 * backend's tests call with curl). `emporio-mock` driving it from a shell: admin-cli.test.ts.
 */
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { type OrderUpdatedEvent, parseWebhook } from 'emporio/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver } from './helpers.js';

const SECRET = 'f1e2d3c4-b5a6-4978-8a6b-5c4d3e2f1a0b';
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setUp() {
  const receiver = await startReceiver();
  const running: RunningMockMarketplace = await startMockMarketplace({ port: 0, webhookIntervalMs: 5 });
  closers.push(receiver.close, running.close);
  return { receiver, running, mock: running.mock };
}

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${base}/__mock/admin${path}`, {
    method,
    ...(method === 'GET' ? {} : { headers: { 'Content-Type': 'application/json' } }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the admin API's JSON, read as a test reads it
  return { status: answer.status, data: (await answer.json()) as Record<string, any> };
};

describe('the admin API (plain HTTP, no token)', () => {
  it('registers a URL, places an order and moves it through its states, sending the webhooks the service would', async () => {
    const { receiver, running, mock } = await setUp();
    const hook = `${receiver.url}/${SECRET}`;
    expect((await call(running.url, 'POST', '/webhooks', { url: hook })).status).toBe(201);

    const created = await call(running.url, 'POST', '/orders', { invoice: true });
    expect(created.status).toBe(201);
    const code = created.data.order.code as string;
    expect(created.data.order).toMatchObject({ state: 'open', invoice: true });
    const states = [];
    for (const action of ['accept', 'dispatch', 'deliver', 'return']) {
      const moved = await call(running.url, 'POST', `/orders/${code}/${action}`);
      expect(moved.status).toBe(200);
      states.push(moved.data.order.state);
    }
    expect(states).toEqual(['accepted', 'dispatched', 'delivered', 'returned']);
    await mock.webhooks.idle();

    const events = receiver.received.map((delivery) => parseWebhook(delivery.body) as OrderUpdatedEvent);
    // deliver sends nothing: the service names no event for it.
    expect(events.map((event) => [event.event_type, event.changes?.state?.new])).toEqual([
      ['new_order', undefined],
      ['order_updated', 'accepted'],
      ['order_updated', 'dispatched'],
      ['order_updated', 'returned'],
    ]);
    expect(events.every((event) => event.order.code === code)).toBe(true);

    const { data } = await call(running.url, 'GET', '/webhooks');
    expect(data.deliveries).toHaveLength(4);
    expect(JSON.stringify(data)).not.toContain(SECRET);
    expect(data.urls).toEqual([`${receiver.url}/[redacted]`]);
  });

  it('cancel sends the cancellation; a move the state does not allow is 409, an unknown order or action 404', async () => {
    const { running } = await setUp();
    const code = (await call(running.url, 'POST', '/orders')).data.order.code as string;
    expect((await call(running.url, 'POST', `/orders/${code}/cancel`)).data.order.state).toBe('cancelled');
    const refused = await call(running.url, 'POST', `/orders/${code}/accept`);
    expect(refused.status).toBe(409);
    expect(refused.data.error).toContain('cancelled');
    expect((await call(running.url, 'POST', '/orders/NOPE-1/accept')).status).toBe(404);
    expect((await call(running.url, 'POST', `/orders/${code}/refund`)).status).toBe(404);
    expect((await call(running.url, 'POST', `/orders/${code}/toString`)).status).toBe(404);
    expect((await call(running.url, 'POST', '/webhooks', { nope: 1 })).status).toBe(400);
  });

  it('answers 413 to a body past 64 KiB and does not act on it', async () => {
    const { running } = await setUp();
    const before = (await call(running.url, 'GET', '/orders')).data.orders.length as number;
    const large = await call(running.url, 'POST', '/orders', { invoice: true, padding: 'x'.repeat(70 * 1024) });
    expect(large.status).toBe(413);
    expect(large.data.error).toMatch(/larger than 65536 bytes/);
    expect((await call(running.url, 'POST', '/webhooks', { url: `http://127.0.0.1:9/${'x'.repeat(70 * 1024)}` })).status).toBe(413);
    expect((await call(running.url, 'GET', '/orders')).data.orders).toHaveLength(before);
    expect((await call(running.url, 'GET', '/webhooks')).data.urls).toEqual([]);
    expect((await call(running.url, 'POST', '/orders', { invoice: true, padding: 'x'.repeat(60 * 1024) })).status).toBe(201);
  });
});
