/**
 * The webhook inbox on a real redis-server (append-only file on), with both clients and with
 * several processes: handler processes appending, processInbox workers taking; a worker killed
 * mid-event, Redis restarted mid-run, an order system down for (a scaled) two hours, 10,000
 * events through 2 handlers and 4 workers, a Redis Cluster, and the CLI's dead letters.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, processInbox, type WebhookEvent } from 'emporio/webhooks';
import { type RedisClientLike, redisStores } from 'emporio/redis';
import { runScript } from '../helpers/run-script.js';
import { recordedOrder } from '../webhooks/events.js';
import type { Handled, InboxWorkerReport, InboxWorkerSetup } from './inbox-worker.js';
import { type RedisServer, redisServerMissing, startRedisServer } from './redis-server.js';

const WORKER = new URL('./inbox-worker.ts', import.meta.url).pathname;
const CLI = fileURLToPath(new URL('../../src/cli/emporio.ts', import.meta.url));
const ORDER = recordedOrder();
const BASE_TIME = Date.parse('2026-03-01T10:00:00Z');

/** Event `n` of order `code`: its number in `order.comments`, its event time n seconds after the first. */
const eventBody = (code: string, n: number) =>
  JSON.stringify({
    event_type: n === 0 ? 'new_order' : 'order_updated',
    event_time: new Date(BASE_TIME + n * 1_000).toISOString().replace('.000Z', '+00:00'),
    order: { ...ORDER, code, comments: String(n) },
    ...(n === 0 ? {} : { changes: { state: { old: 'open', new: `step-${n}` } } }),
  });

/** Posts as the service does: again after a failed answer (here every 50 ms, for at most `forMs`). */
async function deliver(port: number, body: string, forMs = 20_000): Promise<number> {
  const until = Date.now() + forMs;
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200 || Date.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `tasks` with `width` at a time. */
async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await task(items[next++] as T);
  }));
}

interface Forked {
  child: ChildProcess;
  reports: InboxWorkerReport[];
  ready: Promise<Extract<InboxWorkerReport, { ready: true }>>;
  handled(): Handled[];
  stop(): Promise<void>;
}

