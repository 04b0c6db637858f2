import type { APIPromise } from '../../core/api-promise.js';
import * as z from 'zod/mini';
import { RequestValidationError, type ValidationIssue } from '../../core/errors.js';
import { path } from '../../core/paths.js';
import type { RequestOptions } from '../../core/transport.js';
import { lazy, toIssues } from '../../schemas/common.js';
import { BatchStatus, BatchUpdateAnswer, ProductUpdate, ValidateBatchAnswer } from '../../schemas/products.js';
import { APIResource } from '../resource.js';
import { batchStatusDrift, pollBatch, type WaitForBatchOptions } from './batches.js';
import type { UpdateManyOptions, UpdateManyReport } from './update-many.js';

export { BatchItemError, BatchTimeoutError, type WaitForBatchOptions } from './batches.js';
export type { UpdateManyFailure, UpdateManyOptions, UpdateManyProgress, UpdateManyReport } from './update-many.js';

/** `{ success: true, id }`, or an empty answer. */
const BatchAnswer = /* @__PURE__ */ lazy(() => z.optional(BatchUpdateAnswer));

/** The merchant API documentation: at most 500 product updates per request. */
export const MAX_BATCH_SIZE = 500;

/** Every update checked on its own; issues carry the index (`[3, 'price']`). */
function checkBatch(updates: readonly ProductUpdate[]): ProductUpdate[] {
  if (!Array.isArray(updates)) {
    throw new RequestValidationError('Invalid product updates', [{ path: [], message: 'expected an array of product updates' }]);
  }
  if (updates.length === 0) {
    throw new RequestValidationError('Invalid product updates', [{ path: [], message: 'expected at least one product update' }]);
  }
  if (updates.length > MAX_BATCH_SIZE) {
    throw new RequestValidationError('Invalid product updates', [
      { path: [], message: `${updates.length} updates; at most ${MAX_BATCH_SIZE} per request (updateMany splits any number)` },
    ]);
  }
  const issues: ValidationIssue[] = [];
  const data = updates.map((update, index) => {
    const result = ProductUpdate.safeParse(update);
    if (result.success) return result.data;
    for (const issue of toIssues(result.error, update)) issues.push({ ...issue, path: [index, ...issue.path] });
    return update;
  });
  if (issues.length) throw new RequestValidationError('Invalid product updates', issues);
  return data;
}

/**
 * Products API (the merchant API documentation): availability, price (integer cents) and quantity of
 * existing products and their variations. The values are absolute, so a request is
 * safe to repeat: transient failures are retried.
 */
export class Products extends APIResource {
  /**
   * POST /merchants/products/batch: one request of at most 500 updates. Resolves the answer as
   * sent, `{ success: true, id }`: the service has taken the batch and processes each product
   * afterwards; `waitForBatch(id)` tells how each went. An empty answer (older service versions)
   * reads as `{ success: true }`, without `id`.
   */
  batchUpdate(updates: readonly ProductUpdate[], options?: RequestOptions): APIPromise<BatchUpdateAnswer> {
    return this.#sendBatch(() => checkBatch(updates), options);
  }

  /**
   * GET /merchants/products/batch/:id/status: the batch's `status` (`in_progress` while any
   * product is pending, else `completed`) and a result per product (`success`, `no_change`,
   * `failure` with the service's `message`, or `in_progress`). An unknown id is a `NotFoundError`.
   */
  batchStatus(id: string, options?: RequestOptions): APIPromise<BatchStatus> {
    return this._transport.request({ api: 'products', method: 'GET', path: path`/merchants/products/batch/${id}/status`, schema: BatchStatus, options });
  }

  /**
   * Reads the batch's status every `intervalMs` (default 5 s) until it is `completed`, and
   * resolves with it. A status the service's documentation does not name (`pending`, none)
   * keeps it waiting and is reported as drift (`hooks.onDrift`, or a logger warning). Past `timeoutMs` (default 10 minutes) it rejects with
   * a `BatchTimeoutError` (a `TimeoutError`) carrying the last status read. Each read goes
   * through the client like any call: rate limits paced, transient failures retried.
   */
  waitForBatch(id: string, params?: WaitForBatchOptions, options?: RequestOptions): Promise<BatchStatus> {
    return pollBatch(id, (signal) => this.#readForWait(id, { ...options, signal }), params, options?.signal);
  }

  /** One read of a wait: a status the documentation does not name is reported as drift (the wait goes on). */
  async #readForWait(id: string, options: RequestOptions): Promise<BatchStatus> {
    const { data, response } = await this.batchStatus(id, options).withResponse();
    const drift = batchStatusDrift(data);
    if (drift) this._transport.reportDrift({ api: 'products', target: { method: 'GET', url: response.url } }, [drift]);
    return data;
  }

