/**
 * The kit's later Orders API (pickup moves with options that change, preorder vouchers, credit
 * invoices) and the findings of comparing it with the recordings: sandbox orders that stay as they
 * are, express accepts, cancellation after dispatch, the webhook User-Agent, CPS members.
 */
import { isOrderExpress, MarketplaceClient, UnprocessableEntityError } from 'emporio';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { laterRecording } from '../helpers/later-recordings.js';
import { merchantHeaders, PDF, startReceiver } from './helpers.js';

let mock: MockMarketplace;
let client: MarketplaceClient;
beforeEach(() => {
  mock = createMockMarketplace();
  client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, tokens: { orders: mock.tokens.orders, cps: mock.tokens.cps }, fetch: mock.fetch, maxRetries: 0 });
});
afterEach(() => mock.close());

/** A new order, accepted at its first location and window. */
async function acceptedOrder(overrides: Record<string, unknown> = {}): Promise<string> {
  const { code } = mock.orders.create(overrides);
  const open = await client.orders.get(code);
  await client.orders.accept(code, { pickup_location: open.accept_options?.pickup_location?.[0]?.id as string, pickup_window: 1 });
  return code;
}

describe('pickup moves', () => {
  it('action options come only when asked, in the recorded shape, and not for an open order', async () => {
    const code = await acceptedOrder();
    expect('reschedule_options' in (await client.orders.get(code))).toBe(false);
    const order = await client.orders.get(code, { actionOptions: true });
    const recorded = (laterRecording('merchants_ecommerce_orders_show_action_options').response.body as { order: Record<string, { date?: string; id?: string }[]> }).order;
    expect(Object.keys(order.reschedule_options?.[0] ?? {})).toEqual(Object.keys(recorded.reschedule_options?.[0] ?? {}));
    expect(Object.keys(order.relocate_options?.[0] ?? {})).toEqual(Object.keys(recorded.relocate_options?.[0] ?? {}));
    expect(order.reschedule_options?.length).toBe(3);
    for (const option of order.reschedule_options ?? []) expect(option?.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    // The current location is not listed.
    expect(order.relocate_options).toEqual([{ id: 'LOC-2', label: 'Stadiou 1, 10562 Athens, Attica' }]);
    const open = await client.orders.get(mock.orders.create().code, { actionOptions: true });
    expect([open.reschedule_options, open.relocate_options]).toEqual([[], []]);
  });

  it('reschedules to an offered date: the pickup window moves, order_updated says so, and the options move on', async () => {
    const code = await acceptedOrder();
    const before = await client.orders.get(code, { actionOptions: true });
    const target = before.reschedule_options?.[1]?.date as string;
    await expect(client.orders.reschedulePickup(code, { reschedule_date: target })).resolves.toEqual({ success: true });
    const after = await client.orders.get(code, { actionOptions: true });
    expect(after.pickup_window?.from?.slice(0, 10)).toBe(target);
    expect(after.pickup_window?.from?.slice(10)).toBe(before.pickup_window?.from?.slice(10));
    const event = mock.events.at(-1);
    expect(event?.event_type).toBe('order_updated');
    expect(Object.keys(event?.changes ?? {})).toEqual(['pickup_window']);
    // The options follow the new date: an earlier one is no longer offered, and is refused.
    expect(after.reschedule_options?.map((o) => o?.date)).not.toContain(before.reschedule_options?.[0]?.date);
    const error = await client.orders.reschedulePickup(code, { reschedule_date: before.reschedule_options?.[0]?.date as string }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).errors).toEqual([{ code: 'reschedule_date', messages: ['Invalid reschedule date'] }]);
  });

  it('the options change with time', async () => {
    const code = await acceptedOrder();
    const today = (await client.orders.get(code, { actionOptions: true })).reschedule_options?.map((o) => o?.date);
    mock.clock.advance(10 * 86_400_000);
    const later = (await client.orders.get(code, { actionOptions: true })).reschedule_options?.map((o) => o?.date);
    expect(later).not.toEqual(today);
  });

  it('relocates to an offered location: pickup_address changes, and the old location is offered instead', async () => {
    const code = await acceptedOrder();
    await expect(client.orders.relocatePickup(code, { pickup_location: 'LOC-2' })).resolves.toEqual({ success: true });
    const after = await client.orders.get(code, { actionOptions: true });
    expect(after.pickup_address).toBe('Stadiou 1, 10562 Athens, Attica');
    expect(after.relocate_options?.map((o) => o?.id)).toEqual(['LOC-1']);
    expect(Object.keys(mock.events.at(-1)?.changes ?? {})).toEqual(['pickup_address']);
    const error = await client.orders.relocatePickup(code, { pickup_location: 'LOC-2' }).catch((e: unknown) => e);
    expect((error as UnprocessableEntityError).errors).toEqual([{ code: 'pickup_location', messages: ['Invalid pickup location'] }]);
  });

  it('refuses FBS orders with the documented message, in the vendor spelling', async () => {
    const acme = createMockMarketplace({ vendor: 'acme' });
    const acmeClient = new MarketplaceClient({ baseUrl: acme.baseUrl, vendor: 'acme', token: acme.tokens.orders, fetch: acme.fetch, maxRetries: 0 });
    const { code } = acme.orders.create({ fulfilled_by_marketplace: true });
    acme.orders.autoAccept(code);
    const error = await acmeClient.orders.reschedulePickup(code, { reschedule_date: '2030-01-02' }).catch((e: unknown) => e);
    expect((error as UnprocessableEntityError).errors).toEqual([
      { code: 'order_status', messages: ['Order rescheduling is not supported for "Fulfilled by Acme" orders.'] },
    ]);
    const relocation = await acmeClient.orders.relocatePickup(code, { pickup_location: 'LOC-2' }).catch((e: unknown) => e);
    expect((relocation as UnprocessableEntityError).errors).toEqual([{ code: 'order_status', messages: ['Pickup relocation is not supported for this order.'] }]);
    acme.close();
  });
});

