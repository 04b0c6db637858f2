import type * as z from 'zod/mini';
import { conforms, type Drift, driftIssue, inspect, reportOnce } from '../schemas/drift.js';
import { type AnswerContext, requestIdOf } from './answer.js';
import { ResponseValidationError } from './errors.js';
import type { HookCaller } from './hook-caller.js';
import type { Hooks } from './options.js';

/** Where drift is reported: the answer's API and request. */
type DriftSource = Pick<AnswerContext, 'api' | 'target'>;

/**
 * Answers checked against their schemas, tolerantly: what the SDK cannot use is refused, other
 * drift passes as sent and is reported once per path for the client's lifetime (refused when strict).
 */
export class AnswerChecker {
  /** Schema paths whose drift was reported. */
  readonly #seen = new Set<string>();

  constructor(
    readonly strict: boolean,
    readonly onDrift: Hooks['onDrift'],
    readonly hooks: HookCaller,
  ) {}

  /** `data` (or the part of an answer at `prefix`) as `T`, or a `ResponseValidationError`. */
  accept<T>(schema: z.ZodMiniType<T>, data: unknown, answer: AnswerContext, prefix?: readonly string[]): T {
    if (conforms(schema, data)) return data as T;
    const deviation = inspect(schema, data, prefix);
    if (deviation === undefined) return data as T;
    const { fatal, drift } = deviation;
    if (fatal.length > 0 || (this.strict && drift.length > 0)) {
      throw new ResponseValidationError('the answer does not match its expected shape', {
        issues: fatal.length > 0 ? fatal : drift.map(driftIssue),
        status: answer.status,
        target: answer.target,
        requestId: requestIdOf(answer.headers, answer.token),
      });
    }
    this.report(answer, drift);
    return data as T;
  }

  /** Drift a schema cannot see (a value outside a set the SDK acts on), reported as `accept` reports its own. */
  report(source: DriftSource, drift: readonly Drift[]): void {
    reportOnce(drift, this.#seen, (found) => this.#tell(source, found), source.api);
  }

  #tell({ api, target }: DriftSource, { path, expected, received }: Drift): void {
    const onDrift = this.onDrift;
    if (onDrift) {
      const report = { api, method: target.method, url: target.url, path, expected, received };
      this.hooks.call('onDrift', () => onDrift(report), undefined);
    } else this.hooks.logger.warn?.(`the answer drifted from its documented shape at ${path}: expected ${expected}, received ${received}`, { ...target });
  }
}