function forkWorker(setup: InboxWorkerSetup): Forked {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, EMPORIO_INBOX_WORKER: JSON.stringify(setup) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reports: InboxWorkerReport[] = [];
  const ready = new Promise<Extract<InboxWorkerReport, { ready: true }>>((resolve, reject) => {
    child.on('message', (report: InboxWorkerReport) => {
      reports.push(report);
      if ('ready' in report) resolve(report);
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
  return {
    child,
    reports,
    ready,
    handled: () => reports.flatMap((report) => ('handled' in report ? report.handled : [])),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.connected) child.send({ stop: true });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits (bounded) until `done()` holds. */
async function until(done: () => boolean | Promise<boolean>, maxMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > maxMs) throw new Error(`${what}: not within ${maxMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Every order's events handled in their order, each once (`allowAgain`: events a dead worker had
 * started may run again), and never two events of one order at once.
 */
function expectInOrder(handled: Handled[], events: Map<string, number>, allowAgain = new Set<string>()) {
  const byOrder = new Map<string, Handled[]>();
  for (const item of handled) byOrder.set(item[0], [...(byOrder.get(item[0]) ?? []), item]);
  expect(byOrder.size).toBe(events.size);
  for (const [code, count] of events) {
    const items = (byOrder.get(code) ?? []).sort((a, b) => a[3] - b[3]);
    const numbers = items.map((item) => item[1]);
    const expected = Array.from({ length: count }, (_, n) => n);
    if (allowAgain.has(code)) expect([...new Set(numbers)]).toEqual(expected);
    else expect(numbers, `order ${code}`).toEqual(expected);
    for (let i = 1; i < items.length; i++) expect((items[i] as Handled)[3]).toBeGreaterThanOrEqual((items[i - 1] as Handled)[4]);
  }
}

async function connect(kind: 'node-redis' | 'ioredis', url: string): Promise<{ client: RedisClientLike; command(args: string[]): Promise<unknown>; close(): Promise<void> }> {
  if (kind === 'ioredis') {
    const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return { client, command: ([name, ...args]) => client.call(name as string, ...args), close: async () => client.disconnect() };
  }
  const client = createClient({ url, socket: { reconnectStrategy: 50 } });
  client.on('error', () => {});
  await client.connect();
  return { client, command: (args) => client.sendCommand(args), close: async () => void client.destroy() };
}

describe.skipIf(redisServerMissing !== undefined)('the webhook inbox on Redis Streams', () => {
  let redis: RedisServer;
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const server = async () => {
    redis ??= await startRedisServer({ appendonly: true });
    return redis;
  };
  const workers = (count: number, setup: (i: number) => InboxWorkerSetup): Forked[] => {
    const started = Array.from({ length: count }, (_, i) => forkWorker(setup(i)));
    cleanup.push(() => Promise.all(started.map((worker) => worker.stop())));
    return started;
  };
  const prefix = () => `t${Math.random().toString(36).slice(2, 8)}:`;

  it.each(['node-redis', 'ioredis'] as const)('with %s: appended once, handled in order, dead letters retried and dropped', async (kind) => {
    const { url } = await server();
    const connection = await connect(kind, url);
    cleanup.push(() => connection.close());
    const { inbox } = redisStores(connection.client, { prefix: prefix() });
    const handler = createWebhookHandler({ inbox, allowedRanges: false, urlSecret: false });
    const post = async (body: string) => (await handler(new Request('http://shop.example/webhooks', { method: 'POST', body }))).text();
    expect(await post(eventBody('A-1', 0))).toBe('ok');
    expect(await post(eventBody('A-1', 2))).toBe('ok');
    expect(await post(eventBody('A-1', 1))).toBe('ok');
    expect(await post(eventBody('A-1', 1))).toBe('already received');
    expect(await post(eventBody('A-2', 0))).toBe('ok');

    const seen: string[] = [];
    const run = async (failOn: string | undefined, done: () => boolean | Promise<boolean>) => {
      const stop = new AbortController();
      const running = processInbox({
        inbox,
        signal: stop.signal,
        pollMs: 20,
        retryDelayMs: 5,
        retryForMs: 60,
        onError: () => {},
        onEvent: (event: WebhookEvent) => {
          const name = `${event.order?.code}#${event.order?.comments}`;
          if (name === failOn) throw new Error(`cannot take ${name}`);
          seen.push(name);
        },
      });
      await until(done, 10_000, 'events handled');
      stop.abort();
      await running;
    };
    await run('A-2#0', async () => seen.length === 3 && (await inbox.deadLetters()).length === 1);
    expect(seen).toEqual(['A-1#0', 'A-1#1', 'A-1#2']);
    const dead = await inbox.deadLetters();
    expect(dead.map((letter) => [letter.event.order?.code, letter.error])).toEqual([['A-2', 'cannot take A-2#0']]);
    expect(dead[0]?.attempts).toBeGreaterThanOrEqual(2);
    expect(await post(eventBody('A-2', 0))).toBe('already received');
    expect(await inbox.retry(dead[0]?.id as string)).toBe(true);
    await run(undefined, () => seen.length === 4);
    expect(seen[3]).toBe('A-2#0');
    expect(await inbox.deadLetters()).toEqual([]);
    expect(await inbox.drop('12345')).toBe(false);
    expect(await inbox.claim('look', 10, 1_000)).toEqual([]);
  });

  it('a worker killed (SIGKILL) mid-event: another worker completes that event after the lease, then the order goes on in order', async () => {
    const { url } = await server();
    const shared = { redisUrl: url, prefix: prefix(), leaseMs: 1_000 };
    const [handler] = workers(1, () => ({ role: 'handler', redisClient: 'ioredis', ...shared }));
    const { port } = await (handler as Forked).ready;
    for (const code of ['K-1', 'K-2']) for (let n = 0; n < 3; n++) expect(await deliver(port as number, eventBody(code, n))).toBe(200);

    const [doomed] = workers(1, () => ({ role: 'worker', redisClient: 'node-redis', crashOn: 'K-1', ...shared }));
    const exited = new Promise((resolve) => doomed?.child.once('exit', (_, signal) => resolve(signal)));
    expect(await exited).toBe('SIGKILL');
    expect(doomed?.reports.some((report) => 'started' in report && report.started[0] === 'K-1')).toBe(true);
    const killedAt = Date.now();

    const [survivor] = workers(1, () => ({ role: 'worker', redisClient: 'ioredis', ...shared }));
    await until(() => (survivor as Forked).handled().length + (doomed as Forked).handled().length >= 6, 15_000, 'all 6 events');
    const handled = [...(doomed as Forked).handled(), ...(survivor as Forked).handled()];
    expectInOrder(handled, new Map([['K-1', 3], ['K-2', 3]]));
    const k1 = handled.filter((item) => item[0] === 'K-1');
    expect(k1.every((item) => item[2] === survivor?.child.pid)).toBe(true);
    // Taken over once the dead worker's lease lapsed, not before.
    expect((k1[0] as Handled)[3]).toBeGreaterThanOrEqual(killedAt - 50);
  }, 60_000);

  it('Redis restarted mid-run (append-only file): every delivery is still answered 200 and handled once, in order, nothing lost', async () => {
    const { url } = await server();
    const shared = { redisUrl: url, prefix: prefix(), leaseMs: 3_000 };
    const [handler] = workers(1, () => ({ role: 'handler', redisClient: 'node-redis', ...shared }));
    const pool = workers(2, (i) => ({ role: 'worker', redisClient: i ? 'ioredis' : 'node-redis', onEventMs: 2, ...shared }));
    const { port } = await (handler as Forked).ready;
    await Promise.all(pool.map((worker) => worker.ready));
    const events = new Map(Array.from({ length: 40 }, (_, i) => [`RR-${i}`, 10] as const));
    const deliveries = [...Array(10).keys()].flatMap((n) => [...events.keys()].map((code) => ({ code, body: eventBody(code, n) })));
    let sent = 0;
    // An order's next event goes once its last one is answered 200, retries included: the inbox keeps
    // the order events arrived in, so only then is that their own. (Sent at once, an event whose delivery
    // failed during the restart could arrive after the next one, retried 50 ms later.)
    const lastOf = new Map<string, Promise<void>>();
    const sending = inParallel(deliveries, 8, ({ code, body }) => {
      const delivered = (async () => {
        await lastOf.get(code);
        expect(await deliver(port as number, body)).toBe(200);
        sent++;
      })();
      lastOf.set(code, delivered);
      return delivered;
    });
    await until(() => sent >= 150, 20_000, 'a first part delivered');
    await redis.restart();
    await sending;
    const handled = () => pool.flatMap((worker) => worker.handled());
    await until(() => handled().length >= 400, 30_000, 'all 400 events handled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expectInOrder(handled(), events);
    expect(handled()).toHaveLength(400);
  }, 90_000);

  it('the order system down for two hours (time scaled down 2000 times): every event handled after, in order, none a dead letter', async () => {
    const { url } = await server();
    const connection = await connect('node-redis', url);
    cleanup.push(() => connection.close());
    const { inbox } = redisStores(connection.client, { prefix: prefix() });
    const handler = createWebhookHandler({ inbox, allowedRanges: false, urlSecret: false });
    const SCALE = 2_000;
    const downUntil = Date.now() + (2 * 60 * 60 * 1000) / SCALE;
    const events = new Map(Array.from({ length: 10 }, (_, i) => [`OUT-${i}`, 3] as const));
    for (const [code, count] of events) {
      for (let n = 0; n < count; n++) await handler(new Request('http://shop.example/webhooks', { method: 'POST', body: eventBody(code, n) }));
    }
    const handled: Handled[] = [];
    const tries = new Map<string, number>();
    const stop = new AbortController();
    const running = processInbox({
      inbox,
      signal: stop.signal,
      concurrency: 4,
      retryDelayMs: 1_000 / SCALE,
      retryForMs: (24 * 60 * 60 * 1000) / SCALE,
      pollMs: 20,
      onError: () => {},
      onEvent: (event) => {
        const name = `${event.order?.code}#${event.order?.comments}`;
        tries.set(name, (tries.get(name) ?? 0) + 1);
        if (Date.now() < downUntil) throw new Error('order system down');
        handled.push([String(event.order?.code), Number(event.order?.comments), process.pid, Date.now(), Date.now()]);
      },
    });
    await until(() => handled.length === 30, 20_000, 'every event handled after the outage');
    stop.abort();
    await running;
    expectInOrder(handled, events);
    expect(await inbox.deadLetters()).toEqual([]);
    // Only the first event of each order was tried during the outage, with doubling waits (about 20 tries, not thousands).
    for (const code of events.keys()) {
      expect(tries.get(`${code}#1`)).toBe(1);
      expect(tries.get(`${code}#0`)).toBeGreaterThan(5);
      expect(tries.get(`${code}#0`)).toBeLessThan(40);
    }
  }, 60_000);

  it('10,000 events through 2 handler processes and 4 worker processes: each handled once, every order in order, none lost', async () => {
    const { url } = await server();
    const shared = { redisUrl: url, prefix: prefix(), leaseMs: 5_000 };
    const handlers = workers(2, (i) => ({ role: 'handler', redisClient: i ? 'ioredis' : 'node-redis', ...shared }));
    const pool = workers(4, (i) => ({ role: 'worker', redisClient: i % 2 ? 'ioredis' : 'node-redis', concurrency: 8, ...shared }));
    const ports = (await Promise.all(handlers.map((handler) => handler.ready))).map((ready) => ready.port as number);
    await Promise.all(pool.map((worker) => worker.ready));
    const events = new Map(Array.from({ length: 1_000 }, (_, i) => [`M-${i}`, 10] as const));
    const bodies = [...Array(10).keys()].flatMap((n) => [...events.keys()].map((code) => eventBody(code, n)));
    // Every 20th delivery is sent again to the other handler, as the service's retries would be.
    let i = 0;
    await inParallel(bodies, 32, async (body) => {
      const at = i++;
      expect(await deliver(ports[at % 2] as number, body)).toBe(200);
      if (at % 20 === 0) expect(await deliver(ports[(at + 1) % 2] as number, body)).toBe(200);
    });
    const handled = () => pool.flatMap((worker) => worker.handled());
    // A bound for a loaded machine: about 30 s on two busy cores, delivery included.
    await until(() => handled().length >= 10_000, 90_000, '10,000 events handled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(handled()).toHaveLength(10_000);
    expectInOrder(handled(), events);
    // All four took part.
    expect(new Set(handled().map((item) => item[2])).size).toBe(4);
  }, 180_000);

  it('on a Redis Cluster: every key of the inbox in one slot', async () => {
    const cluster = await startRedisServer({ cluster: true });
    cleanup.push(() => cluster.stop());
    const connection = await connect('ioredis', cluster.url);
    cleanup.push(() => connection.close());
    const name = prefix();
    const { inbox } = redisStores(connection.client, { prefix: name });
    const handler = createWebhookHandler({ inbox, allowedRanges: false, urlSecret: false });
    for (const body of [eventBody('CL-1', 0), eventBody('CL-2', 0), eventBody('CL-1', 1)]) {
      expect((await handler(new Request('http://shop.example/webhooks', { method: 'POST', body }))).status).toBe(200);
    }
    const seen: string[] = [];
    const stop = new AbortController();
    const running = processInbox({ inbox, signal: stop.signal, pollMs: 20, onEvent: (event) => void seen.push(`${event.order?.code}#${event.order?.comments}`) });
    await until(() => seen.length === 3, 10_000, 'three events');
    stop.abort();
    await running;
    expect(seen.filter((item) => item.startsWith('CL-1'))).toEqual(['CL-1#0', 'CL-1#1']);
    const keys = (await connection.command(['KEYS', `${name}*`])) as string[];
    expect(keys.length).toBeGreaterThan(0);
    const slots = new Set(await Promise.all(keys.map(async (key) => Number(await connection.command(['CLUSTER', 'KEYSLOT', key])))));
    expect(slots.size).toBe(1);
  }, 30_000);

  it('the CLI lists, shows, retries and drops dead letters (--json) against a Redis with a password it never prints', async () => {
    const password = 'inbox-pass-7f3a9c';
    const guarded = await startRedisServer({ password });
    cleanup.push(() => guarded.stop());
    expect(guarded.url).toContain(password);
    const connection = await connect('ioredis', guarded.url);
    cleanup.push(() => connection.close());
    const name = prefix();
    const { inbox } = redisStores(connection.client, { prefix: name });
    const handler = createWebhookHandler({ inbox, allowedRanges: false, urlSecret: false });
    for (const code of ['DL-1', 'DL-2']) await handler(new Request('http://shop.example/webhooks', { method: 'POST', body: eventBody(code, 0) }));
    const stop = new AbortController();
    const running = processInbox({
      inbox,
      signal: stop.signal,
      pollMs: 20,
      retryDelayMs: 5,
      retryForMs: 30,
      onError: () => {},
      onEvent: (event) => {
        throw new Error(`warehouse refused ${event.order?.code}`);
      },
    });
    await until(async () => (await inbox.deadLetters()).length === 2, 10_000, 'two dead letters');
    stop.abort();
    await running;

    const cli = async (args: string[], env: Record<string, string> = {}) => {
      const { code, stdout, stderr } = await runScript(CLI, ['inbox', ...args, '--prefix', name], { env: { PATH: process.env.PATH ?? '', ...env } });
      expect(stdout + stderr).not.toContain(password);
      return { code, stdout, stderr };
    };
    const listed = await cli(['list', '--json', '--redis-url', guarded.url]);
    expect(listed.code).toBe(0);
    const letters = JSON.parse(listed.stdout) as { id: string; event: WebhookEvent; error: string; attempts: number; firstSeenAt: string; lastTriedAt: string }[];
    expect(letters.map((letter) => [letter.event.order?.code, letter.error])).toEqual([
      ['DL-1', 'warehouse refused DL-1'],
      ['DL-2', 'warehouse refused DL-2'],
    ]);
    expect(Date.parse(letters[0]?.lastTriedAt as string)).toBeGreaterThanOrEqual(Date.parse(letters[0]?.firstSeenAt as string));
    const [first, second] = letters as [(typeof letters)[0], (typeof letters)[0]];

    const plain = await cli(['list'], { EMPORIO_REDIS_URL: guarded.url });
    expect(plain.stdout).toMatch(new RegExp(`^${first.id} +DL-1 +new_order +\\d+ attempts`, 'm'));
    const shown = await cli(['show', second.id, '--json'], { EMPORIO_REDIS_URL: guarded.url });
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: second.id, error: 'warehouse refused DL-2' });

    expect((await cli(['retry', first.id, '--redis-url', guarded.url])).code).toBe(0);
    expect((await cli(['drop', second.id, '--redis-url', guarded.url])).code).toBe(0);
    const missing = await cli(['drop', second.id, '--redis-url', guarded.url]);
    expect(missing.code).toBe(1);
    expect(await inbox.deadLetters()).toEqual([]);
    const [claim] = await inbox.claim('look', 10, 1_000);
    expect(claim?.entry.event.order?.code).toBe('DL-1');

    // A wrong password: refused, and neither password printed.
    const wrong = await cli(['list', '--redis-url', guarded.url.replace(password, 'wrong-secret-123')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).not.toContain('wrong-secret-123');
    expect(wrong.stderr).toMatch(/could not be reached|WRONGPASS|NOAUTH/);
    // No URL: a usage error.
    expect((await cli(['list'])).code).toBe(2);
  }, 60_000);
});
