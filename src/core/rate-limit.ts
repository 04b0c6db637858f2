import { RateLimitBudgetError, type RequestTarget } from './errors.js';
import type { Logger } from './logger.js';
import { sleep, within } from './time.js';
import { errorText, tryParseJson } from './text.js';

/** The latest `X-RateLimit-*` figures: reset is in epoch seconds. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  reset: number;
}

/** Client-side budget for the catalog and account APIs (the Catalog API documentation, Limits). */
export interface RateLimitBudget {
  /** Requests per minute per token. Default 100. */
  perMinute?: number;
  /** Requests per UTC day per client. Default 1000; crossing the real cap expires every token. */
  perDay?: number;
}

/**
 * Where several processes keep their rate-limit state together (the `rateLimitStore` client
 * option; `emporio/redis` gives one): string values changed only by an atomic compare-and-set,
 * so N processes sharing a token never cross its window or the client's daily cap. A store that
 * fails or is slow costs the sharing, never a request: the client falls back to its own view.
 */
export interface RateLimitStore {
  /** The values of `keys`, undefined where absent. */
  read(keys: readonly string[]): Promise<(string | undefined)[]>;
  /**
   * Writes every change's `next` value (expiring after `ttlMs`) if every key still holds its
   * `expected` value (undefined: absent), all or nothing. Resolves to true when written,
   * otherwise to the values found (in the order of `changes`) to retry against.
   */
  swap(changes: readonly RateLimitStoreChange[]): Promise<true | (string | undefined)[]>;
}

export interface RateLimitStoreChange {
  key: string;
  expected: string | undefined;
  next: string;
  ttlMs: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The longest a request is held for the service's window before it is refused instead. */
const MAX_HOLD_MS = 120_000;
/** How long a new window's provisional figures stand before they are looked at again. */
const PROVISIONAL_WINDOW_MS = 1_000;
/** The longest one call of a shared store may take before the client goes on with its own view. */
const STORE_TIMEOUT_MS = 1_000;
/** After a shared store failed, how long the client keeps to its own view before trying it again. */
const STORE_RETRY_MS = 5_000;
/** How long an instance's in-flight count stands in a shared store without being written again (a process that died). */
const SHARED_IN_FLIGHT_TTL_MS = 5 * MINUTE_MS;
/** Compare-and-set rounds before a shared change is given up (it only loses to other writers). */
const MAX_SWAP_ROUNDS = 50;

/** The service's window of a token; `provisional` until an answer of the new window told its figures. */
type Window = RateLimitInfo & { provisional?: boolean };

/** One token's state: plain data, so a shared store can keep it as JSON. */
interface TokenState {
  window?: Window;
  /** Budget: when the token's requests of the last minute were sent. */
  sent?: number[];
  /** Requests sent and not answered (by every instance): the service may not have counted them in a Remaining. */
  inFlight: number;
  /** Requests sent while no window was known: the first answer's window may count them all. */
  untracked?: number;
}

interface DayCount {
  day: number;
  sent: number;
}

/** A request may go (0), or must wait this many milliseconds for the window or the minute. */
interface Step {
  wait: number;
  why?: 'window' | 'minute';
}

/** The usual step: go now (one object for every request). */
const GO: Step = Object.freeze({ wait: 0 });

/**
 * Two rules, kept apart:
 * - the service's own figures: a token whose `Remaining` reached 0 waits for `Reset`
 *   instead of earning a 403 (every API, and also with the budget turned off);
 * - the budget: per-minute pacing per token and a daily cap per client, counted by
 *   UTC day, for the budgeted APIs only. A request that would cross the daily cap
 *   is refused before sending.
 * The state lives in this process (synchronous, the default), or in a shared
 * {@link RateLimitStore}, with this process's view kept warm as the fallback.
 * @internal
 */
export class RateLimiter {
  latest: RateLimitInfo | undefined;
  /** This process's own view. */
  readonly #tokens = new Map<string, TokenState>();
  readonly #today: DayCount = { day: -1, sent: 0 };
  readonly #perMinute: number;
  readonly #perDay: number;
  readonly #enabled: boolean;
  readonly #shared: SharedLimits | undefined;

