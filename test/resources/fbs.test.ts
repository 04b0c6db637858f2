/**
 * client.fbs (spec/4 section 6): every endpoint against its recording (msw answers the recorded
 * body; the request is checked against the recorded one), the strict request checks, and the kit.
 */
import { readFileSync } from 'node:fs';
import { RequestValidationError, ResponseValidationError } from 'emporio';
import { createMockMarketplace } from 'emporio/testing';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server.js';
import { capture } from './catalog/helpers.js';

const server = useMswServer();
const FBS = `${BASE}/merchants/ecommerce/fbs`;

interface Recording {
  request: { method: string; url: string; params: Record<string, unknown> | null };
  response: { status: number; body: Record<string, unknown> };
}
const recording = (name: string): Recording =>
  JSON.parse(readFileSync(new URL(`../fixtures/recorded/${name}.json`, import.meta.url), 'utf8'));
/** The recordings write body keys as `:name`. */
const unprefix = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(unprefix)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key.replace(/^:/, ''), unprefix(v)]))
      : value;
const answerWith = (rec: Recording) => () => HttpResponse.json(rec.response.body, { status: rec.response.status });

describe('client.fbs against the recordings', () => {
  it('products.list: the warehouse stock, one page, with the orders token and version 3.0', async () => {
    const rec = recording('merchants_fbs_products_index');
    const seen = capture(server, 'get', `${FBS}/products`, answerWith(rec));
    const page = await makeClient().fbs.products.list();
    expect(page.items).toEqual(rec.response.body.products);
    expect(page.pagination).toEqual({ total_results: 2, total_pages: 1, page: 1, per: 100 });
    expect(page.hasNextPage()).toBe(false);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]?.headers.get('accept')).toBe('application/vnd.marketplace+json; version=3.0');
  });

  it('products.list follows meta.pagination to the next page', async () => {
    const seen = capture(server, 'get', `${FBS}/products`, (request) =>
      HttpResponse.json({
        products: [{ id: Number(request.url.searchParams.get('page') ?? 1), shop_uid: 'x', active: true, quantity: 1 }],
        meta: { pagination: { total_results: 2, total_pages: 2, page: Number(request.url.searchParams.get('page') ?? 1), per: 1 } },
      }),
    );
    const ids: unknown[] = [];
    for await (const product of makeClient().fbs.products.list({ per: 1 })) ids.push(product.id);
    expect(ids).toEqual([1, 2]);
    expect(seen.map((s) => s.url.search)).toEqual(['?per=1', '?per=1&page=2']);
  });

  it('purchaseOrders.list', async () => {
    const rec = recording('merchants_fbs_purchase_orders_index');
    capture(server, 'get', `${FBS}/purchase_orders`, answerWith(rec));
    const page = await makeClient().fbs.purchaseOrders.list();
    expect(page.items).toEqual(rec.response.body.purchase_orders);
  });

  it('purchaseOrders.create sends the recorded body and resolves { success, code }', async () => {
    const rec = recording('merchants_fbs_purchase_orders_create');
    const seen = capture(server, 'post', `${FBS}/purchase_orders`, answerWith(rec));
    const created = await makeClient().fbs.purchaseOrders.create(unprefix(rec.request.params) as never);
    expect(created).toEqual({ success: true, code: '220623-4078-5820' });
    expect(seen[0]?.body).toEqual(unprefix(rec.request.params));
  });

  it('purchaseOrders.lineItems reads the recording’s purchase_order_line_items (and the spec’s line_items)', async () => {
    const rec = recording('merchants_fbs_purchase_orders_show');
    capture(server, 'get', `${FBS}/purchase_orders/123456-1234-1234/line_items`, answerWith(rec));
    const items = await makeClient().fbs.purchaseOrders.lineItems('123456-1234-1234');
    expect(items).toEqual(rec.response.body.purchase_order_line_items);

    const spec = [{ product_id: 1, shop_uid: '1', active: true, expected_quantity: 2, actual_quantity: null }];
    capture(server, 'get', `${FBS}/purchase_orders/X-1/line_items`, () => HttpResponse.json({ line_items: spec }));
    expect(await makeClient().fbs.purchaseOrders.lineItems('X-1')).toEqual(spec);
  });

  it('purchaseOrders.lineItems refuses an answer with neither root key (a missing root key is not drift)', async () => {
    capture(server, 'get', `${FBS}/purchase_orders/X-2/line_items`, () => HttpResponse.json({ items: [] }, { headers: { 'x-request-id': 'req-9' } }));
    const error = await makeClient({ maxRetries: 0 }).fbs.purchaseOrders.lineItems('X-2').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, requestId: 'req-9' });
    expect((error as Error).message).toContain('purchase_order_line_items');
  });

  it('suppliers.list, create and update (only the given fields, to the supplier’s path)', async () => {
    const index = recording('merchants_fbs_suppliers_index');
    capture(server, 'get', `${FBS}/suppliers`, answerWith(index));
    expect(await makeClient().fbs.suppliers.list()).toEqual(index.response.body.suppliers);

    const create = recording('merchants_fbs_suppliers_create');
    const created = capture(server, 'post', `${FBS}/suppliers`, answerWith(create));
    expect(await makeClient().fbs.suppliers.create(unprefix(create.request.params) as never)).toEqual({ success: true });
    expect(created[0]?.body).toEqual(unprefix(create.request.params));

    const update = recording('merchants_fbs_suppliers_update');
    const updated = capture(server, 'patch', `${FBS}/suppliers/abcdefghi`, answerWith(update));
    const changes = unprefix(update.request.params) as { address: string; email: string };
    expect(await makeClient().fbs.suppliers.update('abcdefghi', changes)).toEqual({ success: true });
    expect(updated[0]?.body).toEqual({ address: 'Another Address', email: 'newmail@newmail.gr' });
  });
});

