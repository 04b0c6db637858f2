/**
 * Request bodies of the order actions (the merchant API documentation): accept, reject, tracking details.
 * Requests are strict objects: a misspelt key is refused before anything is sent.
 */
import * as z from 'zod/mini';
import { integer, lazy, nonEmptyString } from './common.js';
import type { TrackingCourier } from './order-enums.js';

// Every schema constant is a /* @__PURE__ */ lazy(...) call, so that bundlers drop the ones an
// entry does not use (the webhooks entry needs none of these): esbuild does not carry
// no-side-effects marks across modules.
/* @__NO_SIDE_EFFECTS__ */
function nonEmptyArray<T extends z.ZodMiniType>(item: T, message: string) {
  return z.array(item).check(z.minLength(1, message));
}
/** A strict request object whose unknown-key issue names the keys. */
/* @__NO_SIDE_EFFECTS__ */
function requestObject<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : 'expected an object',
  });
}

/** Body of POST accept. */
export const AcceptParams = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** A pickup location id from `accept_options.pickup_location`. */
    pickup_location: nonEmptyString(),
    /** A pickup window id from `accept_options.pickup_window`. */
    pickup_window: integer(),
    /** Number of parcels; the service defaults to 1. */
    number_of_parcels: z.optional(integer(1)),
  })
);
export interface AcceptParams extends z.output<typeof AcceptParams> {}

export const RejectLineItem = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** Line item id. */
    id: nonEmptyString(),
    /** A reason id from `reject_options.line_item_rejection_reasons`. */
    reason_id: integer(),
    /** Required when the reason has `requires_available_quantity: true`. */
    available_quantity: z.optional(integer(0)),
  })
);
export interface RejectLineItem extends z.output<typeof RejectLineItem> {}

const RejectLineItems = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** The line items to reject, each with a reason. */
    line_items: nonEmptyArray(RejectLineItem, 'expected at least one line item'),
  })
);
const RejectWholeOrder = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** Free-text reason; rejects the whole order. */
    rejection_reason_other: nonEmptyString(),
  })
);

/**
 * Exactly one of two strict shapes, chosen by which key is given, so a mistake is
 * reported at its own path rather than as "matches neither".
 */
/* @__NO_SIDE_EFFECTS__ */
function eitherKey<A extends z.ZodMiniType, B extends z.ZodMiniType>(keyA: string, a: A, keyB: string, b: B) {
  // The value passes as given once the chosen shape accepts it (strict shapes change nothing).
  return z.unknown().check(
    z.superRefine((value, ctx) => {
      const body = typeof value === 'object' && value !== null ? value : undefined;
      const hasA = body !== undefined && keyA in body;
      const hasB = body !== undefined && keyB in body;
      if (hasA === hasB) {
        const message = hasA ? `give ${keyA} or ${keyB}, not both` : `expected an object with ${keyA} or ${keyB}`;
        ctx.addIssue({ code: 'custom', message, input: value });
        return;
      }
      const result = (hasA ? a : b).safeParse(value);
      if (!result.success) {
        for (const issue of result.error.issues) ctx.addIssue({ ...issue, input: value } as Parameters<typeof ctx.addIssue>[0]);
      }
    }),
  ) as unknown as z.ZodMiniType<z.output<A> | z.output<B>, z.input<A> | z.input<B>>;
}

/** Body of POST reject: chosen line items with reasons, or the whole order with a free-text reason; exactly one. */
export const RejectParams = /* @__PURE__ */ lazy(() =>
  eitherKey('line_items', RejectLineItems, 'rejection_reason_other', RejectWholeOrder));
export type RejectParams = z.output<typeof RejectParams>;

export const TrackingDetail = /* @__PURE__ */ lazy(() =>
  requestObject({
    /** The courier of the shipment: `acs`, `dhl`, `geniki_taxydromiki`, `dpd`, `gls`, or another. */
    courier: nonEmptyString() as unknown as z.ZodMiniType<TrackingCourier>,
    /** The shipment's tracking code. */
    tracking_code: nonEmptyString(),
  })
);
export interface TrackingDetail extends z.output<typeof TrackingDetail> {}

/** Body member `tracking_details` of POST tracking_details: one entry per shipment. */
export const TrackingDetails = /* @__PURE__ */ lazy(() =>
  nonEmptyArray(TrackingDetail, 'expected at least one tracking detail'));
export type TrackingDetails = z.output<typeof TrackingDetails>;
