/**
 * Several instances sharing one token's limit through `emporio/redis` on a real redis-server:
 * N = 1, 2, 4, 8, 16 processes (child processes), each with 4 calls in flight, calling
 * `orders.get` against the mock enforcing LIMIT requests per window, on a single Redis and on a
 * Redis Cluster (one node serving every slot: a script's keys must share a slot, as on any
 * cluster). Per run: the service's refusals (goal 0), the answers per full window against the
 * limit (goal >= 0.95), and Redis commands per request (goal: the same at every N). Then the
 * cost of the shared store on one `orders.get`, beside the same call without it. Short runs:
 * two whole windows of two seconds. Without redis-server on the machine the rows say so instead.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { Redis } from 'ioredis';
import { MarketplaceClient } from 'emporio';
import { redisStores } from 'emporio/redis';
import { startMockMarketplace } from 'emporio/testing';
import { redisServerMissing, startRedisServer } from '../test/redis/redis-server.js';
import type { WorkerCommand, WorkerReport, WorkerSetup } from '../test/redis/worker.js';
import { compare, fmt, type Row } from './harness.js';

const COUNTS = [1, 2, 4, 8, 16];
const IN_FLIGHT = 4;
const LIMIT = 40;
const WINDOW_MS = 2_000;
/** Each run: this many whole windows. */
const WINDOWS = 2;
const WORKER = new URL('../test/redis/worker.ts', import.meta.url).pathname;

type Loaded = Extract<WorkerReport, { loaded: unknown }>['loaded'];

