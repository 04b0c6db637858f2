import { readFileSync } from 'node:fs';
import { BadRequestError, RequestValidationError, UnprocessableEntityError } from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { isShopBusy, ORDER_ERROR_CODES } from 'emporio';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const client = makeClient({ maxRetries: 0 });
const BATCH = `${BASE}/merchants/products/batch`;
const VALIDATE = `${BASE}/merchants/products/batch/validations`;

/** The recorded batch request, its `:key` names turned back into wire names. */
function recordedUpdates(): never[] {
  const file = new URL('../fixtures/recorded/merchants_products_batch.json', import.meta.url);
  const text = readFileSync(file, 'utf8').replace(/":(\w+)"/g, '"$1"');
  return JSON.parse(text).request.params.data;
}

interface Call {
  headers: Headers;
  body: { data: { product_id: string }[] };
}

function capture(url: string, answer: (call: Call) => Response = () => HttpResponse.json({ success: true })) {
  const calls: Call[] = [];
  server.use(
    http.post(url, async ({ request }) => {
      const call = { headers: request.headers, body: (await request.json()) as Call['body'] };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

const update = (id: string | number, price = 1999) => ({ product_id: String(id), quantity: 3, enabled: true, price });
const errorBody = (code: string, message: string) => ({ errors: [{ code, messages: [message] }] });

describe('products.batchUpdate', () => {
  it('POSTs { data } with the 3.0 Accept header, the token and JSON', async () => {
    const updates = recordedUpdates();
    const calls = capture(BATCH);
    await expect(client.products.batchUpdate(updates)).resolves.toEqual({ success: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('accept')).toBe('application/vnd.marketplace+json; version=3.0');
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(calls[0]?.body).toEqual({ data: updates });
  });

  it('takes 500 updates and refuses 501 before sending', async () => {
    const calls = capture(BATCH);
    await client.products.batchUpdate(Array.from({ length: 500 }, (_, i) => update(i)));
    const error = await client.products.batchUpdate(Array.from({ length: 501 }, (_, i) => update(i))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/501 updates; at most 500/);
    expect(calls).toHaveLength(1);
  });

  it.each([
    [[], []],
    [[update(1), update(2), update(3), { ...update(4), price: 19.99 }], [3, 'price']],
    [[{ ...update(1), price: '1999' }], [0, 'price']],
    [[{ quantity: 1, enabled: true, price: 1 }], [0, 'product_id']],
    [[{ ...update(1), product_id: '   ' }], [0, 'product_id']],
    [[{ ...update(1), quantity: -1 }], [0, 'quantity']],
    [[{ ...update(1), enabled: 'yes' }], [0, 'enabled']],
    [[{ ...update(1), stock: 3 }], [0]],
    [[update(1), { ...update(2), variations: [{ variation_id: 'V', quantity: 1, enabled: 1, price: 100 }] }], [1, 'variations', 0, 'enabled']],
    [[{ ...update(1), variations: [{ quantity: 1, enabled: true, price: 100 }] }], [0, 'variations', 0, 'variation_id']],
  ])('refuses %j naming the update and field, nothing sent', async (updates, path) => {
    const calls = capture(BATCH);
    const error = await client.products.batchUpdate(updates as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(path);
    expect(calls).toHaveLength(0);
  });

  it('is retried on a transient failure (absolute values: safe to repeat)', async () => {
    let n = 0;
    const calls = capture(BATCH, () =>
      n++ === 0 ? HttpResponse.json({}, { status: 503, headers: { 'retry-after': '0' } }) : HttpResponse.json({ success: true }),
    );
    await makeClient({ maxRetries: 2 }).products.batchUpdate([update(1)]);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual(calls[0]?.body);
  });

  it.each([
    [400, 'invalid_format', 'Expected an array of product updates.', BadRequestError],
    [400, 'invalid_format', "Product ABC123: Missing required field 'quantity'", BadRequestError],
    [400, 'invalid_batch_size', 'Batch size exceeds the maximum limit of 500.', BadRequestError],
    [422, 'invalid_shop_state', 'Shop is not in a valid state to perform this action.', UnprocessableEntityError],
    [422, 'invalid_shop_state', 'We are currently scanning your XML. Please try again later.', UnprocessableEntityError],
  ] as const)('maps %i %s "%s" to its class and code', async (status, code, message, ErrorClass) => {
    capture(BATCH, () => HttpResponse.json(errorBody(code, message), { status }));
    const error = await client.products.batchUpdate([update(1)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status, code, errors: [{ code, messages: [message] }] });
    expect((error as Error).message).toContain(message);
    expect(Object.values(ORDER_ERROR_CODES)).toContain(code);
    expect(isShopBusy(error)).toBe(message.includes('scanning'));
  });
});

describe('products.validateBatch', () => {
  it('POSTs to batch/validations (spec/4) and resolves { message }, other answer fields kept', async () => {
    const calls = capture(VALIDATE, () => HttpResponse.json({ success: true, message: 'All validations passed successfully.' }));
    const updates = recordedUpdates();
    await expect(client.products.validateBatch(updates)).resolves.toEqual({
      success: true,
      message: 'All validations passed successfully.',
    });
    expect(calls[0]?.body).toEqual({ data: updates });
    expect(calls[0]?.headers.get('accept')).toBe('application/vnd.marketplace+json; version=3.0');
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('one update on its own is sent as one object, the recording\'s body shape', async () => {
    const recorded = JSON.parse(readFileSync(new URL('../fixtures/recorded/merchants_products_validate_batch_payload.json', import.meta.url), 'utf8'));
    expect(new URL(recorded.request.url).pathname).toBe('/merchants/products/batch/validations');
    const calls = capture(VALIDATE, () => HttpResponse.json(recorded.response.body));
    const single = { product_id: 'ABC123', quantity: 10, enabled: true, price: 2999 };
    await expect(client.products.validateBatch(single)).resolves.toMatchObject({ message: 'All validations passed successfully.' });
    expect(calls[0]?.body).toEqual({ data: single });
    await expect(client.products.validateBatch({ ...single, price: -1 })).rejects.toMatchObject({ issues: [{ path: [0, 'price'] }] });
    expect(calls).toHaveLength(1);
  });

  it.each([{ success: true }, { success: true, message: null }])('tolerates an answer without a message: %j', async (answer) => {
    capture(VALIDATE, () => HttpResponse.json(answer));
    await expect(client.products.validateBatch([update(1)])).resolves.toMatchObject({ success: true, message: '' });
  });

  it('refuses what batchUpdate refuses, nothing sent', async () => {
    const calls = capture(VALIDATE);
    await expect(client.products.validateBatch(Array.from({ length: 501 }, (_, i) => update(i)))).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.products.validateBatch([{ ...update(1), price: -5 }])).rejects.toMatchObject({ issues: [{ path: [0, 'price'] }] });
    expect(calls).toHaveLength(0);
  });

  it('maps a 400 invalid_format answer', async () => {
    capture(VALIDATE, () => HttpResponse.json(errorBody('invalid_format', "Product X: Field 'price' has invalid type"), { status: 400 }));
    await expect(client.products.validateBatch([update('X')])).rejects.toMatchObject({ name: 'BadRequestError', code: 'invalid_format' });
  });
});
