/**
 * The mock's orders as they come: the sandbox DEMO-* orders as recorded (re-dated to the mock's
 * clock), and the orders the kit creates, complete with the service's defaults (customer, line items,
 * accept and reject options, an earlier return in a seeded quarter of them).
 */
import { DEMO_FEES_RAW_BODY, DEMO_ORDERS } from './fixtures.js';
import { fulfilmentOf, HOUR, MARKETPLACE_COURIER, type OrdersContext, type OrderStore } from './order-record.js';
import type { MockLineItem, MockOrder, OrderOverrides } from './types.js';
import type { OrderReturn } from '../schemas/order.js';
import { cents, copy, timestamp } from './wire.js';
import { onVendorHosts } from './vendor-hosts.js';

const REJECTION_REASONS = [
  { id: 1, label: 'Out of stock at the shop or the supplier', requires_available_quantity: false },
  { id: 2, label: 'Wrong price listed', requires_available_quantity: false },
  { id: 4, label: 'Limited quantity available', requires_available_quantity: true },
  { id: 5, label: 'Product discontinued', requires_available_quantity: false },
];

/** A line item's size, as the service sends it (the order documentation's history; labels are Greek words). */
const SIZE = { label: 'Νούμερο', value: '42', shop_value: 'EU 42', shop_variation_uid: 'VAR-42', ean: '5201234567890' };

const PRODUCT_NAMES = [
  'Smartphone 128GB Black',
  'Wireless Earbuds Pro',
  'Espresso Machine 15 bar',
  'Running Shoes Size 42',
  'LED Desk Lamp',
  'Backpack 30L',
];

