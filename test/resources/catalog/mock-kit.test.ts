/** The catalog and account namespaces against the bundled mock marketplace (its own wire rules, Link paging, ETags). */
import { MarketplaceClient, NotFoundError, PermissionDeniedError } from 'emporio';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from './helpers.js';

let mock: MockMarketplace | undefined;
afterEach(() => mock?.close());

function setup() {
  mock = createMockMarketplace({ seed: 1 });
  const client = new MarketplaceClient({
    baseUrl: mock.baseUrl,
    vendor: mock.vendor,
    tokens: { catalog: mock.tokens.catalog, account: mock.tokens.account },
    fetch: mock.fetch,
    maxRetries: 0,
  });
  return { mock, client };
}

describe('against the mock marketplace', () => {
  it("iterates every SKU of a leaf category across its Link-paged answers", async () => {
    const { mock, client } = setup();
    const ids: number[] = [];
    let pages = 0;
    for await (const page of client.catalog.categories.skus(mock.catalog.ids.leaf, { per: 25 }).pages()) {
      pages++;
      for (const sku of page.items) ids.push(sku.id);
    }
    expect(ids).toHaveLength(mock.catalog.skus(mock.catalog.ids.leaf).length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(ids.length / 25));
  });

  it('reads a SKU with its offers and reviews', async () => {
    const { mock, client } = setup();
    const sku = await client.catalog.skus.get(mock.catalog.ids.sku);
    const offers = await client.catalog.skus.products(sku.id);
    const reviews = await client.catalog.skus.reviews(sku.id, { include_meta: 'sku_rating_breakdown' });
    expect(sku.id).toBe(mock.catalog.ids.sku);
    expect(offers.items.length).toBeGreaterThan(0);
    expect(offers.items.every((p) => p.sku_id === sku.id)).toBe(true);
    expect(reviews.meta?.sku_rating_breakdown?.length).toBe(5);
    expect(await rejection(client.catalog.skus.get(999_999_999))).toBeInstanceOf(NotFoundError);
  });

  it('favorites round trip, and an account call with a catalog-only token names the permission', async () => {
    const { mock, client } = setup();
    const created = await client.account.favorites.create({ sku_id: mock.catalog.ids.sku });
    const all = [];
    for await (const favorite of client.account.favorites.list()) all.push(favorite.id);
    expect(all).toContain(created.id);
    await client.account.favorites.delete(created.id);
    expect(await rejection(client.account.favorites.delete(created.id))).toBeInstanceOf(NotFoundError);

    const catalogOnly = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, token: mock.tokens.catalog, fetch: mock.fetch });
    const error = await rejection(catalogOnly.account.favorites.list());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toContain('favorites permission');
  });
});
