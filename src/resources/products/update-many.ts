import { EmporioError, RequestValidationError, ResponseTooLargeError, ResponseValidationError } from '../../core/errors.js';
import { sleep } from '../../core/time.js';
import { toIssues } from '../../schemas/common.js';
import { type BatchStatus, type BatchUpdateAnswer, ProductUpdate } from '../../schemas/products.js';
import { isShopBusy } from '../orders/error-codes.js';
import { BatchItemError, type WaitForBatchOptions, waitSettings } from './batches.js';

/** Reported after each request of `updateMany`, and once at the end when something changed since. */
export interface UpdateManyProgress {
  /** Updates handed to the service so far (requests started). */
  sent: number;
  /** Updates the service has accepted. */
  applied: number;
  /** Updates that failed: invalid ones, and those of requests that failed. */
  failed: number;
  /** Number of input updates, known only when the input is an array. */
  total?: number | undefined;
}

export interface UpdateManyOptions {
  /**
   * Called after each request completes, and once more at the end if updates were
   * reported since (invalid ones, with none sent, included). An exception thrown here
   * rejects the run, with the partial report as `error.report`.
   */
  onProgress?: ((progress: UpdateManyProgress) => void) | undefined;
  /** Requests in flight at once. Default 1; the rate limiter paces them either way. */
  concurrency?: number | undefined;
  /**
   * Waiting out 422 `invalid_shop_state` "We are currently scanning your XML": the request
   * is sent again up to `retries` times (default 5), after `delay` ms (default 2,000),
   * doubled each time. Other `invalid_shop_state` answers fail at once.
   */
  shopBusy?: { retries?: number | undefined; delay?: number | undefined } | undefined;
  /**
   * Wait for each batch's results and report every product by them (`applied` only for
   * `success`, `unchanged`, `failed` with the service's message). Default false: `applied`
   * then means the service took the request.
   */
  awaitResults?: boolean | undefined;
  /** How `awaitResults` polls each batch: `intervalMs` (default 5,000), `timeoutMs` (default 10 minutes). */
  waitOptions?: Omit<WaitForBatchOptions, 'signal'> | undefined;
}

/** One entry of `UpdateManyReport.failed`. */
export interface UpdateManyFailure {
  product_id: string;
  /** Set when the service's batch result reported this variation of the product as failed. */
  variation_id?: string | undefined;
  /**
   * Why: a `RequestValidationError` (not sent), the request's error, or with `awaitResults`
   * a `BatchItemError` whose message is the service's.
   */
  error: EmporioError;
  /** The service may have applied it unseen: read the product back before sending it again. */
  maybeApplied?: true | undefined;
}

/**
 * What `updateMany` did: plain data. Each input update is counted once in applied, unchanged,
 * failed (the entries without `variation_id`) or duplicates.
 */
export interface UpdateManyReport {
  /** Product ids the service took; with `awaitResults`, those whose result was `success`. */
  applied: string[];
  /** With `awaitResults`: product ids whose result was `no_change`. Empty otherwise. */
  unchanged: string[];
  /**
   * Product ids not applied, with why: a `RequestValidationError` (not sent), the request's
   * error, or (with `awaitResults`) the service's result. `maybeApplied` is set when an
   * attempt of that request got no answer or an unreadable 2xx, or its result never came:
   * the service may have applied it unseen, so read the product back before sending it again.
   */
  failed: UpdateManyFailure[];
  /** The ids of the batches the service took, in the order their answers came. */
  batches: string[];
  /** Product ids seen again in the run, once per later occurrence; those were not sent. */
  duplicates: string[];
  /** Batch requests sent: every one on the wire, retries and "scanning your XML" resends included. */
  requests: number;
}

const CHUNK_SIZE = 500;

function nonNegativeInteger(value: unknown, fallback: number, name: string, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RequestValidationError('Invalid updateMany options', [{ path: name.split('.'), message: `expected an integer >= ${min}` }]);
  }
  return value;
}

/** The id an update is reported under: its product_id, as a string when it is not one. */
function reportedId(update: unknown): string {
  const id = typeof update === 'object' && update !== null ? (update as { product_id?: unknown }).product_id : undefined;
  return typeof id === 'string' ? id : typeof id === 'number' ? String(id) : '';
}

