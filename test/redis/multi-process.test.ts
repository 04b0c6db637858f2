/**
 * Several processes on one Redis (child processes, each its own event loop and client):
 * four senders sharing one token's limit, two webhook handlers receiving the same
 * deliveries, and Redis stopped in the middle of both.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { newOrderBody, recordedOrder } from '../webhooks/events.js';
import { type RedisServer, redisServerMissing, startRedisServer } from './redis-server.js';
import type { WorkerCommand, WorkerReport, WorkerSetup } from './worker.js';

const WORKER = new URL('./worker.ts', import.meta.url).pathname;
const LIMIT = 10;
/** Two seconds: room for a loaded machine to send a window's requests within it. */
const WINDOW_MS = 2_000;
const PROCESSES = 4;
/** Per process: 10 requests of 20 updates (small, so the windows decide the time, not the machine). */
const UPDATES = 200;
const BATCH = 20;

interface Worker {
  child: ChildProcess;
  reports: WorkerReport[];
  /** The next report that `matches`. */
  next<R extends WorkerReport>(matches: (report: WorkerReport) => report is R, timeoutMs?: number): Promise<R>;
  command(command: WorkerCommand): void;
}

function startWorker(setup: WorkerSetup): Worker {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, EMPORIO_WORKER: JSON.stringify(setup) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reports: WorkerReport[] = [];
  const waiters = new Set<() => void>();
  child.on('message', (report: WorkerReport) => {
    reports.push(report);
    for (const wake of waiters) wake();
  });
  child.on('exit', () => {
    for (const wake of waiters) wake();
  });
  let seen = 0;
  return {
    child,
    reports,
    next(matches, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          while (seen < reports.length) {
            const report = reports[seen++] as WorkerReport;
            if (matches(report)) {
              waiters.delete(check);
              clearTimeout(timer);
              return resolve(report);
            }
          }
          if (child.exitCode !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`worker exited (${child.exitCode})`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('worker did not report in time'));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    command: (command) => child.send(command),
  };
}

const isReady = (report: WorkerReport): report is Extract<WorkerReport, { ready: true }> => 'ready' in report;
const isRun = (report: WorkerReport): report is Extract<WorkerReport, { ran: unknown }> => 'ran' in report;

async function stopWorker(worker: Worker): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  if (worker.child.connected) worker.command({ stop: true });
  const timer = setTimeout(() => worker.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The next window boundary at least `leadMs` away: runs start there, as the minimum assumes. */
const nextWindowStart = (leadMs = 200) => Math.ceil((Date.now() + leadMs) / WINDOW_MS) * WINDOW_MS + 2;

describe.skipIf(redisServerMissing !== undefined)('several processes on one Redis', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const redisServer = async (): Promise<RedisServer> => {
    const server = await startRedisServer();
    cleanup.push(() => server.stop());
    return server;
  };
  const kit = async (limited: boolean): Promise<RunningMockMarketplace> => {
    const server = await startMockMarketplace({
      port: 0,
      seedDemoOrders: false,
      ...(limited ? { merchantRateLimit: { perMinute: LIMIT, windowMs: WINDOW_MS } } : {}),
    });
    cleanup.push(() => server.close());
    return server;
  };
  const workers = (count: number, setup: (i: number) => WorkerSetup): Worker[] => {
    const started = Array.from({ length: count }, (_, i) => startWorker(setup(i)));
    cleanup.push(() => Promise.all(started.map(stopWorker)).then(() => {}));
    return started;
  };
  /** One sender per process, half on node-redis and half on ioredis, each with its own share of the updates; ready. */
  const updateSenders = async (redis: RedisServer, limited: RunningMockMarketplace): Promise<Worker[]> => {
    const senders = workers(PROCESSES, (i) => ({
      role: 'updates',
      redisUrl: redis.url,
      redisClient: i % 2 ? 'ioredis' : 'node-redis',
      prefix: 'limits:',
      token: limited.mock.tokens.products,
      updates: UPDATES,
      offset: i * UPDATES,
      batchSize: BATCH,
    }));
    await Promise.all(senders.map((sender) => sender.next(isReady)));
    return senders;
  };
  /** Every worker runs its updates against `url` from the next window boundary; the time to the last one done. */
  const runAll = async (senders: Worker[], url: string) => {
    const startAt = nextWindowStart();
    for (const sender of senders) sender.command({ run: { baseUrl: url, startAt } });
    const runs = await Promise.all(senders.map((sender) => sender.next(isRun)));
    return { ms: Math.max(...runs.map((run) => run.ran.endedAt)) - startAt, runs: runs.map((run) => run.ran) };
  };

  it('4 processes sharing one token keep to its limit together: no 403, and at most one window left part-used', async () => {
    const redis = await redisServer();
    const limited = await kit(true);
    const senders = await updateSenders(redis, limited);
    const { runs } = await runAll(senders, limited.url);

    for (const run of runs) expect(run).toMatchObject({ applied: UPDATES, failed: 0, refusals: 0 });
    expect(limited.mock.rateLimitRefusals).toBe(0);
    expect(limited.mock.inventory.size).toBe(PROCESSES * UPDATES);
    // Together they took the fewest windows the limit allows, or one more: a request let go in a window's
    // last fifth waits for the next one (it could reach the service there), which a loaded machine's
    // slow calls can leave part-used.
    // (The time against the minimum is a bench row, `npm run bench -- several-instances`.)
    const requests = (PROCESSES * UPDATES) / BATCH;
    const windows = new Set(runs.flatMap((run) => run.windows)).size;
    expect(windows).toBeGreaterThanOrEqual(Math.ceil(requests / LIMIT));
    expect(windows).toBeLessThanOrEqual(Math.ceil(requests / LIMIT) + 1);
  }, 60_000);

  it('Redis stopped mid-run: every update is still sent and applied (each process on its own view)', async () => {
    const redis = await redisServer();
    const limited = await kit(true);
    const senders = await updateSenders(redis, limited);
    const startAt = nextWindowStart();
    for (const sender of senders) sender.command({ run: { baseUrl: limited.url, startAt } });
    // Four windows' worth of requests: stopped in the first, most of them are still to go.
    await new Promise((resolve) => setTimeout(resolve, startAt - Date.now() + 1_500));
    await redis.stop();
    const runs = await Promise.all(senders.map((sender) => sender.next(isRun)));
    for (const run of runs) expect(run.ran).toMatchObject({ applied: UPDATES, failed: 0 });
    expect(Math.min(...runs.map((run) => run.ran.endedAt))).toBeGreaterThan(startAt + 1_500);
    expect(limited.mock.inventory.size).toBe(PROCESSES * UPDATES);
    const logs = senders.flatMap((sender) => sender.reports.flatMap((report) => ('log' in report ? [report.log] : [])));
    expect(logs.some((line) => line.includes("this process's own view"))).toBe(true);
  }, 60_000);

  it('2 webhook handlers receiving the same 50 deliveries at once call onEvent once per delivery; with Redis stopped, deliveries are still handled', async () => {
    const redis = await redisServer();
    const handlers = workers(2, (i) => ({
      role: 'webhooks',
      redisUrl: redis.url,
      redisClient: i % 2 ? 'ioredis' : 'node-redis',
      prefix: 'webhooks:',
    }));
    const ports = (await Promise.all(handlers.map((handler) => handler.next(isReady)))).map((ready) => ready.port);
    const order = recordedOrder();
    const deliver = (code: string) => {
      const body = JSON.stringify(newOrderBody({ ...order, code }));
      return Promise.all(
        ports.map((port) =>
          fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(
            (response) => response.status,
          ),
        ),
      );
    };
    const handledCodes = () => handlers.flatMap((handler) => handler.reports.flatMap((report) => ('handled' in report ? [report.handled] : [])));

    const codes = Array.from({ length: 50 }, (_, i) => `C-${i}`);
    const statuses = await Promise.all(codes.map(deliver));
    const handled = handledCodes();
    expect(handled.toSorted()).toEqual(codes.toSorted());
    // Each delivery: one handler handled it (200), the other saw it in progress (409) or handled (200).
    for (const pair of statuses) {
      expect(pair).toContain(200);
      for (const status of pair) expect([200, 409]).toContain(status);
    }

    await redis.stop();
    const later = Array.from({ length: 5 }, (_, i) => `D-${i}`);
    const laterStatuses = await Promise.all(later.map(deliver));
    for (const pair of laterStatuses) expect(pair).toEqual([200, 200]);
    const handledLater = handledCodes().filter((code) => code.startsWith('D-'));
    for (const code of later) expect(handledLater).toContain(code);
    const logs = handlers.flatMap((handler) => handler.reports.flatMap((report) => ('log' in report ? [report.log] : [])));
    expect(logs.some((line) => line.includes('at least once'))).toBe(true);
  }, 60_000);
});

describe.skipIf(redisServerMissing !== undefined)('a webhook handler that crashes mid-delivery', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /**
   * The service's retries 5, 30 and 60 s apart, with a 10 s lease (the default), in real time
   * shortened 10 times (room for a loaded machine's delays): a lease of 1 s, retries 0.5, 3 and 6 s apart.
   */
  const SCALE = 10;
  const LEASE_MS = 10_000 / SCALE;
  const GAPS_MS = [5_000, 30_000, 60_000].map((gap) => gap / SCALE);

  it('frees its claim within the lease: of retries 5, 30 and 60 s apart to a second process, one handles it, once; the first gets 409, the last 200', async () => {
    const redis = await startRedisServer();
    cleanup.push(() => redis.stop());
    const handlers = [0, 1].map((i) =>
      startWorker({
        role: 'webhooks',
        redisUrl: redis.url,
        redisClient: i % 2 ? 'ioredis' : 'node-redis',
        prefix: 'crash:',
        claimLeaseMs: LEASE_MS,
        ...(i === 0 ? { crashOn: 'CRASH-1' } : {}),
      }),
    );
    cleanup.push(() => Promise.all(handlers.map(stopWorker)).then(() => {}));
    const [crashing, surviving] = handlers as [Worker, Worker];
    const ports = (await Promise.all(handlers.map((handler) => handler.next(isReady)))).map((ready) => ready.port);
    const body = JSON.stringify(newOrderBody({ ...recordedOrder(), code: 'CRASH-1' }));
    const deliver = (port: number | undefined) =>
      fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(
        (response) => response.status,
        () => 'no answer' as const,
      );

    const exited = new Promise((resolve) => crashing.child.once('exit', resolve));
    expect(await deliver(ports[0])).toBe('no answer');
    await exited;
    expect(crashing.reports.some((report) => 'started' in report && report.started === 'CRASH-1')).toBe(true);
    const statuses: (number | string)[] = [];
    for (const gap of GAPS_MS) {
      await new Promise((resolve) => setTimeout(resolve, gap));
      statuses.push(await deliver(ports[1]));
    }
    // 5 s later the lease still stood (409: the service retries); 30 s later it had lapsed, and
    // the retry was handled; 60 s after that, the handled mark answers.
    expect(statuses).toEqual([409, 200, 200]);
    const handled = surviving.reports.flatMap((report) => ('handled' in report ? [report.handled] : []));
    expect(handled).toEqual(['CRASH-1']);
  }, 40_000);

  it('while onEvent runs longer than the lease, the claim is renewed: a retry to a second process meanwhile gets 409', async () => {
    const redis = await startRedisServer();
    cleanup.push(() => redis.stop());
    const handlers = [0, 1].map((i) =>
      startWorker({ role: 'webhooks', redisUrl: redis.url, redisClient: i % 2 ? 'ioredis' : 'node-redis', prefix: 'renew:', claimLeaseMs: LEASE_MS, onEventMs: LEASE_MS * 4 }),
    );
    cleanup.push(() => Promise.all(handlers.map(stopWorker)).then(() => {}));
    const ports = (await Promise.all(handlers.map((handler) => handler.next(isReady)))).map((ready) => ready.port);
    const body = JSON.stringify(newOrderBody({ ...recordedOrder(), code: 'SLOW-1' }));
    const deliver = (port: number | undefined) =>
      fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then((response) => response.status);
    const first = deliver(ports[0]);
    const retries: number[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
      retries.push(await deliver(ports[1]));
    }
    expect(await first).toBe(200);
    expect(retries).toEqual([409, 409, 409]);
    const handled = handlers.flatMap((handler) => handler.reports.flatMap((report) => ('handled' in report ? [report.handled] : [])));
    expect(handled).toEqual(['SLOW-1']);
  }, 30_000);
});
