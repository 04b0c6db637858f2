import { RateLimitBudgetError, type RequestTarget } from './errors.js';
import type { Logger } from './logger.js';
import { ProcessWindows, type RateLimitSettle, type RateLimitStep, type RateLimitStepResult } from './rate-limit-window.js';
import type { TracedTarget } from './telemetry.js';
import { sleep, within } from './time.js';
import { errorText } from './text.js';

export type { RateLimitSettle, RateLimitStep, RateLimitStepResult } from './rate-limit-window.js';

/** The latest `X-RateLimit-*` figures: reset is in epoch seconds. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  reset: number;
}

/** Client-side budget for the catalog and account APIs (the service's Limits page). */
export interface RateLimitBudget {
  /** Requests per minute per token. Default 100. */
  perMinute?: number | undefined;
  /** Requests per UTC day per client. Default 1000; crossing the real cap expires every token. */
  perDay?: number | undefined;
}

/**
 * Where several processes keep their rate-limit state together (the `rateLimitStore` client
 * option; `emporio/redis` gives one). Each `step` runs atomically: it applies the answers that
 * came back, then takes a slot for one request (the service's window, the per-minute and the
 * daily budget at once) or says how long to wait, so N processes sharing a token never cross
 * its window or the client's caps. A store bounds its own calls in time (the client waits at
 * most the call's timeout). When it fails, a request of an API without a budget goes on with
 * this process's own view; a budgeted one (catalog, account) fails closed: it waits for the
 * store, within the call's timeout, unless the store answers it from a share reserved in advance.
 */
export interface RateLimitStore {
  step(step: RateLimitStep): Promise<RateLimitStepResult>;
}

const DAY_MS = 86_400_000;
/** The longest a request is held for the service's window before it is refused instead. */
const MAX_HOLD_MS = 120_000;
/** After a shared store failed, how long the client keeps to its own view (or a budgeted request waits) before asking it again. */
const STORE_RETRY_MS = 250;
/** How long past the call's timeout a request's slot stands without an answer (a process that died). */
const HOLD_MARGIN_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 30_000;
/** A step that applies no answers (most takes): one array for all of them. */
const NO_SETTLES: readonly RateLimitSettle[] = Object.freeze([]);
/** Where `acquire` counted a request of an unpaced token: nowhere (see `ProcessWindows.unpaced`). */
const UNPACED = 'q';
/** The most a `Date` header may differ from this host's clock and still be taken as the service's time. */
const MAX_CLOCK_SKEW_MS = 3_600_000;

/**
 * Where `acquire` counted a request, and under which id: `p…` in this process's own view, `s…`
 * in the shared store (`sb…` for a budgeted API's keys), `q` nowhere (an unpaced token). The
 * store may fail or come back while the request is out; its answer goes where it was counted.
 * @internal
 */
export type CountedIn = string;

/**
 * Two rules, kept apart:
 * - the service's own figures: a token whose window is full waits for its reset instead of
 *   earning a 403 (every API, and also with the budget turned off); until a token's figures are
 *   known, its requests go one at a time;
 * - the budget: per-minute pacing per token and a daily cap per client, counted by UTC day, for
 *   the budgeted APIs only. A request that would cross the daily cap is refused before sending.
 * Every request is counted in one atomic step, in this process or in a shared
 * {@link RateLimitStore} (this process's view kept warm as the fall back). Times come from the
 * service: a window's end is the answer's `Reset` less the service's `Date`, so a host whose
 * clock is off paces as well as one whose clock is right.
 * @internal
 */
export class RateLimiter {
  latest: RateLimitInfo | undefined;
  readonly #own: ProcessWindows;
  readonly #perMinute: number;
  readonly #perDay: number;
  readonly #enabled: boolean;
  readonly #shared: SharedWindows | undefined;
  /** Answers read (`observe`) and not yet settled (`release`), by the request's id. */
  readonly #answers = new Map<string, RateLimitSettle>();
  /** Requests waiting for a token's first figures, woken when one of its answers comes. */
  readonly #waiting = new Map<string, Set<() => void>>();
  /** The service's clock less this host's, at least: the largest `Date - arrival` seen. */
  #serviceOffset: number | undefined;
  #lastDate: string | null = null;
  #lastDateMs = Number.NaN;
  #sequence = 0;

