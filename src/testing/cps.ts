/**
 * The CPS orders API of the CPS API documentation: pay-per-sale orders with `reject_options` while
 * they can be rejected. Seeded with the recording's order `1234567`; `mock.cps.create` adds more.
 */
import type { Random } from './random.js';
import type { Route, RouteContext } from './router.js';
import { cents, copy, fail, json, readJsonBody, success, timestamp } from './wire.js';

export interface MockCpsLineItem {
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  commission_rate: number;
  commission: number;
}

export interface MockCpsOrder {
  code: string;
  date: string;
  revenue: number;
  commission: number;
  state: string;
  rejection_reason: string | null;
  charged: boolean;
  charged_at: string | null;
  refunded_at: string | null;
  line_items: MockCpsLineItem[];
  reject_options?: { name: string; description: string; requires_additional_comment: boolean }[] | undefined;
}

/** The reasons and (Greek) descriptions of the recording. */
const REJECT_OPTIONS = [
  ['user_cancel', 'Ακύρωση παραγγελίας από τον πελάτη'],
  ['user_return', 'Υπαναχώρηση πελάτη'],
  ['undelivered', 'Δεν κατέστη δυνατή η παράδοση της παραγγελίας'],
  ['unpaid', 'Δεν ολοκληρώθηκε η πληρωμή'],
  ['unavailable_items', 'Έλλειψη διαθεσιμότητας'],
  ['shop_staff_order', 'Παραγγελία από προσωπικό του καταστήματος'],
  ['invoice_39a', 'Παραγγελία με τιμολόγιο 39Α'],
  ['reduced_vat', 'Παραγγελία με καθεστώς μειωμένου Φ.Π.Α'],
  ['other', 'Άλλο'],
].map(([name, description]) => ({ name: name as string, description: description as string, requires_additional_comment: name === 'other' }));

/** `state` texts: to be charged, rejected. */
const TO_BE_CHARGED = 'Προς χρέωση';
const REJECTED = 'Απορρίφθηκε';


export function createCps(context: { now: () => number; random: Random }) {
  const orders = new Map<string, MockCpsOrder>();

  const view = (order: MockCpsOrder): MockCpsOrder => {
    const shown = copy(order);
    if (shown.rejection_reason === null) {
      // As recorded: an order not rejected carries no rejection_reason member at all.
      delete (shown as Partial<MockCpsOrder>).rejection_reason;
      shown.reject_options = copy(REJECT_OPTIONS);
    }
    return shown;
  };

  const create = (overrides: Partial<MockCpsOrder> = {}): MockCpsOrder => {
    const items = overrides.line_items ?? [
      { product_id: `SKU-${context.random.int(1000, 9999)}`, name: 'Leather belt', quantity: 1, unit_price: 46.61, commission_rate: 0.1, commission: 4.66 },
    ];
    let code = overrides.code;
    while (code === undefined || (overrides.code === undefined && orders.has(code))) code = String(context.random.int(1_000_000, 9_999_999));
    if (orders.has(code)) throw new Error(`mock.cps.create: order ${code} already exists`);
    const order: MockCpsOrder = {
      code,
      date: timestamp(context.now()),
      revenue: cents(items.reduce((sum, item) => sum + item.unit_price * item.quantity, 0)),
      commission: cents(items.reduce((sum, item) => sum + item.commission, 0)),
      state: TO_BE_CHARGED,
      rejection_reason: null,
      charged: false,
      charged_at: null,
      refunded_at: null,
      ...overrides,
      line_items: items,
    };
    delete order.reject_options;
    orders.set(code, order);
    return view(order);
  };

  // The recording's order.
  create({
    code: '1234567',
    date: '2019-11-28T13:24:37+02:00',
    revenue: 46.61,
    commission: 4.66,
    line_items: [
      {
        product_id: 'BM7300LEA35-BLA',
        name: 'GUESS ACCESSORIES-REVERSIBLE AND ADJUSTABLE BELT ΖΩΝΗ ΑΝΔΡΙΚΟ BM7300LEA35, ΜΑΥΡΟ, ΑΝΔΡΑΣ',
        quantity: 1,
        unit_price: 46.61,
        commission_rate: 0.1,
        commission: 4.66,
      },
    ],
  });

  const find = (code: string): MockCpsOrder => orders.get(code) ?? fail(404, 'order_error', 'Order not found');

  const reject = async ({ request, params }: RouteContext): Promise<Response> => {
    const order = find(params.code as string);
    const body = await readJsonBody(request);
    const reason = body.reason as Record<string, unknown> | undefined;
    if (typeof reason !== 'object' || reason === null || typeof reason.name !== 'string' || reason.name === '') {
      fail(400, 'invalid_format', "Missing required field 'reason.name'");
    }
    const { name, comment } = reason as { name: string; comment?: unknown };
    if (comment !== undefined && (typeof comment !== 'string' || comment.trim() === '')) fail(400, 'invalid_format', "Field 'reason.comment' has invalid type");
    if (order.rejection_reason !== null) fail(422, 'order_status', 'Order already rejected.');
    const option = REJECT_OPTIONS.find((o) => o.name === name);
    if (!option) fail(422, 'invalid_option', `Rejection reason '${name}' is not one of the order's reject_options.`);
    if (option?.requires_additional_comment && comment === undefined) fail(422, 'invalid_option', `Rejection reason '${name}' requires a comment.`);
    order.rejection_reason = typeof comment === 'string' ? `${option?.description}: ${comment}` : (option?.description ?? name);
    order.state = REJECTED;
    return success();
  };

  const routes: Route[] = [
    { method: 'GET', pattern: '/merchants/cps/orders/:code', api: 'cps', handler: ({ params }) => json(200, { order: view(find(params.code as string)) }) },
    { method: 'POST', pattern: '/merchants/cps/orders/:code/reject', api: 'cps', handler: reject },
  ];

  const kit = {
    /** Adds a CPS order that can still be rejected. */
    create,
    /** A copy of the order as GET answers it. */
    get(code: string): MockCpsOrder | undefined {
      const order = orders.get(code);
      return order && view(order);
    },
    list(): MockCpsOrder[] {
      return [...orders.values()].map(view);
    },
  };
  return { routes, kit };
}
