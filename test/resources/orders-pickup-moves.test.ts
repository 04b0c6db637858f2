/**
 * The Orders API after 2026-06 (pickup moves, preorder vouchers, credit invoices), fed the
 * service's recordings and documented examples.
 */
import {
  BadRequestError,
  ConnectionError,
  type DriftReport,
  hasErrorCode,
  InternalServerError,
  isOrderExpress,
  ORDER_ERROR_CODES,
  parseWebhook,
  RequestValidationError,
  UnprocessableEntityError,
} from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { laterPayload, laterRecording, recordedPath } from '../helpers/later-recordings.js';
import { BASE, makeClient, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const client = makeClient({ maxRetries: 2 });
const CODE = '191128-1234567';
const ORDER = `${BASE}/merchants/ecommerce/orders/${CODE}`;
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);

interface Seen {
  method: string;
  search: string;
  body: unknown;
  form?: FormData;
}

/** Answers the recording's request with the recording's answer; records what arrived. */
function serve(name: string) {
  const recording = laterRecording(name);
  const seen: Seen[] = [];
  const method = recording.request.method.toLowerCase() as 'get' | 'post';
  server.use(
    http[method](`${BASE}${recordedPath(recording)}`, async ({ request }) => {
      const url = new URL(request.url);
      const type = request.headers.get('content-type') ?? '';
      const entry: Seen = { method: request.method, search: url.search, body: undefined };
      if (type.startsWith('multipart/')) entry.form = await request.formData();
      else if (type.startsWith('application/json')) entry.body = await request.json();
      seen.push(entry);
      return HttpResponse.json(recording.response.body as object, { status: recording.response.status });
    }),
  );
  return { recording, seen };
}

describe('orders.get(code, { actionOptions: true })', () => {
  it('asks with action_options=1 and returns the recorded reschedule and relocate options', async () => {
    const { recording, seen } = serve('merchants_ecommerce_orders_show_action_options');
    const order = await client.orders.get(CODE, { actionOptions: true });
    expect(seen[0]?.search).toBe('?action_options=1');
    expect(order).toEqual((recording.response.body as { order: unknown }).order);
    expect(order.reschedule_options?.map((o) => o?.date)).toEqual(['2026-09-25', '2026-09-26']);
    expect(order.relocate_options?.[0]?.id).toBe('m8O6n3eO6j');
  });

  it('without the option sends no query; a non-boolean option is refused before sending', async () => {
    const { seen } = serve('merchants_ecommerce_orders_show_action_options');
    await client.orders.get(CODE);
    expect(seen[0]?.search).toBe('');
    await expect(client.orders.get(CODE, { actionOptions: 'yes' as never })).rejects.toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(1);
  });

  it('options of another type are drift: the call resolves and reports the path', async () => {
    const reports: DriftReport[] = [];
    server.use(http.get(ORDER, () => HttpResponse.json({ order: { code: CODE, reschedule_options: 'none', relocate_options: [{ id: 7, label: 'x' }] } })));
    const order = await makeClient({ hooks: { onDrift: (r) => reports.push(r) } }).orders.get(CODE, { actionOptions: true });
    expect(order.reschedule_options).toBe('none');
    expect(reports.map((r) => r.path).sort()).toEqual(['$.order.relocate_options[].id', '$.order.reschedule_options']);
  });
});