function startWorker(setup: WorkerSetup) {
  const child: ChildProcess = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, EMPORIO_WORKER: JSON.stringify(setup) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = <R>(pick: (report: WorkerReport) => R | undefined) =>
    new Promise<R>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`worker exited (${code})`));
      const onMessage = (report: WorkerReport) => {
        const value = pick(report);
        if (value === undefined) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(value);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    ready: next((report) => ('ready' in report ? true : undefined)),
    load(command: Extract<WorkerCommand, { load: unknown }>['load']): Promise<Loaded> {
      const done = next((report) => ('loaded' in report ? report.loaded : undefined));
      child.send({ load: command } satisfies WorkerCommand);
      return done;
    },
    stop() {
      if (child.connected) child.send({ stop: true } satisfies WorkerCommand);
      return new Promise<void>((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', () => resolve()) : resolve()));
    },
  };
}

export async function benchSeveralInstances(): Promise<Row[]> {
  if (redisServerMissing) {
    return [{ name: 'shared rate limit in N processes on one Redis', measured: 'not run', baseline: redisServerMissing, ratio: Number.NaN, goal: '0 refusals, >= 0.95', pass: undefined }];
  }
  const single = await startRedisServer();
  const cluster = await startRedisServer({ cluster: true });
  const kit = await startMockMarketplace({ port: 0, seedDemoOrders: true, merchantRateLimit: { perMinute: LIMIT, windowMs: WINDOW_MS } });
  const redisUrls = { 'one Redis': single.url, 'a Redis Cluster': cluster.url };
  const workers = Array.from({ length: Math.max(...COUNTS) }, (_, i) =>
    startWorker({ role: 'load', redisUrl: single.url, redisClient: i % 2 ? 'ioredis' : 'node-redis', prefix: 'bench:', loadRedisUrls: Object.values(redisUrls) }),
  );
  const rows: Row[] = [];
  try {
    await Promise.all(workers.map((worker) => worker.ready));
    for (const [where, redisUrl] of Object.entries(redisUrls)) {
      const run = async (count: number, windows: number) => {
        const startAt = Math.ceil((Date.now() + 300) / WINDOW_MS) * WINDOW_MS + 2;
        const durationMs = windows * WINDOW_MS;
        const refusedBefore = kit.mock.rateLimitRefusals;
        const loaded = await Promise.all(
          workers.slice(0, count).map((worker) => worker.load({ baseUrl: kit.url, token: kit.mock.tokens.orders, redisUrl, startAt, durationMs, inFlight: IN_FLIGHT })),
        );
        // The windows wholly within the run (Reset names a window by its end, in epoch seconds).
        const inRun = (reset: string) => Number(reset) * 1000 > startAt && Number(reset) * 1000 <= startAt + durationMs;
        let answered = 0;
        for (const report of loaded) for (const [reset, n] of Object.entries(report.byWindow)) if (inRun(reset)) answered += n;
        const requests = loaded.reduce((sum, report) => sum + report.sent, 0);
        // Counted whole: a caller's last answer goes on its own when it stops (nothing to ride along
        // with), which a short run at many callers shows as a little more per request.
        const commands = loaded.reduce((sum, report) => sum + report.redisCommands, 0);
        const failed = loaded.find((report) => report.failed > 0);
        return {
          refusals: kit.mock.rateLimitRefusals - refusedBefore,
          fill: answered / (windows * LIMIT),
          commandsPerRequest: commands / Math.max(1, requests),
          failed: loaded.reduce((sum, report) => sum + report.failed, 0),
          // Processes that went on with their own view for a while (a store call past its bound).
          fellBack: loaded.filter((report) => report.fellBack > 0).length,
          firstError: failed?.firstError,
        };
      };
      await run(Math.max(...COUNTS), 1); // warm-up: the token's figures and window length are known after it
      for (const count of COUNTS) {
        const result = await run(count, WINDOWS);
        const pass = result.refusals === 0 && result.fill >= 0.95 && result.failed === 0;
        rows.push({
          name: `shared limit, ${count} process${count > 1 ? 'es' : ''} x ${IN_FLIGHT} in flight, ${where}: answers per window / limit`,
          measured: `${result.fill.toFixed(2)} of the limit; ${result.refusals} refusals; ${result.commandsPerRequest.toFixed(2)} Redis commands/request${result.fellBack ? `; ${result.fellBack} fell back` : ''}`,
          baseline: `${LIMIT} req/${WINDOW_MS / 1000} s, ${WINDOWS} windows`,
          ratio: result.fill,
          goal: '>= 0.95, 0 refusals',
          pass,
          data: { processes: count, inFlight: IN_FLIGHT, limit: LIMIT, windowMs: WINDOW_MS, windows: WINDOWS, ...result },
        });
      }
    }
    rows.push(await storeCost(single.url));
    const perRequest = rows.filter((row) => typeof row.data?.commandsPerRequest === 'number').map((row) => row.data?.commandsPerRequest as number);
    const spread = Math.max(...perRequest) / Math.min(...perRequest);
    rows.push({
      name: 'shared limit: Redis commands per request, largest over smallest across N',
      measured: `${Math.min(...perRequest).toFixed(2)}-${Math.max(...perRequest).toFixed(2)}`,
      baseline: `N = ${COUNTS.join(', ')}`,
      ratio: spread,
      goal: '<= 1.5 (constant in N)',
      pass: spread <= 1.5,
    });
    return rows;
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await kit.close();
    await Promise.all([single.stop(), cluster.stop()]);
  }
}

/** `orders.get` with the shared store beside the same call without it, on loopback (no window to wait for). */
async function storeCost(redisUrl: string): Promise<Row> {
  const free = await startMockMarketplace({ port: 0, seedDemoOrders: true });
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const options = { baseUrl: free.url, vendor: 'marketplace', tokens: { orders: free.mock.tokens.orders }, cache: false as const, maxRetries: 0 };
    const plain = new MarketplaceClient(options);
    const shared = new MarketplaceClient({ ...options, rateLimitStore: redisStores(redis, { prefix: 'cost:' }).rateLimitStore });
    const calls = 200;
    const loop = (client: MarketplaceClient) => async () => {
      for (let i = 0; i < calls; i++) await client.orders.get('DEMO-OPEN');
    };
    const result = await compare({ plain: loop(plain), shared: loop(shared) }, { warmup: 1, rounds: 5 });
    const ratio = result.shared / result.plain;
    return {
      name: 'orders.get with the shared limit on Redis vs without (loopback)',
      measured: fmt.us(result.shared / calls),
      baseline: `${fmt.us(result.plain / calls)} without Redis`,
      ratio,
      goal: 'report',
      pass: undefined,
      data: { calls, samples: result.samples },
    };
  } finally {
    redis.disconnect();
    await free.close();
  }
}
