/**
 * `emporio/redis` on a real Redis Cluster of 3 masters (redis-server with `--cluster-enabled yes`,
 * slots spread by `redis-cli --cluster create`), through node-redis's `createCluster` and
 * ioredis's `Cluster`: every command goes to the node serving its key's slot.
 */
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketplaceClient, RateLimitBudgetError } from 'emporio';
import { type RedisClientLike, redisStores } from 'emporio/redis';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { redisServerMissing, startRedisCluster } from './redis-server.js';

const CLUSTERS: Record<string, (port: number) => Promise<{ client: RedisClientLike; close(): Promise<void> }>> = {
  'node-redis createCluster': async (port) => {
    const cluster = createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${port}` }], defaults: { socket: { reconnectStrategy: 50 } } });
    cluster.on('error', () => {});
    await cluster.connect();
    return { client: cluster, close: async () => cluster.destroy() };
  },
  'ioredis Cluster': async (port) => {
    const cluster = new Cluster([{ host: '127.0.0.1', port }], { lazyConnect: true, redisOptions: { maxRetriesPerRequest: 1 } });
    cluster.on('error', () => {});
    await cluster.connect();
    return { client: cluster, close: async () => cluster.disconnect() };
  },
};

describe.skipIf(redisServerMissing !== undefined)('emporio/redis on a Redis Cluster of 3 masters', () => {
  let cluster: Awaited<ReturnType<typeof startRedisCluster>>;
  let kit: RunningMockMarketplace;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    kit = await startMockMarketplace({ port: 0, seedDemoOrders: true, rateLimit: false });
  }, 30_000);
  afterAll(async () => {
    await kit?.close();
    await cluster?.stop();
  });

  it.each(Object.keys(CLUSTERS))('with %s: the daily budget is shared, merchant tokens spread over the nodes, the cache and the claim work', async (kind) => {
    const port = (cluster.nodes[0] as { port: number }).port;
    const connections = await Promise.all([0, 1].map(() => (CLUSTERS[kind] as (port: number) => Promise<{ client: RedisClientLike; close(): Promise<void> }>)(port)));
    try {
      const prefix = `cluster${Math.random().toString(36).slice(2)}:`;
      const stores = connections.map((connection) => redisStores(connection.client, { prefix }));
      const warnings: string[] = [];
      const make = (i: number) =>
        new MarketplaceClient({
          baseUrl: kit.url,
          vendor: 'marketplace',
          tokens: { catalog: kit.mock.tokens.catalog, orders: kit.mock.tokens.orders },
          cache: false,
          rateLimit: { perDay: 6, perMinute: 1_000 },
          rateLimitStore: stores[i]?.rateLimitStore,
          logger: { debug() {}, warn: (message) => warnings.push(message) },
        });
      const clients = [make(0), make(1)];
      const sentBefore = kit.mock.requests.length;
      const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (clients[i % 2] as MarketplaceClient).catalog.flags.list()));
      // Each store may hold a unit of the day in advance (its lease, spent when Redis refuses or does not
      // answer). A store whose own calls all found room in the burst still holds its unit: one more call
      // from each client spends it, so the day's 6 are sent in all, whichever store the burst favoured.
      for (const client of clients) outcomes.push(...(await Promise.allSettled([client.catalog.flags.list()])));
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      // Checked first so that a failure names its cause: a store that failed is a warning, a refusal of another kind its error.
      expect(warnings).toEqual([]);
      for (const error of refused) expect(error).toBeInstanceOf(RateLimitBudgetError);
      expect(refused).toHaveLength(6);
      expect(kit.mock.requests.length - sentBefore).toBe(6);

      // Merchant tokens each on a slot of their own: scripts run wherever their slot is served.
      for (const client of clients) for (let i = 0; i < 3; i++) expect((await client.orders.get('DEMO-OPEN')).code).toBe('DEMO-OPEN');
      await stores[0]?.cache.set('answer', { etag: 'W/"1"', body: '{}' });
      expect(await stores[1]?.cache.get('answer')).toEqual({ etag: 'W/"1"', body: '{}' });
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % 2]?.dedupe.claim('delivery', 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(warnings).toEqual([]);
    } finally {
      await Promise.all(connections.map((connection) => connection.close()));
    }
  }, 30_000);
});