export function createOrderFixtures(context: OrdersContext, store: OrderStore) {
  const { random, now } = context;
  const { records, ownCourier, view, emit, windowTimes, makeRecord } = store;
  let codeCounter = 1_000_000;

  const seedDemoOrders = () => {
    const t = now();
    for (const recorded of DEMO_ORDERS) {
      const order = onVendorHosts(copy(recorded), context.vendor);
      // Recorded in 2021: re-dated so the sandbox orders are not already past their expiry.
      if (order.created_at) order.created_at = timestamp(t - HOUR);
      if (order.expires_at) order.expires_at = timestamp(t + 24 * HOUR);
      if (order.dispatch_until) order.dispatch_until = timestamp(t + 72 * HOUR);
      records.set(order.code, makeRecord(order));
    }
    // The documentation's recording has stray commas; the service answers valid JSON.
    records.set('DEMO-FEES', makeRecord(onVendorHosts(JSON.parse(DEMO_FEES_RAW_BODY.replace(/,(\s*[}\]])/g, '$1')).order as MockOrder, context.vendor)));
    for (const record of records.values()) if (record.order.code.startsWith('DEMO-')) record.sandbox = true;
  };

  const nextCode = () => {
    const day = timestamp(now()).slice(2, 10).replaceAll('-', '');
    let code: string;
    do code = `${day}-${++codeCounter}`;
    while (records.has(code));
    return code;
  };

  const lineItem = (overrides: Partial<MockLineItem> = {}): MockLineItem => {
    const quantity = overrides.quantity ?? 1;
    const unitPrice = overrides.unit_price ?? random.int(5, 300) + 0.99;
    const total = overrides.total_price ?? cents(unitPrice * quantity);
    return {
      id: random.id(10),
      shop_uid: String(random.int(1, 999_999)).padStart(6, '0'),
      product_name: random.pick(PRODUCT_NAMES),
      quantity,
      unit_price: unitPrice,
      total_price: total,
      price_includes_vat: true,
      island_vat_discount_applied: false,
      ean: `520${String(random.int(0, 9_999_999_999)).padStart(10, '0')}`,
      serial_numbers: null,
      commission: Math.round(total * 10) / 100,
      commission_rate: 10,
      tags: [],
      ...overrides,
    };
  };

  /** A return of some of the order's items, as the service lists them (the order documentation's history). */
  const newReturn = (parcels: number): OrderReturn => ({
    return_uuid: random.id(10),
    tracking_ids: Array.from({ length: parcels }, () => random.id(13).toUpperCase()),
  });

  const create = (overrides: OrderOverrides = {}): MockOrder => {
    const t = now();
    const { customer, line_items, ...rest } = overrides;
    // The second default line item is a sized variation, as clothing orders carry (spec/4 section 2).
    const items = (line_items ?? [{}, { size: SIZE }]).map(lineItem);
    // An earlier return of the customer's in a seeded quarter of orders (spec/4 section 2).
    const returned = random.next() < 0.25;
    const invoice = rest.invoice ?? false;
    const windows = windowTimes(3);
    const order: MockOrder = {
      code: nextCode(),
      state: 'open',
      customer: {
        id: `user${random.int(1000, 99_999)}`,
        first_name: 'Maria',
        last_name: 'Papadopoulou',
        marketplace_plus_user: false,
        ...customer,
        address: {
          street_name: 'Ermou',
          street_number: '10',
          // Documented since 2026 between street_number and zip; '' for a collection point.
          floor: customer?.address?.pickup_from_collection_point === true ? '' : '1ος όροφος',
          zip: '10563',
          city: 'Athens',
          region: 'Attica',
          country_code: 'GR',
          pickup_from_collection_point: false,
          comments: '',
          ...customer?.address,
        },
      },
      invoice,
      uploaded_invoice_file: null,
      ...(invoice
        ? {
            invoice_details: {
              company: 'Acme IKE',
              profession: 'Retail trade',
              vat_number: '999999999',
              doy: 'A Athens',
              address: { street_name: 'Stadiou', street_number: '5', zip: '10562', city: 'Athens', region: 'Attica' },
              vat_exclusion_requested: false,
            },
          }
        : {}),
      invoice_document: invoice ? 'invoice' : 'receipt',
      comments: '',
      courier: MARKETPLACE_COURIER,
      courier_voucher: null,
      courier_tracking_codes: [],
      line_items: items,
      created_at: timestamp(t),
      expires_at: timestamp(t + 24 * HOUR),
      dispatch_until: timestamp(t + 72 * HOUR),
      express: false,
      gift_wrap: false,
      accept_options: {
        number_of_parcels: [1, 2, 3],
        pickup_location: [
          { id: 'LOC-1', label: 'Ermou 10, 10563 Athens, Attica' },
          { id: 'LOC-2', label: 'Stadiou 1, 10562 Athens, Attica' },
        ],
        pickup_window: windows.map((w, i) => ({ id: i + 1, label: `${w.from.slice(11, 16)} - ${w.to.slice(11, 16)}, ${w.from.slice(0, 10)}` })),
      },
      reject_options: { line_item_rejection_reasons: copy(REJECTION_REASONS) },
      fulfilled_by_marketplace: false,
      fbs_delivery_note: null,
      fbs_delivery_note_url: null,
      store_pickup: false,
      commission: cents(items.reduce((sum, item) => sum + (item.commission ?? 0), 0)),
      fees: {},
      pickup_window: null,
      pickup_address: null,
      set_as_ready_required: true,
      is_ready_for_dispatch: false,
      number_of_parcels: null,
      // GIFT-WRAP: "gift wrap requested". A string since 2026-04-24 (spec/4 section 2), as the service sends it.
      custom: rest.gift_wrap === true ? '[GIFT-WRAP]' : '',
      // Omitted when there is none, as the service does.
      ...(returned ? { returns: [newReturn(random.int(1, 2))] } : {}),
      payment_method: 'card',
      paid_by_user: true,
      ...rest,
    };
    // The vendor's spelling of the own courier is the kit's `Marketplace Last Mile`.
    if (order.courier === ownCourier) order.courier = MARKETPLACE_COURIER;
    const fbm = fulfilmentOf(order) === 'fbm' || typeof order.shipping_cost === 'number';
    if (order.shipping_cost === undefined && fbm) order.shipping_cost = 3.5;
    // Document 1, Customer: phone and mobile "only for FBM orders or orders with an invoice".
    if ((fbm || invoice === true) && order.customer) {
      order.customer = { phone: '2101234567', mobile: '6901234567', ...order.customer };
    }
    if (records.has(order.code)) throw new Error(`mock.orders.create: order ${order.code} already exists`);
    const record = makeRecord(order);
    records.set(order.code, record);
    emit(record, 'new_order');
    return view(record);
  };

  return { create, newReturn, seedDemoOrders };
}