  constructor(
    budget: RateLimitBudget | false | undefined,
    private readonly logger: Logger,
    store?: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {
    this.#enabled = budget !== false;
    this.#perMinute = (budget || undefined)?.perMinute ?? 100;
    this.#perDay = (budget || undefined)?.perDay ?? 1000;
    this.#shared = store && new SharedLimits(store, logger, now);
  }

  /**
   * Waits until the token may send, then counts the request as sent, and says where it was
   * counted: its answer is observed and its release written there, whatever the store does
   * meanwhile. A plain string when the request may go at once (the usual case), so callers
   * await only real waits.
   */
  acquire(tokenId: string, budgeted: boolean, target: RequestTarget, signal?: AbortSignal): CountedIn | Promise<CountedIn> {
    const budget = budgeted && this.#enabled;
    if (this.#shared?.usable()) return this.#acquireShared(tokenId, budget, target, signal);
    const step = this.#step(this.#stateOf(tokenId), this.#today, budget, target);
    return step.wait === 0 ? 'process' : this.#acquireSlowly(tokenId, budget, target, signal, step);
  }

  async #acquireSlowly(tokenId: string, budget: boolean, target: RequestTarget, signal: AbortSignal | undefined, first: Step): Promise<CountedIn> {
    for (let step = first; step.wait > 0; step = this.#step(this.#stateOf(tokenId), this.#today, budget, target)) {
      await this.#wait(step, target, signal);
    }
    return 'process';
  }

  async #acquireShared(tokenId: string, budget: boolean, target: RequestTarget, signal?: AbortSignal): Promise<CountedIn> {
    const shared = this.#shared as SharedLimits;
    for (;;) {
      let step: Step;
      try {
        step = await shared.change(tokenId, budget, (token, day) => this.#step(token, day, budget, target));
      } catch (error) {
        if (error instanceof RateLimitBudgetError) throw error;
        // The store failed or is slow: this process's own view decides until it answers again.
        shared.failed(error);
        return this.acquire(tokenId, budget, target, signal);
      }
      if (step.wait === 0) {
        // The process's own view keeps the day's count, for a fall back later.
        if (budget) this.#countDay(shared.lastDay);
        return 'store';
      }
      await this.#wait(step, target, signal);
    }
  }

  async #wait(step: Step, target: RequestTarget, signal: AbortSignal | undefined): Promise<void> {
    if (step.wait === 0) return;
    if (step.why === 'window') {
      this.logger.debug(`rate limit: remaining 0, waiting ${step.wait} ms for the reset`, { url: target.url });
    } else {
      this.logger.debug(`rate limit: ${this.#perMinute} requests this minute, waiting ${step.wait} ms`, { url: target.url });
    }
    await sleep(step.wait, signal);
  }

  /** One look at a token's state: the wait, or 0 with the request counted as sent. Throws when it may not go at all. */
  #step(token: TokenState, day: DayCount, budget: boolean, target: RequestTarget): Step {
    if (budget) this.#checkDailyCap(day, target);
    const serverWait = this.#serverWait(token);
    if (serverWait > MAX_HOLD_MS) {
      // A day-long window (or a reset sent in milliseconds) is not waited out in silence.
      const reset = (this.now() + serverWait) / 1000;
      throw new RateLimitBudgetError(
        `the service asked this token to wait until ${new Date(reset * 1000).toISOString()} (its rate-limit answer); not sent`,
        reset,
        target,
        'service_wait',
      );
    }
    if (serverWait > 0) return { wait: serverWait, why: 'window' };
    const minuteWait = budget ? this.#minuteWait(token) : 0;
    if (minuteWait > 0) return { wait: minuteWait, why: 'minute' };
    // Counted now: in the service's window (so concurrent senders do not overshoot), the minute and the day.
    if (token.window) token.window.remaining--;
    else token.untracked = (token.untracked ?? 0) + 1;
    token.inFlight++;
    if (budget) {
      token.sent ??= [];
      token.sent.push(this.now());
      day.sent++;
    }
    return GO;
  }

