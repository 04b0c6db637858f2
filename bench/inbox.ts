/**
 * The webhook inbox on a real redis-server (append-only file, `appendfsync everysec`, as in
 * production): the handler's answer time with the inbox against without it (onEvent taking 50 ms,
 * and doing nothing), events a second through processInbox with 1 and 4 workers, and Redis
 * commands per event (INFO commandstats: round trips, and every command the scripts ran).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createMemoryInbox, createWebhookHandler, processInbox, toNodeHandler, type WebhookHandlerOptions, type WebhookInbox } from 'emporio/webhooks';
import { redisStores } from 'emporio/redis';
import { recordedOrder } from '../test/webhooks/events.js';
import { redisServerMissing, startRedisServer } from '../test/redis/redis-server.js';
import { fmt, median, type Row } from './harness.js';

/** Deliveries per variant and round, one at a time (the service waits for each answer). */
const DELIVERIES = 200;
const ROUNDS = 3;
const ON_EVENT_MS = 50;
const EVENTS = 4_000;
const ORDERS = 400;
const GOAL_P99_MS = 20;

const order = recordedOrder();
let sequence = 0;
/** A new event each time (the dedupe keys differ). */
const body = (code = `B-${sequence % ORDERS}`) =>
  JSON.stringify({ event_type: 'order_updated', event_time: '2026-03-01T10:00:00+02:00', order: { ...order, code }, changes: { state: { old: 'open', new: `s${sequence++}` } } });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

async function serve(options: WebhookHandlerOptions): Promise<{ url: string; server: Server }> {
  const server = createServer(toNodeHandler(createWebhookHandler({ allowedRanges: false, urlSecret: false, ...options })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, server };
}

/** INFO commandstats as calls by command. */
async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const text = String(await redis.call('INFO', 'commandstats'));
  return new Map([...text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((match) => [match[1] as string, Number(match[2])]));
}
const difference = (after: Map<string, number>, before: Map<string, number>, ignore: string[]) =>
  [...after].reduce((sum, [name, calls]) => (ignore.includes(name) ? sum : sum + calls - (before.get(name) ?? 0)), 0);

/** Fills the inbox with EVENTS events over ORDERS orders, then runs `workers` processInbox loops until all are handled: events a second. */
async function drain(inbox: () => WebhookInbox, workers: number): Promise<number> {
  const filler = inbox();
  const base = Date.now();
  for (let i = 0; i < EVENTS; i++) {
    const code = `W-${sequence}-${i % ORDERS}`;
    await filler.append({ key: `bench:${sequence}:${i}`, sequence: `order:${code}`, event: { event_type: 'order_updated', order: { ...order, code } } as never, eventTime: base + i, receivedAt: base, url: 'http://shop.example/webhooks', sourceAddress: undefined, body: '{}' });
  }
  sequence++;
  let handled = 0;
  const stop = new AbortController();
  const started = performance.now();
  const loops = Array.from({ length: workers }, () => processInbox({ inbox: inbox(), signal: stop.signal, concurrency: 8, pollMs: 20, onEvent: () => void handled++ }));
  while (handled < EVENTS) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - started) / 1000;
  stop.abort();
  await Promise.all(loops);
  return EVENTS / seconds;
}