  /**
   * POST /merchants/products/batch/validations (moved there from `validate_batch_payload` on
   * 2026-04-29): every check of `batchUpdate`, nothing changed. One update may be passed on
   * its own; it is sent as one object, `{ data: { product_id, ... } }`, as the service's own
   * example does.
   */
  validateBatch(updates: ProductUpdate | readonly ProductUpdate[], options?: RequestOptions): APIPromise<{ message: string }> {
    return this._transport.request(
      () => ({
        api: 'products',
        method: 'POST',
        path: '/merchants/products/batch/validations',
        body: { data: Array.isArray(updates) ? checkBatch(updates) : checkBatch([updates as ProductUpdate])[0] },
        schema: ValidateBatchAnswer,
        idempotent: true,
        options,
      }),
      // A 2xx is the verdict; an answer without a message (a later minor version, a proxy) is still one.
      (answer) => ({ ...answer, message: answer.message ?? '' }),
    );
  }

  /**
   * Any number of updates, from an array, an iterable or an async iterable (a feed read
   * row by row), streamed: only enough is read ahead to fill `concurrency` requests of
   * at most 500, and once sent only the ids are kept.
   *
   * - Each update is checked on its own: an invalid one is reported in `failed` with a
   *   `RequestValidationError` (its issue paths start with the update's input position)
   *   and is not sent; the others still are.
   * - A product id seen again in the same run is listed in `duplicates` and not sent:
   *   the first occurrence is the one sent (or reported invalid).
   * - Requests are paced by the rate limiter (the service's `X-RateLimit-*` headers) and
   *   transient failures retried by the client; a 422 `invalid_shop_state` "scanning your
   *   XML" answer is waited out (see `UpdateManyOptions.shopBusy`). A request that still
   *   fails puts each of its products in `failed` with that error.
   *
   * - When every update fails its check (nothing is sent), the client's `logger.warn` (or,
   *   without a logger, `console.warn`) says so once, with the first error.
   *
   * Every input product id ends in exactly one of `applied`, `unchanged` and `failed` (its
   * entries without `variation_id`; a failed variation adds one with it) (an
   * update with no usable `product_id` is reported with its string form, or `''`); a failed
   * request one of whose attempts got no answer, or got a 2xx that could not be read, marks
   * its products `maybeApplied: true`. `batches` lists the ids of the batches the service took.
   *
   * With `awaitResults: true` the run then waits for each batch (`waitForBatch`, tuned by
   * `waitOptions`) and reports each product by the service's result: `applied` only for
   * `success`, `unchanged` for `no_change`, and `failed` with a `BatchItemError` (the
   * service's message) for `failure`; a failed variation adds an entry with its
   * `variation_id`. Products whose result never came (time-out, no batch id) are `failed`
   * with `maybeApplied: true`. Without it, `applied` means the service took the request.
   * An abort through `options.signal` rejects with the signal's reason; an input iterable
   * or `onProgress` that throws rejects the run with its error. Either way the error gets
   * the partial report as `error.report` (when it is an object).
   */
  updateMany(
    updates: Iterable<ProductUpdate> | AsyncIterable<ProductUpdate>,
    params?: UpdateManyOptions,
    options?: RequestOptions,
  ): Promise<UpdateManyReport> {
    // Loaded with its first use: most apps that import `emporio` never sync inventory in bulk.
    return import('./update-many.js').then(({ runUpdateMany }) => runUpdateMany(
      updates,
      {
        send: (data, onWire) => this.#sendBatch(() => data, options, onWire),
        wait: (id, signal) => pollBatch(id, (readSignal) => this.#readForWait(id, { ...options, signal: readSignal }), { ...params?.waitOptions, signal }),
      },
      params,
      options?.signal,
      (message) => this._transport.warn(message),
    ));
  }

  /** The one batch request; `data` gives checked data only (it runs inside the call). */
  #sendBatch(
    data: () => readonly ProductUpdate[],
    options: RequestOptions | undefined,
    onWire?: (event: 'sent' | 'unanswered') => void,
  ): APIPromise<BatchUpdateAnswer> {
    return this._transport.request(
      () => ({
        api: 'products',
        method: 'POST',
        path: '/merchants/products/batch',
        body: { data: data() },
        schema: BatchAnswer,
        idempotent: true,
        options,
        ...(onWire ? { onWire } : {}),
      }),
      // An empty 2xx: taken, with no id to follow it by.
      (answer): BatchUpdateAnswer => answer ?? { success: true },
    );
  }
}