  /** Reads the answer's rate-limit headers, if it carried them; `countedIn` is what `acquire` said of its request. */
  observe(tokenId: string, headers: Headers, countedIn: CountedIn): void {
    const remaining = headers.get('x-ratelimit-remaining');
    const reset = remaining === null ? null : headers.get('x-ratelimit-reset');
    if (reset === null) {
      // An answer outside any window: its request will not count in the next window known (where it was counted).
      if (countedIn === 'store') this.#shared?.later(tokenId, uncount);
      else {
        const state = this.#tokens.get(tokenId);
        if (state) uncount(state);
      }
      return;
    }
    // Remaining and Reset are all the holding needs; Limit completes client.rateLimit when it came.
    const info = { limit: Number(headers.get('x-ratelimit-limit') ?? Number.NaN), remaining: Number(remaining), reset: Number(reset) };
    if (!Number.isFinite(info.remaining) || !Number.isFinite(info.reset)) return;
    if (Number.isFinite(info.limit)) this.latest = info;
    const state = this.#tokens.get(tokenId);
    if (state) observeWindow(state, info, countedIn === 'process' ? 1 : 0);
    else this.#tokens.set(tokenId, { window: info, inFlight: 0 });
    // Applied before its request's release (which follows in the same batch or a later one).
    const own = countedIn === 'store' ? 1 : 0;
    this.#shared?.later(tokenId, (token) => observeWindow(token, info, own));
  }

  /** The request `acquire` counted got its answer, or none: it no longer holds room in the window where it was counted. */
  release(tokenId: string, countedIn: CountedIn): void {
    if (countedIn === 'store') {
      this.#shared?.release(tokenId);
      return;
    }
    const state = this.#tokens.get(tokenId);
    if (state && state.inFlight > 0) state.inFlight--;
  }

  /** Makes a later request of this token wait for the window's reset (after a 403 or 429). */
  exhaust(tokenId: string, resetEpochSeconds: number): void {
    exhaustWindow(this.#stateOf(tokenId), resetEpochSeconds);
    this.#shared?.later(tokenId, (token) => exhaustWindow(token, resetEpochSeconds));
  }

  #stateOf(tokenId: string): TokenState {
    let state = this.#tokens.get(tokenId);
    if (!state) {
      state = { inFlight: 0 };
      this.#tokens.set(tokenId, state);
    }
    return state;
  }

  /** Milliseconds until the service's window lets this token send; 0 when it may send now. */
  #serverWait(token: TokenState): number {
    const window = token.window;
    if (!window) return 0;
    const wait = window.reset * 1000 - this.now();
    if (wait <= 0) {
      // Without a limit, or once a provisional window passed with every answer in (answers without
      // the headers), there is nothing left to pace by.
      if (!(window.limit > 0) || (window.provisional && token.inFlight === 0)) {
        token.window = undefined;
        return 0;
      }
      // A new window began, whose figures no answer has told yet: let at most Limit requests
      // (less those still in flight) go now, and look again shortly, so a backlog held for the
      // reset does not all go at once.
      const remaining = window.limit - token.inFlight;
      const reset = (this.now() + PROVISIONAL_WINDOW_MS) / 1000;
      token.window = { limit: window.limit, remaining, reset, provisional: true };
      return remaining > 0 ? 0 : PROVISIONAL_WINDOW_MS;
    }
    return window.remaining > 0 ? 0 : wait;
  }

  /** Milliseconds until the per-minute budget has a free slot; 0 when it has one now. */
  #minuteWait(token: TokenState): number {
    const sent = token.sent;
    if (!sent) return 0;
    const now = this.now();
    while (sent.length > 0 && (sent[0] as number) <= now - MINUTE_MS) sent.shift();
    return sent.length < this.#perMinute ? 0 : (sent[0] as number) + MINUTE_MS - now;
  }

  #checkDailyCap(count: DayCount, target: RequestTarget): void {
    const day = Math.floor(this.now() / DAY_MS);
    if (day !== count.day) {
      count.day = day;
      count.sent = 0;
    }
    if (count.sent >= this.#perDay) {
      const retryAt = ((day + 1) * DAY_MS) / 1000;
      throw new RateLimitBudgetError(
        `daily budget of ${this.#perDay} requests is spent (crossing the service's cap expires every token); not sent; resets at ${new Date(retryAt * 1000).toISOString()}`,
        retryAt,
        target,
      );
    }
  }

  /** This process's day count after a shared request: at least what the store counted. */
  #countDay(shared: DayCount | undefined): void {
    if (shared && shared.day === this.#today.day) this.#today.sent = Math.max(this.#today.sent + 1, shared.sent);
    else if (shared && shared.day > this.#today.day) Object.assign(this.#today, shared);
    else this.#today.sent++;
  }
}

