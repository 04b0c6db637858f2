/**
 * The round trip to one Redis, learnt from its replies (an exponentially weighted mean), and the
 * bound of each call relative to it: a Redis far away is waited for as long as it needs, and one
 * that stalls is given up on soon after it stops answering as it usually does.
 */
export class RoundTrip {
  #ms = 0;

  /** Milliseconds: the mean round trip so far (0 before the first reply). */
  get ms(): number {
    return this.#ms;
  }

  /** A reply took `ms`; one slower than the bound (a stall, not the distance) counts as the bound. */
  learn(ms: number, bound: number): void {
    const sample = Math.min(ms, bound);
    this.#ms = this.#ms === 0 ? sample : this.#ms + (sample - this.#ms) / 5;
  }

  /** How long a call may take: four round trips, at least `floor`; twice the floor until a reply was timed. */
  bound(floor: number): number {
    return this.#ms === 0 ? 2 * floor : Math.max(floor, 4 * this.#ms);
  }
}
