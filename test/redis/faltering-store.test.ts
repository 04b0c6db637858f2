/**
 * The shared caps when Redis falters, against a real redis-server: reached late (a slot's
 * request leaving after Redis handed it out), stopped (SIGSTOP), far away (440 ms each way
 * through a delaying proxy) or stalled for 700 ms. What is measured is what reached the
 * service: a loopback server in front of the mock records when each request arrived.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { MarketplaceClient, RateLimitBudgetError } from 'emporio';
import { type RedisClientLike, redisStores } from 'emporio/redis';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { redisServerMissing, startRedisServer } from './redis-server.js';
import { startTcpProxy } from './tcp-proxy.js';

/** The most of `times` (ms) within any `spanMs` (a request at t and one at t + spanMs - 1 share one). */
function mostWithin(times: number[], spanMs: number): number {
  const sorted = times.toSorted((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while ((sorted[last] as number) - (sorted[first] as number) >= spanMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe.skipIf(redisServerMissing !== undefined)('the shared caps when Redis falters', () => {
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const redisServer = async () => {
    const server = await startRedisServer();
    cleanup.push(() => server.stop());
    return server;
  };
  const mock = async (options: Parameters<typeof startMockMarketplace>[0] = {}): Promise<RunningMockMarketplace> => {
    const kit = await startMockMarketplace({ port: 0, seedDemoOrders: true, rateLimit: false, ...options });
    cleanup.push(() => kit.close());
    return kit;
  };
  /** A loopback "service" in front of the mock: forwards each request, and notes when it arrived. */
  const recordingService = async (kit: RunningMockMarketplace) => {
    const arrivals: number[] = [];
    const server: Server = createServer(async (request, response) => {
      arrivals.push(Date.now());
      const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      const answer = await fetch(`${kit.url}${request.url}`, { method: request.method, headers });
      response.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([name]) => name !== 'content-encoding' && name !== 'content-length')));
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => server.close(resolve)));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
  };
  /** A connection of its own (as another process has), node-redis or ioredis by turns. */
  let connections = 0;
  const connect = async (url: string): Promise<RedisClientLike> => {
    if (connections++ % 2) {
      const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: 1, lazyConnect: true });
      client.on('error', () => {});
      await client.connect();
      cleanup.push(() => client.disconnect());
      return client;
    }
    const client = createClient({ url, socket: { reconnectStrategy: 50 } });
    client.on('error', () => {});
    await client.connect();
    cleanup.push(() => client.destroy());
    return client;
  };
  /** Warnings and notes of the client and its stores: a fall back says so. */
  const logs = () => {
    const lines: string[] = [];
    return { lines, logger: { debug() {}, warn: (message: string) => lines.push(`warn ${message}`), info: (message: string) => lines.push(`info ${message}`) } };
  };

  it('a slot counts in the minute until its request can have left: Redis answering 0.3 s late, then at once, puts no more than perMinute in any 60 s at the service', async () => {
    const redis = await redisServer();
    const proxy = await startTcpProxy(redis.port, { delayMs: 150 });
    cleanup.push(() => proxy.close());
    const kit = await mock();
    const service = await recordingService(kit);
    const { logger, lines } = logs();
    const prefix = `late${Math.random().toString(36).slice(2)}:`;
    const clients = await Promise.all([0, 1].map(async () => new MarketplaceClient({
      baseUrl: service.url,
      vendor: 'marketplace',
      token: kit.mock.tokens.catalog,
      cache: false,
      rateLimit: { perMinute: 6, perDay: 1_000 },
      rateLimitStore: redisStores(await connect(proxy.url), { prefix, logger }).rateLimitStore,
      logger,
    })));
    // Twelve calls at once: six get slots that reach this process 0.15 s after Redis handed them out;
    // the other six wait out the minute, and their slots come at once (the delay gone by then).
    const calls = Array.from({ length: 12 }, (_, i) => (clients[i % 2] as MarketplaceClient).catalog.flags.list());
    await expect.poll(() => service.arrivals.length, { timeout: 10_000 }).toBe(6);
    proxy.delayMs = 0;
    await Promise.all(calls);
    expect(service.arrivals).toHaveLength(12);
    expect(mostWithin(service.arrivals, 60_000)).toBeLessThanOrEqual(6);
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([]);
  }, 90_000);

  it('a budget fails closed: with Redis stopped (SIGSTOP), 3 clients send only the share each holds in advance, and never more than perDay in all', async () => {
    const redis = await redisServer();
    const kit = await mock();
    const service = await recordingService(kit);
    const { logger } = logs();
    const prefix = `closed${Math.random().toString(36).slice(2)}:`;
    const clients = await Promise.all([0, 1, 2].map(async () => new MarketplaceClient({
      baseUrl: service.url,
      vendor: 'marketplace',
      token: kit.mock.tokens.catalog,
      cache: false,
      timeout: 2_000,
      rateLimit: { perMinute: 1_000, perDay: 12 },
      rateLimitStore: redisStores(await connect(redis.url), { prefix, logger }).rateLimitStore,
      logger,
    })));
    const burst = (count: number) => Promise.allSettled(clients.flatMap((client) => Array.from({ length: count }, () => client.catalog.flags.list())));

    for (const client of clients) for (let i = 0; i < 2; i++) await client.catalog.flags.list();
    expect(service.arrivals).toHaveLength(6);

    process.kill(redis.pid, 'SIGSTOP');
    cleanup.push(() => process.kill(redis.pid, 'SIGCONT'));
    const stopped = await burst(6);
    process.kill(redis.pid, 'SIGCONT');
    // Each client held one request of the day (12 / 100, at least one) and spent it; the rest were refused, unsent.
    const sentStopped = stopped.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(sentStopped).toBeGreaterThanOrEqual(1);
    expect(sentStopped).toBeLessThanOrEqual(3);
    for (const outcome of stopped) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ name: 'RateLimitBudgetError', errors: [{ code: 'store_unavailable' }] });
    }
    expect(service.arrivals).toHaveLength(6 + sentStopped);

    // Redis back: at most the day's rest (the steps Redis ran late count as spent, unsent), and not one more.
    const after = await burst(6);
    for (const outcome of after) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(RateLimitBudgetError);
    expect(service.arrivals.length).toBeLessThanOrEqual(12);
  }, 30_000);

  it('when a stopped Redis answers again, it is used again at once, not seconds later', async () => {
    const redis = await redisServer();
    const kit = await mock();
    const { logger, lines } = logs();
    const client = new MarketplaceClient({
      baseUrl: kit.url,
      vendor: 'marketplace',
      tokens: { orders: kit.mock.tokens.orders },
      cache: false,
      rateLimitStore: redisStores(await connect(redis.url), { prefix: `back${Math.random().toString(36).slice(2)}:`, logger }).rateLimitStore,
      logger,
    });
    await client.orders.get('DEMO-OPEN');
    process.kill(redis.pid, 'SIGSTOP');
    cleanup.push(() => process.kill(redis.pid, 'SIGCONT'));
    // Stopped longer than any bound of a store call (at least 1 s, 2 s before the round trip is known),
    // so calls meanwhile surely fall back, whatever the machine's load.
    const resumeAt = Date.now() + 3_000;
    setTimeout(() => process.kill(redis.pid, 'SIGCONT'), 3_000);
    // Calls all along: those while Redis is stopped go by this process's own view of the window.
    while (!lines.some((line) => line.includes('reachable again')) && Date.now() < resumeAt + 5_000) await client.orders.get('DEMO-OPEN');
    expect(lines.some((line) => line.includes("this process's own view"))).toBe(true);
    const back = lines.findIndex((line) => line.includes('reachable again'));
    expect(back).toBeGreaterThan(-1);
    // Asked again 250 ms after each failure (it was 5 s): back well within the old pause, with room for a busy machine.
    expect(Date.now() - resumeAt).toBeLessThan(2_500);
  }, 20_000);

  it('a Redis 440 ms away each way keeps sharing: no fall back, no refusal by the service', async () => {
    const redis = await redisServer();
    const proxy = await startTcpProxy(redis.port, { delayMs: 440 });
    cleanup.push(() => proxy.close());
    const kit = await mock({ merchantRateLimit: { perMinute: 4, windowMs: 2_000 } });
    const { logger, lines } = logs();
    const prefix = `far${Math.random().toString(36).slice(2)}:`;
    const clients = await Promise.all([0, 1].map(async () => new MarketplaceClient({
      baseUrl: kit.url,
      vendor: 'marketplace',
      tokens: { orders: kit.mock.tokens.orders },
      cache: false,
      maxRetries: 0,
      rateLimitStore: redisStores(await connect(proxy.url), { prefix, logger }).rateLimitStore,
      logger,
    })));
    await Promise.all(clients.map(async (client) => {
      for (let i = 0; i < 5; i++) await client.orders.get('DEMO-OPEN');
    }));
    expect(kit.mock.rateLimitRefusals).toBe(0);
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([]);
  }, 40_000);

  it('a 700 ms stall of Redis at a window\'s start costs a short wait: no fall back, no refusal by the service', async () => {
    const redis = await redisServer();
    const proxy = await startTcpProxy(redis.port);
    cleanup.push(() => proxy.close());
    const kit = await mock({ merchantRateLimit: { perMinute: 8, windowMs: 1_000 } });
    const { logger, lines } = logs();
    const prefix = `stall${Math.random().toString(36).slice(2)}:`;
    const clients = await Promise.all([0, 1, 2, 3].map(async () => new MarketplaceClient({
      baseUrl: kit.url,
      vendor: 'marketplace',
      tokens: { orders: kit.mock.tokens.orders },
      cache: false,
      maxRetries: 0,
      rateLimitStore: redisStores(await connect(proxy.url), { prefix, logger }).rateLimitStore,
      logger,
    })));
    const until = Math.ceil((Date.now() + 3_000) / 1_000) * 1_000;
    const stallAt = until - 1_000;
    setTimeout(() => proxy.pause(700), stallAt - Date.now());
    let answered = 0;
    await Promise.all(clients.flatMap((client) => [0, 1].map(async () => {
      while (Date.now() < until) {
        await client.orders.get('DEMO-OPEN');
        answered++;
      }
    })));
    expect(answered).toBeGreaterThan(8);
    expect(kit.mock.rateLimitRefusals).toBe(0);
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([]);
  }, 30_000);
});
