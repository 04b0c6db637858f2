import { RateLimitBudgetError, type RequestTarget } from './errors.js';
import type { Logger } from './logger.js';
import { sleep } from './sleep.js';

/** The latest `X-RateLimit-*` figures: reset is in epoch seconds. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  reset: number;
}

/** Client-side budget for the catalog and account APIs (document 2, Limits). */
export interface RateLimitBudget {
  /** Requests per minute per token. Default 100. */
  perMinute?: number;
  /** Requests per UTC day per client. Default 1000; crossing the real cap expires every token. */
  perDay?: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The longest a request is held for the service's window before it is refused instead. */
const MAX_HOLD_MS = 120_000;
/** How long a new window's provisional figures stand before they are looked at again. */
const PROVISIONAL_WINDOW_MS = 1_000;

/**
 * Two rules, kept apart:
 * - the service's own figures: a token whose `Remaining` reached 0 waits for `Reset`
 *   instead of earning a 403 (every API, and also with the budget turned off);
 * - the budget: per-minute pacing per token and a daily cap per client, counted by
 *   UTC day, for the budgeted APIs only. A request that would cross the daily cap
 *   is refused before sending.
 */
export class RateLimiter {
  latest: RateLimitInfo | undefined;
  /** The service's window per token; `provisional` until an answer of the new window told its figures. */
  readonly #windows = new Map<string, RateLimitInfo & { provisional?: boolean }>();
  readonly #sentThisMinute = new Map<string, number[]>();
  /** Requests of each token sent and not yet answered: the service may not have counted them in a Remaining. */
  readonly #inFlight = new Map<string, number>();
  readonly #perMinute: number;
  readonly #perDay: number;
  readonly #enabled: boolean;
  #day = -1;
  #sentToday = 0;

  constructor(
    budget: RateLimitBudget | false | undefined,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.#enabled = budget !== false;
    this.#perMinute = (budget || undefined)?.perMinute ?? 100;
    this.#perDay = (budget || undefined)?.perDay ?? 1000;
  }

  /**
   * Waits until the token may send, then counts the request as sent. Returns undefined
   * when the request may go at once (the usual case), so callers await only real waits.
   */
  acquire(tokenId: string, budgeted: boolean, target: RequestTarget, signal?: AbortSignal): Promise<void> | undefined {
    const budget = budgeted && this.#enabled;
    if (budget) this.#checkDailyCap(target);
    if (this.#serverWait(tokenId) === 0 && (!budget || this.#minuteWait(tokenId) === 0)) {
      this.#take(tokenId, budget, target);
      return undefined;
    }
    return this.#acquireSlowly(tokenId, budget, target, signal);
  }

  async #acquireSlowly(tokenId: string, budget: boolean, target: RequestTarget, signal?: AbortSignal): Promise<void> {
    while (true) {
      const serverWait = this.#serverWait(tokenId);
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
      if (serverWait > 0) {
        this.logger.debug(`rate limit: remaining 0, waiting ${serverWait} ms for the reset`, { url: target.url });
        await sleep(serverWait, signal);
        continue;
      }
      const minuteWait = budget ? this.#minuteWait(tokenId) : 0;
      if (minuteWait > 0) {
        this.logger.debug(`rate limit: ${this.#perMinute} requests this minute, waiting ${minuteWait} ms`, { url: target.url });
        await sleep(minuteWait, signal);
        continue;
      }
      this.#take(tokenId, budget, target);
      return;
    }
  }

