/**
 * client.orders.list: the orders listing shop plugins use (not in the service's documentation),
 * against the mock: pages by Link, the query checked before sending, 404 / 405 as NotFoundError.
 */
import { MarketplaceClient, NotFoundError, RequestValidationError } from 'emporio';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { afterEach, describe, expect, it } from 'vitest';

let mock: MockMarketplace;
afterEach(() => mock?.close());

function clientFor(options: Parameters<typeof createMockMarketplace>[0] = {}) {
  mock = createMockMarketplace({ seedDemoOrders: false, ...options });
  return new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, token: mock.tokens.orders, fetch: mock.fetch, maxRetries: 0 });
}
const listingRequests = () => mock.requests.filter((r) => r.path === '/merchants/ecommerce/orders');

describe('client.orders.list', () => {
  it('lists the open orders page by page, following the Link header, with state, page and per in the query', async () => {
    const client = clientFor();
    const open = Array.from({ length: 5 }, () => mock.orders.create().code);
    const cancelled = mock.orders.create().code;
    mock.orders.cancel(cancelled);

    const first = await client.orders.list({ state: 'open', per: 2 });
    expect(first.items.map((o) => o.code)).toEqual(open.slice(0, 2));
    expect(first.pagination).toEqual({ total_results: 5, total_pages: 3, page: 1, per: 2 });
    expect(new URL(first.url).searchParams.get('state')).toBe('open');

    const codes: string[] = [];
    for await (const order of client.orders.list({ state: 'open', per: 2 })) codes.push(order.code);
    expect(codes).toEqual(open);

    const all: string[] = [];
    for await (const order of client.orders.list()) all.push(order.code);
    expect(all).toEqual([...open, cancelled]);
  });

  it("adopts the vendor's spelling in every listed order, as orders.get does", async () => {
    const client = clientFor({ vendor: 'skroutz' });
    mock.orders.create({ fulfilled_by_marketplace: true, store_pickup: false });
    const page = await client.orders.list({ state: 'open' });
    expect(page.items[0]?.fulfilled_by_marketplace).toBe(true);
  });

  it.each([404, 405] as const)('a %i answer rejects with a NotFoundError saying the listing is not available for this shop', async (status) => {
    const client = clientFor({ ordersListing: status });
    const error = await client.orders.list({ state: 'open' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(status);
    expect((error as Error).message).toContain('the orders listing is not available for this shop');
    expect((error as Error).message).not.toContain(mock.tokens.orders);
    // Served again once the mock serves it.
    mock.orders.setListing('served');
    await expect(client.orders.list({ state: 'open' })).resolves.toBeDefined();
  });

  it('a 404 of another orders call keeps its own message (the order is not found)', async () => {
    const client = clientFor();
    const error = await client.orders.get('260101-404').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).not.toContain('listing');
  });

  it('refuses a bad query before sending anything', async () => {
    const client = clientFor();
    const bad = [{ state: '' }, { state: 3 }, { per: 0 }, { per: 2.5 }, { page: -1 }, { status: 'open' }] as never[];
    for (const params of bad) {
      await expect(client.orders.list(params)).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(listingRequests()).toEqual([]);
  });
});
