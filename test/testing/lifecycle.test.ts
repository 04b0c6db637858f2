/**
 * Every transition document 1 names emits order_updated with the right `changes`; the 2026-03-30
 * voucher rule; the webhook sender's headers, order and retry count against a real receiver.
 */
import { createMockMarketplace, type MockMarketplace, type MockWebhookEvent } from 'emporio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonHeaders, startReceiver } from './helpers.js';

const mocks: MockMarketplace[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) mock.close();
  for (const close of closers.splice(0)) await close();
});

function newMock(options: Parameters<typeof createMockMarketplace>[0] = {}) {
  const mock = createMockMarketplace({ webhookIntervalMs: 5, ...options });
  mocks.push(mock);
  return mock;
}

async function accept(mock: MockMarketplace, code: string) {
  const answer = await mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/${code}/accept`, {
    method: 'POST',
    headers: jsonHeaders(),
    body: JSON.stringify({ pickup_location: 'LOC-1', pickup_window: 2, number_of_parcels: 2 }),
  });
  expect(answer.status).toBe(200);
}

const lastEvent = (mock: MockMarketplace) => mock.events.at(-1) as MockWebhookEvent;

describe('events of every transition', () => {
  it('new_order on create, then accepted with state, pickup_window, number_of_parcels and pickup_address', async () => {
    const mock = newMock();
    const order = mock.orders.create();
    expect(lastEvent(mock)).toMatchObject({ event_type: 'new_order', order: { code: order.code, state: 'open' } });
    expect(lastEvent(mock).changes).toBeUndefined();
    expect(lastEvent(mock).event_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[23]:00$/);

    await accept(mock, order.code);
    const event = lastEvent(mock);
    expect(event.event_type).toBe('order_updated');
    expect(event.order.state).toBe('accepted');
    expect(event.order.accept_options).toBeUndefined();
    expect(event.changes).toEqual({
      state: { old: 'open', new: 'accepted' },
      pickup_window: { old: null, new: { from: expect.any(String), to: expect.any(String) } },
      number_of_parcels: { old: null, new: 2 },
      pickup_address: { old: null, new: 'Ermou 10, 10563 Athens, Attica' },
    });
  });

  it('rejected, cancelled by user / support / merchant', async () => {
    const mock = newMock();
    const rejected = mock.orders.create();
    await mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/${rejected.code}/reject`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({ rejection_reason_other: 'No stock' }),
    });
    expect(lastEvent(mock).changes).toEqual({ state: { old: 'open', new: 'rejected' } });
    expect(lastEvent(mock).order.rejection_info).toEqual({ reason: 'No stock', actor: 'merchant' });

    for (const by of ['user', 'support'] as const) {
      const order = mock.orders.create();
      mock.orders.cancel(order.code, { by });
      expect(lastEvent(mock).changes).toEqual({ state: { old: 'open', new: 'cancelled' } });
      expect(mock.orders.cancelledBy(order.code)).toBe(by);
    }
    const accepted = mock.orders.create();
    await accept(mock, accepted.code);
    mock.orders.cancel(accepted.code, { by: 'merchant' });
    expect(lastEvent(mock).changes).toEqual({ state: { old: 'accepted', new: 'cancelled' } });
    expect(() => mock.orders.cancel(accepted.code)).toThrow(/cancelled/);
  });

  it('extended: expires_at and dispatch_until', () => {
    const mock = newMock();
    const order = mock.orders.create();
    mock.orders.extend(order.code, { expires_at: '2030-01-02T10:00:00+02:00', dispatch_until: Date.UTC(2030, 0, 5) });
    expect(lastEvent(mock).changes).toEqual({
      expires_at: { old: order.expires_at, new: '2030-01-02T10:00:00+02:00' },
      dispatch_until: { old: order.dispatch_until, new: '2030-01-05T02:00:00+02:00' },
    });
    mock.orders.extend(order.code);
    expect(Object.keys(lastEvent(mock).changes ?? {})).toEqual(['expires_at']);
  });

  it('expired, by the controllable clock or expireDue', () => {
    let now = Date.UTC(2026, 3, 1, 9);
    const mock = newMock({ clock: () => now });
    const order = mock.orders.create();
    mock.clock.advance(23 * 3_600_000);
    expect(mock.orders.get(order.code)?.state).toBe('open');
    mock.clock.advance(3_600_000);
    expect(mock.orders.get(order.code)?.state).toBe('expired');
    expect(lastEvent(mock).changes).toEqual({ state: { old: 'open', new: 'expired' } });

    const second = mock.orders.create();
    now += 25 * 3_600_000; // the base clock moved on by itself
    expect(mock.orders.expireDue()).toEqual([second.code]);
    expect(mock.orders.expireDue()).toEqual([]);
  });

  it('voucher created: courier_voucher and courier_tracking_codes', async () => {
    const mock = newMock();
    const order = mock.orders.create();
    await accept(mock, order.code);
    mock.orders.createVoucher(order.code);
    const event = lastEvent(mock);
    expect(event.changes?.courier_voucher).toEqual({ old: null, new: expect.stringMatching(/\/__mock\/vouchers\/.+\.pdf$/) });
    expect(event.changes?.courier_tracking_codes).toEqual({ old: [], new: [expect.stringMatching(/^\d{9}$/)] });
  });

  it('dispatched, partially_returned and returned; delivered sends nothing', async () => {
    const mock = newMock();
    const order = mock.orders.create();
    await accept(mock, order.code);
    mock.orders.dispatch(order.code);
    expect(lastEvent(mock).changes).toEqual({ state: { old: 'accepted', new: 'dispatched' } });
    const count = mock.events.length;
    mock.orders.deliver(order.code);
    expect(mock.events).toHaveLength(count);
    mock.orders.partiallyReturn(order.code);
    expect(lastEvent(mock).changes).toEqual({ state: { old: 'delivered', new: 'partially_returned' } });
    mock.orders.returnOrder(order.code);
    expect(lastEvent(mock).changes).toEqual({ state: { old: 'partially_returned', new: 'returned' } });
    expect(() => mock.orders.dispatch(order.code)).toThrow(/returned/);
  });

  it('express orders are accepted by the automated mechanism only', () => {
    const mock = newMock();
    const order = mock.orders.create({ express: true });
    mock.orders.autoAccept(order.code);
    expect(lastEvent(mock).changes?.state).toEqual({ old: 'open', new: 'accepted' });
  });
});

