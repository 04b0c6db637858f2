/**
 * 1. Request overhead: sequential `client.orders.get` (full recorded order, validation on)
 * against raw fetch + JSON.parse and bare ky, on a loopback server in a worker thread (its own
 * event loop, off the client's) that answers the same canned body to all of them. Each round
 * gives every variant the same calls, interleaved in slices of 100, and the whole comparison
 * runs in eight fresh processes: the differences measured are a few per cent, below both the
 * drift between back-to-back runs on a shared 2-core machine and what one process's JIT and
 * heap make of shared code.
 *
 * ky is the SDK's chosen HTTP layer, so the goals are the SDK's own overhead over bare ky,
 * and the cost users see at a realistic latency: against raw fetch with a server (in a worker
 * thread) that answers 5 ms after each request arrives. The loopback figures against raw fetch
 * are information (ky's own cost).
 */
import { readFileSync } from 'node:fs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { MarketplaceClient } from 'emporio';
import ky from 'ky';
import { compareInterleaved, fmt, inFreshProcesses, latencyServer, median, type Row } from './harness.js';

const PROCESSES = 8;
/** Per process. */
const CALLS = 1_000;
/** Each call of the latency comparison takes at least LATENCY_MS: fewer calls, smaller slices. */
const LATENCY_MS = 5;
const LATENCY_CALLS = 200;
const TOKEN = 'bench-orders-token';
const orderUrl = (base: string) => `${base}/merchants/ecommerce/orders/DEMO-OPEN`;
const headers = { accept: 'application/vnd.marketplace+json; version=3.0', authorization: `Bearer ${TOKEN}` };

export function orderBody(): Buffer {
  const recorded = JSON.parse(
    readFileSync(new URL('../test/fixtures/recorded/merchants_ecommerce_orders_demo_open.json', import.meta.url), 'utf8'),
  ) as { response: { body: unknown } };
  return Buffer.from(JSON.stringify(recorded.response.body));
}

const check = (order: { code: string }) => {
  if (order.code !== 'DEMO-OPEN') throw new Error('wrong answer');
};

/** The variants on `base`, each running n calls: raw fetch + JSON.parse, bare ky (`.json()`), and `sdk.orders.get`. */
export function variantsOn(base: string, sdk: MarketplaceClient) {
  const target = orderUrl(base);
  const bareKy = ky.create({ retry: 0 });
  return {
    fetch: async (n: number) => {
      for (let i = 0; i < n; i++) {
        const response = await fetch(target, { headers });
        check((JSON.parse(await response.text()) as { order: { code: string } }).order);
      }
    },
    ky: async (n: number) => {
      for (let i = 0; i < n; i++) check((await bareKy.get(target, { headers }).json<{ order: { code: string } }>()).order);
    },
    sdk: async (n: number) => {
      for (let i = 0; i < n; i++) check(await sdk.orders.get('DEMO-OPEN'));
    },
  };
}

export const clientOptions = (baseUrl: string) => ({ baseUrl, vendor: 'marketplace', token: TOKEN, maxRetries: 0 });

/** One process's loopback comparison (run by `inFreshProcesses`): median milliseconds for CALLS calls. */
export async function measureLoopback() {
  // The server answers from a thread of its own, as a real service would from elsewhere: its
  // work is not on the client's event loop, so it pads neither side's time.
  const server = await latencyServer(orderBody(), 0);
  try {
    const { fetch, ky, sdk } = variantsOn(server.url, new MarketplaceClient(clientOptions(server.url)));
    const uncached = new MarketplaceClient({ ...clientOptions(server.url), cache: false });
    const sdkNoCache = async (n: number) => {
      for (let i = 0; i < n; i++) check(await uncached.orders.get('DEMO-OPEN'));
    };
    // The OpenTelemetry SDK's own tracer and meter (spans made and ended, no exporter): what tracing costs a call.
    const traced = new MarketplaceClient({
      ...clientOptions(server.url),
      tracer: new BasicTracerProvider().getTracer('bench'),
      meter: new MeterProvider().getMeter('bench'),
    });
    const sdkTraced = async (n: number) => {
      for (let i = 0; i < n; i++) check(await traced.orders.get('DEMO-OPEN'));
    };
    return await compareInterleaved({ fetch, ky, sdk, sdkNoCache, sdkTraced }, { calls: CALLS, warmup: 1, rounds: 5 });
  } finally {
    await server.close();
  }
}

/** Calls each variant makes before the latency comparison, on a server without latency. */
const JIT_WARMUP_CALLS = 3_000;

/**
 * The latency comparison measures steady state, as the loopback one does: the JIT takes some 1,500
 * order calls to settle, and at 5 ms a round of 200 calls would leave the SDK's code (more of it
 * than ky's) still compiling through the rounds measured. Warmed on a server without latency
 * (seconds instead of a minute), the SDK measured 0.994 and 0.998 x bare ky at 5 ms in two runs
 * on 2026-12-07, against 1.005 and 1.010 (30-55 µs a call more) in two runs after the 200-call round alone.
 */
