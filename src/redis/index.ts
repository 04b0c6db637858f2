/**
 * `emporio/redis`: the state several processes of one app share on one Redis: the ETag
 * cache, the webhook dedupe store (with an atomic claim), the rate-limit state, the webhook inbox
 * and tracked orders. Works with node-redis (v4 and later, a client or a `createCluster` cluster)
 * and ioredis (a client or a `Cluster`), neither of which emporio depends on: the app passes its
 * own connected client.
 *
 * Redis down or slow never costs a delivery: every call is bounded in time (relative to the
 * round trip measured), and then the cache misses, a webhook delivery is handled without the
 * claim (at least once), and the client paces the service's windows by its own process's view.
 * The budgets fail closed: a budgeted request goes only on a share of them reserved in Redis
 * in advance, or waits for Redis. Each fall back is logged once per outage.
 */
import type { CacheStore, CachedAnswer } from '../core/cache.js';
import type { Logger } from '../core/logger.js';
import type { RateLimitStore } from '../core/rate-limit.js';
import { FIGURES_POLL_MS, PROVISIONAL_WINDOW_MS } from '../core/rate-limit-window.js';
import { within } from '../core/time.js';
import { errorText, tryParseJson } from '../core/text.js';
import type { WebhookDedupeStore } from '../webhooks/handler.js';
import type { WebhookInbox } from '../webhooks/inbox.js';
import { redisInbox } from './inbox.js';
import type { OrderTrackerStore } from '../orders-tracker/store.js';
import { redisOrderTrackerStore } from './order-tracker-store.js';
import { redisRateLimitStore } from './rate-limit.js';
import { RoundTrip } from './round-trip.js';

/** A node-redis client (v4 and later): commands go through `sendCommand`. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
  readonly isReady: boolean;
}

/** A node-redis cluster (`createCluster`, v4 and later): each command goes by its first key to the node serving its slot. */
export interface NodeRedisClusterLike {
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
  getRandomNode(): unknown;
  readonly isReady: boolean;
}

/** An ioredis client: commands go through `call`. */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
  readonly status: string;
}

export type RedisClientLike = NodeRedisClientLike | NodeRedisClusterLike | IoRedisClientLike;

export interface RedisStoresOptions {
  /** Put before every key, so several apps (or API clients) can share one Redis. Default `'emporio:'`. */
  prefix?: string | undefined;
  /**
   * The longest one Redis call may take before the store goes on without it. Default: four times
   * the round trip measured to this Redis (a mean of its replies), at least 1 s (2 s until the
   * first reply), so a Redis far away keeps working and a short stall costs a short wait.
   */
  timeoutMs?: number | undefined;
  /** How long a cached answer is kept (revalidated by ETag meanwhile). Default 24 hours. */
  cacheTtlMs?: number | undefined;
  /** Where the fall backs are reported, once per outage. Default `console`. */
  logger?: Pick<Logger, 'warn' | 'info'> | undefined;
}

/** A dedupe store whose `claim` is atomic across processes (Redis `SET NX PX`). */
export interface RedisDedupeStore extends WebhookDedupeStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** True when this process should handle the delivery: it set the key, or Redis could not say (at least once). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Extends a claim by `ttlMs` from now while the key still marks the delivery in progress (never a handled mark). */
  renew(key: string, ttlMs: number): Promise<boolean>;
}

export interface RedisStores {
  /** The client's `cache` option: ETag answers, kept `cacheTtlMs`. */
  cache: CacheStore;
  /** `createWebhookHandler`'s `dedupe` option. */
  dedupe: RedisDedupeStore;
  /** The client's `rateLimitStore` option: windows per token and the daily budget, counted across processes. */
  rateLimitStore: RateLimitStore;
  /**
   * `createWebhookHandler`'s `inbox` and `processInbox`'s: deliveries kept on Redis Streams until
   * handled. Unlike the other stores it never goes on without Redis: a delivery it cannot store is
   * answered 500 (the service retries), and a worker waits for Redis. Run Redis with `appendonly yes`.
   */
  inbox: WebhookInbox;
  /** `createOrderTracker`'s `store` (`emporio/orders-tracker`): tracked orders, once-only deadline alerts and the reconcile lease, shared. */
  orders: OrderTrackerStore;
}

