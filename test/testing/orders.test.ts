/**
 * The Orders API of the mock against document 1, driven with plain fetch through msw.
 */
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { mswHandlers } from 'emporio/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invoiceForm, jsonHeaders, merchantHeaders, PDF, PNG } from './helpers.js';

let mock: MockMarketplace;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  mock = createMockMarketplace();
  server.resetHandlers(...mswHandlers(mock));
});
afterEach(() => mock.close());

const orderUrl = (code: string, action = '') =>
  `https://api.marketplace.test/merchants/ecommerce/orders/${encodeURIComponent(code)}${action ? `/${action}` : ''}`;

const post = (code: string, action: string, body?: unknown, headers = jsonHeaders()) =>
  fetch(orderUrl(code, action), { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });

const errorOf = async (response: Response) => ({ status: response.status, body: await response.json() });
const wire = (status: number, code: string, ...messages: string[]) => ({ status, body: { errors: [{ code, messages }] } });

/** An accepted core order (SLM courier, enrolled shop), accepted through the API. */
async function acceptedOrder(overrides: Parameters<MockMarketplace['orders']['create']>[0] = {}) {
  const order = mock.orders.create(overrides);
  const answer = await post(order.code, 'accept', { pickup_location: 'LOC-1', pickup_window: 1 });
  expect(answer.status).toBe(200);
  return order.code;
}