describe('orders.reschedulePickup', () => {
  it('sends the recorded body and resolves { success: true }', async () => {
    const { seen } = serve('merchants_ecommerce_orders_reschedule_pickup');
    await expect(client.orders.reschedulePickup(CODE, { reschedule_date: '2026-09-25' })).resolves.toEqual({ success: true });
    expect(seen.map((s) => s.body)).toEqual([{ reschedule_date: '2026-09-25' }]);
  });

  it.each([
    ['orders_reschedule_pickup_error_date', 'reschedule_date', 'Invalid reschedule date'],
    ['orders_reschedule_pickup_error_not_eligible', 'order_status', 'Order rescheduling is not supported for "Fulfilled by Marketplace" orders.'],
  ])('%s: a 422 UnprocessableEntityError with the service code and message', async (name, code, message) => {
    serve(name);
    const error = await client.orders.reschedulePickup(CODE, { reschedule_date: '2026-09-25' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).code).toBe(code);
    expect((error as Error).message).toContain(message);
  });

  it.each([{ reschedule_date: '2026-02-30' }, { reschedule_date: '25/09/2026' }, {}, { reschedule_date: '2026-09-25', extra: 1 }])(
    'refuses %j before sending',
    async (params) => {
      const { seen } = serve('merchants_ecommerce_orders_reschedule_pickup');
      await expect(client.orders.reschedulePickup(CODE, params as never)).rejects.toBeInstanceOf(RequestValidationError);
      expect(seen).toHaveLength(0);
    },
  );

  it('is never repeated on a 5xx, even with retries configured', async () => {
    let posts = 0;
    server.use(http.post(`${ORDER}/reschedule_pickup`, () => {
      posts++;
      return HttpResponse.json({ errors: [] }, { status: 503 });
    }));
    await expect(client.orders.reschedulePickup(CODE, { reschedule_date: '2026-09-25' })).rejects.toBeInstanceOf(InternalServerError);
    expect(posts).toBe(1);
  });

  it('a lost answer is settled by one read: resolved when the order already shows the new date', async () => {
    let posts = 0;
    server.use(
      http.post(`${ORDER}/reschedule_pickup`, () => {
      posts++;
      return HttpResponse.error();
    }),
      http.get(ORDER, () => HttpResponse.json({ order: { code: CODE, state: 'accepted', pickup_window: { from: '2026-09-25T10:00:00+03:00', to: '2026-09-25T14:00:00+03:00' } } })),
    );
    await expect(client.orders.reschedulePickup(CODE, { reschedule_date: '2026-09-25' })).resolves.toEqual({ success: true });
    await expect(client.orders.reschedulePickup(CODE, { reschedule_date: '2026-09-26' })).rejects.toBeInstanceOf(ConnectionError);
    expect(posts).toBe(2);
  });
});

describe('orders.relocatePickup', () => {
  it('sends the recorded body and resolves { success: true }', async () => {
    const { seen } = serve('merchants_ecommerce_orders_relocate_pickup');
    await expect(client.orders.relocatePickup(CODE, { pickup_location: 'm8O6n3eO6j' })).resolves.toEqual({ success: true });
    expect(seen.map((s) => s.body)).toEqual([{ pickup_location: 'm8O6n3eO6j' }]);
  });

  it.each([
    ['orders_relocate_pickup_error_location', 'pickup_location', 'Invalid pickup location'],
    ['orders_relocate_pickup_error_not_eligible', 'order_status', 'Pickup relocation is not supported for this order.'],
  ])('%s: the service code and message', async (name, code, message) => {
    serve(name);
    const error = await client.orders.relocatePickup(CODE, { pickup_location: 'm8O6n3eO6j' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).code).toBe(code);
    expect((error as Error).message).toContain(message);
  });

  it('refuses a blank location before sending, and is never repeated on a dropped connection', async () => {
    let posts = 0;
    server.use(http.post(`${ORDER}/relocate_pickup`, () => {
      posts++;
      return HttpResponse.error();
    }));
    await expect(client.orders.relocatePickup(CODE, { pickup_location: ' ' })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.orders.relocatePickup(CODE, { pickup_location: 'm8O6n3eO6j' })).rejects.toBeInstanceOf(ConnectionError);
    expect(posts).toBe(1);
  });
});

describe('orders.requestVoucher', () => {
  it('posts no body and resolves the recorded { success: true }', async () => {
    const { seen } = serve('orders_request_voucher_success');
    await expect(client.orders.requestVoucher(CODE)).resolves.toEqual({ success: true });
    expect(seen).toEqual([{ method: 'POST', search: '', body: undefined }]);
  });

  it('the ineligible answer is a 422 order_error with the service message', async () => {
    serve('orders_request_voucher_error_not_eligible');
    const error = await client.orders.requestVoucher(CODE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).code).toBe('order_error');
    expect((error as Error).message).toContain('Cannot request voucher');
  });

  it('is never repeated on a 5xx', async () => {
    let posts = 0;
    server.use(http.post(`${ORDER}/request_voucher`, () => {
      posts++;
      return HttpResponse.json({ errors: [] }, { status: 502 });
    }));
    await expect(client.orders.requestVoucher(CODE)).rejects.toBeInstanceOf(InternalServerError);
    expect(posts).toBe(1);
  });
});

