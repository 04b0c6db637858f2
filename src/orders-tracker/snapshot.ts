/**
 * What the tracker keeps of an order (its code, and the members an `order_updated` event's
 * `changes` name, deadlines among them), and the changes between two readings, written as the
 * service writes them: `{ member: { old, new } }`.
 */
import type { Order, OrderState } from '../schemas/order.js';
import type { OrderChanges } from '../schemas/webhook.js';

/** The members the service's `changes` name (the order webhook page). */
export const CHANGE_MEMBERS = [
  'state',
  'expires_at',
  'dispatch_until',
  'courier',
  'courier_voucher',
  'courier_tracking_codes',
  'fbs_delivery_note',
  'fbs_delivery_note_url',
  'pickup_window',
  'number_of_parcels',
  'pickup_address',
  'is_ready_for_dispatch',
] as const satisfies readonly (keyof Order & keyof OrderChanges)[];
type ChangeMember = (typeof CHANGE_MEMBERS)[number];

/** An order as the tracker holds it: its code, and the members `changes` name (state and deadlines among them). */
export type TrackedOrderFields = Pick<Order, 'code'> & Pick<Order, ChangeMember>;

/** The states in which the merchant still has something to do: open (accept or reject by `expires_at`), accepted (dispatch by `dispatch_until`). */
const FOLLOWED: readonly string[] = ['open', 'accepted'];

/** Whether the tracker follows an order in this state (open or accepted); any other state is final for it. */
export const isFollowed = (state: OrderState | null | undefined): boolean => FOLLOWED.includes(state ?? '');

/** Where a state stands in an order's life as the tracker sees it: open, then accepted, then any other. */
export const stage = (state: OrderState | null | undefined): number => {
  const index = FOLLOWED.indexOf(state ?? '');
  return index === -1 ? FOLLOWED.length : index;
};

export function snapshotOf(order: Order): TrackedOrderFields {
  const fields: TrackedOrderFields = { code: order.code };
  for (const member of CHANGE_MEMBERS) {
    const value = order[member];
    if (value !== undefined) (fields as Record<string, unknown>)[member] = value;
  }
  return fields;
}

/** The members that differ from `before` to `after`, as `{ old, new }`; undefined when none does. */
export function changesBetween(before: TrackedOrderFields, after: TrackedOrderFields): OrderChanges | undefined {
  let changes: Record<string, { old: unknown; new: unknown }> | undefined;
  for (const member of CHANGE_MEMBERS) {
    const old = before[member] ?? null;
    const now = after[member] ?? null;
    if (canonical(old) === canonical(now)) continue;
    changes ??= {};
    changes[member] = { old, new: now };
  }
  return changes as OrderChanges | undefined;
}

/** JSON with object members in name order: two readings of one value compare equal whatever their order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    typeof member === 'object' && member !== null && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}
