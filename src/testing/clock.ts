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