/** The least bound of a Redis call when `timeoutMs` is not given (the round trip sets it above). */
const MIN_TIMEOUT_MS = 1_000;
const DEFAULT_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
/** What `claim` writes: the webhook handler reads any value but its handled mark as "in progress". */
const CLAIMED = 'in-flight';
/** Extends a claim's lease only while it is one: a handled mark keeps its own, longer expiry. */
const RENEW_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

/**
 * The stores on one Redis client (node-redis v4+ or ioredis). Keys are
 * `<prefix>cache:…`, `<prefix>webhook:…` and the rate-limit keys, every one expiring, and the
 * inbox's `<prefix>inbox:{<prefix>inbox}:…` (one hash tag: the inbox stays on one shard). Each
 * rate-limit step is one script over keys of one hash tag (Redis Cluster runs a script only
 * within one slot): a merchant token's keys are tagged by the token, so tokens spread over the
 * cluster; the budgeted APIs' tokens are tagged with the client's daily count they share.
 *
 * @example
 * const stores = redisStores(redis);
 * const client = new MarketplaceClient({ ..., cache: stores.cache, rateLimitStore: stores.rateLimitStore });
 * const handler = createWebhookHandler({ urlSecret: process.env.WEBHOOK_URL_SECRET, onEvent, dedupe: stores.dedupe });
 * // or, durable: answered once Redis holds the delivery, handled by workers
 * const handler = createWebhookHandler({ urlSecret: process.env.WEBHOOK_URL_SECRET, inbox: stores.inbox });
 * await processInbox({ inbox: stores.inbox, onEvent, signal });
 */
export function redisStores(client: RedisClientLike, options: RedisStoresOptions = {}): RedisStores {
  const run = commandRunner(client);
  const prefix = options.prefix ?? 'emporio:';
  if (typeof prefix !== 'string') throw new TypeError('redisStores: prefix must be a string');
  const fixedTimeoutMs = options.timeoutMs === undefined ? undefined : positive(options.timeoutMs, 0, 'timeoutMs');
  const cacheTtlMs = positive(options.cacheTtlMs, DEFAULT_CACHE_TTL_MS, 'cacheTtlMs');
  const logger = options.logger ?? console;

  /** Fall backs already reported in the current outage, by store. */
  const reported = new Set<string>();
  const roundTrip = new RoundTrip();
  const call = async (store: string, args: string[]): Promise<unknown> => {
    const timeoutMs = fixedTimeoutMs ?? roundTrip.bound(MIN_TIMEOUT_MS);
    const started = Date.now();
    // A late reply is timed too: a Redis farther than thought is learnt, not given up on for good.
    const sent = run(args);
    sent.then(() => roundTrip.learn(Date.now() - started, timeoutMs), () => {});
    const reply = await within(sent, timeoutMs, () => {
      throw new Error(`no reply within ${Math.round(timeoutMs)} ms`);
    });
    if (reported.delete(store) && reported.size === 0) logger.info?.('emporio/redis: Redis answers again');
    return reply;
  };
  const fellBack = (store: string, consequence: string, error: unknown) => {
    if (reported.has(store)) return;
    reported.add(store);
    logger.warn?.(`emporio/redis: Redis unavailable (${errorText(error)}): ${consequence}`);
  };
  /** `command`'s reply, or `fallback` (reported) when Redis fails or is slow. */
  const orElse = async <T>(store: string, consequence: string, command: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await command();
    } catch (error) {
      fellBack(store, consequence, error);
      return fallback;
    }
  };

  const cacheKey = (key: string) => `${prefix}cache:${key}`;
  const cacheMiss = 'the ETag cache misses until it answers';
  const cache: CacheStore = {
    get: (key) =>
      orElse('cache', cacheMiss, async () => {
        const reply = await call('cache', ['GET', cacheKey(key)]);
        return typeof reply === 'string' ? tryParseJson(reply) : undefined;
      }, undefined),
    set: (key, value: CachedAnswer) =>
      orElse('cache', cacheMiss, () => call('cache', ['SET', cacheKey(key), JSON.stringify(value), 'PX', String(cacheTtlMs)]), undefined),
    delete: (key) => orElse('cache', cacheMiss, () => call('cache', ['DEL', cacheKey(key)]), undefined),
  };

  const dedupeKey = (key: string) => `${prefix}webhook:${key}`;
  const atLeastOnce = 'webhook deliveries are handled without deduplication (at least once) until it answers';
  const dedupe: RedisDedupeStore = {
    get: (key) =>
      orElse('dedupe', atLeastOnce, async () => {
        const reply = await call('dedupe', ['GET', dedupeKey(key)]);
        return typeof reply === 'string' ? reply : undefined;
      }, undefined),
    set: async (key, value, ttlMs) => {
      const expiry = ttlMs === undefined ? [] : ['PX', String(Math.max(1, Math.ceil(ttlMs)))];
      await orElse('dedupe', atLeastOnce, () => call('dedupe', ['SET', dedupeKey(key), value, ...expiry]), undefined);
    },
    delete: async (key) => {
      await orElse('dedupe', atLeastOnce, () => call('dedupe', ['DEL', dedupeKey(key)]), undefined);
    },
    claim: (key, ttlMs) =>
      orElse('dedupe', atLeastOnce, async () => {
        const ttl = String(Math.max(1, Math.ceil(ttlMs)));
        return (await call('dedupe', ['SET', dedupeKey(key), CLAIMED, 'PX', ttl, 'NX'])) !== null;
      }, true),
    renew: (key, ttlMs) =>
      orElse('dedupe', atLeastOnce, async () => {
        const ttl = String(Math.max(1, Math.ceil(ttlMs)));
        return (await call('dedupe', ['EVAL', RENEW_SCRIPT, '1', dedupeKey(key), CLAIMED, ttl])) === 1;
      }, false),
  };

  // Failures reach the client, which falls back to its own view and says so in its log.
  const rateLimitStore = redisRateLimitStore((args) => call('rateLimit', args), prefix, FIGURES_POLL_MS, PROVISIONAL_WINDOW_MS, roundTrip);

  return {
    cache,
    dedupe,
    rateLimitStore,
    inbox: redisInbox((args) => call('inbox', args), prefix),
    orders: redisOrderTrackerStore((args) => call('orders', args), prefix),
  };
}

