/**
 * Products API wire shapes (the merchant API documentation): the bulk inventory update. Prices here are
 * integer cents, unlike the euros of order payloads.
 */
import * as z from 'zod/mini';
import { answer, flag, type Infer, integer, lazy, maybe, nonEmptyString, openEnum, type Schema } from './common.js';

const cents = () =>
  z.int({ error: 'expected an integer (cents)' }).check(z.nonnegative('expected a non-negative integer (cents)'));
const requestObject = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : 'expected an object',
  });

/** One variation of a product (size, colour...): every field required. */
export const Variation = /* @__PURE__ */ lazy(() =>
  requestObject({
  /** Unique variation id. */
  variation_id: nonEmptyString(),
  /** Available quantity. */
  quantity: integer(0),
  /** Available for purchase. */
  enabled: flag(),
  /** Price in integer cents. */
  price: cents(),
  }),
);
export interface Variation extends z.output<typeof Variation> {}

/** One entry of the batch: sets absolute values, so repeating it is safe. */
export const ProductUpdate = /* @__PURE__ */ lazy(() =>
  requestObject({
  /** Unique product id. */
  product_id: nonEmptyString(),
  /** Available quantity. */
  quantity: integer(0),
  /** Available for purchase. */
  enabled: flag(),
  /** Price in integer cents. */
  price: cents(),
  /** The product's variations; optional. */
  variations: z.optional(z.array(Variation)),
  }),
);
export interface ProductUpdate extends z.output<typeof ProductUpdate> {}

const validateBatchAnswerShape = () => ({
  /** The service's verdict, e.g. `All validations passed successfully.` */
  message: maybe(z.string()),
  /** `true` in the 200 answer; validation changes nothing. */
  success: maybe(z.boolean()),
});
/** Answer of batch/validations: `{ success: true, message }`. */
export interface ValidateBatchAnswer extends Infer<typeof validateBatchAnswerShape> {}
export const ValidateBatchAnswer: Schema<ValidateBatchAnswer> = /* @__PURE__ */ answer(validateBatchAnswerShape);

const batchAnswerShape = () => ({
  /** `true` when the service took the batch. */
  success: maybe(z.boolean()),
  /** The batch id (since 2026-09): pass it to `batchStatus` / `waitForBatch`. */
  id: maybe(z.string()),
});
/** Answer of POST batch: `{ success: true, id }`; older answers carry no `id`. */
export interface BatchUpdateAnswer extends Infer<typeof batchAnswerShape> {}
export const BatchUpdateAnswer: Schema<BatchUpdateAnswer> = /* @__PURE__ */ answer(batchAnswerShape);

/** What a batch status says of a product or variation; other values pass through. */
export const BATCH_ITEM_STATUSES = ['in_progress', 'success', 'no_change', 'failure'] as const;
/** What a whole batch status says: `in_progress` while any product is pending. */
export const BATCH_STATUSES = ['in_progress', 'completed'] as const;

const batchVariationResultShape = () => ({
  /** The variation id, as sent. */
  variation_id: maybe(z.string()),
  /** `in_progress`, `success`, `no_change` or `failure`. */
  status: maybe(openEnum(BATCH_ITEM_STATUSES)),
  /** Why it failed, when `failure`; null otherwise. */
  message: maybe(z.string()),
  /** When it was processed; null while `in_progress`. */
  executed_at: maybe(z.string()),
});
/** The result of one variation of a batch's product. */
export interface BatchVariationResult extends Infer<typeof batchVariationResultShape> {}
export const BatchVariationResult: Schema<BatchVariationResult> = /* @__PURE__ */ answer(batchVariationResultShape);

const batchResultShape = () => ({
  /** The product id, as sent. */
  product_id: maybe(z.string()),
  /** `in_progress`, `success`, `no_change` or `failure`. */
  status: maybe(openEnum(BATCH_ITEM_STATUSES)),
  /** Why it failed, when `failure`; null otherwise. */
  message: maybe(z.string()),
  /** When it was processed; null while `in_progress`. */
  executed_at: maybe(z.string()),
  /** One result per declared variation. */
  variations: maybe(z.array(BatchVariationResult)),
});
/** The result of one product of a batch. */
export interface BatchResult extends Infer<typeof batchResultShape> {}
export const BatchResult: Schema<BatchResult> = /* @__PURE__ */ answer(batchResultShape);

const batchStatusShape = () => ({
  /** The batch id (the SDK reads nothing by it: an answer without it still resolves, as drift). */
  id: maybe(z.string()),
  /** `in_progress` while any product is pending, else `completed` (all processed, well or not). */
  status: maybe(openEnum(BATCH_STATUSES)),
  /** Submission time, with the Athens offset. */
  created_at: maybe(z.string()),
  /** One result per product of the batch. */
  results: maybe(z.array(BatchResult)),
});
/** GET batch/:id/status: how far the service has got with a batch, product by product. */
export interface BatchStatus extends Infer<typeof batchStatusShape> {}
export const BatchStatus: Schema<BatchStatus> = /* @__PURE__ */ answer(batchStatusShape);
