/**
 * The shop's product feed: products from an async source (a database cursor, say) written to a
 * gzip file, served to the marketplace's crawler, and checked as the crawler would read it.
 *
 *   npx tsx examples/feed.ts
 *
 * The file is replaced only once it is whole, so the crawler never fetches half a feed. Only
 * the crawler's documented source addresses are served (the webhooks' list); this example also
 * lets loopback in so it can fetch the feed itself.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFeed, createFeedHandler, type FeedProduct, orderBeacon, toNodeHandler, toProductUpdate, writeFeed } from 'emporio/feed';
import { WEBHOOK_SOURCE_RANGES } from 'emporio/webhooks';

/** Stands in for the shop's database: rows arrive one by one, never all in memory. */
async function* catalogue(count: number): AsyncGenerator<FeedProduct> {
  for (let i = 1; i <= count; i++) {
    yield {
      id: `SKU-${i}`,
      name: `Examplewear Trail Runner ${i} Blue`,
      link: `https://shop.example.com/products/sku-${i}?ref=feed&lang=en`,
      image: `https://shop.example.com/images/sku-${i}.jpg`,
      category: 'Fashion > Shoes > Running Shoes',
      price: 59.9 + i / 100, // euros; written with two decimals
      vat: 24,
      availability: i % 7 === 0 ? 'Available from 4 to 6 days' : 'In Stock',
      manufacturer: 'Examplewear',
      mpn: `EXW-TR-${i}`,
      ean: '2004001001422',
      description: 'Lightweight trail running shoe with a lugged outsole & a breathable mesh upper.',
      quantity: i % 5,
      size: '42,43',
    };
  }
}

const dir = mkdtempSync(join(tmpdir(), 'emporio-feed-'));
const file = join(dir, 'feed.xml.gz');
// Every product is checked before it is written; a repeated Unique ID is caught (only ids are
// kept in memory, as hashes), the product left out and reported.
const written = await writeFeed(
  (async function* () {
    yield* catalogue(1000);
    yield* catalogue(1); // SKU-1 again: left out and reported
  })(),
  file,
  { gzip: true },
);
console.log(`wrote ${written.products} products to ${file} (${statSync(file).size} bytes gzip); left out: ${written.errors.map((e) => `${e.productId} (${e.rule})`).join(', ')}`);

const handler = createFeedHandler({ feed: file, allowedRanges: [...WEBHOOK_SOURCE_RANGES, '127.0.0.0/8'] });
const server = createServer(toNodeHandler(handler));
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;
try {
  // A URL on loopback or a private network is refused unless allowed (it would open a checker of
  // merchants' URLs to requests into its own network).
  const report = await checkFeed(url, { timeoutMs: 30_000, allowPrivateNetwork: true });
  console.log(`checked ${url}: ${report.products} products, ${report.errorCount} errors, ${report.warningCount} warnings`);
  const unchanged = await fetch(url, { headers: { 'if-none-match': (await fetch(url, { method: 'HEAD' })).headers.get('etag') ?? '' } });
  console.log(`the crawler's next visit of an unchanged feed: ${unchanged.status}`);
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}

// Price and stock changes during the day go through the Products API, for products the feed lists.
const first = await catalogue(1).next();
if (!first.done) console.log('products.updateMany entry:', JSON.stringify(toProductUpdate(first.value)));

// The order-confirmation page reports the order to the marketplace's analytics.
console.log(
  orderBeacon(
    { order_id: 'O-1001', revenue: 125.25, shipping: 5.45, tax: 23.18, paid_by: 'card', paid_by_descr: 'Visa' },
    [{ product_id: 'SKU-1', name: 'Examplewear Trail Runner 1 Blue', price: 59.9, quantity: 2 }],
    { vendor: 'shop' },
  ).trim(),
);
