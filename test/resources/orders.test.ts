import { readFileSync } from 'node:fs';
import {
  ApiError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RequestValidationError,
  TimeoutError,
  UnprocessableEntityError,
} from 'emporio';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  isNotEligibleForReady,
  isOrderAlreadyAccepted,
  isOrderAlreadyRejected,
  isOrderNotFound,
  isShopBusy,
  ORDER_ERROR_CODES,
} from 'emporio';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const ORDERS = `${BASE}/merchants/ecommerce/orders`;
const ACCEPT = 'application/vnd.marketplace+json; version=3.0';

function recorded(name: string): { order: Record<string, unknown> & { code: string } } {
  const file = new URL(`../fixtures/recorded/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')).response.body;
}

interface Call {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A handler that records every request it answers. */
function capture(method: 'get' | 'post', url: string, answer: () => Response = () => HttpResponse.json({ success: true })) {
  const calls: Call[] = [];
  server.use(
    http[method](url, async ({ request }) => {
      calls.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
      return answer();
    }),
  );
  return calls;
}

const client = makeClient({ maxRetries: 0 });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

describe('orders.get', () => {
  it('sends GET with the 3.0 Accept header and the token, and unwraps the order', async () => {
    const body = recorded('merchants_ecommerce_orders_demo_open');
    const calls = capture('get', `${ORDERS}/DEMO-OPEN`, () => HttpResponse.json(body));
    const order = await client.orders.get('DEMO-OPEN');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.headers.get('accept')).toBe(ACCEPT);
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(order).toEqual(body.order);
    // Fields the spec does not list are kept (real line items carry shop_variation_uid).
    expect(JSON.stringify(order)).toContain('shop_variation_uid');
  });

  it.each([[''], ['../x'], ['a/b'], ['100%'], ['a b']])('refuses the code %j before sending', async (code) => {
    const calls = capture('get', `${ORDERS}/*`);
    await expect(client.orders.get(code)).rejects.toBeInstanceOf(RequestValidationError);
    expect(calls).toHaveLength(0);
  });

  it('maps 404 order_error to NotFoundError', async () => {
    capture('get', `${ORDERS}/260330-1`, () =>
      HttpResponse.json({ errors: [{ code: 'order_error', messages: ['Order not found'] }] }, { status: 404 }),
    );
    const error = await rejection(client.orders.get('260330-1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: ORDER_ERROR_CODES.orderError });
    expect(isOrderNotFound(error)).toBe(true);
  });

  it('rejects a body without the order root key', async () => {
    capture('get', `${ORDERS}/DEMO-OPEN`, () => HttpResponse.json({ orders: [] }));
    await expect(client.orders.get('DEMO-OPEN')).rejects.toMatchObject({ name: 'ResponseValidationError' });
  });
});

describe('orders.accept', () => {
  it('POSTs the accept body as JSON and resolves void on { success: true }', async () => {
    const calls = capture('post', `${ORDERS}/191128-1234567/accept`);
    const result = await client.orders.accept('191128-1234567', { pickup_location: 'YlpD0KROym', pickup_window: 2, number_of_parcels: 1 });
    expect(result).toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('accept')).toBe(ACCEPT);
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ pickup_location: 'YlpD0KROym', pickup_window: 2, number_of_parcels: 1 });
  });

  it('leaves number_of_parcels out when not given (the service defaults to 1)', async () => {
    const calls = capture('post', `${ORDERS}/DEMO-OPEN/accept`);
    await client.orders.accept('DEMO-OPEN', { pickup_location: 'a', pickup_window: 1 });
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ pickup_location: 'a', pickup_window: 1 });
  });

  it.each([
    [{ pickup_window: 1 }, ['pickup_location']],
    [{ pickup_location: '', pickup_window: 1 }, ['pickup_location']],
    [{ pickup_location: 'a', pickup_window: '1' }, ['pickup_window']],
    [{ pickup_location: 'a', pickup_window: 1.5 }, ['pickup_window']],
    [{ pickup_location: 'a', pickup_window: 1, number_of_parcels: 0 }, ['number_of_parcels']],
    [{ pickup_location: 'a', pickup_window: 1, parcels: 2 }, []],
  ])('refuses %j naming the field, nothing sent', async (params, path) => {
    const calls = capture('post', `${ORDERS}/DEMO-OPEN/accept`);
    const error = await rejection(client.orders.accept('DEMO-OPEN', params as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(path);
    expect(calls).toHaveLength(0);
  });

  it('maps 422 order_status "Order already accepted." to a typed, easy-to-branch error', async () => {
    const calls = capture('post', `${ORDERS}/DEMO-ACCEPTED/accept`, () =>
      HttpResponse.json({ errors: [{ code: 'order_status', messages: ['Order already accepted.'] }] }, { status: 422 }),
    );
    const reads = capture('get', `${ORDERS}/DEMO-ACCEPTED`);
    const error = await rejection(client.orders.accept('DEMO-ACCEPTED', { pickup_location: 'a', pickup_window: 1 }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: ORDER_ERROR_CODES.orderStatus, errors: [{ code: 'order_status', messages: ['Order already accepted.'] }] });
    expect(isOrderAlreadyAccepted(error)).toBe(true);
    expect(isOrderAlreadyRejected(error)).toBe(false);
    expect(isNotEligibleForReady(error)).toBe(false);
    expect(calls).toHaveLength(1);
    expect(reads).toHaveLength(0); // an answer came back: nothing to settle
  });

  it('never repeats an order action, even on a transient 503', async () => {
    const retrying = makeClient({ maxRetries: 3 });
    const calls = capture('post', `${ORDERS}/DEMO-OPEN/accept`, () => HttpResponse.json({ errors: [] }, { status: 503, headers: { 'retry-after': '0' } }));
    await expect(retrying.orders.accept('DEMO-OPEN', { pickup_location: 'a', pickup_window: 1 })).rejects.toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);
  });
});

describe('orders.reject', () => {
  it('POSTs line items with reasons', async () => {
    const calls = capture('post', `${ORDERS}/191128-1234567/reject`);
    const line_items = [{ id: 'l39vKqxqwe', reason_id: 1 }, { id: 'l39vKqxqh2', reason_id: 4, available_quantity: 0 }];
    await expect(client.orders.reject('191128-1234567', { line_items })).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.headers.get('accept')).toBe(ACCEPT);
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ line_items });
  });

  it('POSTs a whole-order rejection with a free-text reason', async () => {
    const calls = capture('post', `${ORDERS}/191128-1234567/reject`);
    await expect(client.orders.reject('191128-1234567', { rejection_reason_other: 'Closed for stock-taking' })).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.headers.get('accept')).toBe(ACCEPT);
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ rejection_reason_other: 'Closed for stock-taking' });
  });

  it.each([
    [{}, []],
    [{ line_items: [{ id: 'a', reason_id: 1 }], rejection_reason_other: 'x' }, []],
    [{ line_items: [] }, ['line_items']],
    [{ line_items: [{ reason_id: 1 }] }, ['line_items', 0, 'id']],
    [{ line_items: [{ id: 'a', reason_id: '1' }] }, ['line_items', 0, 'reason_id']],
    [{ line_items: [{ id: 'a', reason_id: 1, available_quantity: -1 }] }, ['line_items', 0, 'available_quantity']],
    [{ rejection_reason_other: '' }, ['rejection_reason_other']],
  ])('refuses %j naming the field, nothing sent', async (params, path) => {
    const calls = capture('post', `${ORDERS}/DEMO-OPEN/reject`);
    const error = await rejection(client.orders.reject('DEMO-OPEN', params as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(path);
    expect(calls).toHaveLength(0);
  });

  it('maps the 422 of a second reject (order_status "Order already rejected.", spec/4) to UnprocessableEntityError, isOrderAlreadyRejected', async () => {
    const calls = capture('post', `${ORDERS}/DEMO-REJECTED/reject`, () =>
      HttpResponse.json({ errors: [{ code: 'order_status', messages: ['Order already rejected.'] }] }, { status: 422 }),
    );
    const reads = capture('get', `${ORDERS}/DEMO-REJECTED`);
    const error = await rejection(client.orders.reject('DEMO-REJECTED', { rejection_reason_other: 'x' }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: 'order_status', message: expect.stringContaining('Order already rejected.') });
    expect(isOrderAlreadyAccepted(error)).toBe(false);
    expect(isOrderAlreadyRejected(error)).toBe(true);
    expect([calls.length, reads.length]).toEqual([1, 0]);
  });

  describe('checked against the order it was given', () => {
    const open = recorded('merchants_ecommerce_orders_show').order as never as Awaited<ReturnType<typeof client.orders.get>>;
    const code = open.code;
    const reasons = open.reject_options?.line_item_rejection_reasons ?? [];
    const needsQuantity = reasons.find((r) => r.requires_available_quantity === true);

    it('uses a recording whose reasons include one that requires available_quantity', () => {
      expect(needsQuantity?.id).toBeTypeOf('number');
    });

    it('refuses a reason that requires available_quantity without it', async () => {
      const calls = capture('post', `${ORDERS}/${code}/reject`);
      const error = await rejection(
        client.orders.reject(code, { line_items: [{ id: 'l39vKqxqwe', reason_id: needsQuantity?.id as number }] }, { order: open }),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues).toEqual([
        { path: ['line_items', 0, 'available_quantity'], message: expect.stringContaining('requires available_quantity') },
      ]);
      expect(calls).toHaveLength(0);
    });

    it('refuses an unknown reason id and an unknown line item, from reject_options alone too', async () => {
      const calls = capture('post', `${ORDERS}/${code}/reject`);
      const error = await rejection(client.orders.reject(code, { line_items: [{ id: 'nope', reason_id: 999 }] }, { order: open }));
      expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([
        ['line_items', 0, 'id'],
        ['line_items', 0, 'reason_id'],
      ]);
      const alone = await rejection(
        client.orders.reject(code, { line_items: [{ id: 'nope', reason_id: 999 }] }, { rejectOptions: open.reject_options ?? {} }),
      );
      expect((alone as RequestValidationError).issues.map((i) => i.path)).toEqual([['line_items', 0, 'reason_id']]);
      expect(calls).toHaveLength(0);
    });

    it('refuses an order that is not the one acted on', async () => {
      const calls = capture('post', `${ORDERS}/OTHER-1/reject`);
      const error = await rejection(client.orders.reject('OTHER-1', { rejection_reason_other: 'x' }, { order: open }));
      expect((error as RequestValidationError).issues[0]?.path).toEqual(['order', 'code']);
      expect(calls).toHaveLength(0);
    });

    it('sends a rejection that fits, with the request options applied', async () => {
      const calls = capture('post', `${ORDERS}/${code}/reject`);
      const line_items = [{ id: 'l39vKqxqwe', reason_id: needsQuantity?.id as number, available_quantity: 1 }];
      await client.orders.reject(code, { line_items }, { order: open, headers: { 'x-trace': 't1' } });
      expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ line_items });
      expect(calls[0]?.headers.get('x-trace')).toBe('t1');
    });
  });
});

describe('orders.setAsReady / setAsNotReady', () => {
  const accepted = {
    ...recorded('merchants_ecommerce_orders_demo_accepted').order,
    courier: 'Marketplace Last Mile',
    is_ready_for_dispatch: false,
  } as Awaited<ReturnType<typeof client.orders.get>>;

  it.each([
    ['setAsReady', 'set_as_ready'],
    ['setAsNotReady', 'set_as_not_ready'],
  ] as const)('%s POSTs %s with no body', async (method, wire) => {
    const calls = capture('post', `${ORDERS}/DEMO-ACCEPTED/${wire}`);
    await expect(client.orders[method]('DEMO-ACCEPTED')).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toBe('');
    expect(calls[0]?.headers.get('content-type')).toBeNull();
    expect(calls[0]?.headers.get('accept')).toBe(ACCEPT);
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('with { order }, refuses an ineligible order listing every reason, nothing sent', async () => {
    const calls = capture('post', `${ORDERS}/DEMO-FBS/set_as_ready`);
    const fbs = recorded('merchants_ecommerce_orders_demo_fbs').order;
    const error = await rejection(client.orders.setAsReady('DEMO-FBS', { order: fbs }));
    expect(error).toBeInstanceOf(RequestValidationError);
    const messages = (error as RequestValidationError).issues.map((i) => i.message);
    expect(messages).toEqual([expect.stringContaining('courier'), expect.stringContaining('FBS')]);
    expect(calls).toHaveLength(0);

    const notReady = await rejection(client.orders.setAsNotReady('DEMO-ACCEPTED', { order: accepted }));
    expect((notReady as RequestValidationError).issues.map((i) => i.message)).toEqual(['order is not marked ready for dispatch']);
  });

  it('with an eligible { order }, sends', async () => {
    const ready = capture('post', `${ORDERS}/DEMO-ACCEPTED/set_as_ready`);
    await client.orders.setAsReady('DEMO-ACCEPTED', { order: accepted });
    const undo = capture('post', `${ORDERS}/DEMO-ACCEPTED/set_as_not_ready`);
    await client.orders.setAsNotReady('DEMO-ACCEPTED', { order: { ...accepted, is_ready_for_dispatch: true } });
    expect([ready.length, undo.length]).toEqual([1, 1]);
  });

  it.each([
    ['setAsReady', 'set_as_ready', 404, 'Order not found', NotFoundError],
    ['setAsReady', 'set_as_ready', 422, 'Order is not eligible to be marked as ready', UnprocessableEntityError],
    ['setAsNotReady', 'set_as_not_ready', 404, 'Order not found', NotFoundError],
    ['setAsNotReady', 'set_as_not_ready', 422, 'Order is not eligible for undo', UnprocessableEntityError],
  ] as const)('%s: %s answered %i "%s" is its class with code order_error', async (method, wire, status, message, ErrorClass) => {
    capture('post', `${ORDERS}/DEMO-ACCEPTED/${wire}`, () =>
      HttpResponse.json({ errors: [{ code: 'order_error', messages: [message] }] }, { status }),
    );
    const error = await rejection(client.orders[method]('DEMO-ACCEPTED'));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status, code: 'order_error', message: expect.stringContaining(message) });
    expect(isOrderNotFound(error)).toBe(status === 404);
    expect(isNotEligibleForReady(error)).toBe(status === 422);
  });
});

describe('orders.sendTrackingDetails', () => {
  it('POSTs { tracking_details: [...] }', async () => {
    const calls = capture('post', `${ORDERS}/191128-1234567/tracking_details`);
    const details = [
      { courier: 'ACS', tracking_code: '123' },
      { courier: 'ELTA', tracking_code: '456' },
    ];
    await expect(client.orders.sendTrackingDetails('191128-1234567', details)).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.headers.get('accept')).toBe(ACCEPT);
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ tracking_details: details });
  });

  it.each([
    [[], ['tracking_details']],
    [[{ courier: 'ACS' }], ['tracking_details', 0, 'tracking_code']],
    [[{ courier: 'ACS', tracking_code: '1' }, { courier: '', tracking_code: '2' }], ['tracking_details', 1, 'courier']],
  ])('refuses %j naming the field, nothing sent', async (details, path) => {
    const calls = capture('post', `${ORDERS}/DEMO-1/tracking_details`);
    const error = await rejection(client.orders.sendTrackingDetails('DEMO-1', details as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(path);
    expect(calls).toHaveLength(0);
  });
});

describe('lost answers: the action is sent once, then the order is read once', () => {
  const base = { ...recorded('merchants_ecommerce_orders_demo_accepted').order, code: '260330-42', courier: 'Marketplace Last Mile' };
  const cases = [
    { name: 'accept', wire: 'accept', before: { state: 'open' }, after: { state: 'accepted' }, call: () => client.orders.accept('260330-42', { pickup_location: 'a', pickup_window: 1 }) },
    { name: 'reject', wire: 'reject', before: { state: 'open' }, after: { state: 'rejected' }, call: () => client.orders.reject('260330-42', { rejection_reason_other: 'x' }) },
    { name: 'setAsReady', wire: 'set_as_ready', before: { is_ready_for_dispatch: false }, after: { is_ready_for_dispatch: true }, call: () => client.orders.setAsReady('260330-42') },
    { name: 'setAsNotReady', wire: 'set_as_not_ready', before: { is_ready_for_dispatch: true }, after: { is_ready_for_dispatch: false }, call: () => client.orders.setAsNotReady('260330-42') },
  ];

  /** The marketplace: the action may take effect, then the connection drops before the answer. */
  function marketplace(before: object, after: object, applies: boolean) {
    let order = { ...base, ...before };
    const actions: string[] = [];
    const reads: string[] = [];
    server.use(
      http.post(`${ORDERS}/260330-42/:action`, ({ params }) => {
        actions.push(String(params.action));
        if (applies) order = { ...order, ...after };
        return HttpResponse.error();
      }),
      http.get(`${ORDERS}/260330-42`, ({ request }) => {
        reads.push(request.method);
        return HttpResponse.json({ order });
      }),
    );
    return { actions, reads };
  }

  it.each(cases)('$name resolves when the order already shows the effect', async ({ wire, before, after, call }) => {
    const { actions, reads } = marketplace(before, after, true);
    await expect(call()).resolves.toBeUndefined();
    expect(actions).toEqual([wire]);
    expect(reads).toEqual(['GET']);
  });

  it.each(cases)('$name throws the original ConnectionError when it does not', async ({ wire, before, after, call }) => {
    const { actions, reads } = marketplace(before, after, false);
    const error = await rejection(call());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ method: 'POST', url: `${ORDERS}/260330-42/${wire}` });
    expect(actions).toEqual([wire]);
    expect(reads).toEqual(['GET']);
  });

  it('throws the original error when the read fails too', async () => {
    const actions = capture('post', `${ORDERS}/260330-42/accept`, () => HttpResponse.error());
    const reads = capture('get', `${ORDERS}/260330-42`, () => HttpResponse.json({ errors: [] }, { status: 500 }));
    const error = await rejection(client.orders.accept('260330-42', { pickup_location: 'a', pickup_window: 1 }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ method: 'POST' });
    expect([actions.length, reads.length]).toEqual([1, 1]);
  });

  it('reads once even when the client retries GETs, so the original error comes back at once', async () => {
    const actions = capture('post', `${ORDERS}/260330-42/accept`, () => HttpResponse.error());
    const reads = capture('get', `${ORDERS}/260330-42`, () => HttpResponse.error());
    const retrying = makeClient({ maxRetries: 2 });
    const error = await rejection(retrying.orders.accept('260330-42', { pickup_location: 'a', pickup_window: 1 }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ method: 'POST' });
    expect([actions.length, reads.length]).toEqual([1, 1]);
  });

  it('settles a time-out the same way', async () => {
    let order = { ...base, state: 'open' };
    const actions: string[] = [];
    server.use(
      http.post(`${ORDERS}/260330-42/accept`, async () => {
        actions.push('accept');
        order = { ...order, state: 'accepted' };
        await new Promise((resolve) => setTimeout(resolve, 300));
        return HttpResponse.json({ success: true });
      }),
      http.get(`${ORDERS}/260330-42`, () => HttpResponse.json({ order })),
    );
    await expect(client.orders.accept('260330-42', { pickup_location: 'a', pickup_window: 1 }, { timeout: 50 })).resolves.toBeUndefined();
    expect(actions).toHaveLength(1);
  });

  it('throws the original TimeoutError when the order read after a time-out shows no effect', async () => {
    const order = { ...base, state: 'open' };
    const actions: string[] = [];
    const reads: string[] = [];
    server.use(
      http.post(`${ORDERS}/260330-42/accept`, async () => {
        actions.push('accept');
        await delay(1000); // the answer never arrives in time; the order stays open
        return HttpResponse.json({ success: true });
      }),
      http.get(`${ORDERS}/260330-42`, ({ request }) => {
        reads.push(request.method);
        return HttpResponse.json({ order });
      }),
    );
    const error = await rejection(client.orders.accept('260330-42', { pickup_location: 'a', pickup_window: 1 }, { timeout: 100 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ name: 'TimeoutError', method: 'POST', url: `${ORDERS}/260330-42/accept` });
    expect(actions).toEqual(['accept']);
    expect(reads).toEqual(['GET']);
  });

  it('does not read the order after an answered error', async () => {
    capture('post', `${ORDERS}/260330-42/set_as_ready`, () =>
      HttpResponse.json({ errors: [{ code: 'order_error', messages: ['Order is not eligible to be marked as ready'] }] }, { status: 422 }),
    );
    const reads = capture('get', `${ORDERS}/260330-42`);
    await expect(client.orders.setAsReady('260330-42')).rejects.toBeInstanceOf(UnprocessableEntityError);
    expect(reads).toHaveLength(0);
  });
});

describe('error guards', () => {
  it('export the document codes and stay false for other errors', () => {
    expect(Object.values(ORDER_ERROR_CODES).sort()).toEqual(
      ['credit_invoice_file', 'invalid_batch_size', 'invalid_format', 'invalid_shop_state', 'order_error', 'order_status', 'pickup_location', 'reschedule_date'],
    );
    const other = new BadRequestError({ status: 400, errors: [{ code: 'invalid_format', messages: ['x'] }], headers: new Headers() });
    for (const guard of [isOrderAlreadyAccepted, isOrderAlreadyRejected, isOrderNotFound, isNotEligibleForReady, isShopBusy]) {
      expect(guard(other)).toBe(false);
      expect(guard(new Error('x'))).toBe(false);
      expect(guard(undefined)).toBe(false);
    }
    expect(other).toBeInstanceOf(ApiError);
  });
});
