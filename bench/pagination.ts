/**
 * 2. Pagination: `for await` over 10,000 recorded SKUs (400 pages of 25, about 68 KB each, Link headers) against a raw
 * sequential fetch loop over the same pages; on plain loopback, then with 5 ms of server
 * latency and 2 ms of consumer work per page, with and without prefetch. On plain loopback the
 * goal is the SDK's own overhead, against the same loop through bare ky (ky stays the HTTP
 * layer: raw fetch is context there). The client runs with `rateLimit: false`: the catalog
 * budget (100 a minute) would otherwise pace it.
 */
import { readFileSync } from 'node:fs';
import { MarketplaceClient } from 'emporio';
import ky from 'ky';
import { compare, compareInterleaved, fmt, inFreshProcesses, loopbackServer, median, type Row, sleep } from './harness.js';

const PAGES = 400;
const PER = 25;
const CATEGORY = 40;
const LATENCY_MS = 5;
const WORK_MS = 2;
const TOKEN = 'bench-catalog-token';
const PROCESSES = 5;
/** On plain loopback the variants take turns every 40 pages: see measurePlainLoopback. */
const SLICE_PAGES = 40;

/**
 * The SKUs of a recorded list answer of the real service (similar SKUs: long Greek spec
 * summaries, image lists, nulls where the spec has values), cycled: a page of 25 is about 68 KB,
 * as the service's are.
 */
const RECORDED_SKUS = (
  JSON.parse(readFileSync(new URL('../test/fixtures/recorded-catalog/skus_similar.json', import.meta.url), 'utf8')) as {
    response: { body: { skus: Record<string, unknown>[] } };
  }
).response.body.skus;

/** A recorded SKU, under the id `id`. */
export function sku(id: number): Record<string, unknown> {
  return { ...(RECORDED_SKUS[id % RECORDED_SKUS.length] as Record<string, unknown>), id };
}

/** Serves `[/slow]/categories/:id/skus?page=N`, `/slow` adding the latency. Pages are built once. */
export async function skuServer(pages = PAGES, per = PER) {
  const bodies = Array.from({ length: pages }, (_, p) =>
    Buffer.from(
      JSON.stringify({
        skus: Array.from({ length: per }, (_, i) => sku(p * per + i + 1)),
        meta: {
          pagination: { total_results: pages * per, total_pages: pages, page: p + 1, per },
          ordered_by: 'popularity',
          order_by_methods: { popularity: 'Popularity', pricevat: 'Price' },
        },
      }),
    ),
  );
  const server = await loopbackServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const slow = url.pathname.startsWith('/slow/');
    // Under /sliced/ the listing ends at every multiple of SLICE_PAGES (see benchPagination).
    const sliced = url.pathname.startsWith('/sliced/');
    const page = Number(url.searchParams.get('page') ?? '1');
    const body = bodies[page - 1];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const base = `${server.url}${slow ? '/slow' : sliced ? '/sliced' : ''}/categories/${CATEGORY}/skus`;
    const headers: Record<string, string | number> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    };
    const last = sliced ? Math.min(pages, Math.ceil(page / SLICE_PAGES) * SLICE_PAGES) : pages;
    // The last page still has a Link header (rel=last): without one, clients fall back to meta.pagination.
    const lastLink = `<${base}?page=${last}&per=${per}>; rel="last"`;
    headers.link = page < last ? `<${base}?page=${page + 1}&per=${per}>; rel="next", ${lastLink}` : lastLink;
    const send = () => res.writeHead(200, headers).end(body);
    if (slow) setTimeout(send, LATENCY_MS);
    else send();
  });
  return server;
}

/** The variants reading `pages` pages from `offset` on `baseUrl` (each listing ends where the server's Link header stops). */
function variantsOn(baseUrl: string, consume?: () => Promise<void>) {
  const headers = { accept: 'application/vnd.marketplace+json; version=3.2', authorization: `Bearer ${TOKEN}` };
  const client = new MarketplaceClient({ baseUrl, vendor: 'marketplace', token: TOKEN, rateLimit: false, maxRetries: 0 });
  const expect = (count: number, pages: number) => {
    if (count !== pages * PER) throw new Error(`iterated ${count} SKUs, expected ${pages * PER}`);
  };
  const sdk = (prefetch: boolean) => async (pages: number, offset: number) => {
    let count = 0;
    const params = offset === 0 ? { per: PER } : { per: PER, page: offset + 1 };
    for await (const item of client.catalog.categories.skus(CATEGORY, params, { prefetch })) {
      if (item.id > 0) count++;
      if (consume && count % PER === 0) await consume();
    }
    expect(count, pages);
  };
  const raw = async (pages: number, offset: number) => {
    let count = 0;
    for (let page = offset + 1; page <= offset + pages; page++) {
      const response = await fetch(`${baseUrl}/categories/${CATEGORY}/skus?page=${page}&per=${PER}`, { headers });
      const body = JSON.parse(await response.text()) as { skus: { id: number }[] };
      for (const item of body.skus) if (item.id > 0) count++;
      if (consume) await consume();
    }
    expect(count, pages);
  };
  // Page by page, like the ky and fetch loops: the SDK's own cost, without `for await`'s per item.
  const sdkPages = async (pages: number, offset: number) => {
    let count = 0;
    const params = offset === 0 ? { per: PER } : { per: PER, page: offset + 1 };
    for await (const page of client.catalog.categories.skus(CATEGORY, params).pages()) {
      for (const item of page.items) if (item.id > 0) count++;
    }
    expect(count, pages);
  };
  const bareKy = ky.create({ retry: 0 });
  const kyLoop = async (pages: number, offset: number) => {
    let count = 0;
    for (let page = offset + 1; page <= offset + pages; page++) {
      const body = await bareKy.get(`${baseUrl}/categories/${CATEGORY}/skus?page=${page}&per=${PER}`, { headers }).json<{ skus: { id: number }[] }>();
      for (const item of body.skus) if (item.id > 0) count++;
    }
    expect(count, pages);
  };
  return { raw, ky: kyLoop, sdkPages, sdk: sdk(false), sdkPrefetch: sdk(true) };
}

