/**
 * One process of the inbox tests (run with `node --import tsx`, started with child_process.fork):
 * a webhook handler appending to the Redis inbox, or a processInbox worker taking from it.
 * Talks to the test over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createWebhookHandler, processInbox, toNodeHandler, type WebhookEvent } from 'emporio/webhooks';
import { type RedisClientLike, redisStores } from 'emporio/redis';

export interface InboxWorkerSetup {
  role: 'handler' | 'worker';
  redisUrl: string;
  redisClient: 'node-redis' | 'ioredis';
  prefix: string;
  /** worker: processInbox's options. */
  concurrency?: number;
  leaseMs?: number;
  /** worker: how long onEvent takes (default 0). */
  onEventMs?: number;
  /** worker: an event of this order kills the process (SIGKILL) mid-onEvent. */
  crashOn?: string;
}

/** One event handled: its order, its number (`order.comments`), this process, when onEvent started and ended. */
export type Handled = [code: string, n: number, pid: number, startedAt: number, endedAt: number];

export type InboxWorkerReport = { ready: true; port?: number } | { started: [code: string, n: number] } | { handled: Handled[] } | { log: string };

const setup = JSON.parse(process.env.EMPORIO_INBOX_WORKER ?? '{}') as InboxWorkerSetup;
const send = (report: InboxWorkerReport) => new Promise<void>((resolve) => (process.send ? process.send(report, () => resolve()) : resolve()));

async function connect(): Promise<{ client: RedisClientLike; close(): Promise<void> }> {
  if (setup.redisClient === 'ioredis') {
    const client = new Redis(setup.redisUrl, { retryStrategy: () => 50, maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return { client, close: async () => client.disconnect() };
  }
  const client = createClient({ url: setup.redisUrl, socket: { reconnectStrategy: 50 } });
  client.on('error', () => {});
  await client.connect();
  return { client, close: async () => void client.destroy() };
}

const redis = await connect();
const logger = { warn: (message: string) => void send({ log: `warn ${message}` }), info: () => {} };
const { inbox } = redisStores(redis.client, { prefix: setup.prefix, logger });
const stop = new AbortController();
let finished: Promise<unknown> = Promise.resolve();

if (setup.role === 'handler') {
  const handler = createWebhookHandler({ inbox, allowedRanges: false, urlSecret: false, onError: () => {} });
  const server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  finished = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => server.close(() => resolve())));
  await send({ ready: true, port: (server.address() as AddressInfo).port });
} else {
  // Handled events go to the test in batches, not one message each.
  let batch: Handled[] = [];
  const flush = () => {
    if (batch.length === 0) return Promise.resolve();
    const sent = batch;
    batch = [];
    return send({ handled: sent });
  };
  const flusher = setInterval(flush, 50);
  const numberOf = (event: WebhookEvent) => Number(event.order?.comments);
  finished = processInbox({
    inbox,
    signal: stop.signal,
    concurrency: setup.concurrency ?? 4,
    leaseMs: setup.leaseMs ?? 2_000,
    pollMs: 100,
    logger,
    onEvent: async (event) => {
      const startedAt = Date.now();
      const code = String(event.order?.code);
      if (code === setup.crashOn) {
        await send({ started: [code, numberOf(event)] });
        process.kill(process.pid, 'SIGKILL');
      }
      if (setup.onEventMs) await new Promise((resolve) => setTimeout(resolve, setup.onEventMs));
      batch.push([code, numberOf(event), process.pid, startedAt, Date.now()]);
    },
  }).finally(() => {
    clearInterval(flusher);
    return flush();
  });
  await send({ ready: true });
}

process.on('message', async (command: { stop: true }) => {
  if (!command.stop) return;
  stop.abort();
  await finished;
  await redis.close().catch(() => {});
  process.exit(0);
});
