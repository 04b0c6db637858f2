/**
 * Fault injection, off by default and seeded (mulberry32), so a failing run repeats exactly:
 * 5xx answers, answers delayed past the client's time-out, dropped connections; before the
 * request takes effect, after it (the lost answer that tests exactly-once), or either.
 */
import { createRandom, type Random } from './random.js';

export type FaultKind = '5xx' | 'timeout' | 'drop';
export type FaultPhase = 'before' | 'after' | 'both';

export interface FaultOptions {
  /** Share of requests that fail, 0 to 1. */
  rate: number;
  /** Default: all three. */
  kinds?: readonly FaultKind[] | undefined;
  /** PRNG seed; default the mock's `seed`. */
  seed?: number | undefined;
  /** How long a 'timeout' fault holds the answer (ms); default 35,000, past a 30 s client time-out. */
  delayMs?: number | undefined;
  /** 'before' (default): nothing happens on the server; 'after': the effect happens, the answer is lost; 'both': either, by the PRNG. */
  phase?: FaultPhase | undefined;
  /** Which requests may fail; default every API request (the kit's own /__mock files never fail). */
  match?: ((request: Request) => boolean) | undefined;
}

export interface Fault {
  kind: FaultKind;
  phase: 'before' | 'after';
  /** For '5xx': 500, 502 or 503. */
  status: number;
}

export interface InjectedFault extends Fault {
  method: string;
  path: string;
}

export function createFaults(initial: FaultOptions | undefined, defaultSeed: number) {
  let options: FaultOptions | undefined;
  let random: Random = createRandom(defaultSeed);
  const log: InjectedFault[] = [];

  const set = (next: FaultOptions | undefined) => {
    if (next && !(next.rate >= 0 && next.rate <= 1)) throw new RangeError('faults.rate must be between 0 and 1');
    options = next;
    random = createRandom(next?.seed ?? defaultSeed);
  };
  set(initial);

  return {
    set,
    log: log as readonly InjectedFault[],
    get delayMs(): number {
      return options?.delayMs ?? 35_000;
    },
    /** Decides, from the seeded sequence, whether this request fails and how. */
    draw(request: Request, path: string): Fault | undefined {
      if (!options || options.rate <= 0) return undefined;
      if (options.match && !options.match(request)) return undefined;
      if (random.next() >= options.rate) return undefined;
      const kinds = options.kinds?.length ? options.kinds : (['5xx', 'timeout', 'drop'] as const);
      const kind = random.pick(kinds);
      const phaseOption = options.phase ?? 'before';
      const phase = phaseOption === 'both' ? random.pick(['before', 'after'] as const) : phaseOption;
      const status = random.pick([500, 502, 503]);
      const fault = { kind, phase, status };
      log.push({ ...fault, method: request.method, path });
      return fault;
    },
  };
}

