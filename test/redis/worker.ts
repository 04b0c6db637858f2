/**
 * One process of the multi-process tests (run with `node --import tsx`, started with
 * child_process.fork): a client sending product updates, or a webhook handler, sharing
 * its state with its siblings through `emporio/redis`. Talks to the test over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createWebhookHandler, MarketplaceClient, toNodeHandler } from 'emporio';
import { type NodeRedisClientLike, type RedisClientLike, redisStores } from 'emporio/redis';

export interface WorkerSetup {
  role: 'updates' | 'webhooks' | 'load';
  redisUrl: string;
  redisClient: 'node-redis' | 'ioredis';
  prefix: string;
  /** updates: the kit's URL and products token, and which updates this process sends. */
  baseUrl?: string;
  token?: string;
  updates?: number;
  offset?: number;
  /** Send the updates as `batchUpdate` calls of this many, two at a time (default: one `updateMany`). */
  batchSize?: number;
  /** webhooks: the handler's claim lease, and how long onEvent takes (default 30 ms). */
  claimLeaseMs?: number;
  onEventMs?: number;
  /** webhooks: a delivery of this order code kills the process mid-onEvent. */
  crashOn?: string;
  /** load: every Redis the runs may use (each connected once, at the start). */
  loadRedisUrls?: string[];
}

/**
 * Test → worker: run the updates against `baseUrl` from `startAt` (epoch ms); or (load) call
 * `orders.get` with `inFlight` calls at a time from `startAt` for `durationMs`, sharing the limits
 * through the Redis at `redisUrl` (one of `loadRedisUrls`); or stop.
 */
export type WorkerCommand =
  | { run: { baseUrl: string; startAt: number } }
  | { load: { baseUrl: string; token: string; redisUrl: string; startAt: number; durationMs: number; inFlight: number } }
  | { stop: true };

/** Worker → test. */
export type WorkerReport =
  | { ready: true; port?: number }
  | { ran: { startAt: number; endedAt: number; applied: number; failed: number; refusals: number; requests: number; windows: string[]; firstError?: string } }
  | {
      loaded: {
        ok: number;
        refusals: number;
        failed: number;
        /** Redis commands, and requests sent. */
        redisCommands: number;
        sent: number;
        fellBack: number;
        byWindow: Record<string, number>;
        firstError?: string;
      };
    }
  | { handled: string }
  | { started: string }
  | { log: string };

const send = (report: WorkerReport) => process.send?.(report);
const setup = JSON.parse(process.env.EMPORIO_WORKER ?? '{}') as WorkerSetup;

