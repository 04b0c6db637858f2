/**
 * Per-token request budget in fixed windows (the Catalog API documentation: 100 a minute per token). Windows are
 * aligned to multiples of `windowMs`, so with a whole number of seconds X-RateLimit-Reset (epoch
 * seconds) is exact even when a benchmark scales a "minute" down to one second.
 */
export interface RateLimitOptions {
  /** Requests per window; default 100. */
  perMinute?: number | undefined;
  /** Window length; default 60,000 ms. */
  windowMs?: number | undefined;
}

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
}

export function createRateLimiter(options: RateLimitOptions, now: () => number) {
  const limit = options.perMinute ?? 100;
  const windowMs = options.windowMs ?? 60_000;
  if (!(limit > 0) || !(windowMs > 0)) throw new RangeError('rateLimit needs a positive perMinute and windowMs');
  const used = new Map<string, { window: number; count: number }>();
  let refused = 0;

  return {
    get refused(): number {
      return refused;
    },
    take(key: string): RateLimitState {
      const window = Math.floor(now() / windowMs);
      let entry = used.get(key);
      if (!entry || entry.window !== window) {
        entry = { window, count: 0 };
        used.set(key, entry);
      }
      const reset = Math.ceil(((window + 1) * windowMs) / 1000);
      if (entry.count >= limit) {
        refused++;
        return { allowed: false, limit, remaining: 0, reset };
      }
      entry.count++;
      return { allowed: true, limit, remaining: limit - entry.count, reset };
    },
  };
}

export function setRateLimitHeaders(headers: Headers, state: RateLimitState): void {
  headers.set('X-RateLimit-Limit', String(state.limit));
  headers.set('X-RateLimit-Remaining', String(state.remaining));
  headers.set('X-RateLimit-Reset', String(state.reset));
}
