/**
 * 6. Memory: iterating 100,000 SKUs with `for await`, and streaming 100,000 updates through
 * `updateMany` from an async generator. Peak live heap (sampled right after a forced GC, so
 * garbage does not count) above the heap before the run, against the growth of holding the
 * same 100,000 items in an array: streaming must stay far below it.
 *
 * The servers are minimal and keep nothing (the mock's inventory would live in this heap).
 * The SKU server sends ETags, as the real service does, so the client's default ETag cache
 * is part of what is measured.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MarketplaceClient } from 'emporio';
import { productUpdates } from './bulk-inventory.js';
import { fmt, loopbackServer, type Row, readBody } from './harness.js';
import { sku } from './pagination.js';

const ITEMS = 100_000;
const PER = 100;
const SAMPLE_EVERY = 2_500;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function liveHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** Peak live heap above the starting point while `run` calls `sample()` now and then. */
async function peakGrowth(run: (sample: () => void) => Promise<unknown>): Promise<number> {
  const start = liveHeap();
  let peak = start;
  await run(() => {
    peak = Math.max(peak, liveHeap());
  });
  return peak - start;
}

/** Live heap taken by what `build` returns, while it is held. */
async function heldGrowth(build: () => Promise<unknown[]>): Promise<number> {
  const start = liveHeap();
  const held = await build();
  const growth = liveHeap() - start;
  if (held.length !== ITEMS) throw new Error('unexpected count');
  return growth;
}

const pages = ITEMS / PER;
const pageBody = (page: number) =>
  JSON.stringify({
    skus: Array.from({ length: PER }, (_, i) => sku((page - 1) * PER + i + 1)),
    meta: { pagination: { total_results: ITEMS, total_pages: pages, page, per: PER } },
  });

export async function benchMemory(): Promise<Row[]> {
  const server = await loopbackServer(async (req, res) => {
    if (req.method === 'POST') {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"success":true}');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const body = pageBody(page);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', etag: `W/"page-${page}"` };
    if (page < pages) headers.link = `<${server.url}/categories/40/skus?page=${page + 1}&per=${PER}>; rel="next"`;
    res.writeHead(200, headers).end(body);
  });
  try {
    const options = { baseUrl: server.url, vendor: 'marketplace', token: 'bench-token', rateLimit: false as const };
    const iterate = async (client: MarketplaceClient, onItem: (item: unknown, count: number) => void) => {
      let count = 0;
      for await (const item of client.catalog.categories.skus(40, { per: PER })) onItem(item, ++count);
      if (count !== ITEMS) throw new Error(`iterated ${count}`);
    };

    // What holding every item costs: the same pages parsed and kept, no client involved.
    const iterationHeld = await heldGrowth(async () => {
      const all: unknown[] = [];
      for (let page = 1; page <= pages; page++) all.push(...(JSON.parse(pageBody(page)) as { skus: unknown[] }).skus);
      return all;
    });
    const iterationPeak = await peakGrowth((sample) =>
      iterate(new MarketplaceClient(options), (_item, count) => count % SAMPLE_EVERY === 0 && sample()),
    );
    const iterationPeakNoCache = await peakGrowth((sample) =>
      iterate(new MarketplaceClient({ ...options, cache: false }), (_item, count) => count % SAMPLE_EVERY === 0 && sample()),
    );

    // The floor the contract sets: the report lists every applied id, and duplicates are
    // found with a set of the ids seen. Holding the updates themselves is shown for scale.
    const idsFloor = await heldGrowth(async () => {
      const applied: string[] = [];
      const seen = new Set<string>();
      for await (const update of productUpdates(ITEMS, 'm')) {
        applied.push(update.product_id);
        seen.add(update.product_id);
      }
      return Object.assign(applied, { seen });
    });
    const updatesHeld = await heldGrowth(async () => {
      const all: unknown[] = [];
      for await (const update of productUpdates(ITEMS, 'm')) all.push(update);
      return all;
    });
    const streamingPeak = await peakGrowth(async (sample) => {
      const client = new MarketplaceClient(options);
      async function* sampled() {
        let count = 0;
        for await (const update of productUpdates(ITEMS, 'm')) {
          if (++count % SAMPLE_EVERY === 0) sample();
          yield update;
        }
      }
      const report = await client.products.updateMany(sampled());
      if (report.applied.length !== ITEMS) throw new Error('updates lost');
      sample(); // the report itself: 100,000 applied ids, by contract
    });

    return [
      {
        name: 'memory: iterate 100k SKUs (peak live heap)',
        measured: `+${fmt.mb(iterationPeak)}`,
        baseline: `+${fmt.mb(iterationHeld)} held`,
        ratio: iterationPeak / iterationHeld,
        goal: '<= 0.10',
        pass: iterationPeak / iterationHeld <= 0.1,
        data: { items: ITEMS, per: PER, peakBytes: iterationPeak, peakBytesCacheOff: iterationPeakNoCache, heldBytes: iterationHeld },
      },
      {
        name: 'memory: iterate 100k SKUs, cache:false',
        measured: `+${fmt.mb(iterationPeakNoCache)}`,
        baseline: `+${fmt.mb(iterationHeld)} held`,
        ratio: iterationPeakNoCache / iterationHeld,
        goal: '<= 0.10',
        pass: iterationPeakNoCache / iterationHeld <= 0.1,
      },
      {
        name: 'memory: updateMany 100k streamed',
        measured: `+${fmt.mb(streamingPeak)}`,
        baseline: `+${fmt.mb(idsFloor)} ids only`,
        ratio: streamingPeak / idsFloor,
        goal: '<= 1.50',
        pass: streamingPeak / idsFloor <= 1.5,
        data: { updates: ITEMS, peakBytes: streamingPeak, idsFloorBytes: idsFloor, updatesHeldBytes: updatesHeld },
      },
    ];
  } finally {
    await server.close();
  }
}
