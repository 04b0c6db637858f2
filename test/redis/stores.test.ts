/**
 * `emporio/redis` against a real redis-server, with both supported clients (node-redis and
 * ioredis): the dedupe store's atomic claim, the shared ETag cache, the shared rate-limit
 * state, and what happens when Redis is down or slow.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, MarketplaceClient, RateLimitBudgetError, type WebhookHandler, type WebhookHandlerOptions } from 'emporio';
import { type NodeRedisClientLike, type RedisClientLike, type RedisStoresOptions, redisStores } from 'emporio/redis';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { newOrderBody } from '../webhooks/events.js';
import { CLIENTS, type Connection } from './clients.js';
import { type RedisServer, redisServerMissing, startRedisServer } from './redis-server.js';

/** `client`, with the name of every command it sends pushed to `sent`. */
function recording(client: RedisClientLike, sent: string[]): RedisClientLike {
  // ioredis has a sendCommand of its own: told apart by call and status, as emporio/redis does.
  if ('call' in client && 'status' in client) {
    return {
      call: (command: string, ...args: string[]) => {
        sent.push(command);
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
      sent.push(args[0] as string);
      return nodeRedis.sendCommand(args);
    },
    get isReady() {
      return nodeRedis.isReady;
    },
  };
}

/** Two clients on one store with a budget of 6 a day: 10 calls send 6, the other 4 are refused before sending, and nothing falls back. */
async function expectSharedBudget(redis: RedisClientLike, kit: RunningMockMarketplace): Promise<void> {
  const { rateLimitStore } = redisStores(redis, { prefix: `budget${Math.random().toString(36).slice(2)}:` });
  const warnings: string[] = [];
  const make = () =>
    new MarketplaceClient({
      baseUrl: kit.url,
      vendor: 'marketplace',
      token: kit.mock.tokens.catalog,
      cache: false,
      rateLimit: { perDay: 6, perMinute: 1_000 },
      rateLimitStore,
      logger: { debug() {}, warn: (message) => warnings.push(message) },
    });
  const [a, b] = [make(), make()];
  const sentBefore = kit.mock.requests.length;
  const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).catalog.flags.list()));
  const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason);
  expect(warnings).toEqual([]);
  expect(refused).toHaveLength(4);
  for (const error of refused) expect(error).toBeInstanceOf(RateLimitBudgetError);
  expect(kit.mock.requests.length - sentBefore).toBe(6);
}

const quietLogger = () => {
  const lines: string[] = [];
  return { lines, warn: (message: string) => lines.push(`warn ${message}`), info: (message: string) => lines.push(`info ${message}`) };
};

