/**
 * Order webhook payloads (the webhook documentation). The `order` is the same shape that
 * GET order returns. Tolerant like every answer: only `event_type` and `order` (with its
 * `code`) are required in the two known events.
 */
import * as z from 'zod/mini';
import { answer, change, type Infer, lazy, maybe, openEnum, type Schema } from './common.js';
import { ORDER_STATES, Order, PickupWindow } from './order.js';
import type { ReturnEvent } from './returns.js';

const orderChangesShape = () => ({
  /** Order state, e.g. `{ old: 'open', new: 'cancelled' }`. */
  state: maybe(change(openEnum(ORDER_STATES))),
  /** Expiry time (the order was extended). */
  expires_at: maybe(change(z.string())),
  /** Latest dispatch time (the order was extended). */
  dispatch_until: maybe(change(z.string())),
  /** Serving courier. */
  courier: maybe(change(z.string())),
  /** Voucher URL (the courier voucher was created). */
  courier_voucher: maybe(change(z.string())),
  courier_tracking_codes: maybe(change(z.array(z.string()))),
  /** Warehouse delivery note (FBS orders). */
  fbs_delivery_note: maybe(change(z.string())),
  /** PDF URL of the warehouse delivery note. */
  fbs_delivery_note_url: maybe(change(z.string())),
  /** Selected pickup window `{ from, to }`; sent when the order is accepted. */
  pickup_window: maybe(change(PickupWindow)),
  /** Sent when the order is accepted. */
  number_of_parcels: maybe(change(z.number())),
  /** Pickup location address; sent when the order is accepted. */
  pickup_address: maybe(change(z.string())),
  /** Marked ready for dispatch (`{ old: false, new: true }`) or unmarked. */
  is_ready_for_dispatch: maybe(change(z.boolean())),
});
/** What changed, member by member; each member is `{ old, new }` and optional. */
export interface OrderChanges extends Infer<typeof orderChangesShape> {}
export const OrderChanges: Schema<OrderChanges> = /* @__PURE__ */ answer(orderChangesShape);

const newOrderEventShape = () => ({
  event_type: z.literal('new_order'),
  /** Event creation time, `YYYY-MM-DDTHH:MM:SS+HH:MM`. */
  event_time: maybe(z.string()),
  order: Order,
  /** Old and new values; not expected on a new order, kept if sent. */
  changes: maybe(OrderChanges),
});
/** A new order was placed. */
export interface NewOrderEvent extends Infer<typeof newOrderEventShape> {}
export const NewOrderEvent: Schema<NewOrderEvent> = /* @__PURE__ */ answer(newOrderEventShape);

const orderUpdatedEventShape = () => ({
  event_type: z.literal('order_updated'),
  /** Event creation time, `YYYY-MM-DDTHH:MM:SS+HH:MM`. */
  event_time: maybe(z.string()),
  order: Order,
  /** Old and new values of what changed. */
  changes: maybe(OrderChanges),
});
/**
 * An order changed: cancelled, extended, voucher created, or (from 2021-07-05) moved
 * to accepted, rejected, expired, dispatched, cancelled, partially_returned or returned.
 */
export interface OrderUpdatedEvent extends Infer<typeof orderUpdatedEventShape> {}
export const OrderUpdatedEvent: Schema<OrderUpdatedEvent> = /* @__PURE__ */ answer(orderUpdatedEventShape);

/**
 * An event type this SDK does not know yet: kept rather than thrown away. `raw` is the
 * whole body; `order` is set when the body carries a valid order, `event_time` when it
 * carries a string one.
 */
export const UnknownWebhookEvent = /* @__PURE__ */ lazy(() =>
  z.object({
  event_type: z.string(),
  event_time: z.optional(z.string()),
  order: z.optional(Order),
  raw: z.record(z.string(), z.unknown()),
}));
export interface UnknownWebhookEvent extends z.output<typeof UnknownWebhookEvent> {}

/**
 * Every webhook body, discriminated on `event_type`. TypeScript cannot take the known
 * names out of the unknown member's `string`, so pick unknown events out first:
 * `if ('raw' in event) ...; else switch (event.event_type) ...` narrows fully. Return events
 * (`merchant_return_created` / `merchant_return_updated`) come from the returns webhook: see `isReturnEvent`.
 */
export type WebhookEvent = NewOrderEvent | OrderUpdatedEvent | ReturnEvent | UnknownWebhookEvent;