  constructor(
    budget: RateLimitBudget | false | undefined,
    private readonly logger: Logger,
    store?: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {
    this.#enabled = budget !== false;
    this.#perMinute = (budget || undefined)?.perMinute ?? 100;
    this.#perDay = (budget || undefined)?.perDay ?? 1000;
    this.#own = new ProcessWindows(now);
    this.#shared = store && new SharedWindows(store, logger, now);
  }

  /**
   * Waits until the token may send, then counts the request as sent, and says where it was
   * counted. A plain string when the request may go at once (the usual case without a shared
   * store), so callers await only real waits. The store's calls together take at most
   * `timeoutMs` (the call's timeout); then this process's own view decides.
   */
  acquire(tokenId: string, budgeted: boolean, target: RequestTarget, signal?: AbortSignal, timeoutMs = DEFAULT_TIMEOUT_MS): CountedIn | Promise<CountedIn> {
    const budget = budgeted && this.#enabled;
    // A budget shared through a store is never counted by this process alone (it would spend it all).
    if (this.#shared && (budget || this.#shared.usable())) return this.#acquireShared(tokenId, budget, target, signal, timeoutMs);
    // A token whose answers carry no figures, and no refusal holds, has nothing to pace: its
    // requests go uncounted (were figures to appear, the service's first count stands alone).
    if (!budget && this.#own.unpaced(tokenId)) return UNPACED;
    const id = `p${++this.#sequence}`;
    const result = this.#own.step(this.#stepOf(tokenId, budget, id, timeoutMs));
    return result.status === 'taken' ? id : this.#acquireSlowly(tokenId, budget, target, signal, timeoutMs, id, result);
  }

  async #acquireSlowly(
    tokenId: string,
    budget: boolean,
    target: RequestTarget,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    id: string,
    first: RateLimitStepResult,
  ): Promise<CountedIn> {
    const started = this.now();
    let result = first;
    for (; result.status !== 'taken' && result.status !== 'reserved'; result = this.#own.step(this.#stepOf(tokenId, budget, id, timeoutMs))) {
      await this.#wait(tokenId, result, target, signal, started);
    }
    if (result.status === 'reserved') await this.#holdReserved(tokenId, id, result.wait, target, signal);
    return id;
  }

  async #acquireShared(tokenId: string, budget: boolean, target: RequestTarget, signal: AbortSignal | undefined, timeoutMs: number): Promise<CountedIn> {
    const shared = this.#shared as SharedWindows;
    const scope = budget ? 'sb' : 's';
    let id = `${scope}${++this.#sequence}`;
    const started = this.now();
    let storeBudget = timeoutMs;
    for (;;) {
      const step = this.#stepOf(tokenId, budget, shared.member(id), timeoutMs);
      let result: RateLimitStepResult;
      const asked = this.now();
      try {
        result = await shared.step(scope, step, storeBudget, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        shared.failed(error);
        storeBudget -= this.now() - asked + STORE_RETRY_MS;
        // The store failed or is slow: this process's own view decides until it answers again; but
        // a budget fails closed: its request waits for the store, within the call's timeout.
        if (!budget) return this.acquire(tokenId, budget, target, signal, timeoutMs);
        if (storeBudget <= 0) {
          throw new RateLimitBudgetError(
            `the rate-limit store gave no answer within ${timeoutMs} ms, and the budget is not counted without it; not sent`,
            Math.ceil((this.now() + STORE_RETRY_MS) / 1000),
            target,
            'store_unavailable',
          );
        }
        await sleep(STORE_RETRY_MS, signal);
        continue;
      }
      const answered = this.now();
      storeBudget -= answered - asked;
      if (result.status === 'taken' || result.status === 'reserved') {
        if (result.status === 'reserved') await this.#holdReserved(tokenId, id, result.wait, target, signal);
        // A slot whose request could not leave in time is given back unused, and another taken.
        if (this.now() - answered <= result.wait + (result.sendWithin ?? Number.POSITIVE_INFINITY)) return id;
        shared.settle(tokenId, scope, { id: shared.member(id), kind: 'unsent', limit: 0, remaining: 0, window: 0, resetInMs: 0 });
        id = `${scope}${++this.#sequence}`;
        continue;
      }
      await this.#wait(tokenId, result, target, signal, started);
    }
  }

  #stepOf(tokenId: string, budget: boolean, id: string, timeoutMs: number): RateLimitStep {
    return {
      tokenId,
      budget: budget ? { perMinute: this.#perMinute, perDay: this.#perDay, day: Math.floor(this.now() / DAY_MS) } : undefined,
      settles: NO_SETTLES,
      take: { id, holdMs: timeoutMs + HOLD_MARGIN_MS },
    };
  }

  /** Waits out a step's answer; throws when the request may not go at all (the daily cap, a day-long window). */
  async #wait(tokenId: string, result: RateLimitStepResult, target: RequestTarget, signal: AbortSignal | undefined, started: number): Promise<void> {
    if (result.status === 'refused') {
      const retryAt = (Math.floor(this.now() / DAY_MS) + 1) * (DAY_MS / 1000);
      throw new RateLimitBudgetError(
        `daily budget of ${this.#perDay} requests is spent (crossing the service's cap expires every token); not sent; resets at ${new Date(retryAt * 1000).toISOString()}`,
        retryAt,
        target,
      );
    }
    if (result.status === 'window' && this.now() - started + result.wait > MAX_HOLD_MS) this.#tooLong(result.wait, target);
    if (result.status === 'figures') return this.#untilAnswered(tokenId, result.wait, signal);
    (target as TracedTarget).telemetry?.waiting(result.wait, result.status);
    if (result.status === 'window') {
      this.logger.debug(`rate limit: remaining 0, waiting ${result.wait} ms for the reset`, { url: target.url });
    } else {
      this.logger.debug(`rate limit: ${this.#perMinute} requests this minute, waiting ${result.wait} ms`, { url: target.url });
    }
    await sleep(result.wait, signal);
  }

  /** Waits for the later window a slot was reserved in; a caller's abort (or a wait too long to hold) gives the slot back. */
  async #holdReserved(tokenId: string, countedIn: CountedIn, wait: number, target: RequestTarget, signal: AbortSignal | undefined): Promise<void> {
    try {
      if (wait > MAX_HOLD_MS) this.#tooLong(wait, target);
      (target as TracedTarget).telemetry?.waiting(wait, 'reserved');
      this.logger.debug(`rate limit: remaining 0, waiting ${wait} ms for a slot reserved in a later window`, { url: target.url });
      await sleep(wait, signal);
    } catch (error) {
      this.release(tokenId, countedIn);
      throw error;
    }
  }

