/** Webhook bodies built from the real recordings, for the webhook tests. */
import { readFileSync } from 'node:fs';

export function recordedOrder(name = 'merchants_ecommerce_orders_demo_open.json'): Record<string, unknown> {
  const file = new URL(`../fixtures/recorded/${name}`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { response: { body: { order: Record<string, unknown> } } }).response.body
    .order;
}

export function newOrderBody(order: Record<string, unknown> = recordedOrder()) {
  return { event_type: 'new_order', event_time: '2021-06-24T13:12:29+03:00', order };
}

/** An order_updated body with every documented `changes` member. */
export function orderUpdatedBody(order: Record<string, unknown> = recordedOrder('merchants_ecommerce_orders_demo_accepted.json')) {
  return {
    event_type: 'order_updated',
    event_time: '2021-06-24T14:00:00+03:00',
    order,
    changes: {
      state: { old: 'open', new: 'accepted' },
      expires_at: { old: '2021-06-25T13:12:29+03:00', new: '2021-06-26T13:12:29+03:00' },
      dispatch_until: { old: '2021-06-28T13:12:29+03:00', new: '2021-06-29T13:12:29+03:00' },
      courier: { old: null, new: 'Marketplace Last Mile' },
      courier_voucher: { old: null, new: 'https://example.test/voucher.pdf' },
      courier_tracking_codes: { old: [], new: ['123456789', '987654321'] },
      fbs_delivery_note: { old: null, new: 'ΤΛΑΠΟ0454022' },
      fbs_delivery_note_url: { old: null, new: 'https://example.test/note.pdf' },
      pickup_window: { old: null, new: { from: '2026-04-01T12:00:00+03:00', to: '2026-04-01T14:00:00+03:00' } },
      number_of_parcels: { old: null, new: 2 },
      pickup_address: { old: null, new: 'Αλέκου Παναγούλη 91, Τ.Κ 14234, Νέα Ιωνία' },
    },
  };
}
