/**
 * Drift, not failure: answers pass as sent unless the SDK cannot use them; a member of
 * another type than documented is reported once per schema path per client.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type DriftReport, MarketplaceClient, ResponseValidationError } from 'emporio';
import { BASE, makeClient, recordingLogger, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();
const ORDER_URL = `${BASE}/merchants/ecommerce/orders/:code`;

function answerOrder(order: unknown): void {
  server.use(http.get(ORDER_URL, () => HttpResponse.json({ order })));
}
const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('resolved'), (e: unknown) => e);

function watched(extra: Parameters<typeof makeClient>[0] = {}) {
  const reports: DriftReport[] = [];
  const client = makeClient({ maxRetries: 0, cache: false, hooks: { onDrift: (report) => reports.push(report) }, ...extra });
  return { client, reports };
}

describe('orders.get: drift passes as sent', () => {
  it('custom as a string (the 2026 change) resolves with the string, reported once per client', async () => {
    const { client, reports } = watched();
    answerOrder({ code: '123456-1', state: 'open', custom: '[GIFT-WRAP]', line_items: [{ id: 'a', quantity: '2' }, { id: 'b', quantity: 1 }] });
    const order = await client.orders.get('123456-1');
    expect(order.custom).toBe('[GIFT-WRAP]');
    expect(order.line_items?.[0]?.quantity).toBe('2');
    expect(order.code).toBe('123456-1');
    expect(reports).toEqual([
      { api: 'orders', method: 'GET', url: `${BASE}/merchants/ecommerce/orders/123456-1`, path: '$.order.line_items[].quantity', expected: 'number', received: 'string' },
    ]);
    // custom is typed as a string or a list today, so only the quantity drifted.
    await client.orders.get('123456-1');
    await client.orders.get('999999-1');
    expect(reports).toHaveLength(1);
    // Another client reports again.
    const other = watched();
    await other.client.orders.get('123456-1');
    expect(other.reports).toHaveLength(1);
  });

  it('the same path drifting in two APIs (an Orders and a CPS order) is reported for each', async () => {
    const { client, reports } = watched({ tokens: { orders: TOKEN, cps: TOKEN } });
    const order = { code: 'A-1', line_items: [{ id: 'a', quantity: '2' }] };
    answerOrder(order);
    server.use(http.get(`${BASE}/merchants/cps/orders/:code`, () => HttpResponse.json({ order })));
    await client.orders.get('A-1');
    await client.cps.get('A-1');
    await client.cps.get('A-1');
    expect(reports.map((r) => [r.api, r.path])).toEqual([
      ['orders', '$.order.line_items[].quantity'],
      ['cps', '$.order.line_items[].quantity'],
    ]);
  });

  it('an empty answer where an object is due is refused, saying it is empty', async () => {
    const client = makeClient({ maxRetries: 0, cache: false });
    server.use(http.get(ORDER_URL, () => new HttpResponse(null, { status: 200 })));
    const error = await failure(client.orders.get('A'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('the answer is empty');
    expect((error as Error).message).not.toContain('undefined');
  });

  it('nested ids may be absent or of another type; the order still resolves', async () => {
    const { client, reports } = watched();
    answerOrder({ code: 'A', customer: { id: 77, first_name: 'Ν' }, line_items: [{ quantity: 1 }] });
    const order = await client.orders.get('A');
    expect(order.customer?.id).toBe(77);
    expect(reports.map((r) => r.path)).toEqual(['$.order.customer.id']);
  });

  it('without the hook, drift goes to logger.warn once per path, with no value in the line', async () => {
    const { lines, logger } = recordingLogger();
    const client = makeClient({ maxRetries: 0, cache: false, logger });
    answerOrder({ code: 'A', comments: 12345678, fees: [] });
    await client.orders.get('A');
    await client.orders.get('A');
    const warnings = lines.filter((line) => line.includes('drifted'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('$.order.comments: expected string, received number');
    expect(warnings[1]).toContain('$.order.fees: expected object, received array');
    expect(lines.join('\n')).not.toContain('12345678');
  });

  it('strict: true refuses drift with ResponseValidationError naming the member', async () => {
    const { client, reports } = watched({ strict: true });
    answerOrder({ code: 'A', custom: 5 });
    const error = (await failure(client.orders.get('A'))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues).toEqual([{ path: ['order', 'custom'], message: 'expected string | array, received number' }]);
    expect(reports).toEqual([]);
  });

  it('refused when the SDK cannot use the answer: root key missing or of another kind, code missing or not a string', async () => {
    const { client, reports } = watched();
    for (const [body, path] of [
      [{ success: true }, ['order']],
      [{ order: [{ code: 'A' }] }, ['order']],
      [{ order: 'A' }, ['order']],
      [{ order: { state: 'open' } }, ['order', 'code']],
      [{ order: { code: 12 } }, ['order', 'code']],
      [['A'], []],
    ] as const) {
      server.use(http.get(ORDER_URL, () => HttpResponse.json(body)));
      const error = (await failure(client.orders.get('A'))) as ResponseValidationError;
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.issues[0]?.path).toEqual(path);
    }
    expect(reports).toEqual([]);
  });

  it('unknown fields and unknown enum values are not drift', async () => {
    const { client, reports } = watched();
    answerOrder({ code: 'A', state: 'on_hold', payment_method: 'crypto', courier: 'Nova', brand_new: { x: 1 } });
    const order = await client.orders.get('A');
    expect(order.state).toBe('on_hold');
    expect((order as unknown as Record<string, unknown>).brand_new).toEqual({ x: 1 });
    expect(reports).toEqual([]);
  });

  it('a hook that throws does not change the outcome', async () => {
    const client = makeClient({
      maxRetries: 0,
      hooks: {
        onDrift() {
          throw new Error('metrics down');
        },
      },
    });
    answerOrder({ code: 'A', comments: 1 });
    expect((await client.orders.get('A')).comments).toBe(1);
  });
});

describe('every answer schema follows the rule', () => {
  it('catalog: a SKU without its own id is refused; a drifted member passes', async () => {
    const { client, reports } = watched();
    server.use(http.get(`${BASE}/skus/:id`, () => HttpResponse.json({ sku: { id: 1, name: 42, images: 'x' } })));
    const sku = await client.catalog.skus.get(1);
    expect(sku.name).toBe(42);
    expect(reports.map((r) => [r.api, r.path, r.expected, r.received])).toEqual([
      ['catalog', '$.sku.name', 'string', 'number'],
      ['catalog', '$.sku.images', 'object', 'string'],
    ]);
    server.use(http.get(`${BASE}/skus/:id`, () => HttpResponse.json({ sku: { id: '1' } })));
    const error = (await failure(client.catalog.skus.get(1))) as ResponseValidationError;
    expect(error.issues[0]?.path).toEqual(['sku', 'id']);
  });

  it('a list: an item without its id is refused, drift inside items is reported once', async () => {
    const { client, reports } = watched();
    const skus = [
      { id: 1, price_min: '9.90' },
      { id: 2, price_min: '1.00' },
    ];
    server.use(http.get(`${BASE}/categories/:id/skus`, () => HttpResponse.json({ skus, meta: { pagination: { page: '1' } } })));
    const page = await client.catalog.categories.skus(40);
    expect(page.items.map((sku) => sku.price_min)).toEqual(['9.90', '1.00']);
    expect(reports.map((r) => r.path)).toEqual(['$.skus[].price_min', '$.meta.pagination.page']);
  });

  it('the report url is redacted like an error url (legacy v2 keeps its token in the query)', async () => {
    const reports: DriftReport[] = [];
    const client = new MarketplaceClient({
      baseUrl: BASE,
      vendor: 'marketplace',
      legacyBaseUrl: 'https://legacy.marketplace.test',
      tokens: { legacyV2: 'legacy-secret-token', orders: TOKEN },
      maxRetries: 0,
      hooks: { onDrift: (report) => reports.push(report) },
    });
    server.use(
      http.get('https://legacy.marketplace.test/json/*', () =>
        HttpResponse.json({ type: 'sku', result: { sku: 'gone' }, error: null }),
      ),
    );
    expect(await client.legacyV2.sku(1)).toEqual({ sku: 'gone' });
    expect(JSON.stringify(reports)).not.toContain('legacy-secret-token');
    expect(reports).toEqual([
      {
        api: 'legacyV2',
        method: 'GET',
        url: 'https://legacy.marketplace.test/json/sku/1/?access_token=%5Bredacted%5D',
        path: '$.result.sku',
        expected: 'object',
        received: 'string',
      },
    ]);
  });
});

describe('options', () => {
  it('strict must be a boolean; hooks.onDrift a function', () => {
    expect(() => makeClient({ strict: 'yes' as never })).toThrow(/`strict` must be true or false/);
    expect(() => makeClient({ hooks: { onDrift: 1 as never } })).toThrow(/`hooks.onDrift` must be a function/);
    expect(() => makeClient({ hooks: { onDrift() {} }, strict: false })).not.toThrow();
  });
});
