/**
 * Returns API wire shapes (the service since July 2026): the return object (also the `return`
 * of the returns webhook), the review's options and request, and the returns webhook events.
 *
 * Answers are tolerant: only `return_code` is required, every other field may be absent or
 * null, objects keep unknown fields, enums accept values added later. Time stamps are UTC
 * with `Z` (`2026-08-18T09:12:03Z`), unlike orders' Athens offsets; they stay strings.
 * The review request is a strict object: a misspelt key is refused before anything is sent.
 */
import * as z from 'zod/mini';
import { answer, change, type Infer, lazy, maybe, nonEmptyString, openEnum, record, type Schema } from './common.js';

/** The states a return passes through. */
export const RETURN_STATES = [
  'pending_merchant_review',
  'returning',
  'pending_physical_review',
  'returned',
  'rejected',
  'expired',
  'cancelled',
] as const;
/** A return's state; others may come. */
export type ReturnState = (typeof RETURN_STATES)[number] | (string & {});

/** Why the customer sends an item back (`missing_part` appears in one version of the service's documentation). */
const RETURN_REASONS = [
  'faulty',
  'wrong_product',
  'withdrawal',
  'damaged_product',
  'expired_product',
  'authenticity_doubt',
  'delivery_issues',
  'other',
  'missing_part',
] as const;
/** A return line item's reason; others may come. */
export type ReturnReason = (typeof RETURN_REASONS)[number] | (string & {});

/**
 * The review options the service's documentation shows. `incorrect_marketplace_content` is
 * written with the vendor's name by the real service (`incorrect_acme_content`): send the
 * `option` exactly as the return lists it.
 */
const REVIEW_OPTION_NAMES = [
  'approve',
  'send_missing_part',
  'contact_manufacturer',
  'resolved_via_customer_communication',
  'usability_suggestions',
  'not_faulty',
  'part_not_included',
  'incorrect_marketplace_content',
  'out_of_policy_withdrawal',
] as const;
/** A review option; others may come (and the vendor's spelling of `incorrect_marketplace_content`). */
export type ReviewOptionName = (typeof REVIEW_OPTION_NAMES)[number] | (string & {});

/** The longest review `comment` the service takes, in characters. */
const MAX_REVIEW_COMMENT_LENGTH = 1000;

// ---------------------------------------------------------------------------
// Answer shapes
// ---------------------------------------------------------------------------

const returningAddressShape = () => ({
  street_name: maybe(z.string()),
  street_number: maybe(z.string()),
  zip: maybe(z.string()),
  city: maybe(z.string()),
  region: maybe(z.string()),
  /** e.g. `GR`. */
  country_code: maybe(z.string()),
});
/** Where the merchant receives the returned parcel (no `floor` here, unlike an order's address). */
export interface ReturningAddress extends Infer<typeof returningAddressShape> {}
export const ReturningAddress: Schema<ReturningAddress> = /* @__PURE__ */ answer(returningAddressShape);

const returnLineItemShape = () => ({
  /** The returned order line item's `id`. */
  id: maybe(z.string()),
  /** The product's EAN (absent from payloads of before late August 2026). */
  ean: maybe(z.string()),
  product_name: maybe(z.string()),
  /** Units the customer sends back. */
  returning_quantity: maybe(z.number()),
  /**
   * `faulty`, `wrong_product`, `withdrawal`, `damaged_product`, `expired_product`,
   * `authenticity_doubt`, `delivery_issues`, `other`; others may come. Not the same list as an
   * order line item's `return_reason`.
   */
  return_reason: maybe(openEnum<readonly (typeof RETURN_REASONS)[number][]>([])),
  /** The customer's free text. */
  user_comment: maybe(z.string()),
  /** Absolute URLs of the customer's photos. */
  user_photos: maybe(z.array(z.string())),
});
/** One item of a return. */
export interface ReturnLineItem extends Infer<typeof returnLineItemShape> {}
export const ReturnLineItem: Schema<ReturnLineItem> = /* @__PURE__ */ answer(returnLineItemShape);

const reviewOptionShape = () => ({
  /** Send it exactly as listed, as `review`'s `option`. */
  option: maybe(openEnum<readonly (typeof REVIEW_OPTION_NAMES)[number][]>([])),
  /** Reject options only: a non-blank `comment` must accompany this option. */
  comment_required: maybe(z.boolean()),
  /** Reject options only: despite the name, a `proposed_part_url` *may* be sent with this option. */
  supports_proposed_part_url_required: maybe(z.boolean()),
});
/** One decision the merchant may take on a return awaiting review. */
export interface ReviewOption extends Infer<typeof reviewOptionShape> {}
export const ReviewOption: Schema<ReviewOption> = /* @__PURE__ */ answer(reviewOptionShape);

