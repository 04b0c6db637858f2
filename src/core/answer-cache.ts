import type { RawAnswer } from './answer.js';
import { type CachedAnswer, type CacheStore, isCachedAnswer } from './cache.js';
import type { Logger } from './logger.js';
import { isThenable, within } from './time.js';

/**
 * The ETag cache as the request path uses it: a store that fails or hangs costs the cache,
 * never the request (a failure is logged and counts as a miss).
 */
export class AnswerCache {
  constructor(
    readonly store: CacheStore,
    readonly logger: Logger,
  ) {}

  /** The answer kept under `key`; synchronous for synchronous stores (the default), so a miss costs no await. */
  read(key: string, timeout: number, signal: AbortSignal | undefined): CachedAnswer | undefined | Promise<CachedAnswer | undefined> {
    let value: unknown;
    try {
      value = this.store.get(key);
    } catch (error) {
      return this.#failed('read', error);
    }
    if (!isThenable(value)) return isCachedAnswer(value) ? value : undefined;
    const read = Promise.resolve(value).then(
      (found) => (isCachedAnswer(found) ? found : undefined),
      (error: unknown) => this.#failed('read', error),
    );
    return within(read, timeout, () => this.#failed('read', 'timed out'), signal);
  }

  /** Keeps a successful answer that carries an ETag and a body, with its Link header; undefined when there is nothing to keep. */
  keep(key: string, raw: RawAnswer, timeout: number, signal: AbortSignal | undefined): Promise<unknown> | undefined {
    const etag = raw.headers.get('etag');
    if (!etag || !raw.text) return undefined;
    const entry: CachedAnswer = { etag, body: raw.text };
    const link = raw.headers.get('link');
    if (link) entry.link = link;
    // A store that throws at once fails the same way as one that rejects.
    const written = new Promise((resolve) => resolve(this.store.set(key, entry))).then(undefined, (error: unknown) => this.#failed('write', error));
    return within(written, timeout, () => this.#failed('write', 'timed out'), signal);
  }

  #failed(what: 'read' | 'write', error: unknown): undefined {
    this.logger.warn?.(`cache ${what} failed`, { error: String(error) });
    return undefined;
  }
}