describe('the 2026-03-30 set-as-ready rule', () => {
  it('a voucher download marks a not-enrolled shop ready, as before', async () => {
    const mock = newMock();
    const order = mock.orders.create({ set_as_ready_required: false });
    await accept(mock, order.code);
    mock.orders.createVoucher(order.code);
    expect(mock.orders.get(order.code)?.is_ready_for_dispatch).toBe(true);
  });

  it('a voucher download does not mark an enrolled shop ready: set_as_ready is needed', async () => {
    const mock = newMock();
    const order = mock.orders.create(); // set_as_ready_required: true by default
    await accept(mock, order.code);
    const voucher = mock.orders.createVoucher(order.code).courier_voucher as string;
    expect((await mock.fetch(voucher)).headers.get('content-type')).toBe('application/pdf');
    expect(mock.orders.get(order.code)?.is_ready_for_dispatch).toBe(false);
  });

  it('downloading the voucher file later marks a not-enrolled order ready', async () => {
    const mock = newMock();
    const order = mock.orders.create({ set_as_ready_required: false });
    await accept(mock, order.code);
    const voucher = mock.orders.createVoucher(order.code, { download: false }).courier_voucher as string;
    expect(mock.orders.get(order.code)?.is_ready_for_dispatch).toBe(false);
    await mock.fetch(voucher);
    expect(mock.orders.get(order.code)?.is_ready_for_dispatch).toBe(true);
  });
});