describe('protocol checks', () => {
  it('answers 406 with the error body for a missing or wrong Accept header or version', async () => {
    const noAccept = await fetch(orderUrl('DEMO-OPEN'), { headers: { Authorization: 'Bearer test-orders-token' } });
    expect(noAccept.status).toBe(406);
    expect((await noAccept.json()).errors[0].code).toBe('not_acceptable');

    const wrongVersion = await fetch(orderUrl('DEMO-OPEN'), {
      headers: merchantHeaders('test-orders-token', { Accept: 'application/vnd.marketplace+json; version=3.2' }),
    });
    expect(wrongVersion.status).toBe(406);

    const wrongVendor = await fetch(orderUrl('DEMO-OPEN'), {
      headers: merchantHeaders('test-orders-token', { Accept: 'application/vnd.other+json; version=3.0' }),
    });
    expect(wrongVendor.status).toBe(406);

    const patch = await fetch(orderUrl('DEMO-OPEN'), {
      headers: merchantHeaders('test-orders-token', { Accept: 'application/vnd.marketplace+json; version=3.0.4' }),
    });
    expect(patch.status).toBe(200);
  });

  it('answers 401 with the error body for a missing or foreign token, and never echoes the token', async () => {
    const missing = await fetch(orderUrl('DEMO-OPEN'), { headers: { Accept: 'application/vnd.marketplace+json; version=3.0' } });
    expect(await errorOf(missing)).toEqual(wire(401, 'unauthorized', 'Missing bearer token.'));

    const productsToken = await fetch(orderUrl('DEMO-OPEN'), { headers: merchantHeaders('test-products-token') });
    const text = await productsToken.text();
    expect(productsToken.status).toBe(401);
    expect(JSON.parse(text)).toEqual(wire(401, 'unauthorized', 'Invalid bearer token.').body);
    expect(text).not.toContain('test-products-token');
  });

  it('accepts any of several configured tokens', async () => {
    const multi = createMockMarketplace({ baseUrl: 'https://multi.test', tokens: { orders: ['old', 'new'] } });
    server.use(...mswHandlers(multi));
    for (const token of ['old', 'new']) {
      const answer = await fetch('https://multi.test/merchants/ecommerce/orders/DEMO-OPEN', { headers: merchantHeaders(token) });
      expect(answer.status).toBe(200);
    }
    multi.close();
  });

  it('answers 415 for a JSON action without Content-Type: application/json, and 400 for broken JSON', async () => {
    const order = mock.orders.create();
    const noType = await post(order.code, 'accept', { pickup_location: 'LOC-1', pickup_window: 1 }, merchantHeaders());
    expect(await errorOf(noType)).toEqual(wire(415, 'unsupported_media_type', 'Content-Type must be application/json.'));
    const broken = await fetch(orderUrl(order.code, 'accept'), { method: 'POST', headers: jsonHeaders(), body: '{"pickup' });
    expect(await errorOf(broken)).toEqual(wire(400, 'invalid_format', 'Request body is not valid JSON.'));
    expect(mock.orders.get(order.code)?.state).toBe('open');
  });

  it('answers 404 for an unknown path and 405 for a wrong method, each with a request id', async () => {
    const unknown = await fetch('https://api.marketplace.test/merchants/nothing', { headers: merchantHeaders() });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toMatch(/^req-/);
    const wrongMethod = await fetch(orderUrl('DEMO-OPEN', 'accept'), { headers: merchantHeaders() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });
});

describe('GET order', () => {
  it('serves the recorded DEMO-* orders, with options only while open', async () => {
    const open = await (await fetch(orderUrl('DEMO-OPEN'), { headers: merchantHeaders() })).json();
    expect(open.order.code).toBe('DEMO-OPEN');
    expect(open.order.line_items[0].shop_variation_uid).toBe('40575312-14'); // recorded extra fields kept
    expect(open.order.accept_options.pickup_window).toHaveLength(5);
    expect(open.order.reject_options.line_item_rejection_reasons.some((r: { requires_available_quantity: boolean }) => r.requires_available_quantity)).toBe(true);
    expect(Date.parse(open.order.expires_at)).toBeGreaterThan(Date.now()); // re-dated: not expired on arrival

    const accepted = await (await fetch(orderUrl('DEMO-ACCEPTED'), { headers: merchantHeaders() })).json();
    expect(accepted.order.state).toBe('accepted');
    expect(accepted.order.accept_options).toBeUndefined();
    expect(accepted.order.reject_options).toBeUndefined();
  });

  it('serves DEMO-FEES as valid JSON, as the service answers it (the documentation recording had stray commas)', async () => {
    const answer = await fetch(orderUrl('DEMO-FEES'), { headers: merchantHeaders() });
    expect(answer.status).toBe(200);
    const body = JSON.parse(await answer.text());
    expect(body.order.code).toBe('DEMO-FEES');
    expect(body.order.fees).toEqual(expect.any(Object));
  });

  it('answers 404 order_error for an unknown order', async () => {
    const answer = await fetch(orderUrl('999999-0000000'), { headers: merchantHeaders() });
    expect(await errorOf(answer)).toEqual(wire(404, 'order_error', 'Order not found'));
  });

  it('builds orders with sensible defaults for every member', async () => {
    const created = mock.orders.create();
    const { order } = await (await fetch(orderUrl(created.code), { headers: merchantHeaders() })).json();
    expect(order.code).toMatch(/^\d{6}-\d{7}$/);
    expect(order).toMatchObject({
      state: 'open',
      courier: 'Marketplace Last Mile',
      fees: {},
      set_as_ready_required: true,
      is_ready_for_dispatch: false,
      fulfilled_by_marketplace: false,
      store_pickup: false,
      express: false,
      invoice: false,
      uploaded_invoice_file: null,
      courier_voucher: null,
      courier_tracking_codes: [],
    });
    expect(order.invoice_details).toBeUndefined();
    expect(order.customer.address.comments).toBe('');
    // No tag: the list of older answers or the string form (a share of the kit's orders).
    expect(['[]', '""']).toContain(JSON.stringify(order.custom));
    // A core order without an invoice: no phone numbers (document 1, Customer).
    expect(order.customer.phone).toBeUndefined();
    expect(order.customer.mobile).toBeUndefined();
    expect(order.shipping_cost).toBeUndefined();
    expect(typeof order.line_items[0].shop_uid).toBe('string');
    expect(order.line_items[0].id).toMatch(/^\w{10}$/);
    expect(mock.orders.create().code).not.toBe(created.code);
    const invoiced = mock.orders.create({ invoice: true });
    expect(invoiced.invoice_details).toBeTruthy();
    expect(invoiced.invoice_document).toBe('invoice');
    expect(invoiced.customer).toMatchObject({ phone: expect.any(String), mobile: expect.any(String) });
  });

  it('gives FBM orders (another courier, or a shipping_cost) the customer phone numbers', () => {
    const byCourier = mock.orders.create({ courier: 'ACS Courier' });
    expect(byCourier.shipping_cost).toBe(3.5);
    expect(byCourier.customer).toMatchObject({ phone: expect.any(String), mobile: expect.any(String) });
    const byCost = mock.orders.create({ shipping_cost: 4 });
    expect(byCost.customer).toMatchObject({ phone: expect.any(String), mobile: expect.any(String) });
    // Overrides still win, and the address keeps its defaults beside an override.
    const own = mock.orders.create({ courier: 'ACS Courier', customer: { mobile: '6900000000', address: { comments: '3rd floor' } } });
    expect(own.customer).toMatchObject({ phone: expect.any(String), mobile: '6900000000' });
    expect(own.customer?.address).toMatchObject({ comments: '3rd floor', city: 'Athens' });
    // Not FBM: FBS and store pickup orders (no invoice) carry none.
    expect(mock.orders.create({ fulfilled_by_marketplace: true }).customer?.phone).toBeUndefined();
    expect(mock.orders.create({ store_pickup: true }).customer?.mobile).toBeUndefined();
  });

  it('gift_wrap: true sets custom to [GIFT-WRAP], a string as the service writes it since 2026 (spec/4)', () => {
    expect(mock.orders.create({ gift_wrap: true }).custom).toBe('[GIFT-WRAP]');
    // Without a tag, custom is the empty string, as the service writes it since 2026.
    const untagged = Array.from({ length: 20 }, () => JSON.stringify(mock.orders.create().custom));
    expect(new Set(untagged)).toEqual(new Set(['""']));
    // An order with no return carries no `returns` member (an empty list is omitted).
    const orders = Array.from({ length: 20 }, () => mock.orders.create());
    expect(orders.some((order) => !('returns' in order))).toBe(true);
    for (const order of orders) if ('returns' in order) expect(order.returns?.length).toBeGreaterThan(0);
    // An explicit custom is taken as given.
    expect(mock.orders.create({ gift_wrap: true, custom: ['RETURN-AS-IS'] }).custom).toEqual(['RETURN-AS-IS']);
  });
});

describe('accept', () => {
  it('accepts an open order with offered options and records the pickup', async () => {
    const order = mock.orders.create();
    const answer = await post(order.code, 'accept', { pickup_location: 'LOC-2', pickup_window: 3, number_of_parcels: 2 });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ success: true });
    const stored = mock.orders.get(order.code);
    expect(stored).toMatchObject({ state: 'accepted', number_of_parcels: 2, pickup_address: 'Stadiou 1, 10562 Athens, Attica' });
    expect(stored?.pickup_window).toEqual({ from: expect.any(String), to: expect.any(String) });
  });

  it('defaults number_of_parcels to 1', async () => {
    const code = await acceptedOrder();
    expect(mock.orders.get(code)?.number_of_parcels).toBe(1);
  });

  it("refuses a second accept with 422 order_status 'Order already accepted.'", async () => {
    const code = await acceptedOrder();
    const again = await post(code, 'accept', { pickup_location: 'LOC-1', pickup_window: 1 });
    expect(await errorOf(again)).toEqual(wire(422, 'order_status', 'Order already accepted.'));
    expect(mock.events.filter((e) => e.order.code === code && e.changes?.state)).toHaveLength(1);
  });

  it('refuses express orders (rule 1) and orders in other states', async () => {
    const express = mock.orders.create({ express: true });
    const answer = await post(express.code, 'accept', { pickup_location: 'LOC-1', pickup_window: 1 });
    // As the service answers it.
    expect(await errorOf(answer)).toEqual(wire(422, 'order_status', 'Order is express'));
    expect(mock.orders.get(express.code)?.state).toBe('open');

    const rejected = await post('DEMO-REJECTED', 'accept', { pickup_location: 'Y5jVmgKmeX', pickup_window: 1 });
    expect(await errorOf(rejected)).toEqual(wire(422, 'order_status', "Order cannot be accepted in state 'rejected'."));
  });

  it('validates the body (400) and the options against accept_options (422)', async () => {
    const order = mock.orders.create();
    const missing = await post(order.code, 'accept', { number_of_parcels: 0 });
    expect(await errorOf(missing)).toEqual(
      wire(
        400,
        'invalid_format',
        "Missing required field 'pickup_location'",
        "Missing required field 'pickup_window'",
        "Field 'number_of_parcels' has invalid type",
      ),
    );
    const wrongType = await post(order.code, 'accept', { pickup_location: 'LOC-1', pickup_window: '1' });
    expect(await errorOf(wrongType)).toEqual(wire(400, 'invalid_format', "Field 'pickup_window' has invalid type"));

    const location = await post(order.code, 'accept', { pickup_location: 'NOWHERE', pickup_window: 1 });
    expect(await errorOf(location)).toEqual(
      wire(422, 'invalid_option', "pickup_location 'NOWHERE' is not one of the order's accept_options."),
    );
    const window = await post(order.code, 'accept', { pickup_location: 'LOC-1', pickup_window: 9 });
    expect(await errorOf(window)).toEqual(wire(422, 'invalid_option', "pickup_window 9 is not one of the order's accept_options."));
    const parcels = await post(order.code, 'accept', { pickup_location: 'LOC-1', pickup_window: 1, number_of_parcels: 7 });
    expect(await errorOf(parcels)).toEqual(
      wire(422, 'invalid_option', "number_of_parcels 7 is not one of the order's accept_options."),
    );
    expect(mock.orders.get(order.code)?.state).toBe('open');
  });

  it('accepts the recorded DEMO-OPEN with its recorded options, again and again, changing nothing (a sandbox order)', async () => {
    const events = mock.events.length;
    for (let i = 0; i < 2; i++) {
      const answer = await post('DEMO-OPEN', 'accept', { pickup_location: '3XlV8ebjxm', pickup_window: 2 });
      expect(answer.status).toBe(200);
    }
    expect(mock.orders.get('DEMO-OPEN')?.state).toBe('open');
    expect(mock.events.length).toBe(events);
  });
});

