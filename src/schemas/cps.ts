/**
 * CPS orders API wire shapes, the CPS API documentation: orders of the pay-per-sale programme,
 * read and rejected with their own token. Answers tolerant, the rejection strict.
 */
import * as z from 'zod/mini';
import { answer, type Infer, lazy, maybe, nonEmptyString, openEnum, record, type Schema } from './common.js';
import { num, strict, text } from './catalog/base.js';

/** The reasons the service names today (`other` alone requires a comment); others pass through. */
const CPS_REJECT_REASONS = [
  'user_cancel',
  'user_return',
  'undelivered',
  'unpaid',
  'unavailable_items',
  'shop_staff_order',
  'invoice_39a',
  'reduced_vat',
  'other',
] as const;
export type CpsRejectReason = (typeof CPS_REJECT_REASONS)[number] | (string & {});

const cpsLineItemShape = () => ({
  /** The shop's product id. */
  product_id: maybe(z.union([z.string(), z.number()])),
  name: text,
  quantity: num,
  unit_price: num,
  /** The commission's share (the documentation says 0–100; the recordings show fractions such as 0.1). */
  commission_rate: num,
  commission: num,
});
/** One product of a CPS order. */
export interface CpsLineItem extends Infer<typeof cpsLineItemShape> {}
export const CpsLineItem: Schema<CpsLineItem> = /* @__PURE__ */ answer(cpsLineItemShape);

const cpsRejectOptionShape = () => ({
  name: openEnum(CPS_REJECT_REASONS),
  /** A readable (Greek) text. */
  description: text,
  /** True for `other`: the rejection needs a `comment`. */
  requires_additional_comment: maybe(z.boolean()),
});
/** One reason the order may be rejected with. */
export interface CpsRejectOption extends Infer<typeof cpsRejectOptionShape> {}
export const CpsRejectOption: Schema<CpsRejectOption> = /* @__PURE__ */ answer(cpsRejectOptionShape);

const cpsOrderShape = () => ({
  code: z.string(),
  date: text,
  revenue: num,
  commission: num,
  /** A readable (Greek) text, e.g. `Προς χρέωση`. */
  state: text,
  /** Set once the order was rejected. */
  rejection_reason: maybe(z.union([z.string(), record({})])),
  charged: maybe(z.boolean()),
  charged_at: text,
  refunded_at: text,
  line_items: maybe(z.array(CpsLineItem)),
  /** Present only while the order can be rejected. */
  reject_options: maybe(z.array(CpsRejectOption)),
});
/** An order of the pay-per-sale programme: `GET /merchants/cps/orders/:code`. */
export interface CpsOrder extends Infer<typeof cpsOrderShape> {}
export const CpsOrder: Schema<CpsOrder> = /* @__PURE__ */ answer(cpsOrderShape);
export const CpsOrderEnvelope = /* @__PURE__ */ answer(() => ({ order: CpsOrder }));

export const CpsRejectParams = /* @__PURE__ */ lazy(() => {
  const nonEmpty = nonEmptyString();
  return strict({ name: nonEmpty as z.ZodMiniType<CpsRejectReason, CpsRejectReason>, comment: z.optional(nonEmpty) }).check(
      z.superRefine((reason, context) => {
        if (reason.name === 'other' && reason.comment === undefined) {
          context.issues.push({ code: 'custom', input: reason, path: ['comment'], message: "is required when the reason is 'other'" });
        }
      }),
    );
});
/** `cps.reject`'s reason: `other` requires a `comment`. */
export interface CpsRejectParams extends z.input<typeof CpsRejectParams> {}