  /** Reads the answer's rate-limit headers, if it carried them. */
  observe(tokenId: string, headers: Headers): void {
    const remaining = headers.get('x-ratelimit-remaining');
    if (remaining === null) return;
    const reset = headers.get('x-ratelimit-reset');
    if (reset === null) return;
    // Remaining and Reset are all the holding needs; Limit completes client.rateLimit when it came.
    const info = { limit: Number(headers.get('x-ratelimit-limit') ?? Number.NaN), remaining: Number(remaining), reset: Number(reset) };
    if (!Number.isFinite(info.remaining) || !Number.isFinite(info.reset)) return;
    if (Number.isFinite(info.limit)) this.latest = info;
    // This request is counted in the answer's Remaining; the token's others in flight may not be yet.
    const room = Math.max(0, info.remaining - Math.max(0, this.#inFlightOf(tokenId) - 1));
    const known = this.#windows.get(tokenId);
    // Answers of one window can arrive out of order: keep the lowest count seen for it.
    if (known && !known.provisional && known.reset === info.reset) known.remaining = Math.min(known.remaining, room);
    else if (!known || known.provisional || info.reset > known.reset) this.#windows.set(tokenId, { ...info, remaining: room });
  }

  /** The request `acquire` counted got its answer, or none: it no longer holds room in the window. */
  release(tokenId: string): void {
    const count = this.#inFlightOf(tokenId) - 1;
    if (count > 0) this.#inFlight.set(tokenId, count);
    else this.#inFlight.delete(tokenId);
  }

  #inFlightOf(tokenId: string): number {
    return this.#inFlight.get(tokenId) ?? 0;
  }

  /** Makes a later request of this token wait for the window's reset (after a 403 or 429). */
  exhaust(tokenId: string, resetEpochSeconds: number): void {
    const known = this.#windows.get(tokenId);
    if (known && known.reset >= resetEpochSeconds) known.remaining = 0;
    else this.#windows.set(tokenId, { limit: known?.limit ?? 0, remaining: 0, reset: resetEpochSeconds });
  }

  /** Milliseconds until the service's window lets this token send; 0 when it may send now. */
  #serverWait(tokenId: string): number {
    const window = this.#windows.get(tokenId);
    if (!window) return 0;
    const wait = window.reset * 1000 - this.now();
    if (wait <= 0) {
      // Without a limit, or once a provisional window passed with every answer in (answers without
      // the headers), there is nothing left to pace by.
      if (!(window.limit > 0) || (window.provisional && this.#inFlightOf(tokenId) === 0)) {
        this.#windows.delete(tokenId);
        return 0;
      }
      // A new window began, whose figures no answer has told yet: let at most Limit requests
      // (less those still in flight) go now, and look again shortly, so a backlog held for the
      // reset does not all go at once.
      const remaining = window.limit - this.#inFlightOf(tokenId);
      const reset = (this.now() + PROVISIONAL_WINDOW_MS) / 1000;
      this.#windows.set(tokenId, { limit: window.limit, remaining, reset, provisional: true });
      return remaining > 0 ? 0 : PROVISIONAL_WINDOW_MS;
    }
    return window.remaining > 0 ? 0 : wait;
  }

  /** Milliseconds until the per-minute budget has a free slot; 0 when it has one now. */
  #minuteWait(tokenId: string): number {
    const sent = this.#sentThisMinute.get(tokenId);
    if (!sent) return 0;
    const now = this.now();
    while (sent.length > 0 && (sent[0] as number) <= now - MINUTE_MS) sent.shift();
    return sent.length < this.#perMinute ? 0 : (sent[0] as number) + MINUTE_MS - now;
  }

  /** Counts a request that goes now: in the service's window (so concurrent senders do not overshoot), the minute and the day. */
  #take(tokenId: string, budget: boolean, target: RequestTarget): void {
    const window = this.#windows.get(tokenId);
    if (window) window.remaining--;
    this.#inFlight.set(tokenId, this.#inFlightOf(tokenId) + 1);
    if (!budget) return;
    this.#checkDailyCap(target);
    const sent = this.#sentThisMinute.get(tokenId) ?? [];
    this.#sentThisMinute.set(tokenId, sent);
    sent.push(this.now());
    this.#sentToday++;
  }

  #checkDailyCap(target: RequestTarget): void {
    const day = Math.floor(this.now() / DAY_MS);
    if (day !== this.#day) {
      this.#day = day;
      this.#sentToday = 0;
    }
    if (this.#sentToday >= this.#perDay) {
      const retryAt = ((day + 1) * DAY_MS) / 1000;
      throw new RateLimitBudgetError(
        `daily budget of ${this.#perDay} requests is spent (crossing the service's cap expires every token); not sent; resets at ${new Date(retryAt * 1000).toISOString()}`,
        retryAt,
        target,
      );
    }
  }
}
