/**
 * The feed writer and the order call, counted in instructions instead of time (opt-in:
 * `npm run bench -- instructions`, about 15 minutes; needs valgrind, `apt-get install valgrind`).
 *
 * On a shared virtual machine the time benchmarks' variants move 10-40% between processes, more
 * than the differences their goals judge. The instructions a workload executes barely move: each
 * figure here is the count valgrind's cachegrind reports for a run of N2 units less that of a run
 * of N1 units, over N2 - N1, so start-up and the JIT's warm-up cancel out. V8 runs in its
 * predictable mode: one thread, and no collection started by a timer (without it, the template
 * writer's count moved by a third between two runs, as collections fell by the clock under
 * valgrind's slowdown). Even so, about one run in four counts some 5% more than the others, which
 * agree within 0.2% (the cause not found): each count is the lower of two runs.
 *
 * What a count leaves out: the kernel (system calls, page faults, copying into the page cache)
 * and what an instruction costs (cache misses, stalls). The order call's count still depends on
 * time: the client's event loop turns while it waits, more of them when the server (or the
 * machine) is slow, so it moves more than the feed's (1.02-1.09 × bare ky in four runs, the
 * highest beside a test run). These rows are context for the time goals of `feed` and
 * `request-overhead`, not goals of their own.
 */
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Row } from './harness.js';

/** Units per run: the first runs warm everything up (an order call's JIT takes some 1,500 calls to settle). */
const FEED_PRODUCTS = [20_000, 100_000] as const;
const ORDER_CALLS = [2_000, 4_000] as const;

const SOURCE = fileURLToPath(new URL('./instructions-workload.ts', import.meta.url));
/**
 * The workloads as plain JavaScript, importing `emporio` as users do (the built package, by its
 * exports): run through tsx, the counts of one workload moved by a fifth or more between runs, and
 * tsx maps `emporio` to the TypeScript sources.
 */
const WORKLOAD = fileURLToPath(new URL('./.instructions-workload.mjs', import.meta.url));

/** The instructions a run of `workload` over `n` units executes (user space, every thread of the process): the lower of two runs. */
async function instructions(workload: string, n: number): Promise<number> {
  return Math.min(await run(workload, n), await run(workload, n));
}

function run(workload: string, n: number): Promise<number> {
  const args = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--predictable', WORKLOAD, workload, String(n)];
  return new Promise((resolve, reject) => {
    execFile('valgrind', args, { maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000 }, (error, _stdout, stderr) => {
      const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if (error || refs === null) reject(new Error(`valgrind ${workload} ${n} failed: ${error?.message ?? stderr.slice(-500)}`));
      else resolve(Number(refs[1]!.replaceAll(',', '')));
    });
  });
}

/** Instructions per unit of `workload`, start-up and warm-up left out. */
async function perUnit(workload: string, [n1, n2]: readonly [number, number]): Promise<number> {
  const first = await instructions(workload, n1);
  const second = await instructions(workload, n2);
  return (second - first) / (n2 - n1);
}

function hasValgrind(): Promise<boolean> {
  return new Promise((resolve) => execFile('valgrind', ['--version'], (error) => resolve(error === null)));
}

const count = (n: number) => `${Math.round(n).toLocaleString('en')} instructions`;

export async function benchInstructions(): Promise<Row[]> {
  if (!(await hasValgrind())) throw new Error('valgrind is not installed (on Debian: apt-get install valgrind)');
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) throw new Error('no build to count: run `npm run build` first');
  // Every package stays an import (`emporio` too: no tsconfig, so no path to the sources).
  await build({ entryPoints: [SOURCE], outfile: WORKLOAD, bundle: true, packages: 'external', platform: 'node', format: 'esm', tsconfigRaw: '{}', logLevel: 'warning' });
  try {
    return rows(
      { sdk: await perUnit('feed-sdk', FEED_PRODUCTS), template: await perUnit('feed-template', FEED_PRODUCTS) },
      { sdk: await perUnit('orders-sdk', ORDER_CALLS), ky: await perUnit('orders-ky', ORDER_CALLS), fetch: await perUnit('orders-fetch', ORDER_CALLS) },
    );
  } finally {
    rmSync(WORKLOAD, { force: true });
  }
}

function rows(feed: { sdk: number; template: number }, orders: { sdk: number; ky: number; fetch: number }): Row[] {
  /** A context row: `measured` against `baseline`, as a cost (lower is better). */
  const row = (name: string, measured: number, baseline: number, label: string, data: Row['data']): Row => ({
    name: `instructions: ${name}`,
    measured: count(measured),
    baseline: `${count(baseline)} ${label}`,
    ratio: measured / baseline,
    goal: '-',
    pass: undefined,
    data,
  });
  const calls = { calls: ORDER_CALLS, perCall: orders };
  return [
    {
      ...row('feed write per product (writeFeed, checked, vs the chunked template writer; output dropped)', feed.sdk, feed.template, 'template', {
        products: FEED_PRODUCTS,
        perProduct: feed,
      }),
      // As throughput, like the feed bench's own row: the baseline's cost over the writer's.
      ratio: feed.template / feed.sdk,
    },
    row('orders.get per call vs bare ky (the client process, loopback server apart)', orders.sdk, orders.ky, 'bare ky', calls),
    row('orders.get per call vs raw fetch', orders.sdk, orders.fetch, 'raw fetch', calls),
    row('bare ky per call vs raw fetch', orders.ky, orders.fetch, 'raw fetch', calls),
  ];
}
