/** One key per API (spec/4 section 9): a refused key is an AuthenticationError that names which key, never the token. */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, MarketplaceClient, PermissionDeniedError } from 'emporio';
import { createMockMarketplace } from 'emporio/testing';
import { BASE, makeClient, recordingLogger, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();
const LEGACY = 'https://legacy.marketplace.test';
const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('resolved'), (e: unknown) => e as Error);
const refusal = (status: number, code = 'unauthorized', message = 'Unauthorized') =>
  HttpResponse.json({ errors: [{ code, messages: [message] }] }, { status, headers: { 'x-request-id': 'req-key-1' } });

/** Everything an error shows: message, toString, stack and its own fields. */
const shown = (error: Error) => [error.message, String(error), error.stack ?? '', JSON.stringify({ ...error })].join('\n');

describe('AuthenticationError names the key', () => {
  it('a new Products API key, the old one still configured: products refused by name, orders fine (the kit)', async () => {
    const mock = createMockMarketplace();
    const oldProductsKey = 'old-products-key-1f2e';
    const { lines, logger } = recordingLogger();
    const client = new MarketplaceClient({
      baseUrl: mock.baseUrl,
      vendor: mock.vendor,
      fetch: mock.fetch,
      logger,
      tokens: { orders: mock.tokens.orders, products: oldProductsKey },
    });
    await expect(client.orders.get('DEMO-OPEN')).resolves.toMatchObject({ code: 'DEMO-OPEN' });
    const error = await failure(client.products.batchUpdate([{ product_id: 'A1', quantity: 1, enabled: true, price: 990 }]));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).api).toBe('products');
    expect(error.message).toMatch(/^the Products API key was refused: generate a new one in the merchant panel/);
    expect((error as AuthenticationError).requestId).toMatch(/^req-/);
    for (const text of [shown(error), ...lines]) {
      expect(text).not.toContain(oldProductsKey);
      expect(text).not.toContain(mock.tokens.orders);
    }
    // Not retried: one refused request, although the Products API's calls are retried on transient failures.
    expect(mock.requests.filter((r) => r.path === '/merchants/products/batch')).toHaveLength(1);
  });

  it.each([
    ['orders', (c: MarketplaceClient) => c.orders.get('A1'), 'the Orders API key was refused'],
    ['products', (c: MarketplaceClient) => c.products.validateBatch([{ product_id: 'A', quantity: 1, enabled: true, price: 1 }]), 'the Products API key was refused'],
    ['cps', (c: MarketplaceClient) => c.cps.get('1234567'), 'the CPS orders API key was refused'],
    ['catalog', (c: MarketplaceClient) => c.catalog.categories.get(1), 'the catalog API token was refused'],
    ['account', (c: MarketplaceClient) => c.account.user.get(), 'the account API user token was refused'],
    ['legacyV2', (c: MarketplaceClient) => c.legacyV2.sku(1), 'the legacy v2 access token was refused'],
  ] as const)('%s: api and message name the token the call used, the token itself is not shown', async (api, call, text) => {
    // The service echoes the bearer token back: the SDK still does not show it.
    const echo = ({ request }: { request: Request }) =>
      refusal(401, 'unauthorized', `bad token ${request.headers.get('authorization') ?? new URL(request.url).searchParams.get('access_token')}`);
    server.use(http.all(`${BASE}/*`, echo), http.all(`${LEGACY}/*`, echo));
    const error = await failure(call(makeClient({ legacyBaseUrl: LEGACY, tokens: { legacyV2: TOKEN } })));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).api).toBe(api);
    expect(error.message).toContain(text);
    expect(error.message).toContain('401 unauthorized');
    expect(shown(error)).not.toContain(TOKEN);
  });

  it.each([403, 500, 503, 429])('EcommerceMerchantUnauthorized at %i is an AuthenticationError, sent once', async (status) => {
    let sent = 0;
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/:code`, () => {
        sent++;
        return refusal(status, 'EcommerceMerchantUnauthorized', 'Merchant unauthorized');
      }),
    );
    const error = await failure(makeClient({ maxRetries: 2 }).orders.get('A1'));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).not.toBeInstanceOf(PermissionDeniedError);
    expect((error as AuthenticationError).api).toBe('orders');
    expect((error as AuthenticationError).status).toBe(status);
    expect((error as AuthenticationError).code).toBe('EcommerceMerchantUnauthorized');
    expect((error as AuthenticationError).requestId).toBe('req-key-1');
    expect(error.message).toContain('the Orders API key was refused');
    expect(sent).toBe(1);
  });

  it('a 403 with another code stays a PermissionDeniedError', async () => {
    server.use(http.get(`${BASE}/merchants/ecommerce/orders/:code`, () => refusal(403, 'forbidden', 'Not allowed')));
    const error = await failure(makeClient().orders.get('A1'));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
  });
});

describe('client.checkKeys()', () => {
  const kitClient = (mock: ReturnType<typeof createMockMarketplace>, tokens: Record<string, string>, logger?: ReturnType<typeof recordingLogger>['logger']) =>
    new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, fetch: mock.fetch, tokens, ...(logger ? { logger } : {}) });

  it('every key accepted: one read of DEMO-OPEN, one validation and one CPS read, nothing applied', async () => {
    const mock = createMockMarketplace();
    const client = kitClient(mock, { orders: mock.tokens.orders, products: mock.tokens.products, cps: mock.tokens.cps });
    const report = await client.checkKeys();
    const requestId = { ok: true, requestId: expect.stringMatching(/^req-/) };
    expect(report).toEqual({ orders: requestId, products: requestId, cps: requestId });
    expect(Object.keys(report)).toEqual(['orders', 'products', 'cps']);
    expect(mock.requests.map((r) => `${r.method} ${r.path} ${r.status}`).sort()).toEqual([
      'GET /merchants/cps/orders/DEMO-OPEN 404',
      'GET /merchants/ecommerce/orders/DEMO-OPEN 200',
      expect.stringMatching(/^POST \/merchants\/products\/(validate_batch_payload|batch\/validations) 200$/),
    ]);
    expect(mock.inventory.size).toBe(0);
    expect(mock.orders.get('DEMO-OPEN')?.state).toBe('open');
  });

  it('the products key replaced in the panel: products refused by name, orders ok; resolves, nothing retried', async () => {
    const mock = createMockMarketplace();
    const oldKey = 'expired-products-key-77aa';
    const { lines, logger } = recordingLogger();
    const report = await kitClient(mock, { orders: mock.tokens.orders, products: oldKey }, logger).checkKeys({ maxRetries: 2 });
    expect(report.orders).toEqual({ ok: true, requestId: expect.stringMatching(/^req-/) });
    expect(report.products?.ok).toBe(false);
    const error = (report.products as { ok: false; error: AuthenticationError }).error;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.api).toBe('products');
    expect(error.requestId).toMatch(/^req-/);
    expect(mock.requests.filter((r) => r.status === 401)).toHaveLength(1);
    for (const text of [shown(error), JSON.stringify(report), ...lines]) {
      expect(text).not.toContain(oldKey);
      expect(text).not.toContain(mock.tokens.orders);
    }
  });

  it('every key refused, or no answer at all: still resolves, each with its error', async () => {
    const mock = createMockMarketplace();
    const refused = await kitClient(mock, { orders: 'wrong-1', products: 'wrong-2', cps: 'wrong-3' }).checkKeys();
    expect([refused.orders?.ok, refused.products?.ok, refused.cps?.ok]).toEqual([false, false, false]);
    expect(Object.values(refused).map((check) => (check as { error: AuthenticationError }).error.api)).toEqual(['orders', 'products', 'cps']);
    server.use(http.all(`${BASE}/*`, () => HttpResponse.error()));
    const unreachable = await makeClient().checkKeys();
    expect(Object.keys(unreachable)).toEqual(['orders', 'products', 'cps']);
    for (const check of Object.values(unreachable)) expect(check).toMatchObject({ ok: false, error: { name: 'ConnectionError' } });
  });

  it('any answer but a refusal accepts the key (a 404); a 5xx tells nothing about it', async () => {
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/:code`, () => refusal(404, 'not_found', 'No such order')),
      http.post(`${BASE}/merchants/products/*`, () => refusal(503, 'unavailable', 'Down for maintenance')),
    );
    const report = await makeClient({ token: undefined, tokens: { orders: TOKEN, products: TOKEN } }).checkKeys();
    expect(Object.keys(report)).toEqual(['orders', 'products']);
    expect(report.orders).toEqual({ ok: true, requestId: 'req-key-1' });
    expect(report.products).toMatchObject({ ok: false, error: { status: 503 } });
  });

  it('an explicit maxRetries: undefined (an unset setting) still sends each probe once', async () => {
    let reads = 0;
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/:code`, () => {
        reads++;
        return refusal(503, 'unavailable', 'Down for maintenance');
      }),
    );
    const report = await makeClient({ token: undefined, tokens: { orders: TOKEN } }).checkKeys({ maxRetries: undefined });
    expect(report.orders).toMatchObject({ ok: false, error: { status: 503 } });
    expect(reads).toBe(1);
  });

  it('checks only the keys the client has', async () => {
    const mock = createMockMarketplace();
    const report = await kitClient(mock, { orders: mock.tokens.orders }).checkKeys();
    expect(Object.keys(report)).toEqual(['orders']);
  });

  it("rejects with the caller's abort reason", async () => {
    const mock = createMockMarketplace();
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(kitClient(mock, { orders: mock.tokens.orders, products: mock.tokens.products }).checkKeys({ signal: controller.signal })).rejects.toBe(reason);
  });
});
