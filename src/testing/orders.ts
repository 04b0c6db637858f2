/**
 * The Orders API of the merchant API documentation: an order store, the state machine with every rule and error body,
 * and the kit's own actions (cancel, extend, voucher, expiry, dispatch, returns, resend) that move
 * an order the way the marketplace would, each emitting the webhook event the documentation names.
 *
 * Codes and messages the documentation leaves out ("not shown") are chosen here and listed in the
 * kit's documentation (/tmp/mock-api.md, README): `invalid_format` 400 for a malformed body,
 * `invalid_option` 422 for a value outside the order's options, `order_status` 422 for a state
 * that forbids the action, `order_error` 422 for non-FBM tracking. Express accepts answer the
 * service's own 422 `order_status` "Order is express". The sandbox DEMO-* orders stay as they are.
 */
import { DEMO_FEES_RAW_BODY, DEMO_ORDERS } from './fixtures.js';
import { createOrderMoves } from './order-moves.js';
import type { Random } from './random.js';
import type { Route, RouteContext } from './router.js';
import type {
  Change,
  MockLineItem,
  MockOrder,
  MockPickupWindow,
  MockWebhookEvent,
  OrderOverrides,
} from './types.js';
import type { OrderReturn } from '../schemas/order.js';
import { lastMileCourier, vendorSpelling } from '../schemas/vendor.js';
import { cents, copy, fail, json, parseMediaType, readJsonBody, success, timestamp } from './wire.js';
import { onVendorHosts } from './vendor-hosts.js';

/** The marketplace's own last-mile courier (SLM): the only courier set_as_ready applies to. */
export const MARKETPLACE_COURIER = 'Marketplace Last Mile';
const HOUR = 3_600_000;

/** Where the kit serves an order's courier voucher. */
export const voucherUrl = (baseUrl: string, code: string): string => `${baseUrl}/__mock/vouchers/${encodeURIComponent(code)}.pdf`;

/** An order's expiry a day later than it stands (than `now`, without one): what an extension does. */
export const dayLater = (order: MockOrder, now: number): string => timestamp((order.expires_at ? Date.parse(order.expires_at) : now) + 24 * HOUR);
const MAX_INVOICE_BYTES = 7 * 1024 * 1024;
const ORDERS_PATH = '/merchants/ecommerce/orders/:code';

export interface OrdersContext {
  /** The operator's name: orders go out in its spelling (the service's documentation today). */
  vendor: string;
  baseUrl: () => string;
  now: () => number;
  random: Random;
  emit: (event: MockWebhookEvent) => void;
  resend: (code: string) => boolean;
}

export type CancelledBy = 'user' | 'support' | 'merchant';
export type TrackingDetail = { courier: string; tracking_code: string };
type Fulfilment = 'core' | 'fbs' | 'store_pickup' | 'fbm';

interface OrderRecord {
  order: MockOrder;
  /** from/to of each offered pickup window id, so an accept can set `pickup_window`. */
  windows: Map<number, MockPickupWindow>;
  invoices: { filename: string; contentType: string; bytes: Uint8Array<ArrayBuffer> }[];
  tracking: TrackingDetail[][];
  cancelledBy?: CancelledBy | undefined;
  /** A sandbox DEMO-* order: actions on it succeed as often as asked and change nothing. */
  sandbox?: true | undefined;
  /** A sandbox order's throwaway copy: what an action does to it is dropped, and no event goes out. */
  discarded?: true | undefined;
}

/** How the order is shipped, from the fields the Orders API documentation gives. */
export function fulfilmentOf(order: MockOrder): Fulfilment {
  if (order.fulfilled_by_marketplace) return 'fbs';
  if (order.store_pickup) return 'store_pickup';
  if (order.fulfillment_mode != null && order.fulfillment_mode !== 'core') return 'fbm';
  return order.courier === MARKETPLACE_COURIER ? 'core' : 'fbm';
}

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

