/**
 * Where the order tracker keeps its orders, its once-only marks and its reconcile lease. The
 * default is this process's memory; `redisStores(...).orders` (`emporio/redis`) shares them
 * between instances, so each deadline fires once and one reconcile runs at a time.
 */
import type { TrackedOrderFields } from './snapshot.js';

/** An order the tracker holds. */
export interface TrackedOrder {
  /** The order as last handed to the merchant (or passed to `track`): its code, state, deadlines and the members `changes` name. */
  order: TrackedOrderFields;
  /** False for an order the tracker found itself (the open-orders listing) until `onEvent` took it: it is offered again at each reconcile. */
  handed: boolean;
  /** When the tracker forgets it (epoch ms): set once it is neither open nor accepted. */
  forgetAt?: number | undefined;
}

/**
 * The tracker's storage. Every method may return a promise. `mark` must be atomic across the
 * instances that share the store (Redis `SET NX`), and so must `lease`.
 */
export interface OrderTrackerStore {
  /** Every order held. */
  all(): Promise<TrackedOrder[]> | TrackedOrder[];
  get(code: string): Promise<TrackedOrder | undefined> | TrackedOrder | undefined;
  put(order: TrackedOrder): Promise<void> | void;
  delete(code: string): Promise<void> | void;
  /** Sets `key` for `ttlMs` unless it is set: true when this call set it. */
  mark(key: string, ttlMs: number): Promise<boolean> | boolean;
  /** Removes a mark (its alert failed and should fire again). */
  unmark(key: string): Promise<void> | void;
  /** Takes the lease `name` for `holder`, or extends it when `holder` holds it: true while `holder` holds it. */
  lease(name: string, holder: string, ttlMs: number): Promise<boolean> | boolean;
  /** Gives the lease up, when `holder` holds it. */
  release(name: string, holder: string): Promise<void> | void;
}

/** The default store: this process's memory (one instance; tests). */
export function memoryOrderTrackerStore(now: () => number = Date.now): OrderTrackerStore {
  const orders = new Map<string, TrackedOrder>();
  /** Marks and leases: key → value and expiry. */
  const keys = new Map<string, { value: string; until: number }>();
  const live = (key: string) => {
    const entry = keys.get(key);
    if (entry && entry.until <= now()) keys.delete(key);
    return keys.get(key);
  };
  const copy = (order: TrackedOrder): TrackedOrder => structuredClone(order);
  return {
    all: () => [...orders.values()].map(copy),
    get: (code) => {
      const order = orders.get(code);
      return order && copy(order);
    },
    put: (order) => {
      orders.set(order.order.code, copy(order));
    },
    delete: (code) => {
      orders.delete(code);
    },
    mark: (key, ttlMs) => {
      if (live(`mark:${key}`)) return false;
      keys.set(`mark:${key}`, { value: '1', until: now() + ttlMs });
      return true;
    },
    unmark: (key) => {
      keys.delete(`mark:${key}`);
    },
    lease: (name, holder, ttlMs) => {
      const held = live(`lease:${name}`);
      if (held && held.value !== holder) return false;
      keys.set(`lease:${name}`, { value: holder, until: now() + ttlMs });
      return true;
    },
    release: (name, holder) => {
      if (live(`lease:${name}`)?.value === holder) keys.delete(`lease:${name}`);
    },
  };
}