describe('reject', () => {
  it('rejects a whole order with an other-reason and records rejection_info', async () => {
    const order = mock.orders.create();
    const answer = await post(order.code, 'reject', { rejection_reason_other: 'Shop closed for holidays' });
    expect(answer.status).toBe(200);
    expect(mock.orders.get(order.code)).toMatchObject({
      state: 'rejected',
      rejection_info: { reason: 'Shop closed for holidays', actor: 'merchant' },
    });
  });

  it('rejects by line items with reasons from reject_options', async () => {
    const order = mock.orders.create({ line_items: [{ quantity: 3 }, {}] });
    const [first, second] = order.line_items ?? [];
    const answer = await post(order.code, 'reject', {
      line_items: [
        { id: first?.id, reason_id: 4, available_quantity: 1 },
        { id: second?.id, reason_id: 1 },
      ],
    });
    expect(answer.status).toBe(200);
    expect(mock.orders.get(order.code)?.state).toBe('rejected');
  });

  it('refuses a second reject with 422 and the same body structure', async () => {
    const order = mock.orders.create();
    await post(order.code, 'reject', { rejection_reason_other: 'No stock' });
    const again = await post(order.code, 'reject', { rejection_reason_other: 'No stock' });
    expect(await errorOf(again)).toEqual(wire(422, 'order_status', 'Order already rejected.'));
  });

  it('refuses a reject of an accepted order', async () => {
    const code = await acceptedOrder();
    const answer = await post(code, 'reject', { rejection_reason_other: 'Changed my mind' });
    expect(await errorOf(answer)).toEqual(wire(422, 'order_status', "Order cannot be rejected in state 'accepted'."));
  });

  it('needs exactly one form, well-formed line items, known ids and reasons, and available_quantity when required', async () => {
    const order = mock.orders.create();
    const itemId = order.line_items?.[0]?.id as string;
    const both = await post(order.code, 'reject', { rejection_reason_other: 'x', line_items: [] });
    expect(await errorOf(both)).toEqual(wire(400, 'invalid_format', 'Provide either line_items or rejection_reason_other.'));
    const neither = await post(order.code, 'reject', {});
    expect(neither.status).toBe(400);
    const malformed = await post(order.code, 'reject', { line_items: [{ id: itemId, reason_id: '1', available_quantity: -1 }] });
    expect(await errorOf(malformed)).toEqual(
      wire(
        400,
        'invalid_format',
        `Line item ${itemId}: Field 'reason_id' has invalid type`,
        `Line item ${itemId}: Field 'available_quantity' has invalid type`,
      ),
    );
    const unknownItem = await post(order.code, 'reject', { line_items: [{ id: 'nope', reason_id: 1 }] });
    expect(await errorOf(unknownItem)).toEqual(wire(422, 'invalid_option', "Line item 'nope' is not part of this order."));
    const unknownReason = await post(order.code, 'reject', { line_items: [{ id: itemId, reason_id: 3 }] });
    expect(await errorOf(unknownReason)).toEqual(
      wire(422, 'invalid_option', "Rejection reason 3 is not one of the order's reject_options."),
    );
    const noQuantity = await post(order.code, 'reject', { line_items: [{ id: itemId, reason_id: 4 }] });
    expect(await errorOf(noQuantity)).toEqual(
      wire(422, 'invalid_option', `Line item '${itemId}': rejection reason 4 requires available_quantity.`),
    );
    expect(mock.orders.get(order.code)?.state).toBe('open');
  });
});