export function createOrders(context: OrdersContext) {
  const { random, now } = context;
  const records = new Map<string, OrderRecord>();
  let codeCounter = 1_000_000;

  const spelling = vendorSpelling(context.vendor);
  const ownCourier = spelling === undefined ? MARKETPLACE_COURIER : lastMileCourier(spelling.vendor);
  /** The kit keeps the documentation's spelling; what goes out is in the vendor's (the service's documentation today). */
  const spelt = (order: MockOrder): MockOrder => {
    if (spelling === undefined) return order;
    const rename = (fields: Record<string, unknown> | null | undefined, from: string, to: string) => {
      if (fields == null || !(from in fields)) return;
      fields[to] = fields[from];
      delete fields[from];
    };
    rename(order, 'fulfilled_by_marketplace', spelling.fulfilledBy);
    rename(order.fees as Record<string, unknown> | undefined, 'marketplace_coins_fee', spelling.coinsFee);
    rename(order.customer as Record<string, unknown> | undefined, 'marketplace_plus_user', spelling.plusUser);
    if (order.courier === MARKETPLACE_COURIER) order.courier = ownCourier;
    const info = order.rejection_info as { actor?: unknown } | null | undefined;
    if (info?.actor === 'marketplace') info.actor = spelling.vendor;
    return order;
  };

  const view = (record: OrderRecord): MockOrder => {
    const order = copy(record.order);
    if (order.state !== 'open') {
      delete order.accept_options;
      delete order.reject_options;
    }
    return spelt(order);
  };

  const emit = (record: OrderRecord, eventType: MockWebhookEvent['event_type'], changes?: Record<string, Change>) => {
    const event: MockWebhookEvent = { event_type: eventType, event_time: timestamp(now()), order: view(record) };
    if (changes?.courier) {
      for (const side of ['old', 'new'] as const) if (changes.courier[side] === MARKETPLACE_COURIER) changes.courier[side] = ownCourier;
    }
    if (changes) event.changes = changes;
    context.emit(event);
  };

  /** Sets members and emits order_updated with `{ old, new }` for each. */
  const update = (record: OrderRecord, patch: Partial<MockOrder>) => {
    if (record.discarded) return;
    const changes: Record<string, Change> = {};
    for (const [key, value] of Object.entries(patch)) {
      changes[key] = { old: copy(record.order[key] ?? null), new: copy(value) };
      record.order[key] = value;
    }
    emit(record, 'order_updated', changes);
  };

  const windowTimes = (count: number): { from: string; to: string }[] => {
    const start = Math.ceil(now() / HOUR) * HOUR + 2 * HOUR;
    return Array.from({ length: count }, (_, i) => ({
      from: timestamp(start + i * 3 * HOUR),
      to: timestamp(start + (i + 1) * 3 * HOUR),
    }));
  };

  const makeRecord = (order: MockOrder): OrderRecord => {
    const offered = order.accept_options?.pickup_window ?? [];
    const times = windowTimes(offered.length);
    const windows = new Map(offered.map((w, i) => [w.id ?? i + 1, times[i] as MockPickupWindow]));
    return { order, windows, invoices: [], tracking: [] };
  };

  const expireIfDue = (record: OrderRecord): boolean => {
    const expiresAt = record.order.expires_at ? Date.parse(record.order.expires_at) : Number.NaN;
    if (record.order.state !== 'open' || !(expiresAt <= now())) return false;
    update(record, { state: 'expired' });
    return true;
  };

  // ---- seeding ---------------------------------------------------------------------------

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

  // ---- factory ---------------------------------------------------------------------------

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

  // ---- wire handlers ---------------------------------------------------------------------

  const find = (code: string): OrderRecord => {
    const record = records.get(code);
    if (!record) return fail(404, 'order_error', 'Order not found');
    expireIfDue(record);
    return record;
  };

  /** The record an action works on: a sandbox order's throwaway copy, so it stays as it is. */
  const findForAction = (code: string): OrderRecord => {
    const record = find(code);
    return record.sandbox ? { ...structuredClone(record), sandbox: undefined, discarded: true } : record;
  };

  const moves = createOrderMoves({
    vendor: context.vendor,
    now,
    find: (code) => findForAction(code),
    update: (record, patch) => update(record as OrderRecord, patch),
    issueVoucher: (record) =>
      update(record as OrderRecord, {
        courier_voucher: voucherUrl(context.baseUrl(), record.order.code),
        courier_tracking_codes: [String(random.int(100_000_000, 999_999_999))],
      }),
    fulfilment: fulfilmentOf,
    sniff: sniffInvoiceType,
  });

  const getOrder = ({ params, url }: RouteContext): Response => {
    const record = find(params.code as string);
    return json(200, { order: moves.withActionOptions(view(record), record, url) });
  };

  const accept = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    const body = await readJsonBody(request);
    const problems: string[] = [];
    const { pickup_location: location, pickup_window: window, number_of_parcels: parcels = 1 } = body;
    if (location === undefined) problems.push("Missing required field 'pickup_location'");
    else if (typeof location !== 'string') problems.push("Field 'pickup_location' has invalid type");
    if (window === undefined) problems.push("Missing required field 'pickup_window'");
    else if (!Number.isInteger(window)) problems.push("Field 'pickup_window' has invalid type");
    if (!Number.isInteger(parcels) || (parcels as number) < 1) problems.push("Field 'number_of_parcels' has invalid type");
    if (problems.length > 0) fail(400, 'invalid_format', ...problems);

    const { order } = record;
    if (order.state === 'accepted') fail(422, 'order_status', 'Order already accepted.');
    if (order.state !== 'open') fail(422, 'order_status', `Order cannot be accepted in state '${order.state}'.`);
    // Express orders are accepted by an automated mechanism, never through the API.
    if (order.express) fail(422, 'order_status', 'Order is express');
    const options = order.accept_options;
    const place = options?.pickup_location?.find((l) => l.id === location);
    if (!place) fail(422, 'invalid_option', `pickup_location '${String(location)}' is not one of the order's accept_options.`);
    if (!options?.pickup_window?.some((w) => w.id === window)) {
      fail(422, 'invalid_option', `pickup_window ${String(window)} is not one of the order's accept_options.`);
    }
    const allowedParcels = options?.number_of_parcels ?? [];
    if (allowedParcels.length > 0 && !allowedParcels.includes(parcels as number)) {
      fail(422, 'invalid_option', `number_of_parcels ${String(parcels)} is not one of the order's accept_options.`);
    }
    acceptRecord(record, window as number, place?.label ?? '', parcels as number);
    return success();
  };

  const acceptRecord = (record: OrderRecord, windowId: number, address: string, parcels: number) => {
    update(record, {
      state: 'accepted',
      pickup_window: record.windows.get(windowId) ?? windowTimes(1)[0] ?? null,
      number_of_parcels: parcels,
      pickup_address: address,
    });
  };

  const reject = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    const body = await readJsonBody(request);
    const { line_items: items, rejection_reason_other: other } = body;
    if ((items === undefined) === (other === undefined)) {
      fail(400, 'invalid_format', 'Provide either line_items or rejection_reason_other.');
    }
    const problems: string[] = [];
    if (other !== undefined && (typeof other !== 'string' || other.trim() === '')) {
      problems.push("Field 'rejection_reason_other' has invalid type");
    }
    if (items !== undefined) {
      if (!Array.isArray(items) || items.length === 0) problems.push("Field 'line_items' has invalid type");
      else problems.push(...items.flatMap((item: unknown, index) => lineItemProblems(item, index)));
    }
    if (problems.length > 0) fail(400, 'invalid_format', ...problems);

    const { order } = record;
    if (order.state === 'rejected') fail(422, 'order_status', 'Order already rejected.');
    if (order.state !== 'open') fail(422, 'order_status', `Order cannot be rejected in state '${order.state}'.`);
    if (Array.isArray(items)) {
      const reasons = order.reject_options?.line_item_rejection_reasons ?? [];
      for (const item of items as { id: string; reason_id: number; available_quantity?: number | undefined }[]) {
        if (!order.line_items?.some((line) => line.id === item.id)) {
          fail(422, 'invalid_option', `Line item '${item.id}' is not part of this order.`);
        }
        const reason = reasons.find((r) => r.id === item.reason_id);
        if (!reason) fail(422, 'invalid_option', `Rejection reason ${item.reason_id} is not one of the order's reject_options.`);
        if (reason?.requires_available_quantity && item.available_quantity === undefined) {
          fail(422, 'invalid_option', `Line item '${item.id}': rejection reason ${item.reason_id} requires available_quantity.`);
        }
      }
    }
    if (typeof other === 'string') record.order.rejection_info = { reason: other, actor: 'merchant' };
    update(record, { state: 'rejected' });
    return success();
  };

  const setAsReady = ({ params }: RouteContext): Response => {
    const record = findForAction(params.code as string);
    const { order } = record;
    const eligible =
      order.state === 'accepted' &&
      order.is_ready_for_dispatch !== true &&
      order.courier === MARKETPLACE_COURIER &&
      fulfilmentOf(order) === 'core';
    if (!eligible) fail(422, 'order_error', 'Order is not eligible to be marked as ready');
    update(record, { is_ready_for_dispatch: true });
    return success();
  };

  const setAsNotReady = ({ params }: RouteContext): Response => {
    const record = findForAction(params.code as string);
    const { order } = record;
    // State accepted also means "not yet picked up": pickup moves the order to dispatched.
    const eligible =
      order.state === 'accepted' && order.is_ready_for_dispatch === true && order.courier === MARKETPLACE_COURIER;
    if (!eligible) fail(422, 'order_error', 'Order is not eligible for undo');
    update(record, { is_ready_for_dispatch: false });
    return success();
  };

  const uploadInvoice = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    if (parseMediaType(request.headers.get('content-type'))?.type !== 'multipart/form-data') {
      fail(415, 'unsupported_media_type', 'Content-Type must be multipart/form-data.');
    }
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return fail(400, 'invalid_format', 'Request body is not valid multipart/form-data.');
    }
    const file = form.get('invoice_file');
    if (file === null || typeof file === 'string') fail(400, 'invalid_format', "Missing required file field 'invoice_file'");
    const blob = file as File;
    if (blob.size > MAX_INVOICE_BYTES) fail(422, 'invalid_file', 'Invoice file exceeds the maximum size of 7 MB.');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const kind = sniffInvoiceType(bytes);
    if (!kind) fail(422, 'invalid_file', 'Invoice file type must be pdf, png or jpg.');
    const extension = kind === 'application/pdf' ? 'pdf' : kind === 'image/png' ? 'png' : 'jpg';
    const filename = safeFilename(blob.name) || `invoice.${extension}`;
    record.invoices.push({ filename, contentType: kind as string, bytes });
    record.order.uploaded_invoice_file = `${context.baseUrl()}/__mock/invoices/${encodeURIComponent(record.order.code)}/${record.invoices.length}/${encodeURIComponent(filename)}`;
    return success();
  };

  const sendTracking = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    const body = await readJsonBody(request);
    const list = body.tracking_details;
    if (!Array.isArray(list) || list.length === 0) fail(400, 'invalid_format', "Field 'tracking_details' must be a non-empty array");
    const problems: string[] = [];
    (list as unknown[]).forEach((entry, index) => {
      const item = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
      for (const field of ['courier', 'tracking_code']) {
        const value = item[field];
        if (value === undefined) problems.push(`Tracking detail ${index}: Missing required field '${field}'`);
        else if (typeof value !== 'string' || value === '') problems.push(`Tracking detail ${index}: Field '${field}' has invalid type`);
      }
    });
    if (problems.length > 0) fail(400, 'invalid_format', ...problems);
    if (fulfilmentOf(record.order) !== 'fbm') {
      fail(422, 'order_error', 'Tracking details can be sent only for orders fulfilled by the merchant.');
    }
    if (record.order.state !== 'accepted' && record.order.state !== 'dispatched') {
      fail(422, 'order_error', 'Order is not eligible for tracking details');
    }
    record.tracking.push(copy(list as TrackingDetail[]));
    return success();
  };

  const routes: Route[] = [
    { method: 'GET', pattern: ORDERS_PATH, api: 'orders', handler: getOrder },
    { method: 'POST', pattern: `${ORDERS_PATH}/accept`, api: 'orders', handler: accept },
    { method: 'POST', pattern: `${ORDERS_PATH}/reject`, api: 'orders', handler: reject },
    { method: 'POST', pattern: `${ORDERS_PATH}/invoices`, api: 'orders', handler: uploadInvoice },
    { method: 'POST', pattern: `${ORDERS_PATH}/set_as_ready`, api: 'orders', handler: setAsReady },
    { method: 'POST', pattern: `${ORDERS_PATH}/set_as_not_ready`, api: 'orders', handler: setAsNotReady },
    { method: 'POST', pattern: `${ORDERS_PATH}/tracking_details`, api: 'orders', handler: sendTracking },
    ...moves.routes,
  ];

  // ---- files under the mock (no auth: like the service's signed download links) -----------

  const serveFile = (pathname: string): Response | undefined => {
    const invoice = /^\/__mock\/invoices\/([^/]+)\/(\d+)\/[^/]+$/.exec(pathname);
    if (invoice) {
      const file = records.get(decodeURIComponent(invoice[1] as string))?.invoices[Number(invoice[2]) - 1];
      if (!file) return json(404, { errors: [{ code: 'not_found', messages: ['File not found'] }] });
      return new Response(file.bytes as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': file.contentType } });
    }
    const voucher = /^\/__mock\/vouchers\/([^/]+)\.pdf$/.exec(pathname);
    if (voucher) {
      const code = decodeURIComponent(voucher[1] as string);
      if (!records.get(code)?.order.courier_voucher) return json(404, { errors: [{ code: 'not_found', messages: ['File not found'] }] });
      kit.downloadVoucher(code);
      return new Response(VOUCHER_PDF, { headers: { 'Content-Type': 'application/pdf' } });
    }
    return undefined;
  };

  // ---- kit actions -----------------------------------------------------------------------

  const must = (code: string): OrderRecord => {
    const record = records.get(code);
    if (!record) throw new Error(`mock.orders: no order ${code}`);
    return record;
  };
  const requireState = (record: OrderRecord, action: string, states: readonly string[]) => {
    if (!states.includes(record.order.state ?? '')) {
      throw new Error(`mock.orders.${action}: order ${record.order.code} is ${record.order.state}, expected ${states.join(' or ')}`);
    }
  };
  const toTimestamp = (value: string | number | Date) =>
    typeof value === 'string' ? value : timestamp(typeof value === 'number' ? value : value.getTime());

  const kit = {
    create,
    ...moves.kit,
    /** A copy of the order as GET would answer it (options only while open). */
    get(code: string): MockOrder | undefined {
      const record = records.get(code);
      return record ? view(record) : undefined;
    },
    list(): MockOrder[] {
      return [...records.values()].map(view);
    },
    /** Sets members without any event (test set-up); prefer the actions below. */
    patch(code: string, fields: Partial<MockOrder>): MockOrder {
      const record = must(code);
      Object.assign(record.order, copy(fields));
      return view(record);
    },
    cancel(code: string, { by = 'user' }: { by?: CancelledBy | undefined } = {}): MockOrder {
      const record = must(code);
      // The service allows a cancellation after dispatch too (the parcel comes back).
      requireState(record, 'cancel', ['open', 'accepted', 'dispatched']);
      record.cancelledBy = by;
      update(record, { state: 'cancelled' });
      return view(record);
    },
    extend(
      code: string,
      { expires_at, dispatch_until }: { expires_at?: string | number | Date | undefined; dispatch_until?: string | number | Date | undefined } = {},
    ): MockOrder {
      const record = must(code);
      const patch: Partial<MockOrder> = {};
      if (expires_at !== undefined) patch.expires_at = toTimestamp(expires_at);
      if (dispatch_until !== undefined) patch.dispatch_until = toTimestamp(dispatch_until);
      if (expires_at === undefined && dispatch_until === undefined) patch.expires_at = dayLater(record.order, now());
      update(record, patch);
      return view(record);
    },
    /**
     * The courier voucher is created (emits courier_voucher and courier_tracking_codes changes).
     * With `download` (default true) the merchant also downloads it, which marks the order ready
     * only for shops not enrolled in the set-as-ready programme (`set_as_ready_required: false`).
     */
    createVoucher(code: string, { download = true }: { download?: boolean | undefined } = {}): MockOrder {
      const record = must(code);
      requireState(record, 'createVoucher', ['accepted']);
      update(record, {
        courier_voucher: voucherUrl(context.baseUrl(), code),
        courier_tracking_codes: [String(random.int(100_000_000, 999_999_999))],
      });
      if (download) kit.downloadVoucher(code);
      return view(record);
    },
    /** The merchant downloads the voucher; returns true when that marked the order ready (not-enrolled shops only). */
    downloadVoucher(code: string): boolean {
      const { order } = must(code);
      if (!order.courier_voucher) throw new Error(`mock.orders.downloadVoucher: order ${code} has no voucher`);
      if (order.set_as_ready_required === true || order.state !== 'accepted' || order.is_ready_for_dispatch === true) {
        return false;
      }
      order.is_ready_for_dispatch = true;
      return true;
    },
    /** Expires every open order whose expires_at has passed on the mock clock; returns their codes. */
    expireDue(): string[] {
      return [...records.values()].filter(expireIfDue).map((record) => record.order.code);
    },
    /** The automated acceptance of express orders (the API refuses them), with the first offered options. */
    autoAccept(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'autoAccept', ['open']);
      const options = record.order.accept_options;
      const windowId = options?.pickup_window?.[0]?.id ?? 1;
      acceptRecord(record, windowId, options?.pickup_location?.[0]?.label ?? '', options?.number_of_parcels?.[0] ?? 1);
      return view(record);
    },
    /** The courier picks the order up. */
    dispatch(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'dispatch', ['accepted']);
      update(record, { state: 'dispatched' });
      return view(record);
    },
    /** Delivered: the service names no event for it, so none is sent. */
    deliver(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'deliver', ['dispatched']);
      record.order.state = 'delivered';
      return view(record);
    },
    /** Some items come back: a return joins the order's `returns`; the event's changes name the state. */
    partiallyReturn(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'partiallyReturn', ['dispatched', 'delivered', 'partially_delivered']);
      record.order.returns = [...(record.order.returns ?? []), newReturn(1)];
      update(record, { state: 'partially_returned' });
      return view(record);
    },
    /** The rest comes back: a return joins the order's `returns`; the event's changes name the state. */
    returnOrder(code: string): MockOrder {
      const record = must(code);
      requireState(record, 'returnOrder', ['dispatched', 'delivered', 'partially_delivered', 'partially_returned', 'for_return']);
      record.order.returns = [...(record.order.returns ?? []), newReturn(1)];
      update(record, { state: 'returned' });
      return view(record);
    },
    /** The panel's manual send: the latest event of that order again, same payload. False when it has none. */
    resend(code: string): boolean {
      must(code);
      return context.resend(code);
    },
    /** Every tracking_details list the merchant sent for the order, in order. */
    trackingDetails(code: string): TrackingDetail[][] {
      return copy(must(code).tracking);
    },
    /** Who cancelled the order (kit bookkeeping; not on the wire). */
    cancelledBy(code: string): CancelledBy | undefined {
      return records.get(code)?.cancelledBy;
    },
  };

  return { routes, kit, serveFile, seedDemoOrders };
}