export async function benchInbox(): Promise<Row[]> {
  if (redisServerMissing) {
    return [{ name: 'webhook inbox on Redis', measured: 'not run', baseline: redisServerMissing, ratio: Number.NaN, goal: '-', pass: undefined }];
  }
  const redisServer = await startRedisServer({ appendonly: true });
  const clients: Redis[] = [];
  const connect = async () => {
    const client = new Redis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    clients.push(client);
    return client;
  };
  const servers: Server[] = [];
  try {
    const redis = await connect();
    const { inbox } = redisStores(redis, { prefix: 'bench:' });
    const variants: Record<string, { url: string; server: Server }> = {
      'with the Redis inbox': await serve({ inbox }),
      [`without, onEvent ${ON_EVENT_MS} ms`]: await serve({ onEvent: () => new Promise((resolve) => setTimeout(resolve, ON_EVENT_MS)) }),
      'without, onEvent instant': await serve({ onEvent: () => {} }),
    };
    servers.push(...Object.values(variants).map((variant) => variant.server));
    const times = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as number[]]));
    const deliver = async (url: string) => {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', body: body(), headers: { 'content-type': 'application/json' } });
      await response.text();
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
      return performance.now() - started;
    };
    // Warm-up, then rounds with the variants interleaved (slices of 20 deliveries, order rotating).
    for (const { url } of Object.values(variants)) for (let i = 0; i < 20; i++) await deliver(url);
    const names = Object.keys(variants);
    for (let round = 0; round < ROUNDS; round++) {
      for (let slice = 0; slice < DELIVERIES / 20; slice++) {
        for (let v = 0; v < names.length; v++) {
          const name = names[(v + slice + round) % names.length] as string;
          const slow = name.includes(`${ON_EVENT_MS} ms`);
          // The slow variant's answers are all alike: fewer of them give the same percentiles.
          for (let i = 0; i < (slow ? 5 : 20); i++) (times[name] as number[]).push(await deliver((variants[name] as { url: string }).url));
        }
      }
    }
    const [withInbox, slow, instant] = names.map((name) => ({ p50: percentile(times[name] as number[], 50), p99: percentile(times[name] as number[], 99) })) as [
      { p50: number; p99: number },
      { p50: number; p99: number },
      { p50: number; p99: number },
    ];

    // Commands per event: appends through the handler, then one worker draining them.
    const before = await commandStats(redis);
    const appended = 1_000;
    for (let i = 0; i < appended; i++) await deliver((variants['with the Redis inbox'] as { url: string }).url);
    const afterAppend = await commandStats(redis);
    let handled = 0;
    const stop = new AbortController();
    const worker = processInbox({ inbox, signal: stop.signal, concurrency: 8, pollMs: 20, onEvent: () => void handled++ });
    // The earlier rounds' events are in the inbox too: drain them all.
    const total = Number(await redis.call('HLEN', 'bench:inbox:{bench:inbox}:entries'));
    while (handled < total) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort();
    await worker;
    const afterWork = await commandStats(redis);
    const ignore = ['info', 'hlen'];
    const appendTrips = (((afterAppend.get('eval') ?? 0) - (before.get('eval') ?? 0)) / appended);
    const appendCommands = difference(afterAppend, before, ignore) / appended;
    const workTrips = ((afterWork.get('eval') ?? 0) - (afterAppend.get('eval') ?? 0)) / total;
    const workCommands = difference(afterWork, afterAppend, ignore) / total;

    const redisInbox = async () => redisStores(await connect(), { prefix: 'drain:' }).inbox;
    const inboxes: WebhookInbox[] = [];
    for (let i = 0; i < 5; i++) inboxes.push(await redisInbox());
    let next = 0;
    const oneWorker = median([await drain(() => inboxes[next++ % 5] as WebhookInbox, 1), await drain(() => inboxes[next++ % 5] as WebhookInbox, 1)]);
    next = 0;
    const fourWorkers = median([await drain(() => inboxes[next++ % 5] as WebhookInbox, 4), await drain(() => inboxes[next++ % 5] as WebhookInbox, 4)]);
    const memory = createMemoryInbox();
    const inMemory = await drain(() => memory, 1);

    return [
      {
        name: 'webhook answer with the Redis inbox, p99 (vs onEvent 50 ms)',
        measured: `${withInbox.p99.toFixed(2)} ms (p50 ${withInbox.p50.toFixed(2)})`,
        baseline: `${slow.p99.toFixed(2)} ms (p50 ${slow.p50.toFixed(2)})`,
        ratio: withInbox.p99 / slow.p99,
        goal: `< ${GOAL_P99_MS} ms`,
        pass: withInbox.p99 < GOAL_P99_MS && withInbox.p99 < slow.p99,
        data: { withInbox, withoutSlowOnEvent: slow, deliveries: (times[names[0] as string] as number[]).length },
      },
      {
        name: 'webhook answer with the Redis inbox vs onEvent instant, p50 (context)',
        measured: `${withInbox.p50.toFixed(2)} ms`,
        baseline: `${instant.p50.toFixed(2)} ms (p99 ${instant.p99.toFixed(2)})`,
        ratio: withInbox.p50 / instant.p50,
        goal: '-',
        pass: undefined,
        data: { withInbox, withoutInstantOnEvent: instant },
      },
      {
        name: `inbox events/s, 1 worker (${EVENTS} events, ${ORDERS} orders)`,
        measured: fmt.rate(oneWorker),
        baseline: `${fmt.rate(inMemory)} memory inbox`,
        ratio: oneWorker / inMemory,
        goal: '-',
        pass: undefined,
        data: { oneWorker, inMemory },
      },
      {
        name: 'inbox events/s, 4 workers (vs 1)',
        measured: fmt.rate(fourWorkers),
        baseline: `${fmt.rate(oneWorker)} 1 worker`,
        ratio: fourWorkers / oneWorker,
        goal: '-',
        pass: undefined,
        data: { fourWorkers, oneWorker },
      },
      {
        name: 'inbox Redis round trips per event (append + processing)',
        measured: `${(appendTrips + workTrips).toFixed(2)} (${(appendCommands + workCommands).toFixed(1)} commands)`,
        baseline: `${appendTrips.toFixed(2)} append + ${workTrips.toFixed(2)} work`,
        ratio: appendTrips + workTrips,
        goal: '<= 3',
        pass: appendTrips + workTrips <= 3,
        data: { appendTrips, appendCommands, workTrips, workCommands, events: total },
      },
    ];
  } finally {
    for (const server of servers) server.close();
    for (const client of clients) client.disconnect();
    await redisServer.stop();
  }
}
