import type { Order } from '../../schemas/order.js';
import { lastMileCourier, vendorOf } from '../../schemas/vendor.js';

/** Options of `canSetAsReady` / `canSetAsNotReady`. */
export interface EligibilityOptions {
  /**
   * The service's vendor name (the client's `vendor`), for an order built by hand: its courier
   * `<Vendor> Last Mile` and `fulfilled_by_<vendor>` are read as the marketplace's own. Orders
   * from a client or webhook parser with a vendor need no option: they remember it.
   */
  vendor?: string | undefined;
}

/** The answer of `canSetAsReady` / `canSetAsNotReady`: one readable reason per failed prerequisite. */
export interface Eligibility {
  ok: boolean;
  reasons: string[];
}

/** The order fields the checks read; any order the SDK returned (or a webhook event's order) fits. */
export type EligibilityOrder = Pick<
  Order,
  'state' | 'is_ready_for_dispatch' | 'courier' | 'fulfilled_by_marketplace' | 'store_pickup' | 'shipping_cost' | 'fulfillment_mode'
>;

/** The marketplace's own last-mile courier (SLM), the only one set_as_ready applies to. */
export const MARKETPLACE_LAST_MILE = 'Marketplace Last Mile';

const shown = (value: unknown): string => (value === undefined || value === null ? 'unknown' : JSON.stringify(value));

function acceptedReason(order: EligibilityOrder): string | undefined {
  return order.state === 'accepted' ? undefined : `order state is ${shown(order.state)}, not "accepted"`;
}

/** The order's vendor: the option, or the one it came in with. */
function vendorFor(order: EligibilityOrder, options: EligibilityOptions | undefined): string | undefined {
  const vendor = options?.vendor ?? (typeof order === 'object' && order !== null ? vendorOf(order) : undefined);
  return vendor === undefined || vendor.toLowerCase() === 'marketplace' ? undefined : vendor.toLowerCase();
}

function courierReason(order: EligibilityOrder, vendor: string | undefined): string | undefined {
  const own = vendor === undefined ? MARKETPLACE_LAST_MILE : lastMileCourier(vendor);
  return order.courier === own || order.courier === MARKETPLACE_LAST_MILE
    ? undefined
    : `courier is ${shown(order.courier)}, not the marketplace's own last-mile courier ("${own}")`;
}

/** FBS: `fulfilled_by_marketplace`, or the vendor's `fulfilled_by_<vendor>`. */
function fulfilledByMarketplace(order: EligibilityOrder, vendor: string | undefined): boolean {
  if (order.fulfilled_by_marketplace === true) return true;
  return vendor !== undefined && (order as Record<string, unknown>)[`fulfilled_by_${vendor}`] === true;
}

/**
 * Whether `orders.setAsReady` can succeed for this order: the Orders API documentation's rule 3.
 *
 * Prerequisites, each checked on the order as the SDK returned it:
 * - `state` is `accepted`;
 * - not already ready: `is_ready_for_dispatch` is not true;
 * - shipped by the marketplace's own last-mile courier: `courier` is `"Marketplace Last Mile"`, or
 *   `"<Vendor> Last Mile"` for an order read with a vendor (or given `{ vendor }`);
 * - a core marketplace order:
 *   - not fulfilled by the marketplace warehouse (FBS): `fulfilled_by_marketplace` is not true;
 *   - not a store pickup: `store_pickup` is not true;
 *   - not fulfilled by the merchant (FBM): the order carries no field that says FBM, so the SDK
 *     infers it from `shipping_cost` being a number (documented as present "only for FBM orders");
 *     an FBM order also ships with a courier other than the marketplace's, reported above;
 *   - `fulfillment_mode`, when present (some payloads only), is `core`.
 *
 * An absent field counts as its default (false); an absent `state` or `courier` fails its check.
 *
 * The 2026-03-30 programme rule: shops enrolled in the Set as Ready programme
 * (`set_as_ready_required: true` on their orders) must call set_as_ready, because
 * downloading the courier voucher no longer marks the order ready; for shops not
 * enrolled (`false`) a voucher download still marks it ready. That flag says whether
 * the call is required, not whether it is allowed, so it is not a prerequisite here.
 */
export function canSetAsReady(order: EligibilityOrder, options?: EligibilityOptions): Eligibility {
  const vendor = vendorFor(order, options);
  const reasons: string[] = [];
  const add = (reason: string | undefined) => {
    if (reason) reasons.push(reason);
  };
  add(acceptedReason(order));
  if (order.is_ready_for_dispatch === true) reasons.push('order is already marked ready for dispatch');
  add(courierReason(order, vendor));
  if (fulfilledByMarketplace(order, vendor)) {
    reasons.push('order is fulfilled by the marketplace warehouse (FBS: fulfilled_by_marketplace is true)');
  }
  if (order.store_pickup === true) reasons.push('order is a store pickup (store_pickup is true)');
  if (typeof order.shipping_cost === 'number') {
    reasons.push('order is fulfilled by the merchant (FBM: shipping_cost is present)');
  }
  if (order.fulfillment_mode !== undefined && order.fulfillment_mode !== null && order.fulfillment_mode !== 'core') {
    reasons.push(`fulfillment_mode is ${shown(order.fulfillment_mode)}, not "core"`);
  }
  return { ok: reasons.length === 0, reasons };
}

/**
 * Whether `orders.setAsNotReady` can succeed for this order: the Orders API documentation's rule 4.
 *
 * Prerequisites: `state` is `accepted`; it was marked ready (`is_ready_for_dispatch` is
 * true); shipped by the marketplace's own last-mile courier (`courier` is
 * `"Marketplace Last Mile"`); not yet picked up. The order has no pickup field: a
 * picked-up order has moved on from `accepted` (to `dispatched`), so the state check
 * covers it, as far as the order can tell. Rule 4 names no core-order condition, so
 * none is checked (an order can only be ready if it passed `canSetAsReady`, or, for a
 * shop outside the Set as Ready programme, through a voucher download).
 */
export function canSetAsNotReady(order: EligibilityOrder, options?: EligibilityOptions): Eligibility {
  const reasons: string[] = [];
  const accepted = acceptedReason(order);
  if (accepted) reasons.push(accepted);
  if (order.is_ready_for_dispatch !== true) reasons.push('order is not marked ready for dispatch');
  const courier = courierReason(order, vendorFor(order, options));
  if (courier) reasons.push(courier);
  return { ok: reasons.length === 0, reasons };
}
