/**
 * One token's rate-limit state and the one step that changes it: apply the answers that came
 * back, then take a slot for a request or say how long it must wait. The same rules run in
 * this process (this file) and, for several processes, as one Redis script (`emporio/redis`),
 * so a request is counted in a single atomic step wherever the state lives.
 */

/** An answer (or none) that came back for a request a step took; applied before the next take. */
export interface RateLimitSettle {
  /** The request's id as it was taken (removed from the requests in flight); empty for none. */
  id: string;
  /**
   * `release`: no answer (or one that says nothing of the window); `figures`: the answer's
   * `X-RateLimit-*`; `none`: an answer without them (the token's answers carry none);
   * `exhaust`: a refusal, nothing may go for `resetInMs`; `unsent`: the request never left
   * (its slot came too late to use), so the budget has it back.
   */
  kind: 'release' | 'figures' | 'none' | 'exhaust' | 'unsent';
  /** For `figures`: X-RateLimit-Limit and -Remaining, and -Reset (epoch seconds, as sent: names the window). */
  limit: number;
  remaining: number;
  window: number;
  /** Milliseconds from now until the window ends (or the refusal's wait), by the service's own clock. */
  resetInMs: number;
}

/** One atomic step on a token's state. */
export interface RateLimitStep {
  tokenId: string;
  /** For the budgeted APIs: the per-minute budget per token and the daily one per client (`day`: the UTC day number). */
  budget?: { perMinute: number; perDay: number; day: number } | undefined;
  settles: readonly RateLimitSettle[];
  /** A request to take a slot for: its id, and how long it holds the slot at most without an answer. */
  take?: { id: string; holdMs: number } | undefined;
}

/**
 * What a step decided: `taken` (the request may go now), `reserved` (it holds a slot of a later
 * window and goes after `wait` ms without another step), a wait in milliseconds and why
 * (`window`: the service's window is full; `minute`: the per-minute budget; `figures`: the
 * token's first request is out and its figures unknown), `refused` (the daily budget is
 * spent), or `settled` (there was nothing to take). `daySent`: the day's count after it.
 */
export interface RateLimitStepResult {
  status: 'taken' | 'reserved' | 'window' | 'minute' | 'figures' | 'refused' | 'settled';
  wait: number;
  daySent: number;
  /**
   * For a slot of a budgeted API: milliseconds after this answer (and `wait`) by which its
   * request must leave, or the slot is given back and another taken (the minute counts each
   * slot by the latest time it may leave). None: no limit.
   */
  sendWithin?: number | undefined;
}

/** How long a window whose figures no answer has told yet stands before it is looked at again. */
export const PROVISIONAL_WINDOW_MS = 1_000;
/** While a token's first request is out, how often the others look again. */
export const FIGURES_POLL_MS = 20;
const MINUTE_MS = 60_000;
/** The usual decision, one object for every request that may go at once. */
const TAKEN_NOW: Pick<RateLimitStepResult, 'status' | 'wait'> = Object.freeze({ status: 'taken', wait: 0 });
/** A slot of this process's own view leaves at once or after its wait: the minute counts it this much later still. */
const OWN_SEND_WITHIN_MS = 1_000;
/** The end of a window in which nothing more is sent: a fifth of it, at most a second. */
const guardOf = (length: number) => Math.min(length / 5, 1_000);

interface TokenWindow {
  /** X-RateLimit-Limit; undefined while no answer told it, 0 when the token's answers carry no figures. */
  limit: number | undefined;
  /** The service's Reset of the window counted (epoch seconds). */
  window: number;
  /** When that window ends, on this store's clock. */
  ends: number;
  /** Requests taken in it, and beyond `limit`, slots reserved in the windows after it. */
  used: number;
  /** The service's window length, once two windows in a row told it (0: not yet). */
  length: number;
  /** The window rolled by this store's clock, its length unknown, and no answer of the new one came yet. */
  provisional: boolean;
  /** Nothing may go before this (a refusal's wait). */
  blocked: number;
  /** Requests out: id → until when their slot is held without an answer. */
  inFlight: Map<string, number>;
  /** The latest time each request of the last minute may leave (budgeted APIs). */
  minute: number[];
}

/** The rate-limit state of this process's tokens: the default store, and the fall back while a shared one fails. */
export class ProcessWindows {
  readonly #tokens = new Map<string, TokenWindow>();
  readonly #today = { day: -1, sent: 0 };

  constructor(private readonly now: () => number) {}