describe('set_as_ready and set_as_not_ready (rules 3 and 4)', () => {
  const NOT_ELIGIBLE = wire(422, 'order_error', 'Order is not eligible to be marked as ready');
  const NO_UNDO = wire(422, 'order_error', 'Order is not eligible for undo');

  it("answers 404 order_error 'Order not found' for an unknown order", async () => {
    expect(await errorOf(await post('NOPE-1', 'set_as_ready', undefined, merchantHeaders()))).toEqual(
      wire(404, 'order_error', 'Order not found'),
    );
    expect(await errorOf(await post('NOPE-1', 'set_as_not_ready', undefined, merchantHeaders()))).toEqual(
      wire(404, 'order_error', 'Order not found'),
    );
  });

  it('marks an accepted core order ready, refuses it twice, and undoes it once', async () => {
    const code = await acceptedOrder();
    expect(await errorOf(await post(code, 'set_as_not_ready', undefined, merchantHeaders()))).toEqual(NO_UNDO);
    expect((await post(code, 'set_as_ready', undefined, merchantHeaders())).status).toBe(200);
    expect(mock.orders.get(code)?.is_ready_for_dispatch).toBe(true);
    expect(await errorOf(await post(code, 'set_as_ready', undefined, merchantHeaders()))).toEqual(NOT_ELIGIBLE);
    expect((await post(code, 'set_as_not_ready', undefined, merchantHeaders())).status).toBe(200);
    expect(mock.orders.get(code)?.is_ready_for_dispatch).toBe(false);
    expect(await errorOf(await post(code, 'set_as_not_ready', undefined, merchantHeaders()))).toEqual(NO_UNDO);
  });

  it('refuses an open order, FBS, store pickup, another courier, and a non-core fulfillment_mode', async () => {
    const open = mock.orders.create();
    expect(await errorOf(await post(open.code, 'set_as_ready', undefined, merchantHeaders()))).toEqual(NOT_ELIGIBLE);
    for (const overrides of [
      { fulfilled_by_marketplace: true },
      { store_pickup: true },
      { courier: 'ACS Courier' },
      { fulfillment_mode: 'fbm' },
    ]) {
      const code = await acceptedOrder(overrides);
      expect(await errorOf(await post(code, 'set_as_ready', undefined, merchantHeaders()))).toEqual(NOT_ELIGIBLE);
    }
    const core = await acceptedOrder({ fulfillment_mode: 'core' });
    expect((await post(core, 'set_as_ready', undefined, merchantHeaders())).status).toBe(200);
  });

  it('cannot undo once the courier has picked the order up', async () => {
    const code = await acceptedOrder();
    await post(code, 'set_as_ready', undefined, merchantHeaders());
    mock.orders.dispatch(code);
    expect(await errorOf(await post(code, 'set_as_not_ready', undefined, merchantHeaders()))).toEqual(NO_UNDO);
  });
});

