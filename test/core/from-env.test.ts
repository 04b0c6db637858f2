import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthenticationError, MarketplaceClient } from 'emporio';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';

let kit: RunningMockMarketplace;
beforeAll(async () => {
  kit = await startMockMarketplace({ port: 0, vendor: 'acme' });
});
afterAll(() => kit.close());

const VARIABLES = ['EMPORIO_BASE_URL', 'EMPORIO_VENDOR', 'EMPORIO_TOKEN', 'EMPORIO_ORDERS_TOKEN', 'EMPORIO_PRODUCTS_TOKEN', 'EMPORIO_CPS_TOKEN'];
/** Only the given EMPORIO_* variables: none of the machine running the tests leaks in. */
function environment(values: Record<string, string>) {
  for (const name of VARIABLES) vi.stubEnv(name, values[name] ?? '');
}
afterEach(() => vi.unstubAllEnvs());

describe('MarketplaceClient.fromEnv', () => {
  it('reads the base URL, vendor and each API key from the environment', async () => {
    environment({
      EMPORIO_BASE_URL: kit.url,
      EMPORIO_VENDOR: 'acme',
      EMPORIO_ORDERS_TOKEN: kit.mock.tokens.orders,
      EMPORIO_PRODUCTS_TOKEN: kit.mock.tokens.products,
      EMPORIO_CPS_TOKEN: kit.mock.tokens.cps,
    });
    const client = MarketplaceClient.fromEnv();
    expect((await client.orders.get('DEMO-OPEN')).code).toBe('DEMO-OPEN');
    const keys = await client.checkKeys();
    expect([keys.orders?.ok, keys.products?.ok, keys.cps?.ok]).toEqual([true, true, true]);
  });

  it('EMPORIO_TOKEN is the default of every API; its own variable wins', async () => {
    environment({ EMPORIO_BASE_URL: kit.url, EMPORIO_VENDOR: 'acme', EMPORIO_TOKEN: kit.mock.tokens.products, EMPORIO_ORDERS_TOKEN: kit.mock.tokens.orders });
    const keys = await MarketplaceClient.fromEnv().checkKeys();
    expect(keys.orders?.ok).toBe(true); // its own variable
    expect(keys.products?.ok).toBe(true); // EMPORIO_TOKEN
    expect(keys.cps?.ok).toBe(false); // EMPORIO_TOKEN is not the CPS key
  });

  it('overrides win over the environment, tokens key by key', async () => {
    environment({ EMPORIO_BASE_URL: 'https://api.example.gr', EMPORIO_VENDOR: 'example', EMPORIO_ORDERS_TOKEN: 'stale-key', EMPORIO_PRODUCTS_TOKEN: kit.mock.tokens.products });
    const client = MarketplaceClient.fromEnv({ baseUrl: kit.url, vendor: 'acme', tokens: { orders: kit.mock.tokens.orders } });
    const keys = await client.checkKeys();
    expect([keys.orders?.ok, keys.products?.ok]).toEqual([true, true]);
  });

  it('a missing base URL, vendor or token is a TypeError naming the variable; blank counts as unset', async () => {
    environment({ EMPORIO_VENDOR: 'acme', EMPORIO_TOKEN: 't' });
    expect(() => MarketplaceClient.fromEnv()).toThrow(new TypeError('MarketplaceClient.fromEnv: baseUrl: set EMPORIO_BASE_URL or pass { baseUrl }'));
    environment({ EMPORIO_BASE_URL: kit.url, EMPORIO_VENDOR: '   ', EMPORIO_TOKEN: 't' });
    expect(() => MarketplaceClient.fromEnv()).toThrow(/vendor: set EMPORIO_VENDOR/);
    environment({ EMPORIO_BASE_URL: kit.url, EMPORIO_VENDOR: 'acme' });
    expect(() => MarketplaceClient.fromEnv()).toThrow(/no token: set one of EMPORIO_TOKEN, EMPORIO_ORDERS_TOKEN, EMPORIO_PRODUCTS_TOKEN, EMPORIO_CPS_TOKEN/);
  });

  it('EMPORIO_TOKEN copied with its "Bearer " prefix is sent once prefixed, as is a token option given so', async () => {
    environment({ EMPORIO_BASE_URL: kit.url, EMPORIO_VENDOR: 'acme', EMPORIO_TOKEN: `Bearer ${kit.mock.tokens.orders}` });
    expect((await MarketplaceClient.fromEnv().orders.get('DEMO-OPEN')).code).toBe('DEMO-OPEN');
    const client = new MarketplaceClient({ baseUrl: kit.url, vendor: 'acme', tokens: { orders: `bearer  ${kit.mock.tokens.orders}` } });
    expect((await client.orders.get('DEMO-OPEN')).code).toBe('DEMO-OPEN');
    environment({ EMPORIO_BASE_URL: kit.url, EMPORIO_VENDOR: 'acme', EMPORIO_TOKEN: 'Bearer ' });
    expect(() => MarketplaceClient.fromEnv()).toThrow(TypeError);
  });

  it('a line break inside EMPORIO_BASE_URL is refused (named as the baseUrl option), not joined into another URL', () => {
    for (const broken of ['https://api.example\n.gr', 'https://api.example.gr/\r\nmerchants', 'https://api.\texample.gr']) {
      environment({ EMPORIO_BASE_URL: broken, EMPORIO_VENDOR: 'acme', EMPORIO_TOKEN: 't' });
      expect(() => MarketplaceClient.fromEnv()).toThrow(/baseUrl` must not contain a line break or tab/);
    }
    // Given in code, the same rule: a URL's parser would drop the break without a word.
    expect(() => new MarketplaceClient({ baseUrl: 'https://api.example\n.gr', vendor: 'acme', token: 't' })).toThrow(/baseUrl` must not contain a line break/);
  });

  it('a refused key names its API, never the token', async () => {
    environment({ EMPORIO_BASE_URL: kit.url, EMPORIO_VENDOR: 'acme', EMPORIO_ORDERS_TOKEN: 'old-orders-key-91ac' });
    const error = await MarketplaceClient.fromEnv().orders.get('DEMO-OPEN').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).api).toBe('orders');
    expect(String(error)).not.toContain('old-orders-key-91ac');
  });
});