describe('orders.uploadCreditInvoice', () => {
  it('sends the file as credit_invoice_file and resolves the recorded { success: true }', async () => {
    const { seen } = serve('orders_credit_invoices_success');
    await expect(client.orders.uploadCreditInvoice(CODE, PDF)).resolves.toEqual({ success: true });
    const file = seen[0]?.form?.get('credit_invoice_file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('credit_invoice.pdf');
    expect((file as File).type).toBe('application/pdf');
    expect([...(seen[0]?.form?.keys() ?? [])]).toEqual(['credit_invoice_file']);
  });

  it.each([
    ['orders_credit_invoices_error_missing_file', BadRequestError, 'Missing credit invoice file'],
    ['orders_credit_invoices_error_not_accepted', UnprocessableEntityError, 'Order must be accepted first.'],
    ['orders_credit_invoices_error_file_rejected', UnprocessableEntityError, 'mime-type is not accepted'],
  ])('%s: the service code and message', async (name, ErrorClass, message) => {
    serve(name);
    const error = await client.orders.uploadCreditInvoice(CODE, PDF).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(hasErrorCode(error, ORDER_ERROR_CODES.creditInvoiceFile)).toBe(true);
    expect((error as Error).message).toContain(message);
  });

  it('takes the file rules of uploadInvoice: a ZIP, an empty file and one over 7 MiB are refused before sending', async () => {
    const { seen } = serve('orders_credit_invoices_success');
    for (const file of [ZIP, new Uint8Array(0), new Uint8Array(7 * 1024 * 1024 + 1).fill(0x25)]) {
      const error = await client.orders.uploadCreditInvoice(CODE, file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as Error).message).toMatch(/^Invalid credit invoice file/);
    }
    expect(seen).toHaveLength(0);
  });

  it('is never repeated on a 5xx', async () => {
    let posts = 0;
    server.use(http.post(`${ORDER}/credit_invoices`, () => {
      posts++;
      return HttpResponse.json({ errors: [] }, { status: 500 });
    }));
    await expect(client.orders.uploadCreditInvoice(CODE, PDF)).rejects.toBeInstanceOf(InternalServerError);
    expect(posts).toBe(1);
  });
});

describe('accepting an express order', () => {
  it('isOrderExpress is true for the 422 order_status "Order is express", false for others', async () => {
    server.use(
      http.post(`${ORDER}/accept`, () => HttpResponse.json({ errors: [{ code: 'order_status', messages: ['Order is express'] }] }, { status: 422 })),
    );
    const error = await client.orders.accept(CODE, { pickup_location: 'L', pickup_window: 1 }).catch((e: unknown) => e);
    expect(isOrderExpress(error)).toBe(true);
    server.use(
      http.post(`${ORDER}/accept`, () => HttpResponse.json({ errors: [{ code: 'order_status', messages: ['Order already accepted.'] }] }, { status: 422 })),
    );
    const other = await client.orders.accept(CODE, { pickup_location: 'L', pickup_window: 1 }).catch((e: unknown) => e);
    expect(isOrderExpress(other)).toBe(false);
    expect(isOrderExpress(new Error('Order is express'))).toBe(false);
  });
});

describe('customer.address.floor and the ready-for-dispatch change', () => {
  it('reads floor as a typed string', async () => {
    server.use(http.get(ORDER, () => HttpResponse.json({ order: { code: CODE, customer: { address: { street_name: 'Ermou', street_number: '10', floor: '1ος όροφος', zip: '10563' } } } })));
    const order = await client.orders.get(CODE);
    expect(order.customer?.address?.floor).toBe('1ος όροφος');
    expectTypeOf(order.customer?.address?.floor).toEqualTypeOf<string | null | undefined>();
  });

  it('parses the documented is_ready_for_dispatch change of order_updated, typed', () => {
    const fragment = laterPayload('orders_webhook_is_ready_for_dispatch_fragment');
    const event = parseWebhook(JSON.stringify({ ...fragment, event_time: '2026-09-25T10:00:00+03:00', order: { code: CODE, is_ready_for_dispatch: true } }));
    expect(event.event_type).toBe('order_updated');
    if ('raw' in event || event.event_type !== 'order_updated') throw new Error('not an order_updated event');
    expect(event.changes?.is_ready_for_dispatch).toEqual({ old: false, new: true });
    expectTypeOf(event.changes?.is_ready_for_dispatch?.new).toEqualTypeOf<boolean | null | undefined>();
  });

  it('a ready flag of another type in changes is drift, and the event still parses', () => {
    const reports: DriftReport[] = [];
    const event = parseWebhook(
      JSON.stringify({ event_type: 'order_updated', event_time: '2026-09-25T10:00:00+03:00', order: { code: CODE }, changes: { is_ready_for_dispatch: { old: 'no', new: 'yes' } } }),
      { onDrift: (r) => reports.push(r) },
    );
    expect(event.event_type).toBe('order_updated');
    expect(reports.map((r) => r.path)).toContain('$.changes.is_ready_for_dispatch.old');
  });
});