describe('invoices (rule 2)', () => {
  const upload = (code: string, form: FormData, headers = merchantHeaders()) =>
    fetch(orderUrl(code, 'invoices'), { method: 'POST', headers, body: form });

  it('stores a PDF, exposes it under the mock, and a later upload replaces it', async () => {
    const code = await acceptedOrder({ invoice: true });
    const first = await upload(code, invoiceForm(PDF, 'invoice.pdf'));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ success: true });
    const firstUrl = mock.orders.get(code)?.uploaded_invoice_file as string;
    expect(firstUrl).toMatch(/^https:\/\/api\.marketplace\.test\/__mock\/invoices\//);
    const file = await fetch(firstUrl);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);

    // The type comes from the bytes, not the name.
    expect((await upload(code, invoiceForm(PNG, 'scan.pdf'))).status).toBe(200);
    const secondUrl = mock.orders.get(code)?.uploaded_invoice_file as string;
    expect(secondUrl).not.toBe(firstUrl);
    expect((await fetch(secondUrl)).headers.get('content-type')).toBe('image/png');
  });

  it('refuses other types, files over 7 MB, a missing field and a non-multipart body', async () => {
    const code = await acceptedOrder();
    const text = await upload(code, invoiceForm(new TextEncoder().encode('hello'), 'invoice.pdf'));
    expect(await errorOf(text)).toEqual(wire(422, 'invalid_file', 'Invoice file type must be pdf, png or jpg.'));
    const big = new Uint8Array(7 * 1024 * 1024 + 1);
    big.set(PDF);
    expect(await errorOf(await upload(code, invoiceForm(big)))).toEqual(
      wire(422, 'invalid_file', 'Invoice file exceeds the maximum size of 7 MB.'),
    );
    const exact = new Uint8Array(7 * 1024 * 1024);
    exact.set(PDF);
    expect((await upload(code, invoiceForm(exact))).status).toBe(200);
    expect(await errorOf(await upload(code, invoiceForm(PDF, 'a.pdf', 'file')))).toEqual(
      wire(400, 'invalid_format', "Missing required file field 'invoice_file'"),
    );
    const asJson = await post(code, 'invoices', { invoice_file: 'x' });
    expect(asJson.status).toBe(415);
  });
});

