/**
 * The order tracker's store on Redis (`redisStores(...).orders`): the orders in one hash, the
 * once-only alert marks as `SET NX PX` keys, the reconcile lease as a key held by one instance.
 * Every key carries the `{orders}` hash tag, so on Redis Cluster they sit on one shard, as the
 * lease and the hash must. A Redis failure rejects the tracker's call (bounded by the stores'
 * time-out): `start` reports it and tries again at its next round.
 */
import { tryParseJson } from '../core/text.js';
import type { OrderTrackerStore, TrackedOrder } from '../orders-tracker/store.js';

/** Takes the lease for ARGV[1], or extends it when ARGV[1] holds it: 1 while it does. */
const LEASE_SCRIPT =
  "local v = redis.call('GET', KEYS[1]) if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end " +
  "if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0";
/** Gives the lease up only when ARGV[1] holds it. */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

const ms = (value: number) => String(Math.max(1, Math.ceil(value)));

export function redisOrderTrackerStore(call: (args: string[]) => Promise<unknown>, prefix: string): OrderTrackerStore {
  const key = (name: string) => `${prefix}{orders}:${name}`;
  const hash = key('tracked');
  const parse = (value: unknown): TrackedOrder | undefined => {
    const record = typeof value === 'string' ? (tryParseJson(value) as TrackedOrder | undefined) : undefined;
    return typeof record?.order?.code === 'string' ? record : undefined;
  };
  return {
    async all() {
      const reply = await call(['HVALS', hash]);
      return Array.isArray(reply) ? reply.map(parse).filter((record) => record !== undefined) : [];
    },
    async get(code) {
      return parse(await call(['HGET', hash, code]));
    },
    async put(record) {
      await call(['HSET', hash, record.order.code, JSON.stringify(record)]);
    },
    async delete(code) {
      await call(['HDEL', hash, code]);
    },
    async mark(name, ttlMs) {
      return (await call(['SET', key(`mark:${name}`), '1', 'PX', ms(ttlMs), 'NX'])) !== null;
    },
    async unmark(name) {
      await call(['DEL', key(`mark:${name}`)]);
    },
    async lease(name, holder, ttlMs) {
      return Number(await call(['EVAL', LEASE_SCRIPT, '1', key(`lease:${name}`), holder, ms(ttlMs)])) === 1;
    },
    async release(name, holder) {
      await call(['EVAL', RELEASE_SCRIPT, '1', key(`lease:${name}`), holder]);
    },
  };
}
