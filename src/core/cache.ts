/**
 * ETag cache. The store is anything with get/set/delete returning values or promises:
 * a `Map`, a Keyv instance (so clients and processes can share Redis), or the bounded
 * in-memory default. Keys never contain a token: they carry a hash of it, so one
 * user's personalised answer never serves another user's request.
 */
export interface CacheStore {
  get(key: string): unknown | Promise<unknown>;
  set(key: string, value: CachedAnswer): unknown;
  delete(key: string): unknown;
}

/** What is kept per URL: plain data, so any store can serialise it. */
export interface CachedAnswer {
  etag: string;
  body: string;
  link?: string | undefined;
}

/** A small LRU: Map iteration order is insertion order, so re-inserting marks recent use. */
export class MemoryCache implements CacheStore {
  readonly #entries = new Map<string, CachedAnswer>();
  readonly #maxEntries: number;
  readonly #maxBodyChars: number;
  /** Bound on the bodies' total size: 500 list pages of 50 KB would otherwise hold 25 MB. */
  readonly #maxTotalChars: number;
  #totalChars = 0;

  constructor(options: { maxEntries?: number | undefined; maxBodyChars?: number | undefined; maxTotalChars?: number | undefined } = {}) {
    this.#maxEntries = options.maxEntries ?? 500;
    this.#maxBodyChars = options.maxBodyChars ?? 1_000_000;
    this.#maxTotalChars = options.maxTotalChars ?? 4_000_000;
  }

  get(key: string): CachedAnswer | undefined {
    // Until an answer with an ETag is kept, a miss costs no hashing of the key.
    if (this.#entries.size === 0) return undefined;
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: CachedAnswer): void {
    if (value.body.length > this.#maxBodyChars) return;
    this.delete(key);
    this.#entries.set(key, value);
    this.#totalChars += value.body.length;
    while (this.#entries.size > this.#maxEntries || this.#totalChars > this.#maxTotalChars) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#totalChars -= entry.body.length;
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

export function isCachedAnswer(value: unknown): value is CachedAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.etag === 'string' && typeof v.body === 'string';
}

export function isCacheStore(value: unknown): value is CacheStore {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.get === 'function' && typeof v.set === 'function' && typeof v.delete === 'function';
}

const tokenIds = new Map<string, Promise<string>>();
const knownTokenIds = new Map<string, string>();

/**
 * A short, stable identity for a token: the first 16 bytes of its SHA-256, hex.
 * Memoised (bounded), so the hashing costs once per token, not once per request.
 */
export function tokenIdentity(token: string): Promise<string> {
  let id = tokenIds.get(token);
  if (!id) {
    id = crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)).then((digest) => {
      let hex = '';
      for (const byte of new Uint8Array(digest).subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
      if (knownTokenIds.size >= 64) knownTokenIds.delete(knownTokenIds.keys().next().value as string);
      knownTokenIds.set(token, hex);
      return hex;
    });
    if (tokenIds.size >= 64) tokenIds.delete(tokenIds.keys().next().value as string);
    tokenIds.set(token, id);
  }
  return id;
}

/** The identity of a token already hashed, without waiting; undefined the first time. */
export function knownTokenIdentity(token: string): string | undefined {
  return knownTokenIds.get(token);
}