/**
 * One process's plain-loopback comparison (run by `inFreshProcesses`): every variant reads the
 * 400 pages in slices of 40, taking turns, because a whole run of 400 pages is short enough for
 * machine drift to move it by a fifth. Each slice is a listing of its own that ends where the
 * server's Link header stops (under /sliced/).
 */
export async function measurePlainLoopback() {
  const server = await skuServer();
  try {
    return await compareInterleaved(variantsOn(`${server.url}/sliced`), { calls: PAGES, slice: SLICE_PAGES, warmup: 1, rounds: 3 });
  } finally {
    await server.close();
  }
}

export async function benchPagination(): Promise<Row[]> {
  const runs = await inFreshProcesses<Awaited<ReturnType<typeof measurePlainLoopback>>>(new URL(import.meta.url), 'measurePlainLoopback', PROCESSES);
  type Variant = 'raw' | 'ky' | 'sdkPages' | 'sdk' | 'sdkPrefetch';
  /** The median over processes of `variant`'s time, and of its ratio to `baseline`'s in the same process. */
  const across = (variant: Variant, baseline: Variant) => ({
    measured: fmt.ms(median(runs.map((run) => run[variant]))),
    baseline: `${fmt.ms(median(runs.map((run) => run[baseline])))} ${baseline === 'ky' ? 'bare ky' : 'raw fetch'}`,
    ratio: median(runs.map((run) => run[variant] / run[baseline])),
  });
  const plain = 'plain loopback';
  const plainData = {
    pages: PAGES,
    per: PER,
    processes: runs.map(({ raw, ky, sdkPages, sdk, sdkPrefetch }) => ({ medianMs: { raw, ky, sdkPages, sdk, sdkPrefetch } })),
  };
  const pageByPage = across('sdkPages', 'ky');
  const forAwait = across('sdk', 'ky');
  const spread = runs.map((run) => run.sdkPages / run.ky);
  const rows: Row[] = [
    {
      name: `pagination ${plain}, page by page, vs bare ky (median of ${PROCESSES} processes)`,
      ...pageByPage,
      goal: '<= 1.05',
      pass: pageByPage.ratio <= 1.05,
      data: { ...plainData, spread: [Math.min(...spread), Math.max(...spread)] },
    },
    { name: `pagination ${plain}, for await over items, vs bare ky`, ...forAwait, goal: '<= 1.05', pass: forAwait.ratio <= 1.05, data: plainData },
    { name: `pagination ${plain}, bare ky vs raw fetch (context)`, ...across('ky', 'raw'), goal: '-', pass: undefined, data: plainData },
    { name: `pagination ${plain}, prefetch off`, ...across('sdk', 'raw'), goal: '-', pass: undefined, data: plainData },
    { name: `pagination ${plain}, prefetch on`, ...across('sdkPrefetch', 'raw'), goal: '-', pass: undefined, data: plainData },
  ];

  // With latency the runs are slow and steady: whole listings, in this process.
  const server = await skuServer();
  try {
    const label = `+${LATENCY_MS} ms server, ${WORK_MS} ms work/page`;
    const { raw, sdk, sdkPrefetch } = variantsOn(`${server.url}/slow`, () => sleep(WORK_MS));
    const m = await compare({ raw: () => raw(PAGES, 0), sdk: () => sdk(PAGES, 0), sdkPrefetch: () => sdkPrefetch(PAGES, 0) }, { warmup: 0, rounds: 3 });
    const data = { pages: PAGES, per: PER, medianMs: { raw: m.raw, sdk: m.sdk, sdkPrefetch: m.sdkPrefetch } };
    rows.push(
      { name: `pagination ${label}, prefetch off`, measured: fmt.ms(m.sdk), baseline: `${fmt.ms(m.raw)} raw fetch`, ratio: m.sdk / m.raw, goal: '-', pass: undefined, data },
      {
        name: `pagination ${label}, prefetch on`,
        measured: fmt.ms(m.sdkPrefetch),
        baseline: `${fmt.ms(m.raw)} raw fetch`,
        ratio: m.sdkPrefetch / m.raw,
        goal: '<= 0.90',
        pass: m.sdkPrefetch / m.raw <= 0.9,
        data,
      },
    );
    return rows;
  } finally {
    await server.close();
  }
}
