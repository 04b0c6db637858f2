/**
 * 4. Bulk inventory: `products.updateMany` of 100,000 updates from an async generator against
 * the mock marketplace enforcing a per-window limit scaled down in time (LIMIT requests per
 * 1 s window, X-RateLimit-* headers, 403 when spent). Wall time against the minimum the limit
 * allows, and the mock's count of 403 answers (server side), which must stay 0.
 *
 * The minimum: runs start on a window boundary; the limit lets the last window begin no
 * earlier than (windows - 1) × window, and that window's requests then take the time they
 * take unthrottled (measured in the same run on an unlimited mock). The naive
 * requests / limit × window is printed beside it.
 */
import { MarketplaceClient } from 'emporio';
import { startMockMarketplace } from 'emporio/testing';
import { fmt, median, type Row, sleep, time } from './harness.js';

const UPDATES = 100_000;
const BATCH = 500;
const LIMIT = 40;
const WINDOW_MS = 1_000;
const ROUNDS = 3;

export async function* productUpdates(count: number, prefix = 'p') {
  for (let i = 0; i < count; i++) {
    yield { product_id: `${prefix}${i}`, quantity: i % 97, enabled: i % 11 !== 0, price: 1_000 + (i % 5_000) };
  }
}

async function run(url: string, token: string, count: number) {
  const client = new MarketplaceClient({ baseUrl: url, vendor: 'marketplace', tokens: { products: token } });
  const report = await client.products.updateMany(productUpdates(count));
  if (report.applied.length !== count || report.failed.length > 0) {
    throw new Error(`updateMany applied ${report.applied.length} of ${count}, ${report.failed.length} failed`);
  }
  return report;
}

export async function benchBulkInventory(): Promise<Row[]> {
  const free = await startMockMarketplace({ port: 0, seedDemoOrders: false });
  const limited = await startMockMarketplace({
    port: 0,
    seedDemoOrders: false,
    merchantRateLimit: { perMinute: LIMIT, windowMs: WINDOW_MS },
  });
  try {
    await run(free.url, free.mock.tokens.products, 10_000); // warm-up
    const unthrottledMs = await time(() => run(free.url, free.mock.tokens.products, UPDATES));

    const requests = Math.ceil(UPDATES / BATCH);
    const windows = Math.ceil(requests / LIMIT);
    const lastWindowRequests = requests - (windows - 1) * LIMIT;
    const minimumMs = Math.max(unthrottledMs, (windows - 1) * WINDOW_MS + (unthrottledMs * lastWindowRequests) / requests);
    const naiveMs = (requests / LIMIT) * WINDOW_MS;

    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Start on a window boundary, as the minimum assumes.
      await sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 2);
      samples.push(await time(() => run(limited.url, limited.mock.tokens.products, UPDATES)));
    }
    const wall = median(samples);
    const refusals = limited.mock.rateLimitRefusals;
    const applied = limited.mock.inventory.size;
    if (applied !== UPDATES) throw new Error(`the mock holds ${applied} products, expected ${UPDATES}`);

    return [
      {
        name: `updateMany 100k, ${LIMIT} req/${WINDOW_MS / 1000} s limit`,
        measured: fmt.ms(wall),
        baseline: `${fmt.ms(minimumMs)} minimum`,
        ratio: wall / minimumMs,
        goal: '<= 1.05',
        pass: wall / minimumMs <= 1.05,
        data: { updates: UPDATES, requests, limit: LIMIT, windowMs: WINDOW_MS, unthrottledMs, minimumMs, naiveMs, samples },
      },
      {
        name: 'updateMany 403 answers (server count)',
        measured: String(refusals),
        baseline: `${ROUNDS} runs`,
        ratio: refusals,
        goal: '0',
        pass: refusals === 0,
        data: { refusals, naiveRatio: wall / naiveMs },
      },
    ];
  } finally {
    await Promise.all([free.close(), limited.close()]);
  }
}