const returnShape = () => ({
  /** The return's code, e.g. `R-111111-1111111` (sandbox: `DEMO-RETURN`). The one required field. */
  return_code: z.string(),
  /** One of {@link RETURN_STATES}; other values pass through. */
  state: maybe(openEnum<readonly (typeof RETURN_STATES)[number][]>([])),
  /** The order the items came from. */
  order_code: maybe(z.string()),
  /** `YYYY-MM-DDTHH:MM:SSZ`, UTC. */
  created_at: maybe(z.string()),
  /** Tracking ids of the current return shipments; omitted when not applicable. */
  courier_tracking_ids: maybe(z.array(z.string())),
  /** The courier's display name, e.g. `ACS`; omitted when not applicable. */
  courier: maybe(z.string()),
  /** Omitted while the return has no shipment. */
  returning_address: maybe(ReturningAddress),
  /** The items sent back: see {@link ReturnLineItem}. */
  return_line_items: maybe(z.array(ReturnLineItem)),
  /** Only while the state is `pending_merchant_review`: every decision valid now (see `returns.review`). */
  review_options: maybe(z.array(ReviewOption)),
});
/** A return, as `returns.get` resolves it and as returns webhook events carry it. */
export interface Return extends Infer<typeof returnShape> {}
export const Return: Schema<Return> = /* @__PURE__ */ answer(returnShape);

/** The answer of GET return: `{ return }` (the root key is required). */
export const ReturnEnvelope = /* @__PURE__ */ lazy(() => record({ return: Return }));

const returnChangesShape = () => ({
  /** e.g. `{ old: 'pending_merchant_review', new: 'returning' }`. */
  state: maybe(change(openEnum<readonly (typeof RETURN_STATES)[number][]>([]))),
  /** `old` is null when courier data first appears. */
  courier: maybe(change(z.string())),
  /** `old` is null when the address first appears. */
  returning_address: maybe(change(ReturningAddress)),
  /** Sent only when `new` has a value. */
  courier_tracking_ids: maybe(change(z.array(z.string()))),
});
/** What changed in a `merchant_return_updated` event, key by key; each member is `{ old, new }` and optional. */
export interface ReturnChanges extends Infer<typeof returnChangesShape> {}
export const ReturnChanges: Schema<ReturnChanges> = /* @__PURE__ */ answer(returnChangesShape);

/** The event types of the returns webhook. */
const RETURN_EVENT_TYPES = ['merchant_return_created', 'merchant_return_updated'] as const;

const returnEventShape = () => ({
  /** `merchant_return_created` once, then `merchant_return_updated` on a state, courier or tracking change. */
  event_type: z.literal(RETURN_EVENT_TYPES),
  /** `YYYY-MM-DDTHH:MM:SSZ`, UTC. */
  event_time: maybe(z.string()),
  /** The return as it is now: see {@link Return}. */
  return: Return,
  /** Updates only: the keys that changed. */
  changes: maybe(ReturnChanges),
});
/** A delivery of the returns webhook (registered in the merchant panel apart from the order webhook). */
export interface ReturnEvent extends Infer<typeof returnEventShape> {
  /** Return events carry no order (`event.return.order_code` names it), so `event.order?.code` reads on every event. */
  order?: undefined;
}
export const ReturnEvent: Schema<ReturnEvent> = /* @__PURE__ */ answer(returnEventShape);

// ---------------------------------------------------------------------------
// Request shape (strict)
// ---------------------------------------------------------------------------

/** Characters as the service counts them (code points, not UTF-16 units). */
const characters = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

export const ReviewParams = /* @__PURE__ */ lazy(() =>
  z.strictObject({
      /** One of the return's current `review_options[].option`, exactly as listed. */
      option: nonEmptyString() as unknown as z.ZodMiniType<ReviewOptionName, ReviewOptionName>,
      /** Required (non-blank) when the option has `comment_required: true`; at most 1000 characters. */
      comment: z.optional(
        z.string({ error: 'expected a string' }).check(
          z.refine((text) => characters(text) <= MAX_REVIEW_COMMENT_LENGTH, `must be at most ${MAX_REVIEW_COMMENT_LENGTH} characters long`),
        ),
      ),
      /** An absolute http(s) URL; the service uses it only when the option has `supports_proposed_part_url_required: true`. */
      proposed_part_url: z.optional(z.string({ error: 'expected a string' }).check(z.refine(isWebUrl, 'expected an absolute http(s) URL'))),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field: ${issue.keys.join(', ')}` : 'expected an object') },
  ),
);
/** `returns.review`'s decision. */
export interface ReviewParams extends z.output<typeof ReviewParams> {}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