async function settleTheJit(): Promise<void> {
  const server = await latencyServer(orderBody(), 0);
  try {
    const variants = variantsOn(server.url, new MarketplaceClient(clientOptions(server.url)));
    for (let done = 0; done < JIT_WARMUP_CALLS; done += 100) for (const run of Object.values(variants)) await run(100);
  } finally {
    await server.close();
  }
}

export async function benchRequestOverhead(): Promise<Row[]> {
  const runs = await inFreshProcesses<Awaited<ReturnType<typeof measureLoopback>>>(new URL(import.meta.url), 'measureLoopback', PROCESSES);
  await settleTheJit();
  const slowServer = await latencyServer(orderBody(), LATENCY_MS);
  let slow: Awaited<ReturnType<typeof compareInterleaved<'fetch' | 'ky' | 'sdk'>>>;
  try {
    slow = await compareInterleaved(variantsOn(slowServer.url, new MarketplaceClient(clientOptions(slowServer.url))), {
      calls: LATENCY_CALLS,
      slice: 10,
      warmup: 1,
      rounds: 7,
    });
  } finally {
    await slowServer.close();
  }

  /** Per process: the variant's median time for CALLS calls, and its ratio to `baseline`'s. */
  const across = (variant: 'ky' | 'sdk' | 'sdkNoCache' | 'sdkTraced', baseline: 'fetch' | 'ky' | 'sdk') => ({
    measured: `${fmt.us(median(runs.map((run) => run[variant])) / CALLS)}/call`,
    baseline: `${fmt.us(median(runs.map((run) => run[baseline])) / CALLS)} ${baseline}`,
    ratio: median(runs.map((run) => run[variant] / run[baseline])),
  });
  const data = {
    calls: CALLS,
    processes: runs.map(({ fetch, ky, sdk, sdkNoCache, sdkTraced }) => ({ medianMs: { fetch, ky, sdk, sdkNoCache, sdkTraced }, sdkOverKy: sdk / ky })),
  };
  /** The latency comparison's time per call of `variant`, against `baseline`'s. */
  const atLatency = (variant: 'ky' | 'sdk', baseline: 'fetch' | 'ky') => ({
    measured: `${fmt.us(slow[variant] / LATENCY_CALLS)}/call`,
    baseline: `${fmt.us(slow[baseline] / LATENCY_CALLS)} ${baseline}`,
    ratio: slow[variant] / slow[baseline],
  });
  const slowData = { calls: LATENCY_CALLS, latencyMs: LATENCY_MS, medianMs: { fetch: slow.fetch, ky: slow.ky, sdk: slow.sdk }, samples: slow.samples };
  const overKy = across('sdk', 'ky');
  const spread = runs.map((run) => run.sdk / run.ky);
  return [
    {
      name: `orders.get vs bare ky (median of ${PROCESSES} processes)`,
      ...overKy,
      // SDK ÷ raw fetch beside it: what ky and the SDK together cost over fetch on loopback.
      baseline: `${overKy.baseline}; SDK ÷ fetch ${across('sdk', 'fetch').ratio.toFixed(2)}`,
      goal: '<= 1.05',
      pass: overKy.ratio <= 1.05,
      data: { ...data, spread: [Math.min(...spread), Math.max(...spread)] },
    },
    // ky alone takes 1.01-1.03 of raw fetch here, and variants of the same code differ by 2%
    // at this latency on this machine: 1.05 leaves the SDK its own 1%, above that noise.
    { name: `orders.get vs raw fetch, ${LATENCY_MS} ms server latency`, ...atLatency('sdk', 'fetch'), goal: '<= 1.05', pass: slow.sdk / slow.fetch <= 1.05, data: slowData },
    { name: `orders.get vs bare ky, ${LATENCY_MS} ms server latency (context)`, ...atLatency('sdk', 'ky'), goal: '-', pass: undefined, data: slowData },
    { name: `bare ky vs raw fetch, ${LATENCY_MS} ms server latency (context)`, ...atLatency('ky', 'fetch'), goal: '-', pass: undefined, data: slowData },
    { name: 'orders.get vs raw fetch', ...across('sdk', 'fetch'), goal: '-', pass: undefined, data },
    { name: 'orders.get with a tracer and meter vs without (context)', ...across('sdkTraced', 'sdk'), goal: '-', pass: undefined, data },
    { name: 'orders.get cache:false vs raw fetch', ...across('sdkNoCache', 'fetch'), goal: '-', pass: undefined, data },
    { name: 'bare ky vs raw fetch (context)', ...across('ky', 'fetch'), goal: '-', pass: undefined, data },
  ];
}
