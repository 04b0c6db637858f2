/**
 * CPS orders API wire shapes, spec/4 section 7: orders of the pay-per-sale programme,
 * read and rejected with their own token. Answers tolerant, the rejection strict.
 */
import * as z from 'zod/mini';
import { maybe, openEnum, record } from './common.js';

const text = maybe(z.string());
const num = maybe(z.number());

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

export const CpsLineItem = record({
  /** The shop's product id. */
  product_id: maybe(z.union([z.string(), z.number()])),
  name: text,
  quantity: num,
  unit_price: num,
  /** The commission's share (the spec says 0–100; the recordings show fractions such as 0.1). */
  commission_rate: num,
  commission: num,
});
export type CpsLineItem = z.infer<typeof CpsLineItem>;

/** One reason the order may be rejected with. */
export const CpsRejectOption = record({
  name: openEnum(CPS_REJECT_REASONS),
  /** A readable (Greek) text. */
  description: text,
  /** True for `other`: the rejection needs a `comment`. */
  requires_additional_comment: maybe(z.boolean()),
});
export type CpsRejectOption = z.infer<typeof CpsRejectOption>;

export const CpsOrder = record({
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
export type CpsOrder = z.infer<typeof CpsOrder>;

export const CpsOrderEnvelope = record({ order: CpsOrder });

const nonEmpty = z.string({ error: 'expected a non-empty string' }).check(
  z.refine((value) => value.trim().length > 0, 'expected a non-empty string'),
);

/** `cps.reject`'s reason: `other` requires a `comment`. */
export const CpsRejectParams = z
  .strictObject(
    { name: nonEmpty as z.ZodMiniType<CpsRejectReason, CpsRejectReason>, comment: z.optional(nonEmpty) },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field: ${issue.keys.join(', ')}` : 'expected an object') },
  )
  .check(
    z.superRefine((reason, context) => {
      if (reason.name === 'other' && reason.comment === undefined) {
        context.issues.push({ code: 'custom', input: reason, path: ['comment'], message: "is required when the reason is 'other'" });
      }
    }),
  );
export type CpsRejectParams = z.input<typeof CpsRejectParams>;
