/** The mock's time: a base clock plus an offset that tests move forward. */
export interface MockClock {
  /** Current mock time in epoch milliseconds. */
  now(): number;
  /** Moves time forward and runs what became due (order expiry). */
  advance(ms: number): void;
  /** Jumps to an absolute time (epoch ms); runs what became due. */
  set(ms: number): void;
}

export function createClock(base: () => number, onChange: () => void): MockClock {
  let offset = 0;
  const now = () => base() + offset;
  return {
    now,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock.advance(ms) needs a non-negative number');
      offset += ms;
      onChange();
    },
    set(ms) {
      offset += ms - now();
      onChange();
    },
  };
}

const HOUR_MS = 3_600_000;

/**
 * `YYYY-MM-DDTHH:MM:SS+02:00` (winter) or `+03:00` (summer): Athens local time with its offset,
 * as the service writes every time stamp (the service's documentation today), never `Z`. The one place the kit
 * formats time stamps. Summer time follows the EU rule: from the last Sunday of March,
 * 01:00 UTC, to the last Sunday of October, 01:00 UTC.
 */
export function timestamp(ms: number): string {
  const year = new Date(ms).getUTCFullYear();
  const summer = ms >= lastSundayAt1Utc(year, 2) && ms < lastSundayAt1Utc(year, 9);
  const offsetHours = summer ? 3 : 2;
  return `${new Date(ms + offsetHours * HOUR_MS).toISOString().slice(0, 19)}+0${offsetHours}:00`;
}

/** `YYYY-MM-DDTHH:MM:SSZ`: UTC, as the service writes the time stamps of returns. */
export function utcTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** 01:00 UTC on the last Sunday of `month` (0-based) of `year`, in epoch ms. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}