describe('request bodies', () => {
  it('a JSON body past 16 MiB is answered 413 in the error format, and the mock stops reading it', async () => {
    const code = await acceptedOrder();
    let sent = 0;
    const piece = new TextEncoder().encode(`{"reschedule_date":"${'x'.repeat(1024 * 1024)}`);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Without a bound the mock would read the 64 MiB on offer to the end.
        if (sent >= 64 * 1024 * 1024) return controller.close();
        sent += piece.byteLength;
        controller.enqueue(piece);
      },
    });
    const answer = await mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/${code}/reschedule_pickup`, {
      method: 'POST',
      headers: merchantHeaders(mock.tokens.orders, { 'Content-Type': 'application/json' }),
      body,
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ errors: [{ code: 'payload_too_large' }] });
    expect(sent).toBeLessThan(24 * 1024 * 1024);
  });
});

describe('preorder vouchers', () => {
  it('only an accepted preorder without a voucher: the voucher then comes as order_updated', async () => {
    const code = await acceptedOrder();
    const refused = await client.orders.requestVoucher(code).catch((e: unknown) => e);
    expect((refused as UnprocessableEntityError).errors).toEqual(
      (laterRecording('orders_request_voucher_error_not_eligible').response.body as { errors: unknown }).errors,
    );
    mock.orders.markPreorder(code);
    await expect(client.orders.requestVoucher(code)).resolves.toEqual({ success: true });
    expect((await client.orders.get(code)).courier_voucher).toMatch(/^https:/);
    expect(Object.keys(mock.events.at(-1)?.changes ?? {})).toContain('courier_voucher');
    await expect(client.orders.requestVoucher(code)).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it('an unknown order is 404 order_error', async () => {
    await expect(client.orders.requestVoucher('999999-1')).rejects.toMatchObject({ status: 404, code: 'order_error' });
  });
});

describe('credit invoices', () => {
  it('refuses an order not accepted yet, takes one after, and keeps the latest', async () => {
    const { code: open } = mock.orders.create();
    const early = await client.orders.uploadCreditInvoice(open, PDF).catch((e: unknown) => e);
    expect((early as UnprocessableEntityError).errors).toEqual(
      (laterRecording('orders_credit_invoices_error_not_accepted').response.body as { errors: unknown }).errors,
    );
    const code = await acceptedOrder();
    mock.orders.cancel(code);
    await expect(client.orders.uploadCreditInvoice(code, PDF)).resolves.toEqual({ success: true });
    expect(mock.orders.creditInvoice(code)).toMatchObject({ filename: 'credit_invoice.pdf', contentType: 'application/pdf' });
  });

  it('answers the documented 400 without a file and 422 for a type it refuses (raw requests: the SDK refuses both before sending)', async () => {
    const code = await acceptedOrder();
    const url = `${mock.baseUrl}/merchants/ecommerce/orders/${code}/credit_invoices`;
    const empty = await mock.fetch(url, { method: 'POST', headers: merchantHeaders(), body: new FormData() });
    expect([empty.status, await empty.json()]).toEqual([400, laterRecording('orders_credit_invoices_error_missing_file').response.body]);
    const form = new FormData();
    form.append('credit_invoice_file', new Blob([new Uint8Array([0x50, 0x4b, 3, 4])], { type: 'application/zip' }), 'credit_invoice.zip');
    const zip = await mock.fetch(url, { method: 'POST', headers: merchantHeaders(), body: form });
    expect([zip.status, await zip.json()]).toEqual([422, laterRecording('orders_credit_invoices_error_file_rejected').response.body]);
  });
});

describe('what the recordings showed of the kit', () => {
  it('sandbox DEMO-* orders stay as they are: actions succeed again and again, no event', async () => {
    const events = mock.events.length;
    for (let i = 0; i < 2; i++) {
      await client.orders.accept('DEMO-OPEN', { pickup_location: '3XlV8ebjxm', pickup_window: 2 });
      await client.orders.reject('DEMO-INVOICE', { rejection_reason_other: 'Out of stock' });
    }
    expect((await client.orders.get('DEMO-OPEN')).state).toBe('open');
    expect((await client.orders.get('DEMO-INVOICE')).state).toBe('open');
    expect(mock.events.length).toBe(events);
  });

  it('an express order is refused with 422 order_status "Order is express", as the service answers', async () => {
    const { code } = mock.orders.create({ express: true });
    const error = await client.orders.accept(code, { pickup_location: 'LOC-1', pickup_window: 1 }).catch((e: unknown) => e);
    expect(isOrderExpress(error)).toBe(true);
  });

  it('an order may be cancelled after dispatch', async () => {
    const code = await acceptedOrder();
    mock.orders.dispatch(code);
    expect(mock.orders.cancel(code).state).toBe('cancelled');
    expect(mock.events.at(-1)?.changes?.state).toEqual({ old: 'dispatched', new: 'cancelled' });
  });

  it('webhooks carry User-Agent "<Vendor> OrderNotifier v1", the vendor capitalised', async () => {
    const receiver = await startReceiver();
    const acme = createMockMarketplace({ vendor: 'acme', webhookIntervalMs: 5 });
    try {
      acme.webhooks.register(receiver.url);
      acme.orders.create();
      await acme.webhooks.idle();
      expect(receiver.received[0]?.headers['user-agent']).toBe('Acme OrderNotifier v1');
    } finally {
      acme.close();
      await receiver.close();
    }
  });

  it("orders carry customer.address.floor as the service's examples do ('' for a collection point)", async () => {
    expect((await client.orders.get(mock.orders.create().code)).customer?.address?.floor).toBe('1ος όροφος');
    const collected = mock.orders.create({ customer: { address: { pickup_from_collection_point: true, collection_point_address: 'Box 7' } } });
    expect((await client.orders.get(collected.code)).customer?.address?.floor).toBe('');
  });

  it('a CPS order not rejected has no rejection_reason member, as recorded', async () => {
    const { code } = mock.cps.create();
    const order = await client.cps.get(code);
    expect('rejection_reason' in order).toBe(false);
    const recorded = (laterRecording('../recorded/merchants_cps_orders_show').response.body as { order: object }).order;
    expect('rejection_reason' in recorded).toBe(false);
    await client.cps.reject(code, { name: 'unpaid' });
    expect(typeof (await client.cps.get(code)).rejection_reason).toBe('string');
  });
});
