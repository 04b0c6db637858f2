/**
 * Two order trackers sharing `redisStores(...).orders` on a real redis-server, with node-redis and
 * ioredis: each deadline fires once, reconciles never overlap (a lease that a dead instance's
 * expiry frees), every key carries the `{orders}` hash tag.
 */
import { MarketplaceClient } from 'emporio';
import { createOrderTracker } from 'emporio/orders-tracker';
import { redisStores } from 'emporio/redis';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLIENTS, connections } from './clients.js';
import { type RedisServer, redisServerMissing, startRedisServer } from './redis-server.js';

const MINUTE = 60_000;

describe.skipIf(redisServerMissing !== undefined)('the order tracker on Redis', () => {
  let server: RedisServer;
  let mock: MockMarketplace;
  const redis = connections(() => server.url);
  let prefixCount = 0;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    mock?.close();
    await redis.closeAll();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(Object.keys(CLIENTS))('with %s', (kind) => {
    const connect = () => redis.connect(kind);
    /** Reads of single orders under way across both instances, and the most seen at once. */
    const reads = { now: 0, most: 0, total: 0 };
    const counted: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const single = /\/orders\/[^/]+$/.test(new URL(request.url).pathname);
      if (single) reads.most = Math.max(reads.most, ++reads.now);
      try {
        // Long enough for the other instance to try its reconcile meanwhile.
        if (single) await new Promise((resolve) => setTimeout(resolve, 5));
        return await mock.fetch(request);
      } finally {
        if (single) {
          reads.now--;
          reads.total++;
        }
      }
    };

    /** Two trackers, as two processes would run them, each on its own connection, sharing one prefix. */
    const twoTrackers = async (options: Partial<Parameters<typeof createOrderTracker>[0]> = {}) => {
      mock = createMockMarketplace({ seedDemoOrders: false });
      const prefix = `tracker${++prefixCount}:`;
      const instance = async () => {
        const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, token: mock.tokens.orders, fetch: counted, maxRetries: 0 });
        return createOrderTracker({ client, onEvent: () => {}, ...options, store: redisStores((await connect()).client, { prefix }).orders });
      };
      return { prefix, trackers: [await instance(), await instance()] as const };
    };

    it('fires each deadline once across the two, per lead time', async () => {
      const fired: string[] = [];
      const { trackers } = await twoTrackers({ onDeadline: (order, kind, info) => void fired.push(`${order.code} ${kind} ${info.leadMs / MINUTE}`) });
      const [a, b] = trackers;
      const orders = [mock.orders.create(), mock.orders.create()];
      for (const order of orders) await a.track(order);
      expect((await b.tracked()).map((t) => t.order.code).sort()).toEqual(orders.map((o) => o.code).sort());
      const expires = Date.parse(orders[0]?.expires_at as string);
      for (const minutesBefore of [29, 20, 9, 2]) {
        const now = new Date(expires - minutesBefore * MINUTE);
        const counts = await Promise.all([a.checkDeadlines(now), b.checkDeadlines(now), a.checkDeadlines(now), b.checkDeadlines(now)]);
        expect(counts.reduce((sum, n) => sum + n, 0)).toBe(minutesBefore === 29 || minutesBefore === 9 ? 2 : 0);
      }
      expect(fired.sort()).toEqual(
        orders.flatMap((o) => [`${o.code} expires_soon 10`, `${o.code} expires_soon 30`]).sort(),
      );
    });

    it('never reconciles on both at the same time; a lease left by a dead instance expires', async () => {
      const events: string[] = [];
      const { prefix, trackers } = await twoTrackers({ onEvent: (event) => void events.push(event.order.code), leaseMs: 1_000 });
      const [a, b] = trackers;
      const codes = Array.from({ length: 6 }, () => mock.orders.create().code);
      for (const code of codes) await a.track(mock.orders.get(code) as never);
      for (const code of codes) mock.orders.cancel(code);
      reads.most = 0;
      reads.total = 0;
      // b tries again and again while a reconciles (bounded: a takes about 6 reads of 5 ms).
      let settled = false;
      const first = a.reconcile().finally(() => {
        settled = true;
      });
      let tries = 0;
      let foundByB = 0;
      while (!settled && tries < 200) {
        foundByB += await b.reconcile();
        tries++;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(tries).toBeGreaterThan(1);
      expect((await first) + foundByB).toBe(codes.length);
      expect(foundByB).toBe(0);
      expect(reads.most).toBe(1);
      expect(reads.total).toBe(codes.length);
      expect(events.sort()).toEqual([...codes].sort());

      // An instance that died holding the lease: the others wait until it expires.
      const connection = await connect();
      const store = redisStores(connection.client, { prefix }).orders;
      expect(await store.lease('reconcile', 'dead instance', 300)).toBe(true);
      const more = mock.orders.create();
      await a.track(more);
      mock.orders.cancel(more.code);
      expect(await b.reconcile()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(await b.reconcile()).toBe(1);

      const keys = (await connection.command(['KEYS', `${prefix}*`])) as string[];
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key.startsWith(`${prefix}{orders}:`)).toBe(true);
    });
  });
});
