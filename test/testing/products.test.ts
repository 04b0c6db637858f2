/**
 * The Products API of the mock: document 1's exact 400/422 bodies, the 500 limit, shop state,
 * and the inventory a test can assert on.
 */
import { MarketplaceClient, NotFoundError } from 'emporio';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { mswHandlers } from 'emporio/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { laterRecording } from '../helpers/later-recordings.js';
import { jsonHeaders } from './helpers.js';

let mock: MockMarketplace;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  mock = createMockMarketplace();
  server.resetHandlers(...mswHandlers(mock));
});
afterEach(() => mock.close());

const send = (path: 'batch' | 'batch/validations' | 'validate_batch_payload', body: unknown, token = 'test-products-token') =>
  fetch(`https://api.marketplace.test/merchants/products/${path}`, {
    method: 'POST',
    headers: jsonHeaders(token),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const wire = (status: number, code: string, ...messages: string[]) => ({ status, body: { errors: [{ code, messages }] } });
const errorOf = async (response: Response) => ({ status: response.status, body: await response.json() });

const update = (id: string, price = 1999) => ({ product_id: id, quantity: 3, enabled: true, price });

describe('batch', () => {
  it('applies updates and their variations to the inventory', async () => {
    const answer = await send('batch', {
      data: [
        update('ABC123', 2999),
        {
          ...update('DEF456', 4999),
          variations: [{ variation_id: 'DEF456-S', quantity: 3, enabled: true, price: 4999 }],
        },
      ],
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect(mock.inventory.get('ABC123')).toEqual({ product_id: 'ABC123', quantity: 3, enabled: true, price: 2999, updates: 1 });
    await send('batch', {
      data: [{ ...update('DEF456', 5999), variations: [{ variation_id: 'DEF456-L', quantity: 1, enabled: false, price: 5499 }] }],
    });
    expect(mock.inventory.get('DEF456')).toMatchObject({
      price: 5999,
      updates: 2,
      variations: [
        { variation_id: 'DEF456-S', quantity: 3, enabled: true, price: 4999 },
        { variation_id: 'DEF456-L', quantity: 1, enabled: false, price: 5499 },
      ],
    });
    expect(mock.products.batches).toEqual([
      { validateOnly: false, size: 2, status: 200, id: expect.any(String) },
      { validateOnly: false, size: 1, status: 200, id: expect.any(String) },
    ]);
  });

  it('answers invalid_format when data is not an array', async () => {
    expect(await errorOf(await send('batch', { data: update('A') }))).toEqual(
      wire(400, 'invalid_format', 'Expected an array of product updates.'),
    );
    expect(await errorOf(await send('batch', {}))).toEqual(wire(400, 'invalid_format', 'Expected an array of product updates.'));
  });

  it('lists every missing field and wrong type with the spec messages, and applies nothing', async () => {
    const answer = await send('batch', {
      data: [
        update('OK-1'),
        { quantity: 1, enabled: true, price: 1 },
        { product_id: 'P2', enabled: true, price: 1 },
        { product_id: 'P3', quantity: 1, enabled: 'yes', price: 10.5 },
        { ...update('P4'), variations: [{ variation_id: 'V1', quantity: 1, enabled: 'no', price: 1 }] },
      ],
    });
    expect(await errorOf(answer)).toEqual(
      wire(
        400,
        'invalid_format',
        "Missing required field 'product_id'",
        "Product P2: Missing required field 'quantity'",
        "Product P3: Field 'enabled' has invalid type",
        "Product P3: Field 'price' has invalid type",
        "Variation V1: Field 'enabled' has invalid type",
      ),
    );
    expect(mock.inventory.size).toBe(0); // all of a batch or none of it
  });

  it('refuses 501 updates with invalid_batch_size and takes exactly 500', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => update(`P${i}`));
    expect(await errorOf(await send('batch', { data: many(501) }))).toEqual(
      wire(400, 'invalid_batch_size', 'Batch size exceeds the maximum limit of 500.'),
    );
    expect(mock.inventory.size).toBe(0);
    expect((await send('batch', { data: many(500) })).status).toBe(200);
    expect(mock.inventory.size).toBe(500);
  });

  it('answers invalid_shop_state with both messages, and for the next N requests only when asked', async () => {
    mock.products.setShopState('invalid');
    expect(await errorOf(await send('batch', { data: [update('A')] }))).toEqual(
      wire(422, 'invalid_shop_state', 'Shop is not in a valid state to perform this action.'),
    );
    mock.products.setShopState('scanning_xml', { requests: 2 });
    for (let i = 0; i < 2; i++) {
      expect(await errorOf(await send('batch', { data: [update('A')] }))).toEqual(
        wire(422, 'invalid_shop_state', 'We are currently scanning your XML. Please try again later.'),
      );
    }
    expect((await send('batch', { data: [update('A')] })).status).toBe(200);
    expect(mock.products.shopState).toBe('ok');
    expect(mock.inventory.get('A')?.updates).toBe(1);
  });

  it('takes the products token only', async () => {
    const answer = await send('batch', { data: [update('A')] }, 'test-orders-token');
    expect(answer.status).toBe(401);
  });
});

describe('batch/validations', () => {
  it('validates without changing anything, accepting the documented single-object sample too', async () => {
    const many = await send('batch/validations', { data: [update('A'), update('B')] });
    expect(await many.json()).toEqual({ success: true, message: 'All validations passed successfully.' });
    const single = await send('batch/validations', { data: update('ABC123') });
    expect(single.status).toBe(200);
    expect(mock.inventory.size).toBe(0);
    // The old path is gone on the real service, and so in the kit.
    expect((await send('validate_batch_payload', { data: [update('A')] })).status).toBe(404);
  });

  it('answers the same error bodies as batch', async () => {
    expect(await errorOf(await send('batch/validations', { data: [{ product_id: 'X', quantity: 1, enabled: true }] }))).toEqual(
      wire(400, 'invalid_format', "Product X: Missing required field 'price'"),
    );
    mock.products.setShopState('scanning_xml');
    expect((await send('batch/validations', { data: [update('A')] })).status).toBe(422);
  });
});

describe('batch results (asynchronous, since 2026-09)', () => {
  const client = () =>
    new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, tokens: { products: mock.tokens.products }, fetch: mock.fetch, maxRetries: 0 });

  it('takes the recorded batch at once with an id; results show after the delay, in the recorded shape', async () => {
    const recording = laterRecording('merchants_products_batch_with_id');
    const data = (recording.request.params as { data: never[] }).data;
    const products = client().products;
    const taken = await products.batchUpdate(data);
    expect(taken).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const id = taken.id as string;

    const pending = await products.batchStatus(id);
    expect(pending.status).toBe('in_progress');
    expect(pending.results?.map((r) => [r.product_id, r.status, r.executed_at])).toEqual([
      ['ABC123', 'in_progress', null],
      ['DEF456', 'in_progress', null],
    ]);

    mock.clock.advance(1_000);
    const done = await products.batchStatus(id);
    // The recorded status's members, member for member.
    const recorded = laterRecording('merchants_products_batch_status').response.body as { results: Record<string, unknown>[] };
    expect(Object.keys(done).sort()).toEqual(Object.keys(recorded).sort());
    expect(Object.keys(done.results?.[1] ?? {}).sort()).toEqual(Object.keys(recorded.results[0] ?? {}).sort());
    expect(done.status).toBe('completed');
    expect(done.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[23]:00$/);
    expect(done.results?.[1]).toMatchObject({ product_id: 'DEF456', status: 'success', message: null, executed_at: expect.any(String) });
    expect(done.results?.[1]?.variations?.map((v) => [v.variation_id, v.status])).toEqual([
      ['DEF456-SMALL', 'success'],
      ['DEF456-LARGE', 'success'],
    ]);
  });

  it('reports no_change for values already set, failure for an id the catalogue lacks (nothing applied for it)', async () => {
    mock.products.setBatchDelay(0);
    mock.products.setCatalogue(['KNOWN', 'SAME']);
    const products = client().products;
    await products.batchUpdate([update('SAME')]);
    const { id } = await products.batchUpdate([update('KNOWN'), update('SAME'), update('STRANGER')]);
    const status = await products.waitForBatch(id as string, { intervalMs: 100 });
    expect(status.results?.map((r) => [r.product_id, r.status, r.message])).toEqual([
      ['KNOWN', 'success', null],
      ['SAME', 'no_change', null],
      ['STRANGER', 'failure', 'Product not found in the shop catalogue'],
    ]);
    expect(mock.inventory.has('STRANGER')).toBe(false);
  });

  it('updateMany with awaitResults waits for the delay and reports each product by its result', async () => {
    mock.products.setBatchDelay(30);
    const report = await client().products.updateMany([update('A'), update('UNKNOWN-1')], { awaitResults: true, waitOptions: { intervalMs: 100 } });
    expect(report.batches).toHaveLength(1);
    expect(report.applied).toEqual(['A']);
    expect(report.failed.map((f) => [f.product_id, f.error.message])).toEqual([['UNKNOWN-1', 'Product not found in the shop catalogue']]);
  });

  it('an unknown batch id is the documented 404', async () => {
    const error = await client().products.batchStatus('unknown-batch-id').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).errors).toEqual(
      (laterRecording('products_batch_status_not_found').response.body as { errors: unknown }).errors,
    );
  });
});