  /** A step that only applies one answer (what every request's end does): nothing to decide, nothing returned. */
  settle(tokenId: string, settle: RateLimitSettle): void {
    const now = this.now();
    applySettle(this.#current(tokenId, now), settle, now);
  }

  /** Whether the token's answers carry no figures and no refusal holds it: whether its requests may go uncounted. */
  unpaced(tokenId: string): boolean {
    const token = this.#tokens.get(tokenId);
    return token !== undefined && token.limit === 0 && token.inFlight.size === 0 && this.now() >= token.blocked;
  }

  step(step: RateLimitStep): RateLimitStepResult {
    const now = this.now();
    const token = this.#current(step.tokenId, now);
    for (const settle of step.settles) applySettle(token, settle, now);
    const take = step.take;
    const budget = step.budget;
    if (budget && budget.day !== this.#today.day) Object.assign(this.#today, { day: budget.day, sent: 0 });
    const daySent = budget ? this.#today.sent : 0;
    if (!take) return { status: 'settled', wait: 0, daySent };
    if (budget && this.#today.sent >= budget.perDay) return { status: 'refused', wait: 0, daySent };
    const decided = waitFor(token, now);
    if (decided.status !== 'taken' && decided.status !== 'reserved') return { ...decided, daySent };
    if (budget) {
      // Each request is counted by the latest time it may leave, a reserved one after its wait too
      // (as the shared script does): the oldest drop out first.
      while (token.minute.length > 0 && (token.minute[0] as number) <= now - MINUTE_MS) token.minute.shift();
      if (token.minute.length >= budget.perMinute) return { status: 'minute', wait: (token.minute[0] as number) + MINUTE_MS - now, daySent };
    }
    if (token.limit) token.used++;
    token.inFlight.set(take.id, now + decided.wait + take.holdMs);
    if (budget) {
      token.minute.push(now + decided.wait + OWN_SEND_WITHIN_MS);
      this.#today.sent++;
    }
    return { status: decided.status, wait: decided.wait, daySent: budget ? this.#today.sent : 0 };
  }

  /** The token's state, without the requests whose hold ran out. */
  #current(tokenId: string, now: number): TokenWindow {
    const token = this.#stateOf(tokenId);
    if (token.inFlight.size > 0) token.inFlight.forEach(dropExpired, now);
    return token;
  }

  #stateOf(tokenId: string): TokenWindow {
    let state = this.#tokens.get(tokenId);
    if (!state) {
      state = { limit: undefined, window: 0, ends: 0, used: 0, length: 0, provisional: false, blocked: 0, inFlight: new Map(), minute: [] };
      this.#tokens.set(tokenId, state);
    }
    return state;
  }
}

/** A `forEach` callback (`this`: now): forgets a request whose slot's hold ran out without an answer. */
function dropExpired(this: number, until: number, id: string, inFlight: Map<string, number>): void {
  if (until <= this) inFlight.delete(id);
}

/**
 * The service's side of a take: 'taken' when its window (or what is known of it) has room now;
 * 'reserved' when a later window has (its length known), so the request waits once, no step again.
 */
function waitFor(token: TokenWindow, now: number): Pick<RateLimitStepResult, 'status' | 'wait'> {
  if (now < token.blocked) return { status: 'window', wait: token.blocked - now };
  // Until an answer told the token's figures, one request at a time: a first burst would go blind.
  if (token.limit === undefined) return token.inFlight.size > 0 ? { status: 'figures', wait: FIGURES_POLL_MS } : TAKEN_NOW;
  if (token.limit === 0) return TAKEN_NOW;
  if (now >= token.ends) {
    if (token.length > 0) {
      // The next window by the service's length: slots reserved in it are its first; the requests
      // still out may count in it too.
      const windows = Math.floor((now - token.ends) / token.length) + 1;
      token.ends += windows * token.length;
      token.window += (windows * token.length) / 1000;
      token.used = Math.max(token.used - windows * token.limit, token.inFlight.size);
    } else {
      // A new window whose length and figures no answer told yet: the requests still out may count
      // in it; let the rest of Limit go, and look again shortly, so a held backlog does not all go at once.
      token.provisional = true;
      token.used = token.inFlight.size;
      token.ends = now + PROVISIONAL_WINDOW_MS;
    }
  }
  const scheduled = token.length > 0 && !token.provisional;
  // A request sent in a window's last moments may reach the service in the next one, whose slots
  // are reserved already: it goes in the next window instead.
  if (scheduled && token.used < token.limit && token.ends - now < guardOf(token.length)) token.used = token.limit;
  if (token.used < token.limit) return TAKEN_NOW;
  if (scheduled) {
    return { status: 'reserved', wait: token.ends + (Math.floor(token.used / token.limit) - 1) * token.length - now };
  }
  return { status: 'window', wait: token.ends - now };
}

function applySettle(token: TokenWindow, settle: RateLimitSettle, now: number): void {
  if (settle.id !== '') token.inFlight.delete(settle.id);
  if (settle.kind === 'none') {
    // The token's answers carry no figures (or no longer, once a window rolled): nothing to pace by.
    if (token.limit === undefined || token.provisional) token.limit = 0;
  } else if (settle.kind === 'exhaust') {
    token.blocked = Math.max(token.blocked, now + settle.resetInMs);
  } else if (settle.kind === 'figures') {
    // What the service counted in this window when it answered (this request included).
    const counted = settle.limit - settle.remaining;
    const ends = now + settle.resetInMs;
    // A window after the last one this state saw, yet before the one it scheduled: the length was wrong.
    const misscheduled = settle.window < token.window && settle.window > token.window - token.length / 1000;
    if (!token.limit || settle.window > token.window || misscheduled) {
      // A window this state had not seen (or one it scheduled wrongly, whose length is learnt again):
      // after a roll, every request taken since counts; else the requests still out (or holding
      // reserved slots) may not be in the answer's count yet. Two windows in a row tell the service's window length.
      const next = settle.window - token.window;
      if (token.limit && token.provisional && next > 0) token.length = token.length > 0 ? Math.min(token.length, next * 1000) : next * 1000;
      else if (misscheduled) token.length = 0;
      token.used = token.limit && token.provisional ? Math.max(token.used, counted) : counted + token.inFlight.size;
      Object.assign(token, { limit: settle.limit, window: settle.window, ends, provisional: false });
    } else if (settle.window === token.window && !token.provisional) {
      // Each request was counted as it went, so that count stands while the answers agree; a higher
      // count means requests it never saw (another sender of the token).
      token.used = Math.max(token.used, counted);
      token.limit = settle.limit;
      token.ends = Math.min(token.ends, ends);
    }
    // An answer of a window already past says nothing of the current one.
  }
}