const post = (body: unknown) =>
  new Request('http://127.0.0.1/webhooks', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe.skipIf(redisServerMissing !== undefined)('emporio/redis against a real redis-server', () => {
  let server: RedisServer;
  let kit: RunningMockMarketplace;
  /** Without the kit's own window, so only the budget refuses. */
  let unlimitedKit: RunningMockMarketplace;
  const open: Connection[] = [];
  let prefixCount = 0;
  /** A fresh key prefix per test, so tests never see each other's keys. */
  const freshPrefix = () => `test${++prefixCount}:`;

  beforeAll(async () => {
    server = await startRedisServer();
    kit = await startMockMarketplace({ port: 0, seedDemoOrders: true, rateLimit: { perMinute: 5, windowMs: 1_000 } });
    unlimitedKit = await startMockMarketplace({ port: 0, seedDemoOrders: false, rateLimit: false });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
  });
  afterAll(async () => {
    await kit?.close();
    await unlimitedKit?.close();
    await server?.stop();
  });

  describe.each(Object.keys(CLIENTS))('with %s', (kind) => {
    const connect = async () => {
      const connection = await (CLIENTS[kind] as (url: string) => Promise<Connection>)(server.url);
      open.push(connection);
      return connection;
    };

    /** Two webhook handlers, as two processes would run them, each on its own connection, sharing `prefix`'s dedupe. */
    const twoInstances = async (
      prefix: string,
      handler: Omit<WebhookHandlerOptions, 'dedupe'>,
      stores: Omit<RedisStoresOptions, 'prefix'> = {},
    ): Promise<[WebhookHandler, WebhookHandler]> => {
      const instance = async () => createWebhookHandler({ allowedRanges: false, ...handler, dedupe: redisStores((await connect()).client, { prefix, ...stores }).dedupe });
      return [await instance(), await instance()];
    };

    it('claim is atomic: of 40 concurrent claims of one key, across two connections, exactly one wins', async () => {
      const prefix = freshPrefix();
      const [a, b] = [await connect(), await connect()];
      const stores = [redisStores(a.client, { prefix }), redisStores(b.client, { prefix })];
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]?.dedupe.claim('delivery', 60_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await stores[0]?.dedupe.get('delivery')).toBe('in-flight');
      expect(Number(await a.command(['PTTL', `${prefix}webhook:delivery`]))).toBeGreaterThan(59_000);
    });

    it('the handled mark keeps its TTL; a claim expires after its own', async () => {
      const prefix = freshPrefix();
      const redis = await connect();
      const { dedupe } = redisStores(redis.client, { prefix });
      await dedupe.set('handled-one', 'handled', 5_000);
      const ttl = Number(await redis.command(['PTTL', `${prefix}webhook:handled-one`]));
      expect(ttl).toBeGreaterThan(4_000);
      expect(ttl).toBeLessThanOrEqual(5_000);
      expect(await dedupe.claim('handled-one', 1_000)).toBe(false);

      expect(await dedupe.claim('short', 100)).toBe(true);
      expect(await dedupe.claim('short', 100)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await dedupe.claim('short', 100)).toBe(true);
      await dedupe.delete('short');
      expect(await dedupe.get('short')).toBeUndefined();
    });

    it('with createWebhookHandler: a failed onEvent releases the delivery, so the retry is handled, then never again', async () => {
      const redis = await connect();
      const { dedupe } = redisStores(redis.client, { prefix: freshPrefix() });
      let calls = 0;
      const refusals: string[] = [];
      const handler = createWebhookHandler({
        urlSecret: false,
        allowedRanges: false,
        dedupe,
        onEvent: () => {
          calls++;
          if (calls === 1) throw new Error('database down');
        },
        onError: (error, info) => refusals.push(`${info.reason}: ${error.message}`),
      });
      const body = newOrderBody();
      expect((await handler(post(body))).status).toBe(500);
      expect((await handler(post(body))).status).toBe(200);
      expect((await handler(post(body))).status).toBe(200);
      expect(calls).toBe(2);
      expect(refusals).toEqual(['handler_failed: database down']);
    });

    it('a dedupeTtlMs shorter than onEvent takes does not let a second instance handle the delivery meanwhile (the lease holds it)', async () => {
      const prefix = freshPrefix();
      const handled: string[] = [];
      const [first, second] = await twoInstances(prefix, {
        urlSecret: false,
        dedupeTtlMs: 100,
        handlerTimeoutMs: 5_000,
        onEvent: async (event) => {
          await new Promise((resolve) => setTimeout(resolve, 600));
          handled.push(String(event.order?.code));
        },
      });
      const body = newOrderBody({ code: 'SHORT-TTL', state: 'open' });
      const firstDelivery = first(post(body));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await second(post(body))).status).toBe(409);
      expect((await firstDelivery).status).toBe(200);
      expect(handled).toEqual(['SHORT-TTL']);
    });

    it('dedupe comes back with the first Redis call that answers within timeoutMs: a delivery while Redis is paused is handled (at least once), the next ones are deduplicated again', async () => {
      const prefix = freshPrefix();
      const logger = quietLogger();
      const handled: string[] = [];
      const pauser = await connect();
      const [first, second] = await twoInstances(prefix, { urlSecret: false, onEvent: (event) => void handled.push(String(event.order?.code)) }, { timeoutMs: 200, logger });
      await pauser.command(['CLIENT', 'PAUSE', '600', 'ALL']);
      expect((await first(post(newOrderBody({ code: 'PAUSED', state: 'open' })))).status).toBe(200);
      expect(handled).toEqual(['PAUSED']);
      expect(logger.lines.some((line) => line.startsWith('warn') && line.includes('at least once'))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const body = newOrderBody({ code: 'AFTER', state: 'open' });
      const statuses = await Promise.all([first(post(body)), second(post(body))].map((answer) => answer.then((r) => r.status)));
      for (const status of statuses) expect([200, 409]).toContain(status);
      expect(handled).toEqual(['PAUSED', 'AFTER']);
      expect(logger.lines.some((line) => line.startsWith('info') && line.includes('answers again'))).toBe(true);
      // The paused claim and handled mark were written once Redis went on: a redelivery is not handled twice.
      expect((await second(post(newOrderBody({ code: 'PAUSED', state: 'open' })))).status).toBe(200);
      expect(handled).toEqual(['PAUSED', 'AFTER']);
    });

    it('two handler instances receiving the same 20 deliveries at once run onEvent once per delivery', async () => {
      const prefix = freshPrefix();
      const handled: string[] = [];
      // Every delivery that runs onEvent is held until the 20 repeats have been answered, so a
      // repeat always meets one in progress (409), however slow the machine (a 10 ms sleep
      // once let a delivery finish first, and its repeat was answered 200 as done).
      let answered = 0;
      let openGate!: () => void;
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      const instances = await twoInstances(prefix, {
        urlSecret: false,
        onEvent: async (event) => {
          await gate;
          handled.push(String(event.order?.code));
        },
      });
      const codes = Array.from({ length: 20 }, (_, i) => `SAME-${i}`);
      const statuses = await Promise.all(
        codes.flatMap((code) =>
          instances.map((handler) =>
            handler(post(newOrderBody({ code, state: 'open' }))).then((r) => {
              if (++answered === codes.length) openGate();
              return r.status;
            }),
          ),
        ),
      );
      expect(handled.toSorted()).toEqual(codes.toSorted());
      expect(statuses.filter((status) => status === 409)).toHaveLength(20);
    });

    it('shares the ETag cache: a second client revalidates the first one\'s answer (304), keys expire and hold no token', async () => {
      const prefix = freshPrefix();
      const redis = await connect();
      const { cache } = redisStores(redis.client, { prefix, cacheTtlMs: 60_000 });
      const statuses: number[] = [];
      const options = {
        baseUrl: kit.url,
        vendor: 'marketplace',
        token: kit.mock.tokens.catalog,
        cache,
        rateLimit: false as const,
        hooks: { onResponse: (event: { status: number }) => statuses.push(event.status) },
      };
      const first = await new MarketplaceClient(options).catalog.categories.get(1);
      const second = await new MarketplaceClient(options).catalog.categories.get(1);
      expect(second).toEqual(first);
      expect(statuses).toEqual([200, 304]);
      const keys = (await redis.command(['KEYS', `${prefix}*`])) as string[];
      expect(keys).toHaveLength(1);
      expect(keys[0]).not.toContain(kit.mock.tokens.catalog);
      const ttl = Number(await redis.command(['PTTL', keys[0] as string]));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });

    it('shares the daily budget: two clients with perDay 6 send 6 requests together, then refuse before sending', async () => {
      const redis = await connect();
      await expectSharedBudget(redis.client, unlimitedKit);
    });

    it('one round trip per request: sequential calls send one EVALSHA each (the answers ride along), the whole script once per Redis and again after it forgets', async () => {
      const redis = await connect();
      const sent: string[] = [];
      const { rateLimitStore } = redisStores(recording(redis.client, sent), { prefix: freshPrefix() });
      const client = new MarketplaceClient({ baseUrl: kit.url, vendor: 'marketplace', token: kit.mock.tokens.orders, cache: false, rateLimitStore });
      await redis.command(['SCRIPT', 'FLUSH']);
      await client.orders.get('DEMO-OPEN');
      expect(sent.filter((command) => command === 'EVAL')).toHaveLength(1);
      sent.length = 0;
      for (let i = 0; i < 20; i++) await client.orders.get('DEMO-OPEN');
      await new Promise((resolve) => setTimeout(resolve, 20)); // the last answer goes on its own
      expect(new Set(sent)).toEqual(new Set(['EVALSHA']));
      expect(sent.length).toBeLessThanOrEqual(21);
      await redis.command(['SCRIPT', 'FLUSH']);
      await client.orders.get('DEMO-OPEN');
      expect(sent.filter((command) => command === 'EVAL')).toHaveLength(1);
    });

    it('holds under contention: 2 clients x 30 calls at once against 20 per 3 s earn no 403, never fall back, and cost a few commands a request', async () => {
      const redis = await connect();
      const sent: string[] = [];
      const { rateLimitStore } = redisStores(recording(redis.client, sent), { prefix: freshPrefix() });
      const token = `contended-${kind}`;
      const limited = await startMockMarketplace({ port: 0, seedDemoOrders: false, tokens: { catalog: token }, rateLimit: { perMinute: 20, windowMs: 3_000 } });
      try {
        const warnings: string[] = [];
        const make = () =>
          new MarketplaceClient({
            baseUrl: limited.url,
            vendor: 'marketplace',
            token,
            cache: false,
            rateLimit: false,
            rateLimitStore,
            maxRetries: 0,
            logger: { debug() {}, warn: (message) => warnings.push(message) },
          });
        const clients = [make(), make()];
        const outcomes = await Promise.allSettled(clients.flatMap((client) => Array.from({ length: 30 }, () => client.catalog.flags.list())));
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        expect(limited.mock.rateLimitRefusals).toBe(0);
        expect(warnings).toEqual([]);
        // A take, looks while the first figures are out and, until two windows told the window's
        // length, a look again after each reset: a few per request, no rounds lost to other writers.
        expect(sent.length / 60).toBeLessThan(6);
      } finally {
        await limited.close();
      }
    }, 30_000);

    it('takes the daily budget in the same step: 4 clients, 400 calls at once, perDay 150: exactly 150 sent', async () => {
      const redis = await connect();
      // A generous store bound: 400 calls queued at once on a loaded 2-core machine can pass the default
      // 500 ms, and a store call that times out falls back to this process's own view (tested apart).
      const { rateLimitStore } = redisStores(redis.client, { prefix: freshPrefix(), timeoutMs: 10_000 });
      const clients = Array.from({ length: 4 }, () =>
        new MarketplaceClient({ baseUrl: unlimitedKit.url, vendor: 'marketplace', token: unlimitedKit.mock.tokens.catalog, cache: false, rateLimit: { perDay: 150, perMinute: 1_000 }, rateLimitStore }),
      );
      const sentBefore = unlimitedKit.mock.requests.length;
      const outcomes = await Promise.allSettled(Array.from({ length: 400 }, (_, i) => (clients[i % 4] as MarketplaceClient).catalog.flags.list()));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(150);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(RateLimitBudgetError);
      expect(unlimitedKit.mock.requests.length - sentBefore).toBe(150);
    });

    it('takes the per-minute budget in the same step: 4 clients, 300 calls at once, perMinute 100: 100 sent, the rest wait', async () => {
      const redis = await connect();
      const { rateLimitStore } = redisStores(redis.client, { prefix: freshPrefix(), timeoutMs: 10_000 });
      const controller = new AbortController();
      const clients = Array.from({ length: 4 }, () =>
        new MarketplaceClient({ baseUrl: unlimitedKit.url, vendor: 'marketplace', token: unlimitedKit.mock.tokens.catalog, cache: false, rateLimit: { perDay: 1_000, perMinute: 100 }, rateLimitStore }),
      );
      const sentBefore = unlimitedKit.mock.requests.length;
      const calls = Array.from({ length: 300 }, (_, i) => (clients[i % 4] as MarketplaceClient).catalog.flags.list({ signal: controller.signal }));
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      controller.abort(new Error('enough'));
      const outcomes = await Promise.allSettled(calls);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(100);
      expect(unlimitedKit.mock.requests.length - sentBefore).toBe(100);
    });

    it("shares the service's window: two clients on one token earn no 403, and client.rateLimit shows the figures", async () => {
      const redis = await connect();
      const { rateLimitStore } = redisStores(redis.client, { prefix: freshPrefix() });
      const token = `window-token-${kind}`;
      const kitWithToken = await startMockMarketplace({
        port: 0,
        seedDemoOrders: false,
        tokens: { catalog: token },
        rateLimit: { perMinute: 4, windowMs: 1_000 },
      });
      try {
        const make = () =>
          new MarketplaceClient({ baseUrl: kitWithToken.url, vendor: 'marketplace', token, cache: false, rateLimit: false, rateLimitStore, maxRetries: 0 });
        const [a, b] = [make(), make()];
        await Promise.all([a, b].map(async (client) => {
          for (let i = 0; i < 5; i++) await client.catalog.flags.list();
        }));
        expect(kitWithToken.mock.rateLimitRefusals).toBe(0);
        expect(a.rateLimit).toMatchObject({ limit: 4 });
        expect(b.rateLimit?.remaining).toBeGreaterThanOrEqual(0);
      } finally {
        await kitWithToken.close();
      }
    });

    it('when Redis is slow, every store call is bounded: the claim is granted, the cache misses, requests go', async () => {
      const prefix = freshPrefix();
      const redis = await connect();
      const pauser = await connect();
      const logger = quietLogger();
      const stores = redisStores(redis.client, { prefix, timeoutMs: 200, logger });
      const client = new MarketplaceClient({
        baseUrl: kit.url,
        vendor: 'marketplace',
        token: kit.mock.tokens.catalog,
        cache: stores.cache,
        rateLimit: false,
        rateLimitStore: stores.rateLimitStore,
      });
      await pauser.command(['CLIENT', 'PAUSE', '1500', 'ALL']);
      const started = Date.now();
      expect(await stores.dedupe.claim('slow', 60_000)).toBe(true);
      expect(await stores.cache.get('anything')).toBeUndefined();
      expect(await client.catalog.flags.list()).toBeInstanceOf(Array);
      expect(Date.now() - started).toBeLessThan(1_400);
      expect(logger.lines.some((line) => line.startsWith('warn') && line.includes('at least once'))).toBe(true);
      expect(logger.lines.some((line) => line.startsWith('warn') && line.includes('cache'))).toBe(true);
      await pauser.command(['CLIENT', 'UNPAUSE']);
    });
  });

  it('when Redis is down, deliveries are handled (at least once, logged) and requests are sent', async () => {
    const own = await startRedisServer();
    const redis = await CLIENTS['node-redis']?.(own.url);
    if (!redis) throw new Error('no client');
    open.push(redis);
    const logger = quietLogger();
    const clientLines: string[] = [];
    const stores = redisStores(redis.client, { prefix: freshPrefix(), logger });
    const client = new MarketplaceClient({
      baseUrl: kit.url,
      vendor: 'marketplace',
      token: kit.mock.tokens.orders,
      cache: stores.cache,
      rateLimitStore: stores.rateLimitStore,
      logger: { debug() {}, warn: (message) => clientLines.push(message) },
    });
    const handled: string[] = [];
    const handler = createWebhookHandler({ urlSecret: false, allowedRanges: false, dedupe: stores.dedupe, onEvent: (event) => void handled.push(event.event_type) });
    expect((await client.orders.get('DEMO-OPEN')).code).toBe('DEMO-OPEN');

    await own.stop();
    expect((await client.orders.get('DEMO-OPEN')).code).toBe('DEMO-OPEN');
    expect((await handler(post(newOrderBody()))).status).toBe(200);
    expect(handled).toEqual(['new_order']);
    expect(logger.lines.some((line) => line.includes('handled without deduplication (at least once)'))).toBe(true);
    expect(clientLines.some((line) => line.includes("this process's own view"))).toBe(true);
  });
});

