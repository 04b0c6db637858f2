/**
 * Products API wire shapes (the merchant API documentation): the bulk inventory update. Prices here are
 * integer cents, unlike the euros of order payloads.
 */
import * as z from 'zod/mini';
import { answer, flag, type Infer, integer, lazy, maybe, nonEmptyString, type Schema } from './common.js';

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

const successAnswerShape = () => ({
  /** `true` on success. */
  success: maybe(z.boolean()),
});
/** The usual success answer `{ success: true }`. */
export interface SuccessAnswer extends Infer<typeof successAnswerShape> {}
export const SuccessAnswer: Schema<SuccessAnswer> = /* @__PURE__ */ answer(successAnswerShape);
