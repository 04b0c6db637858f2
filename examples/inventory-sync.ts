/**
 * Inventory sync: stream a stock feed into the Products API with `updateMany`.
 *
 * The feed is read row by row (an async generator), never held whole: `updateMany` reads
 * only enough to fill its requests of 500, checks each row on its own, reports bad rows
 * and repeated product ids instead of sending them, waits out the service's "scanning
 * your XML" answers, and accounts for every product id in its report.
 *
 * Run against the bundled mock marketplace (nothing leaves the machine):
 *   npx tsx examples/inventory-sync.ts
 * Run against a real service, reading a CSV of product_id,quantity,enabled,price_cents:
 *   EMPORIO_BASE_URL=https://api.example.gr EMPORIO_VENDOR=example EMPORIO_TOKEN=... \
 *     npx tsx examples/inventory-sync.ts ./stock.csv
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { MarketplaceClient } from 'emporio';
import { startMockMarketplace } from 'emporio/testing';

/** One CSV row → one product update. A bad row is passed on as is: updateMany reports it. */
function toUpdate(line: string) {
  const [product_id = '', quantity = '', enabled = '', price = ''] = line.split(',').map((cell) => cell.trim());
  return { product_id, quantity: Number(quantity), enabled: enabled === '1' || enabled === 'true', price: Number(price) };
}

/** Reads a CSV feed line by line (header skipped). */
async function* readFeed(input: Readable) {
  let header = true;
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (header || line.trim() === '') {
      header = false;
      continue;
    }
    yield toUpdate(line);
  }
}

export async function syncInventory(client: MarketplaceClient, feed: Readable): Promise<void> {
  const started = Date.now();
  const report = await client.products.updateMany(readFeed(feed), {
    onProgress: ({ sent, applied, failed }) => {
      const line = `sent ${sent}  applied ${applied}  failed ${failed}  (${((Date.now() - started) / 1000).toFixed(1)} s)`;
      // One line redrawn on a terminal; a line per request in a log.
      process.stdout.write(process.stdout.isTTY ? `\r${line}` : `${line}\n`);
    },
  });
  if (process.stdout.isTTY) process.stdout.write('\n');

  console.log(`${report.applied.length} applied, ${report.failed.length} failed, ${report.duplicates.length} duplicate row(s), ${report.requests} request(s)`);
  for (const { product_id, error } of report.failed.slice(0, 10)) {
    console.log(`  ${product_id || '(no product id)'}: ${error.name}: ${error.message}`);
  }
  if (report.failed.length > 10) console.log(`  ... and ${report.failed.length - 10} more`);
  if (report.duplicates.length) console.log(`  repeated in the feed (first row sent): ${[...new Set(report.duplicates)].join(', ')}`);
}

/** A made-up feed of `rows` products, with one bad price and one repeated row, as real feeds have. */
function sampleFeed(rows: number): Readable {
  async function* lines() {
    yield 'product_id,quantity,enabled,price_cents\n';
    for (let n = 1; n <= rows; n++) {
      const price = n === 777 ? 'N/A' : String(990 + (n % 50) * 100);
      yield `SKU-${String(n).padStart(6, '0')},${n % 13},${n % 17 === 0 ? 0 : 1},${price}\n`;
    }
    yield 'SKU-000042,5,1,1990\n';
  }
  return Readable.from(lines());
}

async function main(): Promise<void> {
  const baseUrl = process.env.EMPORIO_BASE_URL;
  if (baseUrl) {
    const file = process.argv[2];
    if (!file) throw new Error('usage: inventory-sync.ts <feed.csv>');
    const client = new MarketplaceClient({ baseUrl, vendor: process.env.EMPORIO_VENDOR ?? 'marketplace', token: process.env.EMPORIO_TOKEN });
    await syncInventory(client, createReadStream(file));
    return;
  }

  const server = await startMockMarketplace({ port: 0 });
  try {
    const { mock } = server;
    // The shop's XML feed is being scanned for the first request: updateMany waits it out.
    mock.products.setShopState('scanning_xml', { requests: 1 });
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: mock.vendor, tokens: { products: mock.tokens.products } });
    await syncInventory(client, sampleFeed(5_000));
    console.log(`mock inventory now holds ${mock.inventory.size} products`);
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