/**
 * Takes an answer's figures into the token's window. `ownInFlight`: 1 while the answered request
 * still counts in `token.inFlight`, 0 once released.
 */
function observeWindow(token: TokenState, info: RateLimitInfo, ownInFlight: 0 | 1): void {
  // This request is counted in the answer's Remaining; the token's others in flight may not be yet.
  const room = Math.max(0, info.remaining - Math.max(0, token.inFlight - ownInFlight));
  const known = token.window;
  if (known && (known.provisional || known.reset === info.reset)) {
    // Every request sent in this window was counted down as it went, so that count stands while
    // the answers agree with it (answers come back in any order). A Remaining below it means
    // requests this count never saw (another sender of the token): then the answer rules.
    const remaining = info.remaining >= known.remaining ? known.remaining : Math.min(known.remaining, room);
    token.window = { limit: info.limit, remaining, reset: info.reset };
  } else if (!known) {
    // The same for the requests sent before any window was known, when they all fit in this one
    // (the first answer's room counts every other request as unanswered, so it is safe too).
    const counted = info.limit - (token.untracked ?? 0);
    token.window = { ...info, remaining: info.remaining >= counted ? Math.max(counted, room) : room };
    token.untracked = undefined;
  } else if (info.reset > known.reset) {
    token.window = { ...info, remaining: room };
  }
}

/** A request's answer came (or none will): one fewer in flight. */
function releaseOne(token: TokenState): void {
  if (token.inFlight > 0) token.inFlight--;
}

function uncount(token: TokenState): void {
  if (token.untracked && !token.window) token.untracked--;
}

function exhaustWindow(token: TokenState, resetEpochSeconds: number): void {
  const known = token.window;
  if (known && known.reset >= resetEpochSeconds) known.remaining = 0;
  else token.window = { limit: known?.limit ?? 0, remaining: 0, reset: resetEpochSeconds };
}

/**
 * Where `acquire` counted a request: in this process's own view, or in the shared store.
 * The store may fail or come back while the request is out; its answer and release go where it was counted.
 * @internal
 */
export type CountedIn = 'process' | 'store';

/** A token's state as a shared store keeps it: each instance's in-flight count apart, so a dead one's expires. */
interface SharedTokenState {
  window?: Window;
  sent?: number[];
  /** Instance id → [requests in flight, until when the count stands (epoch ms)]. */
  inFlight?: Record<string, [number, number]>;
  untracked?: number;
}

/**
 * The shared side of a {@link RateLimiter}: each change reads the token's and the day's
 * state, applies the same rules as the process's own view, and writes both back with one
 * compare-and-set (retried against what another process wrote meanwhile).
 */
class SharedLimits {
  /** This instance's name among the processes sharing the store. */
  readonly #instance = Math.random().toString(36).slice(2, 12);
  /** Requests this instance counted in the store and has not released there: written as its in-flight count. */
  readonly #inFlight = new Map<string, number>();
  /** The values last read or written, so most changes need no read first. */
  readonly #known = new Map<string, string | undefined>();
  /** Changes after answers, written together once per tick and token. */
  readonly #pending = new Map<string, ((token: TokenState) => void)[]>();
  #downUntil = 0;
  lastDay: DayCount | undefined;