describe('tracking_details (rule 5)', () => {
  it('records tracking for an accepted merchant-fulfilled order', async () => {
    const code = await acceptedOrder({ courier: 'ACS Courier' });
    const details = [{ courier: 'ACS Courier', tracking_code: '224085551' }];
    expect((await post(code, 'tracking_details', { tracking_details: details })).status).toBe(200);
    expect(mock.orders.trackingDetails(code)).toEqual([details]);
  });

  it('refuses orders that are not FBM, an empty list and malformed entries', async () => {
    const core = await acceptedOrder();
    const details = [{ courier: 'ACS Courier', tracking_code: '1' }];
    expect(await errorOf(await post(core, 'tracking_details', { tracking_details: details }))).toEqual(
      wire(422, 'order_error', 'Tracking details can be sent only for orders fulfilled by the merchant.'),
    );
    const fbs = await post('DEMO-FBS', 'tracking_details', { tracking_details: details });
    expect(fbs.status).toBe(422);
    const fbm = await acceptedOrder({ courier: 'ACS Courier' });
    expect(await errorOf(await post(fbm, 'tracking_details', { tracking_details: [] }))).toEqual(
      wire(400, 'invalid_format', "Field 'tracking_details' must be a non-empty array"),
    );
    expect(await errorOf(await post(fbm, 'tracking_details', { tracking_details: [{ courier: 'ACS' }] }))).toEqual(
      wire(400, 'invalid_format', "Tracking detail 0: Missing required field 'tracking_code'"),
    );
    const open = mock.orders.create({ courier: 'ACS Courier' });
    expect(await errorOf(await post(open.code, 'tracking_details', { tracking_details: details }))).toEqual(
      wire(422, 'order_error', 'Order is not eligible for tracking details'),
    );
    expect(mock.orders.trackingDetails(fbm)).toEqual([]);
  });
});
