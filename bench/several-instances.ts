/**
 * Several instances: `products.updateMany` in 4 processes (child processes, one token)
 * sharing the rate-limit state through `emporio/redis` on a real redis-server, against the
 * mock enforcing LIMIT requests per 1 s window. Wall time (from a common start on a window
 * boundary to the last process done) against the minimum the limit allows, computed as in
 * bulk-inventory from the same 4 processes' unthrottled time; and the mock's 403 count.
 * Without redis-server on the machine the rows say so instead.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { startMockMarketplace } from 'emporio/testing';
import { redisServerMissing, startRedisServer } from '../test/redis/redis-server.js';
import type { WorkerCommand, WorkerReport, WorkerSetup } from '../test/redis/worker.js';
import { fmt, median, type Row } from './harness.js';

const PROCESSES = 4;
const UPDATES = 25_000; // per process: 50 requests of 500
const LIMIT = 40;
const WINDOW_MS = 1_000;
const ROUNDS = 3;
const WORKER = new URL('../test/redis/worker.ts', import.meta.url).pathname;

type Ran = Extract<WorkerReport, { ran: unknown }>['ran'];

function startWorker(setup: WorkerSetup) {
  const child: ChildProcess = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, EMPORIO_WORKER: JSON.stringify(setup) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = <R>(pick: (report: WorkerReport) => R | undefined) =>
    new Promise<R>((resolve, reject) => {
      const onMessage = (report: WorkerReport) => {
        const value = pick(report);
        if (value === undefined) return;
        child.off('message', onMessage);
        resolve(value);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`worker exited (${code})`)));
    });
  return {
    ready: next((report) => ('ready' in report ? true : undefined)),
    run(baseUrl: string, startAt: number): Promise<Ran> {
      const done = next((report) => ('ran' in report ? report.ran : undefined));
      child.send({ run: { baseUrl, startAt } } satisfies WorkerCommand);
      return done;
    },
    stop() {
      if (child.connected) child.send({ stop: true } satisfies WorkerCommand);
      return new Promise<void>((resolve) => (child.exitCode === null ? child.once('exit', () => resolve()) : resolve()));
    },
  };
}

export async function benchSeveralInstances(): Promise<Row[]> {
  if (redisServerMissing) {
    return [{ name: `updateMany in ${PROCESSES} processes on one Redis`, measured: 'not run', baseline: redisServerMissing, ratio: Number.NaN, goal: '<= 1.05', pass: undefined }];
  }
  const redis = await startRedisServer();
  const free = await startMockMarketplace({ port: 0, seedDemoOrders: false });
  const limited = await startMockMarketplace({ port: 0, seedDemoOrders: false, merchantRateLimit: { perMinute: LIMIT, windowMs: WINDOW_MS } });
  const workers = Array.from({ length: PROCESSES }, (_, i) =>
    startWorker({
      role: 'updates',
      redisUrl: redis.url,
      redisClient: i % 2 ? 'ioredis' : 'node-redis',
      prefix: 'bench:',
      token: limited.mock.tokens.products,
      updates: UPDATES,
      offset: i * UPDATES,
    }),
  );
  const runAll = async (url: string) => {
    const startAt = Math.ceil((Date.now() + 200) / WINDOW_MS) * WINDOW_MS + 2;
    const runs = await Promise.all(workers.map((worker) => worker.run(url, startAt)));
    for (const run of runs) if (run.applied !== UPDATES) throw new Error(`a process applied ${run.applied} of ${UPDATES}: ${run.firstError}`);
    return Math.max(...runs.map((run) => run.endedAt)) - startAt;
  };
  try {
    await Promise.all(workers.map((worker) => worker.ready));
    await runAll(free.url); // warm-up
    const unthrottledMs = await runAll(free.url);
    const requests = (PROCESSES * UPDATES) / 500;
    const windows = Math.ceil(requests / LIMIT);
    const lastWindowRequests = requests - (windows - 1) * LIMIT;
    const minimumMs = Math.max(unthrottledMs, (windows - 1) * WINDOW_MS + (unthrottledMs * lastWindowRequests) / requests);
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) samples.push(await runAll(limited.url));
    const wall = median(samples);
    const refusals = limited.mock.rateLimitRefusals;
    return [
      {
        name: `updateMany in ${PROCESSES} processes on one Redis, ${LIMIT} req/${WINDOW_MS / 1000} s shared limit`,
        measured: fmt.ms(wall),
        baseline: `${fmt.ms(minimumMs)} minimum`,
        ratio: wall / minimumMs,
        goal: '<= 1.05',
        pass: wall / minimumMs <= 1.05,
        data: { processes: PROCESSES, updatesPerProcess: UPDATES, requests, limit: LIMIT, windowMs: WINDOW_MS, unthrottledMs, minimumMs, samples },
      },
      {
        name: `updateMany in ${PROCESSES} processes: 403 answers (server count)`,
        measured: String(refusals),
        baseline: `${ROUNDS} runs`,
        ratio: refusals,
        goal: '0',
        pass: refusals === 0,
      },
    ];
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await Promise.all([free.close(), limited.close()]);
    await redis.stop();
  }
}