/** Sends one command (an array of strings) with whichever client it is, failing at once while it is not connected. */
function commandRunner(client: RedisClientLike): (args: string[]) => Promise<unknown> {
  const io = client as Partial<IoRedisClientLike>;
  if (typeof io.call === 'function' && typeof io.status === 'string') {
    const ioredis = client as IoRedisClientLike;
    return ([command, ...args]) =>
      ioredis.status === 'ready' ? ioredis.call(command as string, ...args) : Promise.reject(new Error(`not connected (${ioredis.status})`));
  }
  const cluster = client as Partial<NodeRedisClusterLike>;
  if (typeof cluster.sendCommand === 'function' && typeof cluster.getRandomNode === 'function' && 'isReady' in client) {
    const nodeCluster = client as NodeRedisClusterLike;
    return (args) => (nodeCluster.isReady ? nodeCluster.sendCommand(firstKeyOf(args), false, args) : Promise.reject(new Error('not connected')));
  }
  const node = client as Partial<NodeRedisClientLike>;
  if (typeof node.sendCommand === 'function' && 'isReady' in client) {
    const nodeRedis = client as NodeRedisClientLike;
    return (args) => (nodeRedis.isReady ? nodeRedis.sendCommand(args) : Promise.reject(new Error('not connected')));
  }
  throw new TypeError('redisStores: expected a node-redis (v4 or later) client or cluster, or an ioredis client or cluster');
}

/**
 * The key a cluster routes a command by: a script's first key (every key of a step shares its
 * hash tag, so its slot), else the command's first argument (GET, SET, DEL, XADD and the like).
 */
function firstKeyOf([command, first, second, third]: string[]): string | undefined {
  return /^EVAL/i.test(command ?? '') ? (second === '0' ? undefined : third) : first;
}

function positive(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`redisStores: ${option} must be a positive number of milliseconds`);
  }
  return value;
}