describe.skipIf(redisServerMissing !== undefined)('emporio/redis on a Redis Cluster (one node serving every slot)', () => {
  let cluster: RedisServer;
  let kit: RunningMockMarketplace;
  const open: Connection[] = [];

  beforeAll(async () => {
    cluster = await startRedisServer({ cluster: true });
    kit = await startMockMarketplace({ port: 0, seedDemoOrders: false, rateLimit: false });
  });
  afterAll(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    await kit?.close();
    await cluster?.stop();
  });

  it.each(Object.keys(CLIENTS))('with %s, a token window and the day are swapped together (one slot), so the budget is shared', async (kind) => {
    const redis = await (CLIENTS[kind] as (url: string) => Promise<Connection>)(cluster.url);
    open.push(redis);
    await expectSharedBudget(redis.client, kit);
  });

  it('tags each merchant token by itself, so tokens spread over the slots; the budgeted tokens sit with their daily count', async () => {
    const redis = await (CLIENTS.ioredis as (url: string) => Promise<Connection>)(cluster.url);
    open.push(redis);
    const prefix = `spread${Math.random().toString(36).slice(2)}:`;
    const { rateLimitStore } = redisStores(redis.client, { prefix });
    const tokens = ['merchant-a', 'merchant-b', 'merchant-c'];
    const spread = await startMockMarketplace({ port: 0, seedDemoOrders: true, rateLimit: false, tokens: { orders: tokens[0] as string } });
    try {
      for (const token of tokens) {
        const client = new MarketplaceClient({ baseUrl: spread.url, vendor: 'marketplace', token, cache: false, rateLimitStore, maxRetries: 0 });
        await client.orders.get('DEMO-OPEN').catch(() => undefined);
      }
      await new MarketplaceClient({ baseUrl: kit.url, vendor: 'marketplace', token: kit.mock.tokens.catalog, cache: false, rateLimitStore }).catalog.flags.list();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const keys = (await redis.command(['KEYS', `${prefix}*`])) as string[];
      const slotOf = async (key: string) => Number(await redis.command(['CLUSTER', 'KEYSLOT', key]));
      const merchantSlots = new Set<number>();
      const budgetSlots = new Set<number>();
      for (const key of keys) {
        for (const token of tokens) expect(key).not.toContain(token);
        (key.includes('budget}') ? budgetSlots : merchantSlots).add(await slotOf(key));
      }
      expect(merchantSlots.size).toBe(tokens.length);
      expect(keys.some((key) => key.includes('budget}:day:'))).toBe(true);
      expect(budgetSlots.size).toBe(1);
    } finally {
      await spread.close();
    }
  });
});