async function connect(url = setup.redisUrl): Promise<{ client: RedisClientLike; close(): Promise<void> }> {
  if (setup.redisClient === 'ioredis') {
    const client = new Redis(url, { retryStrategy: () => 100, maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return { client, close: async () => client.disconnect() };
  }
  const client = createClient({ url, socket: { reconnectStrategy: 100 } });
  client.on('error', () => {});
  await client.connect();
  return { client, close: async () => void client.destroy() };
}

const redis = await connect();
const logger = { warn: (message: string) => send({ log: `warn ${message}` }), info: (message: string) => send({ log: `info ${message}` }) };
const stores = redisStores(redis.client, { prefix: setup.prefix, logger });
const closers: (() => Promise<void>)[] = [() => redis.close()];

/** A Redis client that counts the commands it sends. */
function counting(client: RedisClientLike, count: { commands: number }): RedisClientLike {
  if ('call' in client) {
    return {
      call: (command: string, ...args: string[]) => {
        count.commands++;
        return client.call(command, ...args);
      },
      get status() {
        return client.status;
      },
    };
  }
  const nodeRedis = client as NodeRedisClientLike;
  return {
    sendCommand: (args: string[]) => {
      count.commands++;
      return nodeRedis.sendCommand(args);
    },
    get isReady() {
      return nodeRedis.isReady;
    },
  };
}

const loadStores = new Map<string, { stores: ReturnType<typeof redisStores>; count: { commands: number } }>();
for (const url of setup.loadRedisUrls ?? []) {
  const connection = await connect(url);
  closers.push(() => connection.close());
  const count = { commands: 0 };
  loadStores.set(url, { stores: redisStores(counting(connection.client, count), { prefix: setup.prefix, logger }), count });
}

if (setup.role === 'webhooks') {
  const handler = createWebhookHandler({
    urlSecret: false,
    allowedRanges: false,
    dedupe: stores.dedupe,
    ...(setup.claimLeaseMs ? { claimLeaseMs: setup.claimLeaseMs } : {}),
    onEvent: async (event) => {
      const code = String(event.order?.code);
      await new Promise<void>((resolve) => (process.send ? process.send({ started: code } satisfies WorkerReport, () => resolve()) : resolve()));
      // A crash mid-delivery: the claim is never released nor marked handled.
      if (code === setup.crashOn) process.kill(process.pid, 'SIGKILL');
      // Long enough for the sibling's copy of the delivery to arrive meanwhile.
      await new Promise((resolve) => setTimeout(resolve, setup.onEventMs ?? 30));
      send({ handled: code });
    },
  });
  const server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  send({ ready: true, port: (server.address() as AddressInfo).port });
} else {
  send({ ready: true });
}

/** `inFlight` loops of orders.get from `startAt` until `durationMs` after it; the 2xx answers counted by their window (X-RateLimit-Reset). */
async function load({ baseUrl, token, redisUrl, startAt, durationMs, inFlight }: Extract<WorkerCommand, { load: unknown }>['load']) {
  const shared = loadStores.get(redisUrl);
  if (!shared) throw new Error(`not connected to ${redisUrl}`);
  const byWindow: Record<string, number> = {};
  let refusals = 0;
  let failed = 0;
  let fellBack = 0;
  let sent = 0;
  let firstError: string | undefined;
  const client = new MarketplaceClient({
    baseUrl,
    vendor: 'marketplace',
    tokens: { orders: token },
    cache: false,
    maxRetries: 0,
    rateLimitStore: shared.stores.rateLimitStore,
    logger: {
      debug() {},
      warn: (message) => {
        fellBack++;
        send({ log: `client warn ${message}` });
      },
    },
    hooks: {
      onRequest: () => {
        sent++;
      },
      onResponse: ({ status, headers }) => {
        if (status === 403 || status === 429) refusals++;
        else if (status === 200) byWindow[headers['x-ratelimit-reset'] ?? '?'] = (byWindow[headers['x-ratelimit-reset'] ?? '?'] ?? 0) + 1;
      },
    },
  });
  const before = shared.count.commands;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const until = startAt + durationMs;
  const loop = async () => {
    while (Date.now() < until) {
      await client.orders.get('DEMO-OPEN').catch((error: unknown) => {
        failed++;
        firstError ??= String(error);
      });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  await new Promise((resolve) => setTimeout(resolve, 20)); // the last answers go to the store
  send({ loaded: { ok: Object.values(byWindow).reduce((sum, n) => sum + n, 0), refusals, failed, redisCommands: shared.count.commands - before, sent, fellBack, byWindow, firstError } });
}

process.on('message', async (command: WorkerCommand) => {
  if ('stop' in command) {
    for (const close of closers) await close().catch(() => {});
    process.exit(0);
  }
  if ('load' in command) return load(command.load);
  const { baseUrl, startAt } = command.run;
  let refusals = 0;
  let requests = 0;
  /** The service windows (their X-RateLimit-Reset) this process's requests went in. */
  const windows = new Set<string>();
  const client = new MarketplaceClient({
    baseUrl,
    vendor: 'marketplace',
    tokens: { products: setup.token as string },
    rateLimitStore: stores.rateLimitStore,
    // While Redis is down each process paces by its own view, so together they overrun the
    // window: the 403s wait for its reset and are retried.
    maxRetries: 6,
    logger: { debug() {}, warn: (message) => send({ log: `client warn ${message}` }) },
    hooks: {
      onResponse: ({ status, headers }) => {
        const reset = headers['x-ratelimit-reset'];
        if (reset !== undefined) windows.add(reset);
        requests++;
        if (status === 403 || status === 429) refusals++;
      },
    },
  });
  const offset = setup.offset ?? 0;
  const updates = Array.from({ length: setup.updates ?? 0 }, (_, i) => ({
    product_id: `p${offset + i}`,
    quantity: i % 50,
    enabled: true,
    price: 1_000 + i,
  }));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  let applied = 0;
  let failed = 0;
  let firstError: string | undefined;
  if (setup.batchSize) {
    const size = setup.batchSize;
    const batches = Array.from({ length: Math.ceil(updates.length / size) }, (_, i) => updates.slice(i * size, (i + 1) * size));
    // Two at a time (8 for 4 processes, within the limit of 10 before any answer told it), so a
    // window's room is taken at its start even when the machine is slow.
    const send = async () => {
      for (let batch = batches.shift(); batch; batch = batches.shift()) {
        try {
          await client.products.batchUpdate(batch);
          applied += batch.length;
        } catch (error) {
          failed += batch.length;
          firstError ??= String(error);
        }
      }
    };
    await Promise.all([send(), send()]);
  } else {
    const report = await client.products.updateMany(updates);
    applied = report.applied.length;
    failed = report.failed.length;
    firstError = report.failed[0]?.error.message;
  }
  send({ ran: { startAt, endedAt: Date.now(), applied, failed, refusals, requests, windows: [...windows], firstError } });
});