describe('webhook sender', () => {
  it('posts each event with the spec headers, in order, from open to returned', async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const mock = newMock();
    mock.webhooks.register(receiver.url);
    const order = mock.orders.create();
    await accept(mock, order.code);
    mock.orders.createVoucher(order.code);
    mock.orders.dispatch(order.code);
    mock.orders.returnOrder(order.code);
    await mock.webhooks.idle();

    expect(receiver.received).toHaveLength(5);
    for (const delivery of receiver.received) {
      expect(delivery.headers['content-type']).toBe('application/json; charset=utf-8');
      // The vendor capitalised, as the service writes it.
      expect(delivery.headers['user-agent']).toBe('Marketplace OrderNotifier v1');
    }
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as MockWebhookEvent);
    expect(bodies.map((b) => b.event_type)).toEqual(['new_order', 'order_updated', 'order_updated', 'order_updated', 'order_updated']);
    expect(bodies.map((b) => b.changes?.state?.new ?? null)).toEqual([null, 'accepted', null, 'dispatched', 'returned']);
    expect(bodies).toEqual(mock.events.filter((e) => e.order.code === order.code));
  });

  it('retries a failing receiver: 3 failures then 200 is 4 attempts', async () => {
    const receiver = await startReceiver((i) => (i < 3 ? 500 : 200));
    closers.push(receiver.close);
    const mock = newMock();
    mock.webhooks.register(receiver.url);
    mock.orders.create();
    await mock.webhooks.idle();
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(mock.webhooks.deliveries.map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 200, true],
    ]);
  });

  it('gives up after exactly 4 attempts; any non-200 (even 204) and time-outs are failures', async () => {
    const receiver = await startReceiver((i) => (i === 1 ? 'hang' : 204));
    closers.push(receiver.close);
    const mock = newMock({ webhookTimeoutMs: 100 });
    mock.webhooks.register(receiver.url);
    mock.orders.create();
    await mock.webhooks.idle();
    expect(receiver.received).toHaveLength(4);
    expect(mock.webhooks.deliveries.map((d) => d.status ?? d.error)).toEqual([204, 'timeout', 204, 204]);
    expect(mock.webhooks.deliveries.every((d) => !d.ok)).toBe(true);
  });

  it('waits the configured interval between attempts and keeps later events of the order behind', async () => {
    const receiver = await startReceiver((i) => (i === 0 ? 503 : 200));
    closers.push(receiver.close);
    const mock = newMock({ webhookIntervalMs: 150 });
    mock.webhooks.register(receiver.url);
    const order = mock.orders.create();
    mock.orders.cancel(order.code);
    await mock.webhooks.idle();
    const types = receiver.received.map((r) => JSON.parse(r.body).event_type);
    expect(types).toEqual(['new_order', 'new_order', 'order_updated']);
    const [first, second] = receiver.received;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(140);
  });

  it('counts a refused connection as a failure', async () => {
    const receiver = await startReceiver();
    await receiver.close(); // nothing listens there any more
    const mock = newMock({ webhookIntervalMs: 1 });
    mock.webhooks.register(receiver.url);
    mock.orders.create();
    await mock.webhooks.idle();
    expect(mock.webhooks.deliveries.map((d) => d.error)).toEqual(['network', 'network', 'network', 'network']);
  });

  it('resend delivers the latest event of the order again, byte for byte', async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const mock = newMock();
    mock.webhooks.register(receiver.url);
    const order = mock.orders.create();
    mock.orders.cancel(order.code, { by: 'support' });
    await mock.webhooks.idle();
    expect(mock.orders.resend(order.code)).toBe(true);
    await mock.webhooks.idle();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]?.body).toBe(receiver.received[1]?.body);
    expect(mock.webhooks.deliveries.at(-1)?.resend).toBe(true);
    expect(mock.orders.resend('DEMO-OPEN')).toBe(false); // never sent anything
  });

  it('unregister stops new deliveries; close drops waiting retries', async () => {
    const receiver = await startReceiver(() => 500);
    closers.push(receiver.close);
    const mock = newMock({ webhookIntervalMs: 60_000 });
    mock.webhooks.register(receiver.url);
    mock.orders.create();
    await new Promise((resolve) => setTimeout(resolve, 100));
    mock.close();
    await mock.webhooks.idle();
    expect(receiver.received).toHaveLength(1);
    const other = newMock();
    other.webhooks.register(receiver.url);
    other.webhooks.unregister(receiver.url);
    other.orders.create();
    await other.webhooks.idle();
    expect(receiver.received).toHaveLength(1);
  });
});
