import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { canSetAsNotReady, canSetAsReady, MarketplaceClient, type WebhookEvent } from 'emporio';
import { mockDeliveryOptions, type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler } from 'emporio/webhooks';

/** The kit, the SDK and a webhook receiver, all on loopback. */
async function setup(handlerOptions: { dedupeTtlMs?: number } = {}) {
  const marketplace = await startMockMarketplace({ port: 0, webhookIntervalMs: 5 });
  const { mock } = marketplace;
  const client = new MarketplaceClient({ baseUrl: marketplace.url, vendor: mock.vendor, tokens: mock.tokens });
  const received: WebhookEvent[] = [];
  let calls = 0;
  const handler = createWebhookHandler({
    ...mockDeliveryOptions(false),
    ...handlerOptions,
    onEvent: (event) => {
      calls++;
      received.push(event);
    },
  });
  const receiver = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  mock.webhooks.register(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
  running.push({ marketplace, receiver });
  return { mock, client, received, calls: () => calls };
}

const running: { marketplace: RunningMockMarketplace; receiver: Server }[] = [];
afterEach(async () => {
  for (const { marketplace, receiver } of running.splice(0)) {
    receiver.close();
    await marketplace.close();
  }
});

const changesOf = (event: WebhookEvent | undefined) =>
  event && !('raw' in event) && event.event_type === 'order_updated' ? event.changes : undefined;

describe('an order from open to returned, through the kit, the SDK and a webhook handler', () => {
  it('delivers every event in order, with its changes', async () => {
    const { mock, client, received } = await setup();
    const { code } = mock.orders.create({});
    await mock.webhooks.idle();

    const open = await client.orders.get(code);
    const location = open.accept_options?.pickup_location?.[0]?.id as string;
    const window = open.accept_options?.pickup_window?.[0]?.id as number;
    await client.orders.accept(code, { pickup_location: location, pickup_window: window, number_of_parcels: 2 });

    mock.orders.extend(code, { dispatch_until: '2026-12-01T18:00:00+02:00' });
    mock.orders.createVoucher(code, { download: false });
    const accepted = await client.orders.get(code);
    expect(canSetAsReady(accepted)).toEqual({ ok: true, reasons: [] });
    await client.orders.setAsReady(code, { order: accepted });
    expect(canSetAsNotReady(await client.orders.get(code)).ok).toBe(true);
    mock.orders.dispatch(code);
    mock.orders.partiallyReturn(code);
    mock.orders.returnOrder(code);
    await mock.webhooks.idle();

    expect(received.map((e) => e.event_type)).toEqual([
      'new_order',
      'order_updated', // accepted
      'order_updated', // extended
      'order_updated', // voucher created
      'order_updated', // marked ready for dispatch
      'order_updated', // dispatched
      'order_updated', // partially returned
      'order_updated', // returned
    ]);
    expect(received.every((e) => e.order?.code === code)).toBe(true);

    const [, acceptedEvent, extended, voucher, ready, dispatched, partial, returned] = received.map(changesOf);
    expect(ready).toEqual({ is_ready_for_dispatch: { old: false, new: true } });
    expect(acceptedEvent?.state).toEqual({ old: 'open', new: 'accepted' });
    expect(acceptedEvent?.number_of_parcels?.new).toBe(2);
    expect(acceptedEvent?.pickup_window?.new).toEqual({ from: expect.any(String), to: expect.any(String) });
    expect(typeof acceptedEvent?.pickup_address?.new).toBe('string');
    expect(extended?.dispatch_until?.new).toBe('2026-12-01T18:00:00+02:00');
    expect(voucher?.courier_voucher?.new).toMatch(/^http/);
    expect(voucher?.courier_tracking_codes?.new?.length).toBeGreaterThan(0);
    expect(dispatched?.state).toEqual({ old: 'accepted', new: 'dispatched' });
    expect(partial?.state).toEqual({ old: 'dispatched', new: 'partially_returned' });
    expect(returned?.state).toEqual({ old: 'partially_returned', new: 'returned' });
  });

  it('delivers cancellation and expiry', async () => {
    const { mock, client, received } = await setup();
    const cancelled = mock.orders.create({});
    const expiring = mock.orders.create({});
    mock.orders.cancel(cancelled.code, { by: 'support' });
    mock.clock.advance(25 * 3600 * 1000);
    await mock.webhooks.idle();
    expect((await client.orders.get(expiring.code)).state).toBe('expired');
    // The sender keeps each order's events in order but delivers different orders
    // concurrently, as the marketplace does: compare per order, not across them.
    const stateChangesOf = (code: string) =>
      received.filter((e) => e.order?.code === code).flatMap((e) => changesOf(e)?.state?.new ?? []);
    expect(stateChangesOf(cancelled.code)).toEqual(['cancelled']);
    expect(stateChangesOf(expiring.code)).toEqual(['expired']);
  });
});

describe('the 2026-03-30 rule: voucher download and readiness', () => {
  it('a voucher download does not mark an enrolled shop ready: set_as_ready must be called', async () => {
    const { mock, client } = await setup();
    const { code } = mock.orders.create({ set_as_ready_required: true });
    const order = await client.orders.get(code);
    await client.orders.accept(code, {
      pickup_location: order.accept_options?.pickup_location?.[0]?.id as string,
      pickup_window: order.accept_options?.pickup_window?.[0]?.id as number,
    });
    mock.orders.createVoucher(code);
    expect((await client.orders.get(code)).is_ready_for_dispatch).toBe(false);
    await client.orders.setAsReady(code);
    expect((await client.orders.get(code)).is_ready_for_dispatch).toBe(true);
  });

  it('a voucher download marks a shop that is not enrolled ready, as before', async () => {
    const { mock, client } = await setup();
    const { code } = mock.orders.create({ set_as_ready_required: false });
    const order = await client.orders.get(code);
    await client.orders.accept(code, {
      pickup_location: order.accept_options?.pickup_location?.[0]?.id as string,
      pickup_window: order.accept_options?.pickup_window?.[0]?.id as number,
    });
    mock.orders.createVoucher(code);
    expect((await client.orders.get(code)).is_ready_for_dispatch).toBe(true);
  });
});

describe('a manual resend from the panel', () => {
  it('is answered 200 without calling onEvent again while the dedupe TTL lasts', async () => {
    const { mock, calls } = await setup();
    const { code } = mock.orders.create({});
    await mock.webhooks.idle();
    expect(calls()).toBe(1);
    expect(mock.orders.resend(code)).toBe(true);
    await mock.webhooks.idle();
    expect(calls()).toBe(1);
    expect(mock.webhooks.deliveries.filter((d) => d.resend).map((d) => d.status)).toEqual([200]);
  });

  it('is handled again once the TTL has passed', async () => {
    const { mock, calls } = await setup({ dedupeTtlMs: 1 });
    const { code } = mock.orders.create({});
    await mock.webhooks.idle();
    await new Promise((r) => setTimeout(r, 20));
    mock.orders.resend(code);
    await mock.webhooks.idle();
    expect(calls()).toBe(2);
  });
});