/** What the engine needs of the client: one batch request, and waiting for a batch. */
export interface BatchChannel {
  send: (data: ProductUpdate[], onWire: (event: 'sent' | 'unanswered') => void) => Promise<BatchUpdateAnswer>;
  wait: (batchId: string, signal: AbortSignal | undefined) => Promise<BatchStatus>;
}

/**
 * A 2xx the client could not read (an HTML page from a proxy, an oversized body): the
 * service may well have taken the batch.
 */
function isUnreadableAnswer(error: unknown): boolean {
  if (error instanceof ResponseTooLargeError) return true;
  return error instanceof ResponseValidationError && error.status !== undefined && error.status >= 200 && error.status < 300;
}

/** The engine of `products.updateMany`. */
export async function runUpdateMany(
  updates: Iterable<ProductUpdate> | AsyncIterable<ProductUpdate>,
  channel: BatchChannel,
  params: UpdateManyOptions = {},
  signal?: AbortSignal,
  warn: (message: string) => void = () => {},
): Promise<UpdateManyReport> {
  const { send } = channel;
  const concurrency = nonNegativeInteger(params.concurrency, 1, 'concurrency', 1);
  const busyRetries = nonNegativeInteger(params.shopBusy?.retries, 5, 'shopBusy.retries');
  const busyDelay = nonNegativeInteger(params.shopBusy?.delay, 2_000, 'shopBusy.delay');
  const isIterable =
    updates != null && (typeof (updates as Iterable<unknown>)[Symbol.iterator] === 'function' || typeof (updates as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function');
  if (!isIterable || typeof updates === 'string') {
    throw new RequestValidationError('Invalid product updates', [{ path: [], message: 'expected an array, iterable or async iterable' }]);
  }

  if (params.awaitResults !== undefined && typeof params.awaitResults !== 'boolean') {
    throw new RequestValidationError('Invalid updateMany options', [{ path: ['awaitResults'], message: 'expected a boolean' }]);
  }
  const awaitResults = params.awaitResults === true;
  // Checked now, not after every batch was sent.
  if (awaitResults) waitSettings(params.waitOptions);
  const report: UpdateManyReport = { applied: [], unchanged: [], failed: [], batches: [], duplicates: [], requests: 0 };
  /** With `awaitResults`: the ids each taken request carried, until its results are read. */
  const taken: { batchId: string | undefined; ids: string[] }[] = [];
  const total = Array.isArray(updates) ? updates.length : undefined;
  const seen = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  /** Applied + failed as of the last progress report. */
  let reported = 0;

  const accounted = () => report.applied.length + report.unchanged.length + report.failed.length;
  const progress = () => {
    reported = accounted();
    params.onProgress?.({
      sent,
      applied: report.applied.length,
      failed: report.failed.length,
      ...(total === undefined ? {} : { total }),
    });
  };

  const sendWaitingOutScans = async (data: ProductUpdate[], onWire: (event: 'sent' | 'unanswered') => void): Promise<BatchUpdateAnswer> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(data, onWire);
      } catch (error) {
        if (!isShopBusy(error) || attempt >= busyRetries) throw error;
        await sleep(busyDelay * 2 ** attempt, signal);
      }
    }
  };

  const sendChunk = async (data: ProductUpdate[]) => {
    const ids = data.map((update) => update.product_id);
    sent += ids.length;
    let unanswered = false;
    const onWire = (event: 'sent' | 'unanswered') => {
      if (event === 'sent') report.requests++;
      else unanswered = true;
    };
    try {
      const answer = await sendWaitingOutScans(data, onWire);
      const batchId = typeof answer.id === 'string' && answer.id !== '' ? answer.id : undefined;
      if (batchId !== undefined) report.batches.push(batchId);
      if (awaitResults) taken.push({ batchId, ids });
      else for (const id of ids) report.applied.push(id);
    } catch (error) {
      if (signal?.aborted || !(error instanceof EmporioError)) throw error;
      const maybeApplied = unanswered || isUnreadableAnswer(error);
      for (const id of ids) report.failed.push(maybeApplied ? { product_id: id, error, maybeApplied: true } : { product_id: id, error });
    }
    progress();
  };

  // The first error that must end the run (an abort, an exception from onProgress).
  let fatal: { error: unknown } | undefined;
  const launch = async (data: ProductUpdate[]) => {
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (fatal) throw fatal.error;
    if (signal?.aborted) throw signal.reason;
    const request: Promise<void> = sendChunk(data)
      .catch((error: unknown) => {
        fatal ??= { error };
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };

  let chunk: ProductUpdate[] = [];
  let index = 0;
  try {
    try {
      for await (const update of updates) {
        const position = index++;
        const id = reportedId(update);
        if (id !== '' && seen.has(id)) {
          report.duplicates.push(id);
          continue;
        }
        if (id !== '') seen.add(id);
        const result = ProductUpdate.safeParse(update);
        if (!result.success) {
          const issues = toIssues(result.error, update).map((issue) => ({ ...issue, path: [position, ...issue.path] }));
          report.failed.push({ product_id: id, error: new RequestValidationError('Invalid product update', issues) });
          continue;
        }
        chunk.push(result.data);
        if (chunk.length === CHUNK_SIZE) {
          await launch(chunk);
          chunk = [];
        }
      }
      if (chunk.length) await launch(chunk);
    } finally {
      // Whatever happened, let the requests already sent finish.
      await Promise.all(inFlight);
    }
    if (fatal) throw fatal.error;
    // One batch after the other: the service works on all of them meanwhile.
    for (const batch of taken.splice(0)) await reportResults(batch, channel, report, signal);
    // Updates reported after the last request (or with none sent, every row invalid).
    if (accounted() !== reported) progress();
    warnIfNoneValid(report, warn);
  } catch (error) {
    throw withReport(error, report);
  }
  return report;
}

/** Each product of a taken batch by the service's result (`awaitResults`). */
async function reportResults(
  batch: { batchId: string | undefined; ids: string[] },
  channel: BatchChannel,
  report: UpdateManyReport,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { batchId, ids } = batch;
  let status: BatchStatus;
  try {
    if (batchId === undefined) throw new BatchItemError("the service's answer carried no batch id, so the results cannot be read", undefined);
    status = await channel.wait(batchId, signal);
  } catch (error) {
    if (signal?.aborted || !(error instanceof EmporioError)) throw error;
    // Taken, but how it went is unknown.
    for (const id of ids) report.failed.push({ product_id: id, error, maybeApplied: true });
    return;
  }
  const results = new Map<string, NonNullable<BatchStatus['results']>[number]>();
  for (const result of status.results ?? []) {
    if (typeof result?.product_id === 'string' && !results.has(result.product_id)) results.set(result.product_id, result);
  }
  const failure = (message: string | null | undefined) =>
    new BatchItemError(typeof message === 'string' && message !== '' ? message : 'the service reported a failure without a reason', batchId);
  for (const id of ids) {
    const result = results.get(id);
    if (result?.status === 'success') report.applied.push(id);
    else if (result?.status === 'no_change') report.unchanged.push(id);
    else if (result?.status === 'failure') report.failed.push({ product_id: id, error: failure(result.message) });
    else {
      const why = result === undefined ? 'the batch status lists no result for this product' : `the batch status reports ${JSON.stringify(result.status ?? null)} for this product`;
      report.failed.push({ product_id: id, error: new BatchItemError(why, batchId), maybeApplied: true });
    }
    for (const variation of result?.variations ?? []) {
      if (variation?.status !== 'failure') continue;
      const entry: UpdateManyFailure = { product_id: id, error: failure(variation.message) };
      if (typeof variation.variation_id === 'string') entry.variation_id = variation.variation_id;
      report.failed.push(entry);
    }
  }
}

/**
 * A run in which every update failed its local check sent nothing: said once, with the first
 * reason, since a report of 0 applied is easy to miss (prices in integer cents, say).
 */
function warnIfNoneValid(report: UpdateManyReport, warn: (message: string) => void): void {
  const first = report.failed[0];
  if (report.requests > 0 || first === undefined || !report.failed.every(({ error }) => error instanceof RequestValidationError)) return;
  warn(`products.updateMany: all ${report.failed.length} updates failed validation, so none was sent; the first: ${first.error.message}`);
}

/** The run's error, carrying what was done before it as `error.report`. */
function withReport(error: unknown, report: UpdateManyReport): unknown {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error) && !('report' in error)) {
    Object.defineProperty(error, 'report', { value: report, enumerable: false, configurable: true, writable: true });
  }
  return error;
}