describe('client.fbs request checks (nothing sent)', () => {
  const line = { product_uid: '52781', expected_quantity: 9, keep_serial_numbers: true, has_expiration_date: false, storage_conditions: 1 as const };
  const order = { expected_date: '2026-12-01', supplier_id: 'abcdefghi', line_items: [line] };

  it.each([
    [{ ...order, expected_date: '2026-02-30' }, 'expected_date'],
    [{ ...order, expected_date: '2026-2-3' }, 'expected_date'],
    [{ ...order, expected_date: '2026-12-01T00:00:00Z' }, 'expected_date'],
    [{ ...order, supplier_id: '' }, 'supplier_id'],
    [{ ...order, line_items: [] }, 'line_items'],
    [{ ...order, line_items: [{ ...line, expected_quantity: 0 }] }, 'expected_quantity'],
    [{ ...order, line_items: [{ ...line, expected_quantity: 1.5 }] }, 'expected_quantity'],
    [{ ...order, line_items: [{ ...line, storage_conditions: 4 }] }, 'storage_conditions'],
    [{ ...order, line_items: [{ ...line, product_uid: '' }] }, 'product_uid'],
    [{ ...order, line_items: [{ ...line, extra: 1 }] }, 'extra'],
  ])('purchaseOrders.create refuses %j', async (input, field) => {
    const error = await makeClient().fbs.purchaseOrders.create(input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(field);
  });

  it('refuses empty or blank supplier fields, an empty change set and unknown fields', async () => {
    const fbs = makeClient().fbs;
    await expect(fbs.suppliers.create({ name: '' })).rejects.toThrow(/name/);
    await expect(fbs.suppliers.create({ name: '  ' })).rejects.toThrow(/name/);
    await expect(fbs.suppliers.create({ name: 'A', city: '' })).rejects.toThrow(/city/);
    await expect(fbs.suppliers.update('abc', {})).rejects.toThrow(/at least one field/);
    await expect(fbs.suppliers.update('abc', { name: undefined })).rejects.toThrow(/at least one field/);
    await expect(fbs.suppliers.update('abc', { id: 'x' } as never)).rejects.toThrow(/unknown field: id/);
    await expect(fbs.suppliers.update('', { name: 'x' })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(fbs.products.list({ per: 0 })).rejects.toBeInstanceOf(RequestValidationError);
  });
});

describe('client.fbs against the kit', () => {
  // The kit's own fetch: no sockets, so this file's msw server sees nothing.
  const running = { mock: createMockMarketplace() };
  const client = () => makeClient({ baseUrl: running.mock.baseUrl, fetch: running.mock.fetch, token: undefined, tokens: { orders: running.mock.tokens.orders } });

  it('a received purchase order adds to the stock; line items show what was counted', async () => {
    const { mock } = running;
    const fbs = client().fbs;
    const [supplier] = await fbs.suppliers.list();
    const before = (await fbs.products.list()).items.find((p) => p.shop_uid === '254');
    expect(before?.quantity).toBe(0);

    const { code } = await fbs.purchaseOrders.create({
      expected_date: '2026-12-01',
      supplier_id: supplier?.id as string,
      line_items: [
        { product_uid: '254', expected_quantity: 10, keep_serial_numbers: false, has_expiration_date: false, storage_conditions: 0 },
        { product_uid: 'NEW-1', expected_quantity: 3, keep_serial_numbers: true, has_expiration_date: true, storage_conditions: 2 },
      ],
    });
    if (!code) throw new Error('the mock answers with a code');
    expect((await fbs.purchaseOrders.list()).items.find((po) => po.code === code)?.received_at).toBeNull();
    expect((await fbs.purchaseOrders.lineItems(code)).map((l) => l.actual_quantity)).toEqual([null, null]);

    mock.fbs.receive(code, { quantities: { 254: 9 } });
    const stock = (await fbs.products.list()).items;
    expect(stock.find((p) => p.shop_uid === '254')?.quantity).toBe(9);
    expect(stock.find((p) => p.shop_uid === 'NEW-1')?.quantity).toBe(3);
    expect((await fbs.purchaseOrders.lineItems(code)).map((l) => [l.shop_uid, l.expected_quantity, l.actual_quantity])).toEqual([
      ['254', 10, 9],
      ['NEW-1', 3, 3],
    ]);
    expect((await fbs.purchaseOrders.list()).items.find((po) => po.code === code)?.received_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('lineItems and suppliers.list read every page (the kit pages by 100, as the recordings do)', async () => {
    const { mock } = running;
    const fbs = client().fbs;
    for (let n = 0; n < 100; n++) await fbs.suppliers.create({ name: `Supplier ${n}` });
    const suppliers = await fbs.suppliers.list();
    expect(suppliers.length).toBe(mock.fbs.suppliers().length);
    expect(suppliers.length).toBeGreaterThan(100);
    const line_items = Array.from({ length: 130 }, (_, n) => ({
      product_uid: `P-${n}`,
      expected_quantity: n + 1,
      keep_serial_numbers: false,
      has_expiration_date: false,
      storage_conditions: 0 as const,
    }));
    const { code } = await fbs.purchaseOrders.create({ expected_date: '2026-12-01', supplier_id: 'abcdefghi', line_items });
    const { data, response } = await fbs.purchaseOrders.lineItems(code ?? '').withResponse();
    expect(data.map((l) => l.shop_uid)).toEqual(line_items.map((l) => l.product_uid));
    // The last page's answer: 100 on the first.
    expect(response.url).toContain('page=2');
    expect(response.url).toContain('per=100');
  });

  it('an unknown purchase order is 404 purchase_order_error; an unknown supplier is refused', async () => {
    const fbs = client().fbs;
    await expect(fbs.purchaseOrders.lineItems('000000-0000-0000')).rejects.toMatchObject({ status: 404, code: 'purchase_order_error' });
    await expect(
      fbs.purchaseOrders.create({
        expected_date: '2026-12-01',
        supplier_id: 'nobody',
        line_items: [{ product_uid: '1', expected_quantity: 1, keep_serial_numbers: false, has_expiration_date: false, storage_conditions: 0 }],
      }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('suppliers: create, then update only some fields', async () => {
    const fbs = client().fbs;
    await fbs.suppliers.create({ id: 'sup-2', name: 'Second', city: 'Λάρισα', email: 'a@b.gr' });
    await fbs.suppliers.update('sup-2', { email: 'new@b.gr' });
    const supplier = (await fbs.suppliers.list()).find((s) => s.id === 'sup-2');
    expect(supplier).toMatchObject({ name: 'Second', city: 'Λάρισα', email: 'new@b.gr', phone: null });
    await expect(fbs.suppliers.update('nobody', { name: 'x' })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses another token: FBS takes the orders token', async () => {
    const other = makeClient({ baseUrl: running.mock.baseUrl, fetch: running.mock.fetch, token: running.mock.tokens.products });
    await expect(other.fbs.products.list()).rejects.toMatchObject({ status: 401 });
  });
});
