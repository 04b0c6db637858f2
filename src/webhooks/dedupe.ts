/**
 * Redelivery deduplication of the webhook handler: the store contract, the claim of a delivery
 * (atomic with `claim`, read-then-write without), the lease held while `onEvent` runs, the key of
 * a delivery, and the bounded in-memory default store.
 */
import { within } from '../core/time.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import { isReturnEvent } from './parse.js';

/**
 * Where handled deliveries are remembered. Methods may return values or promises, so a
 * `Map`-like object and a Keyv instance (`keyv.set(key, value, ttl)`) both fit, and
 * several app instances can share one Redis-backed store.
 */
export interface WebhookDedupeStore {
  get(key: string): unknown;
  set(key: string, value: string, ttlMs?: number): unknown;
  delete(key: string): unknown;
  /**
   * Atomic set-if-absent: resolves true when this call took the key (this instance
   * handles the delivery). With it, two instances sharing the store never both call
   * `onEvent` for one delivery; without it, get-then-set leaves a gap between them.
   */
  claim?: ((key: string, ttlMs: number) => unknown) | undefined;
  /**
   * Extends a claim this instance holds by `ttlMs` from now, while `onEvent` runs (only while the
   * key still marks a delivery in progress). Without it, the handler writes the claim again with `set`.
   */
  renew?: ((key: string, ttlMs: number) => unknown) | undefined;
}

export const DEFAULT_DEDUPE_TTL_MS = 30 * 60 * 1000;
/**
 * How long a delivery in progress is marked in a shared store without renewal. Short, so a
 * process that dies mid-delivery blocks the service's retries only for seconds.
 */
export const DEFAULT_CLAIM_LEASE_MS = 10_000;
export const HANDLED = 'handled';
export const IN_FLIGHT = 'in-flight';
/** Bound of the default store: enough for any realistic 30-minute burst. */
const MEMORY_STORE_LIMIT = 10_000;
/** A bounded call that did not settle in time. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * Takes the delivery in the store: true when this process handles it, HANDLED or
 * IN_FLIGHT when another did or does. A failing store counts as taken (at least once).
 */
export async function claimDelivery(
  store: WebhookDedupeStore,
  key: string,
  ttlMs: number,
  timeoutMs: number,
): Promise<true | typeof HANDLED | typeof IN_FLIGHT | typeof TIMED_OUT> {
  if (typeof store.claim === 'function') {
    const won = await bounded(() => store.claim?.(key, ttlMs), timeoutMs);
    if (won === TIMED_OUT) return TIMED_OUT;
    if (won !== false) return true;
    const seen = await bounded(() => store.get(key), timeoutMs);
    if (seen === TIMED_OUT) return TIMED_OUT;
    return seen === HANDLED ? HANDLED : IN_FLIGHT;
  }
  const seen = await bounded(() => store.get(key), timeoutMs);
  if (seen === TIMED_OUT) return TIMED_OUT;
  if (seen === HANDLED || seen === IN_FLIGHT) return seen;
  return (await bounded(() => store.set(key, IN_FLIGHT, ttlMs), timeoutMs)) === TIMED_OUT ? TIMED_OUT : true;
}

/** Runs `handle` while renewing the delivery's claim every third of its lease, so only a crash lets it lapse. */
export async function holdingLease<T>(store: WebhookDedupeStore, key: string, lease: number, timeoutMs: number, handle: () => Promise<T>): Promise<T> {
  const renew = () =>
    bounded(() => (typeof store.renew === 'function' ? store.renew(key, lease) : store.set(key, IN_FLIGHT, lease)), Math.min(timeoutMs, lease / 3));
  let renewing: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    renewing = renew();
  }, Math.max(1, lease / 3));
  try {
    return await handle();
  } finally {
    clearInterval(timer);
    // A renewal still under way must not land after the handled mark (a store without `renew` rewrites the claim).
    await renewing;
  }
}

/**
 * A store call bounded in time. A failing store never decides the answer (at least
 * once, not a lost event): its error reads as "nothing stored".
 */
export async function bounded(call: () => unknown, timeoutMs: number): Promise<unknown> {
  try {
    return await within(Promise.resolve().then(call), timeoutMs, () => TIMED_OUT);
  } catch {
    return undefined;
  }
}

/**
 * What makes a return event one delivery: its return, type, time and what changed (two updates of
 * one second are two events; the rest of the body is not hashed, as a redelivery may carry a later
 * copy of the return). Undefined for other events, whose whole body (their changes with it) is the key.
 */
export function dedupeIdentity(event: WebhookEvent): Uint8Array | undefined {
  if (!isReturnEvent(event) || typeof event.event_time !== 'string') return undefined;
  return new TextEncoder().encode(JSON.stringify(['return', event.return.return_code, event.event_type, event.event_time, event.changes]));
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** In-memory store with expiry, bounded: the oldest entries go first when full. */
export function memoryStore(): WebhookDedupeStore {
  const entries = new Map<string, { value: string; expires: number }>();
  const store: WebhookDedupeStore = {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expires <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value, ttlMs = DEFAULT_DEDUPE_TTL_MS) {
      entries.delete(key); // re-insert at the end: Map order is insertion order
      entries.set(key, { value, expires: Date.now() + ttlMs });
      if (entries.size > MEMORY_STORE_LIMIT) {
        const now = Date.now();
        for (const [oldKey, entry] of entries) {
          if (entries.size <= MEMORY_STORE_LIMIT && entry.expires > now) break;
          entries.delete(oldKey);
        }
      }
    },
    delete(key) {
      entries.delete(key);
    },
    claim(key, ttlMs) {
      if (store.get(key) !== undefined) return false;
      store.set(key, IN_FLIGHT, ttlMs);
      return true;
    },
    renew(key, ttlMs) {
      if (store.get(key) === IN_FLIGHT) store.set(key, IN_FLIGHT, ttlMs);
    },
  };
  return store;
}
