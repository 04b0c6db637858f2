/**
 * The benchmark harness: interleaved rounds with warm-up and medians, a loopback
 * server, the result table and bench/results.json. Benchmarks are never timed tests:
 * they print ratios against a baseline measured in the same run.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/** One line of the final table. `pass` is undefined for a figure reported without a goal. */
export interface Row {
  name: string;
  measured: string;
  baseline: string;
  ratio: number;
  goal: string;
  pass: boolean | undefined;
  /** Raw numbers for bench/results.json. */
  data?: Record<string, unknown>;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Milliseconds taken by one call. */
export async function time(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Runs every variant `warmup` times, then `rounds` times, interleaved (the order rotates
 * each round, so drift in machine load hits every variant alike), and returns the median
 * milliseconds per variant.
 */
export async function compare<K extends string>(
  variants: Record<K, () => Promise<unknown> | unknown>,
  { warmup = 1, rounds = 5 }: { warmup?: number; rounds?: number } = {},
): Promise<Record<K, number> & { samples: Record<K, number[]> }> {
  const names = Object.keys(variants) as K[];
  for (let i = 0; i < warmup; i++) for (const name of names) await variants[name]();
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length] as K;
      samples[name].push(await time(variants[name]));
    }
  }
  const medians = Object.fromEntries(names.map((n) => [n, median(samples[n])])) as Record<K, number>;
  return Object.assign(medians, { samples });
}

/**
 * Like `compare`, for variants that run `n` calls starting at `offset`: each round gives every
 * variant `calls` calls, in slices of `slice` calls taken in turn (the order reverses every slice), so
 * that drift in machine load and garbage collection within a round hits every variant
 * alike. Returns the median of the rounds' milliseconds per variant.
 */
export async function compareInterleaved<K extends string>(
  variants: Record<K, (n: number, offset: number) => Promise<unknown>>,
  { calls, slice = 100, warmup = 1, rounds = 5 }: { calls: number; slice?: number; warmup?: number; rounds?: number },
): Promise<Record<K, number> & { samples: Record<K, number[]> }> {
  const names = Object.keys(variants) as K[];
  const reversed = [...names].reverse();
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < warmup + rounds; r++) {
    const totals = Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>;
    for (let done = 0, s = 0; done < calls; done += slice, s++) {
      const n = Math.min(slice, calls - done);
      for (const name of s % 2 ? reversed : names) totals[name] += await time(() => variants[name](n, done));
    }
    if (r >= warmup) for (const name of names) samples[name].push(totals[name]);
  }
  const medians = Object.fromEntries(names.map((n) => [n, median(samples[n])])) as Record<K, number>;
  return Object.assign(medians, { samples });
}

/**
 * Runs `exportName` of the module at `file` in `count` fresh processes, one after the other,
 * and returns what each resolved to. A comparison of a few per cent is measured this way:
 * on this machine one process can favour one variant by several per cent for its whole life
 * (what the JIT made of shared code, where the heap fell), which interleaving within the
 * process cannot undo; the median over processes can.
 */
export async function inFreshProcesses<T>(file: URL, exportName: string, count: number, timeoutMs = 5 * 60_000): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i++) {
    results.push(
      await new Promise<T>((resolve, reject) => {
        const child = fork(new URL('./child.ts', import.meta.url), [file.pathname, exportName], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        // A child that hangs (a stalled socket) is stopped: the run ends, with this comparison failed.
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        let result: { value: T } | undefined;
        child.once('message', (value) => (result = { value: value as T }));
        child.once('error', reject);
        // 'close', not 'exit': the last IPC message is delivered before it.
        child.once('close', (code, signal) => {
          clearTimeout(timer);
          if (result) resolve(result.value);
          else reject(new Error(`${exportName} in a child process ended (${signal ?? code}) with no result`));
        });
      }),
    );
  }
  return results;
}

/**
 * A loopback server in a worker thread that answers every request with `body` exactly
 * `latencyMs` after it arrived. A timer in the client's own process would fire on a
 * millisecond tick, which shifts with the client's work and adds up to a millisecond
 * of noise per call. The worker sleeps on a condition variable until a millisecond and a
 * half before (which wakes late by up to a millisecond on this VM), then spins to the
 * deadline, on its own core: the client's thread is idle meanwhile.
 */
export async function latencyServer(body: Uint8Array, latencyMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const { createServer } = require('node:http');
     const gate = new Int32Array(new SharedArrayBuffer(4));
     const server = createServer({ keepAlive: true }, (req, res) => {
       const due = performance.now() + workerData.latencyMs;
       if (workerData.latencyMs > 1.5) Atomics.wait(gate, 0, 0, workerData.latencyMs - 1.5);
       while (performance.now() < due);
       res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': workerData.body.length });
       res.end(workerData.body);
     });
     server.keepAliveTimeout = 60000;
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
    { eval: true, workerData: { body, latencyMs } },
  );
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await worker.terminate();
    },
  };
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A plain node:http server on 127.0.0.1 (any free port), keep-alive on. */
export async function loopbackServer(handler: Handler): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer({ keepAlive: true }, handler);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Reads a request body (the servers here need it only to count or apply updates). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const fmt = {
  ms: (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`),
  us: (ms: number) => `${(ms * 1000).toFixed(1)} µs`,
  rate: (perSecond: number) =>
    perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)} M/s` : `${(perSecond / 1e3).toFixed(1)} k/s`,
  kb: (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`,
};

export function printTable(rows: readonly Row[]): void {
  const header = ['benchmark', 'measured', 'baseline', 'ratio', 'goal', 'result'];
  const cells = rows.map((r) => [
    r.name,
    r.measured,
    r.baseline,
    Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : '-',
    r.goal,
    r.pass === undefined ? 'info' : r.pass ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i] as number)).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const c of cells) console.log(line(c));
}

export function writeResults(file: URL, rows: readonly Row[], elapsedMs: number): void {
  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
    elapsedSeconds: Math.round(elapsedMs / 100) / 10,
    results: rows.map((r) => ({ ...r, ratio: Number.isFinite(r.ratio) ? Number(r.ratio.toFixed(3)) : null })),
  };
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
}

/**
 * A partial run's rows put into an existing results file: a row of the same name is replaced,
 * a new one added; every other row, and the full run's summary, stay. Each row put in carries
 * the date it was measured.
 */
export function mergeResults(file: URL, rows: readonly Row[]): void {
  const summary = JSON.parse(readFileSync(file, 'utf8')) as { results: (Row & { date?: string })[] };
  const date = new Date().toISOString();
  for (const row of rows) {
    const entry = { ...row, ratio: Number.isFinite(row.ratio) ? Number(row.ratio.toFixed(3)) : Number.NaN, date };
    const at = summary.results.findIndex((r) => r.name === row.name);
    if (at === -1) summary.results.push(entry);
    else summary.results[at] = entry;
  }
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
}
