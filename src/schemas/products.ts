/**
 * Products API wire shapes (document 1): the bulk inventory update. Prices here are
 * integer cents, unlike the euros of order payloads.
 */
import * as z from 'zod/mini';
import { maybe, record } from './common.js';

const nonEmptyString = () =>
  z.string({ error: 'expected a non-empty string' }).check(z.minLength(1, 'expected a non-empty string'));
const cents = () =>
  z.int({ error: 'expected an integer (cents)' }).check(z.nonnegative('expected a non-negative integer (cents)'));
const count = () => z.int({ error: 'expected an integer' }).check(z.nonnegative('expected a non-negative integer'));
const flag = () => z.boolean({ error: 'expected a boolean' });
const requestObject = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : 'expected an object',
  });

/** One variation of a product (size, colour...): every field required. */
export const Variation = requestObject({
  /** Unique variation id. */
  variation_id: nonEmptyString(),
  /** Available quantity. */
  quantity: count(),
  /** Available for purchase. */
  enabled: flag(),
  /** Price in integer cents. */
  price: cents(),
});
export type Variation = z.infer<typeof Variation>;

/** One entry of the batch: sets absolute values, so repeating it is safe. */
export const ProductUpdate = requestObject({
  /** Unique product id. */
  product_id: nonEmptyString(),
  /** Available quantity. */
  quantity: count(),
  /** Available for purchase. */
  enabled: flag(),
  /** Price in integer cents. */
  price: cents(),
  /** The product's variations; optional. */
  variations: z.optional(z.array(Variation)),
});
export type ProductUpdate = z.infer<typeof ProductUpdate>;

/** Answer of validate_batch_payload: `{ success: true, message }`. */
export const ValidateBatchAnswer = record({
  /** The service's verdict, e.g. `All validations passed successfully.` */
  message: maybe(z.string()),
  /** `true` in the 200 answer; validation changes nothing. */
  success: maybe(z.boolean()),
});
export type ValidateBatchAnswer = z.infer<typeof ValidateBatchAnswer>;

/** The usual success answer `{ success: true }`. */
export const SuccessAnswer = record({
  /** `true` on success. */
  success: maybe(z.boolean()),
});
export type SuccessAnswer = z.infer<typeof SuccessAnswer>;
