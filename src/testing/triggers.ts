/**
 * The sandbox trigger endpoints of the sandbox documentation, served for the service's twelve demo
 * orders only: `POST /merchants/ecommerce/orders/:code/trigger_webhook_request/:kind`
 * answers `{ success: true }` and sends a test delivery through the webhook sender. Like the
 * service's test deliveries, they leave the order itself as it is: the delivery shows the
 * change (a voucher, a later expiry, a cancellation) in its `order` and `changes`.
 */
import type { Route } from './router.js';
import type { Change, MockOrder, MockWebhookEvent } from './types.js';
import { dayLater, voucherUrl } from './order-record.js';
import { fail, success, timestamp } from './wire.js';

/** The demo orders the service sends test deliveries for (`DEMO-RETURN` is not one). */
export const TRIGGER_DEMO_CODES: readonly string[] = [
  'DEMO-OPEN',
  'DEMO-ACCEPTED',
  'DEMO-REJECTED',
  'DEMO-INVOICE',
  'DEMO-INVOICE39A',
  'DEMO-FBS',
  'DEMO-FBS-DISPATCHED',
  'DEMO-STORE-PICKUP',
  'DEMO-FEES',
  'DEMO-REPLACEMENT',
  'DEMO-REPLACED',
  'DEMO-INVOICE-VIES',
];

export function createTriggers(context: {
  baseUrl: () => string;
  now: () => number;
  order: (code: string) => MockOrder | undefined;
  emit: (event: MockWebhookEvent) => void;
}) {
  /** The test delivery of each kind: its event type and the changed members. */
  const changesOf: Record<string, (order: MockOrder) => Record<string, unknown> | undefined> = {
    creation: () => undefined,
    voucher_update: (order) => ({
      courier_voucher: voucherUrl(context.baseUrl(), order.code),
      courier_tracking_codes: ['000000000'],
    }),
    extension: (order) => ({ expires_at: dayLater(order, context.now()) }),
    cancellation: () => ({ state: 'cancelled' }),
  };

  /** Fires the test delivery of `kind` for `code`; false when there is no such order. */
  const trigger = (code: string, kind: string): boolean => {
    const order = context.order(code);
    const patch = changesOf[kind];
    if (!order || !patch) return false;
    const members = patch(order);
    const event: MockWebhookEvent = { event_type: members ? 'order_updated' : 'new_order', event_time: timestamp(context.now()), order };
    if (members) {
      const changes: Record<string, Change> = {};
      for (const [key, value] of Object.entries(members)) {
        changes[key] = { old: order[key] ?? null, new: value };
        order[key] = value;
      }
      event.changes = changes;
    }
    context.emit(event);
    return true;
  };

  const routes: Route[] = Object.keys(changesOf).map((kind) => ({
    method: 'POST',
    pattern: `/merchants/ecommerce/orders/:code/trigger_webhook_request/${kind}`,
    api: 'orders',
    handler: ({ params }) => {
      const code = params.code as string;
      if (!TRIGGER_DEMO_CODES.includes(code)) fail(404, 'order_error', 'Order not found');
      return trigger(code, kind) ? success() : fail(404, 'order_error', 'Order not found');
    },
  }));

  return { routes, trigger };
}