  constructor(
    private readonly store: RateLimitStore,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  usable(): boolean {
    return this.#downUntil === 0 || this.now() >= this.#downUntil;
  }

  failed(error: unknown): void {
    if (this.#downUntil === 0) {
      this.logger.warn?.('rate-limit store unavailable: going on with this process\'s own view of the limits', { error: errorText(error) });
    }
    this.#downUntil = this.now() + STORE_RETRY_MS;
  }

  /**
   * A request counted in the store is released there. It stays in this instance's count until
   * that write, so an answer applied before it still sees it in flight.
   */
  release(tokenId: string): void {
    if (!this.later(tokenId, releaseOne)) this.#addInFlight(tokenId, -1);
  }

  /**
   * Applies `update` to the token's shared state soon, with others of the same tick, without
   * holding the caller. False when the store is not in use (the update is dropped).
   */
  later(tokenId: string, update: (token: TokenState) => void): boolean {
    if (!this.usable()) return false;
    const queued = this.#pending.get(tokenId);
    if (queued) {
      queued.push(update);
      return true;
    }
    this.#pending.set(tokenId, [update]);
    queueMicrotask(() => {
      const updates = this.#pending.get(tokenId) ?? [];
      this.#pending.delete(tokenId);
      this.change(tokenId, false, (token) => {
        for (const apply of updates) apply(token);
      }).catch((error: unknown) => {
        this.failed(error);
        // Releases not written: the store's count of this instance is rewritten by its next change.
        this.#addInFlight(tokenId, -updates.filter((update) => update === releaseOne).length);
      });
    });
    return true;
  }

  #addInFlight(tokenId: string, delta: number): void {
    const left = (this.#inFlight.get(tokenId) ?? 0) + delta;
    if (left > 0) this.#inFlight.set(tokenId, left);
    else this.#inFlight.delete(tokenId);
  }

  /** Runs `update` on the token's (and with `day`, the day's) shared state and writes it back atomically. */
  async change<R>(tokenId: string, day: boolean, update: (token: TokenState, day: DayCount) => R): Promise<R> {
    const tokenKey = `token:${tokenId}`;
    const dayKey = `day:${Math.floor(this.now() / DAY_MS)}`;
    const keys = day ? [tokenKey, dayKey] : [tokenKey];
    let values = keys.map((key) => this.#known.get(key));
    if (!keys.every((key) => this.#known.has(key))) values = await this.#bounded(this.store.read(keys));
    for (let round = 0; round < MAX_SWAP_ROUNDS; round++) {
      const now = this.now();
      const shared = (tryParseJson(values[0]) as SharedTokenState | undefined) ?? {};
      const own = this.#inFlight.get(tokenId) ?? 0;
      let others = 0;
      for (const [instance, [count, until]] of Object.entries(shared.inFlight ?? {})) {
        if (instance !== this.#instance && until > now) others += count;
      }
      const token: TokenState = { window: shared.window, sent: shared.sent, inFlight: others + own, untracked: shared.untracked };
      const count = (tryParseJson(values[1]) as DayCount | undefined) ?? { day: -1, sent: 0 };
      // Throws for a refusal (daily cap): nothing is written then. A request it lets go is one more in flight.
      const result = update(token, count);
      const mine = Math.max(0, token.inFlight - others);
      const inFlight: Record<string, [number, number]> = {};
      for (const [instance, entry] of Object.entries(shared.inFlight ?? {})) {
        if (instance !== this.#instance && entry[1] > now) inFlight[instance] = entry;
      }
      if (mine > 0) inFlight[this.#instance] = [mine, now + SHARED_IN_FLIGHT_TTL_MS];
      const next: SharedTokenState = { window: token.window, inFlight };
      if (token.sent && token.sent.length > 0) next.sent = token.sent;
      if (token.untracked) next.untracked = token.untracked;
      const windowMs = token.window ? token.window.reset * 1000 - now : 0;
      const changes: RateLimitStoreChange[] = [
        { key: tokenKey, expected: values[0], next: JSON.stringify(next), ttlMs: Math.max(10 * MINUTE_MS, windowMs + MINUTE_MS) },
      ];
      if (day) changes.push({ key: dayKey, expected: values[1], next: JSON.stringify(count), ttlMs: 2 * DAY_MS });
      const unchanged = changes.every((change) => change.next === change.expected);
      const swapped = unchanged || (await this.#bounded(this.store.swap(changes)));
      if (swapped === true) {
        for (const change of changes) this.#known.set(change.key, change.next);
        if (mine !== own) this.#addInFlight(tokenId, mine - own);
        if (day) this.lastDay = count;
        if (this.#downUntil !== 0) {
          this.#downUntil = 0;
          this.logger.info?.('rate-limit store reachable again: limits are shared once more');
        }
        return result;
      }
      values = swapped;
      for (const [i, key] of keys.entries()) this.#known.set(key, values[i]);
    }
    throw new Error(`rate-limit store: no change written in ${MAX_SWAP_ROUNDS} rounds`);
  }

  #bounded<T>(call: Promise<T>): Promise<T> {
    return within(call, STORE_TIMEOUT_MS, () => {
      throw new Error(`rate-limit store gave no answer within ${STORE_TIMEOUT_MS} ms`);
    });
  }
}

