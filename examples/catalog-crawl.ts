/**
 * Catalog crawl: walk a leaf category's SKUs page after page with `for await`, then read one
 * SKU with its offers and reviews.
 *
 * Iteration follows the service's `Link: rel=next` headers, so it never needs to know the
 * page count; a page is fetched only when the loop reaches it (pass `{ prefetch: true }` to
 * fetch the next one while working on the current one; catalog requests are budgeted).
 *
 * Run against the bundled mock marketplace (nothing leaves the machine):
 *   npx tsx examples/catalog-crawl.ts
 * Run against a real service:
 *   EMPORIO_BASE_URL=https://api.example.gr EMPORIO_VENDOR=example EMPORIO_TOKEN=... \
 *     npx tsx examples/catalog-crawl.ts <leaf category id>
 */
import { pathToFileURL } from 'node:url';
import { MarketplaceClient } from 'emporio';
import { startMockMarketplace } from 'emporio/testing';

export async function crawlCategory(client: MarketplaceClient, categoryId: number): Promise<void> {
  const category = await client.catalog.categories.get(categoryId);
  console.log(`${category.name} (${categoryId})`);

  let count = 0;
  let cheapest: { name: string; price: number } | undefined;
  // Every SKU of every page; `per` sets the page size (the service's default is 25).
  for await (const sku of client.catalog.categories.skus(categoryId, { per: 50, order_by: 'popularity' })) {
    count++;
    if (typeof sku.price_min === 'number' && (!cheapest || sku.price_min < cheapest.price)) {
      cheapest = { name: sku.display_name ?? sku.name ?? String(sku.id), price: sku.price_min };
    }
  }
  console.log(`${count} SKUs; cheapest: ${cheapest ? `${cheapest.name} at ${cheapest.price.toFixed(2)}` : 'none priced'}`);

  // Page by page, with the listing's meta: the orderings this category offers.
  const first = await client.catalog.categories.skus(categoryId, { per: 5 });
  console.log(`ordered by ${first.meta?.ordered_by}; also: ${Object.keys(first.meta?.order_by_methods ?? {}).join(', ')}`);

  const sku = first.items[0];
  if (!sku) return;
  const offers = await client.catalog.skus.products(sku.id);
  const reviews = await client.catalog.skus.reviews(sku.id, { include_meta: 'sku_rating_breakdown', per: 3 });
  console.log(`${sku.display_name ?? sku.name}: ${offers.items.length} offer(s) on the first page`);
  for (const offer of offers.items) console.log(`  shop ${offer.shop_id}: ${offer.price}`);
  for (const star of reviews.meta?.sku_rating_breakdown ?? []) console.log(`  ${star.star}★ ${star.percentage}%`);
  console.log(`rate limit: ${JSON.stringify(client.rateLimit)}`);
}

async function main(): Promise<void> {
  const baseUrl = process.env.EMPORIO_BASE_URL;
  if (baseUrl) {
    const client = new MarketplaceClient({ baseUrl, vendor: process.env.EMPORIO_VENDOR ?? 'marketplace', token: process.env.EMPORIO_TOKEN });
    await crawlCategory(client, Number(process.argv[2] ?? 40));
    return;
  }

  const server = await startMockMarketplace({ port: 0 });
  try {
    const { mock } = server;
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: mock.vendor, tokens: { catalog: mock.tokens.catalog } });
    await crawlCategory(client, mock.catalog.ids.leaf);
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
