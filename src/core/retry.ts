import { AuthenticationError, ConnectionError, InternalServerError, RateLimitBudgetError, RateLimitError, type RequestTarget, TimeoutError } from './errors.js';
import type { Logger } from './logger.js';
import type { RefreshableTokenSource, TokenSource } from './options.js';
import type { TracedTarget } from './telemetry.js';
import { sleep, within } from './time.js';

/** The retry and renewal loop: which failures are tried again, after how long, and a token renewed after a 401. */

const MAX_RETRY_WAIT_MS = 120_000;
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);
/** The token each 401 refused, so that concurrent refusals of one token renew it once. */
const refusedTokens = new WeakMap<Error, string>();

/** Remembers which token a 401 refused. */
export function markRefused(error: Error, token: string): void {
  refusedTokens.set(error, token);
}

/**
 * The API refused the token with a 401 and its source can renew it (OAuth): one new token,
 * and the refused call is repeated once with it. A refusal from the token endpoint itself
 * (its URL is not the call's) is final. The renewal is bounded by the call's own timeout and
 * signal, not only by the token source's.
 */
export async function renewedAfter401(
  source: TokenSource | undefined,
  target: RequestTarget,
  error: Error,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (!(error instanceof AuthenticationError) || error.status !== 401 || error.url !== target.url) return false;
  const refresh = typeof source === 'function' ? (source as Partial<RefreshableTokenSource>).refresh : undefined;
  if (typeof refresh !== 'function') return false;
  await within(refresh.call(source, refusedTokens.get(error)), timeout, () => {
    throw new TimeoutError(`the token source gave no new token within ${timeout} ms`, target);
  }, signal);
  return true;
}

/** Attempts after a failed first one, each after its delay (jitter, Retry-After, rate-limit reset), while the failure is transient. */
export async function retryAttempts<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  first: Error,
  retries: number,
  logger: Logger,
  target: RequestTarget,
  signal: AbortSignal | undefined,
): Promise<T> {
  const backOff = async (error: Error, attemptNumber: number, retriesLeft: number): Promise<boolean> => {
    if (!isTransient(error)) return false;
    const wait = retryDelay(error, attemptNumber);
    if (wait === undefined) return false;
    (target as TracedTarget).telemetry?.retrying(attemptNumber, wait, error);
    logger.debug(
      `retry ${attemptNumber}/${attemptNumber + retriesLeft - 1} in ${wait} ms after: ${error.message}`,
      { method: target.method, url: target.url },
    );
    await sleep(wait, signal);
    return true;
  };
  // Attempt n is the call's nth retry; `retries - n + 1` are left when it is decided.
  let error = first;
  for (let attemptNumber = 1; ; attemptNumber++) {
    if (!(await backOff(error, attemptNumber, retries - attemptNumber + 1))) throw error;
    signal?.throwIfAborted();
    try {
      return await attempt(attemptNumber);
    } catch (thrown) {
      if (!(thrown instanceof Error) || attemptNumber >= retries) throw thrown;
      error = thrown;
    }
  }
}

function retryDelay(error: Error, attemptNumber: number): number | undefined {
  let wait: number | undefined;
  if (error instanceof RateLimitError || error instanceof InternalServerError) {
    wait = retryAfterMs(error.headers.get('retry-after'));
    if (wait === undefined && error instanceof RateLimitError && error.reset !== undefined) {
      wait = Math.max(0, error.reset * 1000 - Date.now()) + 50;
    }
  }
  // Full jitter: anywhere between 0 and the exponential ceiling.
  wait ??= Math.round(Math.random() * Math.min(8_000, 500 * 2 ** (attemptNumber - 1)));
  return wait > MAX_RETRY_WAIT_MS ? undefined : wait;
}

function isTransient(error: Error): boolean {
  if (error instanceof RateLimitBudgetError) return false;
  return (
    error instanceof ConnectionError ||
    error instanceof TimeoutError ||
    error instanceof RateLimitError ||
    (error instanceof InternalServerError && RETRYABLE_STATUS.has(error.status))
  );
}

/** Retry-After in milliseconds from now: seconds or an HTTP date. */
export function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
