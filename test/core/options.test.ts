import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MarketplaceClient, VERSION } from 'emporio';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();
const valid = { baseUrl: BASE, vendor: 'marketplace', token: TOKEN };

describe('constructor options', () => {
  it('without options, the error names MarketplaceClient.fromEnv() (and the options to pass instead)', () => {
    // @ts-expect-error the options are required
    expect(() => new MarketplaceClient()).toThrow(TypeError);
    // @ts-expect-error the options are required
    expect(() => new MarketplaceClient()).toThrow('MarketplaceClient: option `options` must be an object, or use MarketplaceClient.fromEnv()');
  });

  it.each([
    [{ ...valid, baseUrl: undefined }, 'baseUrl'],
    [{ ...valid, baseUrl: 'not a url' }, 'baseUrl'],
    [{ ...valid, baseUrl: 'http://api.marketplace.test' }, 'baseUrl'],
    [{ ...valid, baseUrl: 'ftp://api.marketplace.test' }, 'baseUrl'],
    [{ ...valid, vendor: '' }, 'vendor'],
    [{ ...valid, vendor: 'ex ample' }, 'vendor'],
    [{ baseUrl: BASE, vendor: 'marketplace' }, 'token'],
    [{ ...valid, token: '' }, 'token'],
    [{ ...valid, tokens: { catalgo: 'x' } }, 'tokens.catalgo'],
    [{ ...valid, apiVersion: '3' }, 'apiVersion'],
    [{ ...valid, apiVersion: 'v3.2' }, 'apiVersion'],
    [{ ...valid, legacyBaseUrl: 'http://legacy.example.gr' }, 'legacyBaseUrl'],
    [{ ...valid, timeout: 0 }, 'timeout'],
    [{ ...valid, maxRetries: -1 }, 'maxRetries'],
    [{ ...valid, maxRetries: 1.5 }, 'maxRetries'],
    [{ ...valid, fetch: 'fetch' }, 'fetch'],
    [{ ...valid, cache: {} }, 'cache'],
    [{ ...valid, rateLimit: { perMinute: 0 } }, 'rateLimit.perMinute'],
    [{ ...valid, rateLimit: { perHour: 5 } }, 'rateLimit.perHour'],
    [{ ...valid, logger: console.log }, 'logger'],
    [{ ...valid, baseURL: BASE }, 'baseURL'],
    [{ ...valid, allowHttp: 'yes' }, 'allowHttp'],
    [{ ...valid, userAgent: '' }, 'userAgent'],
    [{ ...valid, userAgent: 'myapp/1.2\r\nX-Injected: 1' }, 'userAgent'],
    [{ ...valid, userAgent: 'εφαρμογή/1' }, 'userAgent'],
    [{ ...valid, userAgent: ' myapp/1.2' }, 'userAgent'],
  ])('refuses %j naming %s', (options, name) => {
    expect(() => new MarketplaceClient(options as never)).toThrow(TypeError);
    expect(() => new MarketplaceClient(options as never)).toThrow(`\`${name}\``);
  });

  it('allows http only for loopback hosts', () => {
    for (const baseUrl of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010', 'http://127.8.0.1']) {
      expect(() => new MarketplaceClient({ ...valid, baseUrl })).not.toThrow();
    }
    expect(() => new MarketplaceClient({ ...valid, baseUrl: 'http://127.0.0.1.evil.test' })).toThrow(TypeError);
    expect(() => new MarketplaceClient({ ...valid, baseUrl: 'http://mock:4010' })).toThrow('allowHttp: true');
  });

  it('with allowHttp, calls a plain-http base on any host (a mock in a container network)', async () => {
    server.use(http.get('http://mock:4010/merchants/ecommerce/orders/:code', ({ params }) => HttpResponse.json({ order: { code: params.code } })));
    const client = new MarketplaceClient({ ...valid, baseUrl: 'http://mock:4010', legacyBaseUrl: 'http://legacy.mock:4020', allowHttp: true });
    expect((await client.orders.get('A')).code).toBe('A');
  });

  it('accepts per-namespace tokens without a default token', () => {
    expect(() => new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', tokens: { orders: 'x' } })).not.toThrow();
    expect(() => new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', tokens: { cps: 'x' } })).not.toThrow();
  });

  it('never puts the token in a constructor error', () => {
    try {
      new MarketplaceClient({ ...valid, timeout: -5 });
    } catch (error) {
      expect(String(error)).not.toContain(TOKEN);
    }
  });
});

describe('request headers', () => {
  it('sends version 3.0 to orders and the client apiVersion (patch dropped) to catalog', async () => {
    const seen: Record<string, string | null> = {};
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/:code`, ({ request }) => {
        seen.orders = request.headers.get('accept');
        seen.auth = request.headers.get('authorization');
        return HttpResponse.json({ order: { code: 'DEMO-OPEN' } });
      }),
      http.get(`${BASE}/categories/:id`, ({ request }) => {
        seen.catalog = request.headers.get('accept');
        return HttpResponse.json({ category: { id: 1 } });
      }),
    );
    const client = makeClient({ apiVersion: '3.1.7' });
    await client.orders.get('DEMO-OPEN');
    await client.catalog.categories.get(1);
    expect(seen.orders).toBe('application/vnd.marketplace+json; version=3.0');
    expect(seen.catalog).toBe('application/vnd.marketplace+json; version=3.1');
    expect(seen.auth).toBe(`Bearer ${TOKEN}`);
  });

  it('awaits a token function on every request, so tokens can refresh', async () => {
    const auths: (string | null)[] = [];
    server.use(
      http.get(`${BASE}/categories/:id`, ({ request }) => {
        auths.push(request.headers.get('authorization'));
        return HttpResponse.json({ category: { id: 1 } });
      }),
    );
    let n = 0;
    const client = makeClient({ token: undefined, tokens: { catalog: async () => `oauth-${++n}` }, cache: false });
    await client.catalog.categories.get(1);
    await client.catalog.categories.get(1);
    expect(auths).toEqual(['Bearer oauth-1', 'Bearer oauth-2']);
  });

  it('uses the per-namespace token over the default one', async () => {
    let auth: string | null = null;
    server.use(
      http.post(`${BASE}/merchants/products/batch`, ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ success: true });
      }),
    );
    await makeClient({ tokens: { products: 'products-token' } }).products.batchUpdate([
      { product_id: 'A1', quantity: 1, enabled: true, price: 100 },
    ]);
    expect(auth).toBe('Bearer products-token');
  });

  it('sends JSON bodies with the charset content type', async () => {
    let contentType: string | null = null;
    let body: unknown;
    server.use(
      http.post(`${BASE}/merchants/ecommerce/orders/:code/accept`, async ({ request }) => {
        contentType = request.headers.get('content-type');
        body = await request.json();
        return HttpResponse.json({ success: true });
      }),
    );
    await makeClient().orders.accept('DEMO-OPEN', { pickup_location: 'Y5jVmgKmeX', pickup_window: 2 });
    expect(contentType).toBe('application/json; charset=utf-8');
    expect(body).toEqual({ pickup_location: 'Y5jVmgKmeX', pickup_window: 2 });
  });

  it('merges per-request headers', async () => {
    let trace: string | null = null;
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/:code`, ({ request }) => {
        trace = request.headers.get('x-trace-id');
        return HttpResponse.json({ order: { code: 'A' } });
      }),
    );
    await makeClient().orders.get('A', { headers: { 'x-trace-id': 'abc' } });
    expect(trace).toBe('abc');
  });

  it("sends the SDK's User-Agent, followed by the caller's userAgent", async () => {
    const agents: (string | null)[] = [];
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/:code`, ({ request }) => {
        agents.push(request.headers.get('user-agent'));
        return HttpResponse.json({ order: { code: 'A' } });
      }),
    );
    await makeClient().orders.get('A');
    await makeClient({ userAgent: 'myapp/1.2 (+https://shop.example)' }).orders.get('A');
    expect(agents).toEqual([`emporio/${VERSION}`, `emporio/${VERSION} myapp/1.2 (+https://shop.example)`]);
  });
});