  #tooLong(wait: number, target: RequestTarget): never {
    // A day-long window (or a reset sent in milliseconds) is not waited out in silence.
    const reset = (this.now() + wait) / 1000;
    throw new RateLimitBudgetError(
      `the service asked this token to wait until ${new Date(reset * 1000).toISOString()} (its rate-limit answer); not sent`,
      reset,
      target,
      'service_wait',
    );
  }

  /** Waits `ms`, or less: until an answer of the token comes back to this process. */
  async #untilAnswered(tokenId: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    let waiting = this.#waiting.get(tokenId);
    if (!waiting) {
      waiting = new Set();
      this.#waiting.set(tokenId, waiting);
    }
    const set = waiting;
    let wake: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      wake = resolve;
      set.add(resolve);
    });
    try {
      await within(answered, ms, () => undefined, signal);
    } finally {
      set.delete(wake);
      if (set.size === 0) this.#waiting.delete(tokenId);
    }
  }

  /** Reads the answer's rate-limit headers, if it carried them; `countedIn` is what `acquire` said of its request. */
  observe(tokenId: string, headers: Headers, countedIn: CountedIn): void {
    const remaining = headers.get('x-ratelimit-remaining');
    const reset = remaining === null ? null : headers.get('x-ratelimit-reset');
    if (reset === null) {
      // An unpaced token's answers carry none: nothing changes.
      if (countedIn !== UNPACED) this.#answers.set(countedIn, { id: countedIn, kind: 'none', limit: 0, remaining: 0, window: 0, resetInMs: 0 });
      return;
    }
    const arrived = this.now();
    const limit = Number(headers.get('x-ratelimit-limit') ?? Number.NaN);
    const info = { limit, remaining: Number(remaining), reset: Number(reset) };
    if (!Number.isFinite(info.remaining) || !Number.isFinite(info.reset)) return;
    if (Number.isFinite(limit)) this.latest = info;
    this.#learnServiceClock(headers.get('date'), arrived);
    // Remaining and Reset are all the holding needs; without a Limit, the room left is all there is.
    const known = Number.isFinite(limit) && limit > 0 ? limit : info.remaining + 1;
    const figures: RateLimitSettle = {
      id: countedIn,
      kind: 'figures',
      limit: known,
      remaining: Math.min(known, Math.max(0, info.remaining)),
      window: info.reset,
      resetInMs: this.#untilService(info.reset),
    };
    // An uncounted request has no slot to give back: its figures apply at once.
    if (countedIn === UNPACED) this.#own.settle(tokenId, { ...figures, id: '' });
    else this.#answers.set(countedIn, figures);
  }

  /** The request `acquire` counted got its answer, or none: it no longer holds room where it was counted. */
  release(tokenId: string, countedIn: CountedIn): void {
    if (countedIn === UNPACED) return;
    const settle = this.#answers.get(countedIn) ?? { id: countedIn, kind: 'release', limit: 0, remaining: 0, window: 0, resetInMs: 0 };
    this.#answers.delete(countedIn);
    if (countedIn.startsWith('s')) {
      this.#shared?.settle(tokenId, countedIn.startsWith('sb') ? 'sb' : 's', { ...settle, id: this.#shared.member(countedIn) });
      // This process's view learns the figures too, for a fall back later.
      if (settle.kind === 'figures') this.#own.settle(tokenId, { ...settle, id: '' });
    } else {
      this.#own.settle(tokenId, settle);
    }
    const waiting = this.#waiting.get(tokenId);
    if (waiting) for (const wake of waiting) wake();
  }

  /** Makes a later request of this token wait for the window's reset (after a 403 or 429). */
  exhaust(tokenId: string, resetEpochSeconds: number): void {
    const settle: RateLimitSettle = { id: '', kind: 'exhaust', limit: 0, remaining: 0, window: resetEpochSeconds, resetInMs: this.#untilService(resetEpochSeconds) };
    this.#own.settle(tokenId, settle);
    this.#shared?.settle(tokenId, 's', settle);
    this.#shared?.settle(tokenId, 'sb', settle);
  }

  /**
   * Keeps the least possible offset of the service's clock: its `Date` (whole seconds) was
   * written at or after that second began, and before the answer arrived here.
   */
  #learnServiceClock(date: string | null, arrived: number): void {
    // The same second's header is read once (answers come many a second).
    if (date !== this.#lastDate) {
      this.#lastDate = date;
      this.#lastDateMs = date === null ? Number.NaN : Date.parse(date);
    }
    const sent = this.#lastDateMs;
    if (!Number.isFinite(sent) || Math.abs(sent - arrived) > MAX_CLOCK_SKEW_MS) return;
    const offset = sent - arrived;
    if (this.#serviceOffset === undefined || offset > this.#serviceOffset) this.#serviceOffset = offset;
  }

  /** Milliseconds until `epochSeconds` on the service's clock: never less than the truth (the clock is taken at its earliest). */
  #untilService(epochSeconds: number): number {
    return Math.max(0, epochSeconds * 1000 - (this.now() + (this.#serviceOffset ?? 0)));
  }
}

/**
 * The shared side of a {@link RateLimiter}: its steps, each bounded in time, and the answers of
 * its requests, sent along with the token's next step (so the usual request costs one round
 * trip), or on their own once the current task is done.
 */
class SharedWindows {
  /** This instance's name among the processes sharing the store. */
  readonly #instance = Math.random().toString(36).slice(2, 12);
  /** Answers not yet sent, by scope and token. */
  readonly #pending = new Map<string, { tokenId: string; scope: string; settles: RateLimitSettle[] }>();
  #downUntil = 0;

  constructor(
    private readonly store: RateLimitStore,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** A request id as the store keeps it: unique among every process sharing it. */
  member(id: string): string {
    return `${this.#instance}:${id}`;
  }

  usable(): boolean {
    return this.#downUntil === 0 || this.now() >= this.#downUntil;
  }

  failed(error: unknown): void {
    if (this.#downUntil === 0) {
      this.logger.warn?.("rate-limit store unavailable: going on with this process's own view of the service's windows; budgeted requests wait for the store", { error: errorText(error) });
    }
    this.#downUntil = this.now() + STORE_RETRY_MS;
  }

  /** One step, with the token's answers still to send, within `timeoutMs`. */
  async step(scope: string, step: RateLimitStep, timeoutMs: number, signal?: AbortSignal): Promise<RateLimitStepResult> {
    const key = `${scope}:${step.tokenId}`;
    const pending = this.#pending.get(key);
    this.#pending.delete(key);
    const result = await within(this.store.step(pending ? { ...step, settles: pending.settles } : step), Math.max(1, timeoutMs), () => {
      throw new Error(`rate-limit store gave no answer within ${Math.round(timeoutMs)} ms`);
    }, signal);
    if (this.#downUntil !== 0) {
      this.#downUntil = 0;
      this.logger.info?.('rate-limit store reachable again: limits are shared once more');
    }
    return result;
  }

  /** Queues an answer for the token's next step, or sends it on its own after this task. */
  settle(tokenId: string, scope: string, settle: RateLimitSettle): void {
    if (!this.usable()) return; // its slot frees itself when its hold ends
    const key = `${scope}:${tokenId}`;
    const pending = this.#pending.get(key);
    if (pending) {
      pending.settles.push(settle);
      return;
    }
    this.#pending.set(key, { tokenId, scope, settles: [settle] });
    setTimeout(() => this.#flush(key), 0);
  }

  #flush(key: string): void {
    const pending = this.#pending.get(key);
    if (!pending) return; // a step took them along
    this.#pending.delete(key);
    const step: RateLimitStep = { tokenId: pending.tokenId, settles: pending.settles };
    if (pending.scope === 'sb') step.budget = { perMinute: 0, perDay: 0, day: Math.floor(this.now() / DAY_MS) };
    // The store bounds its calls: a failure is one like a step's.
    this.store.step(step).catch((error: unknown) => this.failed(error));
  }
}
