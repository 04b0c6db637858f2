/**
 * What feeding the service's documented answers through the SDK found: a purchase order made
 * without a code in the answer, a foreign purchase order taken for a bad key, and a 200 that
 * carries the error form.
 */
import {
  ApiError,
  AuthenticationError,
  type DriftReport,
  NotFoundError,
  PermissionDeniedError,
  ResponseValidationError,
} from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const FBS = `${BASE}/merchants/ecommerce/fbs`;
const ORDERS = `${BASE}/merchants/ecommerce/orders`;
const purchaseOrder = {
  expected_date: '2026-12-01',
  supplier_id: 'abcdefghi',
  line_items: [{ product_uid: '79', expected_quantity: 20, keep_serial_numbers: false, has_expiration_date: false, storage_conditions: 0 as const }],
};

describe('a purchase order created without a code in the answer (documented 2022-09 to 2024-09)', () => {
  it('resolves with code absent and reports the drift, once, without values', async () => {
    let posts = 0;
    server.use(
      http.post(`${FBS}/purchase_orders`, () => {
        posts++;
        return HttpResponse.json({ success: true });
      }),
    );
    const reports: DriftReport[] = [];
    const client = makeClient({ hooks: { onDrift: (r) => reports.push(r) } });
    const created = await client.fbs.purchaseOrders.create(purchaseOrder);
    expect(created).toEqual({ success: true });
    expect(created.code).toBeUndefined();
    expect(reports).toEqual([
      { api: 'orders', method: 'POST', url: `${FBS}/purchase_orders`, path: '$.code', expected: 'string', received: 'undefined' },
    ]);
    expect(posts).toBe(1);
  });

  it('strict mode refuses it, as it refuses any drift', async () => {
    server.use(http.post(`${FBS}/purchase_orders`, () => HttpResponse.json({ success: true })));
    await expect(makeClient({ strict: true }).fbs.purchaseOrders.create(purchaseOrder)).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('the documented answer with a code still resolves with no drift', async () => {
    server.use(http.post(`${FBS}/purchase_orders`, () => HttpResponse.json({ success: true, code: '220623-4078-5820' })));
    const reports: DriftReport[] = [];
    const created = await makeClient({ hooks: { onDrift: (r) => reports.push(r) } }).fbs.purchaseOrders.create(purchaseOrder);
    expect(created.code).toBe('220623-4078-5820');
    expect(reports).toEqual([]);
  });
});

describe('FBS 401 purchase_order_error (a purchase order of another shop)', () => {
  it('is not a key problem: a PermissionDeniedError that says what it is, with no advice to generate a key', async () => {
    server.use(
      http.get(`${FBS}/purchase_orders/:code/line_items`, () =>
        HttpResponse.json({ errors: [{ code: 'purchase_order_error', messages: ['Invalid purchase order'] }] }, { status: 401 }),
      ),
    );
    const error = await makeClient({ maxRetries: 0 }).fbs.purchaseOrders.lineItems('220623-4078-5820').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).code).toBe('purchase_order_error');
    const message = (error as Error).message;
    expect(message).toContain('Invalid purchase order');
    expect(message).toContain('belongs to another shop');
    expect(message).not.toMatch(/generate a new|key was refused/i);
    expect(message).not.toContain(TOKEN);
  });

  it('a 401 with another code is still the refused orders key', async () => {
    server.use(http.get(`${FBS}/purchase_orders/:code/line_items`, () => HttpResponse.json({ errors: [{ code: 'unauthorized', messages: ['Invalid token'] }] }, { status: 401 })));
    const error = await makeClient({ maxRetries: 0 }).fbs.purchaseOrders.lineItems('X').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).api).toBe('orders');
  });
});

describe('a 200 whose body is { errors: [...] }', () => {
  it('is the ApiError the body describes, with the service code and message (a read)', async () => {
    server.use(
      http.get(`${ORDERS}/260330-1`, () =>
        HttpResponse.json({ errors: [{ code: 'order_error', messages: ['Order not found'] }] }, { status: 200, headers: { 'X-Request-Id': 'rid-1' } }),
      ),
    );
    const error = await makeClient({ maxRetries: 2 }).orders.get('260330-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ResponseValidationError);
    expect((error as ApiError).status).toBe(200);
    expect((error as ApiError).code).toBe('order_error');
    expect((error as ApiError).errors).toEqual([{ code: 'order_error', messages: ['Order not found'] }]);
    expect((error as ApiError).requestId).toBe('rid-1');
    expect((error as Error).message).toContain('Order not found');
  });

  it('an action answered so rejects with it (not resolved as a success), sent once', async () => {
    let posts = 0;
    server.use(
      http.post(`${ORDERS}/260330-1/set_as_ready`, () => {
        posts++;
        return HttpResponse.json({ errors: [{ code: 'order_error', messages: ['Order is not eligible to be marked as ready'] }] });
      }),
    );
    const error = await makeClient().orders.setAsReady('260330-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('order_error');
    expect(posts).toBe(1);
  });

  it('a refused key in that form is the AuthenticationError, on every API alike', async () => {
    server.use(
      http.post(`${BASE}/merchants/products/batch`, () =>
        HttpResponse.json({ errors: [{ code: 'EcommerceMerchantUnauthorized', messages: ['Unauthorized'] }] }),
      ),
    );
    const error = await makeClient({ maxRetries: 0 }).products.batchUpdate([{ product_id: 'A', quantity: 1, enabled: true, price: 100 }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).api).toBe('products');
  });

  it('an empty errors list beside the order is not an error', async () => {
    server.use(http.get(`${ORDERS}/260330-2`, () => HttpResponse.json({ order: { code: '260330-2' }, errors: [] })));
    await expect(makeClient().orders.get('260330-2')).resolves.toMatchObject({ code: '260330-2' });
  });

  it('a real 404 stays a NotFoundError', async () => {
    server.use(http.get(`${ORDERS}/260330-3`, () => HttpResponse.json({ errors: [{ code: 'order_error', messages: ['Order not found'] }] }, { status: 404 })));
    await expect(makeClient({ maxRetries: 0 }).orders.get('260330-3')).rejects.toBeInstanceOf(NotFoundError);
  });
});
