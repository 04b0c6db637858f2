/**
 * Batch results (since 2026-09): the service takes a batch at once and processes each product
 * later; `GET .../batch/:id/status` tells how it went. Waiting for a batch is polling that status
 * through the client's one request path, so rate limits, retries and the caller's signal apply.
 */
import { whenAborted } from '../../core/abort.js';
import { EmporioError, RequestValidationError, TimeoutError } from '../../core/errors.js';
import { MAX_TIMER_MS, sleep } from '../../core/time.js';
import { type Drift, kindOf } from '../../schemas/drift.js';
import { BATCH_STATUSES, type BatchStatus } from '../../schemas/products.js';

/** Options of `products.waitForBatch`. */
export interface WaitForBatchOptions {
  /** Milliseconds between two reads of the status, at least 100. Default 5,000. */
  intervalMs?: number | undefined;
  /** Give up after this many milliseconds with a `BatchTimeoutError`. Default 600,000 (10 minutes). */
  timeoutMs?: number | undefined;
  /** Stops the wait: the call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

const DEFAULT_INTERVAL_MS = 5_000;
/** Shorter would be a tight loop of status reads for up to the whole timeout. */
const MIN_INTERVAL_MS = 100;
const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * `waitForBatch` ran out of `timeoutMs` before the batch was `completed`. A
 * `TimeoutError`; `lastStatus` is the last status read (undefined when no read completed).
 */
export class BatchTimeoutError extends TimeoutError {
  override name = 'BatchTimeoutError';
  /** The batch waited for. */
  readonly batchId: string;
  /** The last status the service sent, with the results known by then. */
  readonly lastStatus: BatchStatus | undefined;

  constructor(batchId: string, timeoutMs: number, lastStatus: BatchStatus | undefined) {
    super(`batch ${batchId} was not completed after ${timeoutMs} ms`);
    this.batchId = batchId;
    this.lastStatus = lastStatus;
  }
}

/**
 * The service processed a product (or one of its variations) of a batch and reported a
 * failure: `message` is the service's reason. In `updateMany`'s `failed` with `awaitResults`.
 */
export class BatchItemError extends EmporioError {
  override name = 'BatchItemError';
  readonly code = 'batch_item_failed';
  /** The batch that carried the update, when the service gave its id. */
  readonly batchId: string | undefined;

  constructor(message: string, batchId: string | undefined) {
    super(message);
    this.batchId = batchId;
  }
}

/** At most what a timer holds: a longer delay would fire at once. */
function checkMs(value: unknown, fallback: number, name: string, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > MAX_TIMER_MS) {
    throw new RequestValidationError('Invalid waitForBatch options', [
      { path: [name], message: `expected a number of milliseconds >= ${min} and at most ${MAX_TIMER_MS} (about 24 days)` },
    ]);
  }
  return value;
}

/** The options' figures, defaults filled in; a bad one is a `RequestValidationError` (checked before anything is sent). */
export function waitSettings(options: Omit<WaitForBatchOptions, 'signal'> = {}): { intervalMs: number; timeoutMs: number } {
  if (typeof options !== 'object' || options === null) {
    throw new RequestValidationError('Invalid waitForBatch options', [{ path: [], message: 'expected an object' }]);
  }
  return {
    intervalMs: checkMs(options.intervalMs, DEFAULT_INTERVAL_MS, 'intervalMs', MIN_INTERVAL_MS),
    timeoutMs: checkMs(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs', 1),
  };
}

/** After this status nothing changes: the service's documentation names no other final one. */
const FINAL_STATUS = 'completed';
const KNOWN_STATUSES: ReadonlySet<unknown> = new Set(BATCH_STATUSES);

/**
 * A batch status the documentation does not name (`pending`, none, `0`) as drift, or undefined
 * for a known one. The wait goes on through such a status: it stops only on a final one.
 */
export function batchStatusDrift(status: BatchStatus): Drift | undefined {
  const value: unknown = status?.status;
  if (KNOWN_STATUSES.has(value)) return undefined;
  return { path: '$.status', expected: BATCH_STATUSES.join(' | '), received: kindOf(value), at: [] };
}

/** Marks the deadline's abort, to tell it from the caller's. */
const DEADLINE = Symbol('batch deadline');

/**
 * Reads the status until it is final (`completed`); `in_progress` and any status the
 * documentation does not name keep it waiting. `read` gets the signal each read
 * must honour (the callers', and the deadline's), so no read outlives `timeoutMs`. `alsoStop`:
 * a second caller's signal (the call's `RequestOptions.signal` beside the wait's own).
 */
export async function pollBatch(
  batchId: string,
  read: (signal: AbortSignal) => Promise<BatchStatus>,
  options: WaitForBatchOptions = {},
  alsoStop?: AbortSignal,
): Promise<BatchStatus> {
  const { intervalMs, timeoutMs } = waitSettings(options);
  const callers = [options.signal, alsoStop].filter((signal): signal is AbortSignal => signal !== undefined);
  const abortedFirst = callers.find((signal) => signal.aborted);
  if (abortedFirst !== undefined) throw abortedFirst.reason;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(DEADLINE), timeoutMs);
  const forwards = callers.map((signal) => whenAborted(signal, () => controller.abort(signal.reason)));
  let last: BatchStatus | undefined;
  try {
    // Bounded by the deadline: it aborts both the read and the sleep.
    for (;;) {
      last = await read(controller.signal);
      if (last?.status === FINAL_STATUS) return last;
      await sleep(intervalMs, controller.signal);
    }
  } catch (error) {
    if (controller.signal.reason === DEADLINE && !callers.some((signal) => signal.aborted)) throw new BatchTimeoutError(batchId, timeoutMs, last);
    throw error;
  } finally {
    clearTimeout(timer);
    for (const stopForwarding of forwards) stopForwarding();
  }
}