function lineItemProblems(entry: unknown, index: number): string[] {
  if (typeof entry !== 'object' || entry === null) return [`Line item ${index}: has invalid type`];
  const item = entry as Record<string, unknown>;
  const label = typeof item.id === 'string' ? `Line item ${item.id}` : `Line item ${index}`;
  const problems: string[] = [];
  if (item.id === undefined) problems.push(`${label}: Missing required field 'id'`);
  else if (typeof item.id !== 'string') problems.push(`${label}: Field 'id' has invalid type`);
  if (item.reason_id === undefined) problems.push(`${label}: Missing required field 'reason_id'`);
  else if (!Number.isInteger(item.reason_id)) problems.push(`${label}: Field 'reason_id' has invalid type`);
  const available = item.available_quantity;
  if (available !== undefined && (!Number.isInteger(available) || (available as number) < 0)) {
    problems.push(`${label}: Field 'available_quantity' has invalid type`);
  }
  return problems;
}

/** PDF, PNG or JPEG by magic bytes, whatever the filename says. */
export function sniffInvoiceType(bytes: Uint8Array): 'application/pdf' | 'image/png' | 'image/jpeg' | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return undefined;
}

const safeFilename = (name: string | undefined) => (name ?? '').replace(/[^\w.-]+/g, '_').slice(0, 100);

const VOUCHER_PDF = new TextEncoder().encode('%PDF-1.4\n% emporio mock courier voucher\n%%EOF\n');
