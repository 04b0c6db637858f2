/**
 * The Orders API's actions added after 2026-06: pickup moves (`?action_options=1`,
 * `reschedule_pickup`, `relocate_pickup`), credit invoices and a preorder's early voucher, with
 * the error bodies the service documents. Move options follow the mock's clock and the order's
 * current pickup, so they change as time passes and as the order moves.
 */
import type { Route, RouteContext } from './router.js';
import type { MockOrder, MockPickupWindow } from './types.js';
import { brandName, fail, parseMediaType, readJsonBody, success, timestamp } from './wire.js';

const DAY = 86_400_000;
const MAX_CREDIT_INVOICE_BYTES = 7 * 1024 * 1024;
/** Pickup dates offered ahead of the current one. */
const RESCHEDULE_DAYS = 3;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** What the moves need of an order record. */
export interface MovableRecord {
  order: MockOrder;
}

export interface OrderMovesContext {
  vendor: string;
  now: () => number;
  /** The record an action works on (a sandbox order's is a throwaway copy); 404 when unknown. */
  find: (code: string) => MovableRecord;
  /** Sets members and emits order_updated with their `{ old, new }`. */
  update: (record: MovableRecord, patch: Partial<MockOrder>) => void;
  /** Issues the courier voucher (emits its order_updated). */
  issueVoucher: (record: MovableRecord) => void;
  /** How the order ships: moves are for the marketplace's own courier only. */
  fulfilment: (order: MockOrder) => string;
  /** Type of a file by its first bytes, when it is a PDF, PNG or JPEG. */
  sniff: (bytes: Uint8Array) => string | undefined;
}

export interface CreditInvoice {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export function createOrderMoves(context: OrderMovesContext) {
  const preorders = new Set<string>();
  const creditInvoices = new Map<string, CreditInvoice>();
  const brand = brandName(context.vendor);

  /** Why the order's pickup cannot move (the service's message), or undefined when it can. */
  const whyNotMovable = (order: MockOrder, action: 'rescheduling' | 'relocation'): string | undefined => {
    const generic = action === 'rescheduling' ? 'Order rescheduling is not supported for this order.' : 'Pickup relocation is not supported for this order.';
    // An FBS order is refused for being FBS, whatever its state: the service's page words it so,
    // and the sandbox's DEMO-FBS (accepted, no pickup window of the shop's) must hear it.
    const kind = context.fulfilment(order);
    if (kind === 'fbs') {
      return action === 'rescheduling' ? `Order rescheduling is not supported for "Fulfilled by ${brand}" orders.` : generic;
    }
    if (order.state !== 'accepted' || order.pickup_window == null) return generic;
    if (kind !== 'core' || order.express === true) return generic;
    return undefined;
  };

  /** The pickup's date in Athens time (the date part of its time stamp). */
  const pickupDate = (order: MockOrder): string | undefined => order.pickup_window?.from?.slice(0, 10);

  /** The next working days after the later of today and the current pickup date, Sundays left out. */
  const rescheduleOptions = (order: MockOrder): { date: string; label: string }[] => {
    if (whyNotMovable(order, 'rescheduling')) return [];
    const today = timestamp(context.now()).slice(0, 10);
    const current = pickupDate(order) ?? today;
    const options: { date: string; label: string }[] = [];
    const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);
    let day = Math.max(noon(current), noon(today));
    // Bounded: at most two weeks looked at.
    for (let i = 0; i < 14 && options.length < RESCHEDULE_DAYS; i++) {
      day += DAY;
      const date = new Date(day);
      if (date.getUTCDay() === 0) continue;
      const iso = date.toISOString().slice(0, 10);
      const label = `${WEEKDAYS[date.getUTCDay()]} ${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(2, 4)}`;
      options.push({ date: iso, label });
    }
    return options;
  };

  /** The shop's other pickup locations (the current one is not listed). */
  const relocateOptions = (order: MockOrder): { id: string; label: string }[] => {
    if (whyNotMovable(order, 'relocation')) return [];
    const locations = (order.accept_options?.pickup_location ?? []).filter(
      (place): place is { id: string; label: string } => typeof place.id === 'string' && typeof place.label === 'string',
    );
    return locations.length < 2 ? [] : locations.filter((place) => place.label !== order.pickup_address).map(({ id, label }) => ({ id, label }));
  };

  /** `GET …/orders/:code?action_options=1`: the order as shown (`shown`), with both lists from the stored one. */
  const withActionOptions = (shown: MockOrder, record: MovableRecord, url: URL): MockOrder => {
    if (url.searchParams.get('action_options') !== '1') return shown;
    return { ...shown, reschedule_options: rescheduleOptions(record.order), relocate_options: relocateOptions(record.order) };
  };

  const reschedule = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = context.find(params.code as string);
    const body = await readJsonBody(request);
    const why = whyNotMovable(record.order, 'rescheduling');
    if (why) fail(422, 'order_status', why);
    const date = body.reschedule_date;
    // A date no longer offered is refused, never moved to another date.
    if (typeof date !== 'string' || !rescheduleOptions(record.order).some((option) => option.date === date)) {
      fail(422, 'reschedule_date', 'Invalid reschedule date');
    }
    const window = record.order.pickup_window as MockPickupWindow;
    const moved = (stamp: string | null | undefined) => (typeof stamp === 'string' ? `${date as string}${stamp.slice(10)}` : stamp);
    context.update(record, { pickup_window: { from: moved(window.from), to: moved(window.to) } });
    return success();
  };

  const relocate = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = context.find(params.code as string);
    const body = await readJsonBody(request);
    const why = whyNotMovable(record.order, 'relocation');
    if (why) fail(422, 'order_status', why);
    const place = relocateOptions(record.order).find((option) => option.id === body.pickup_location);
    if (!place) fail(422, 'pickup_location', 'Invalid pickup location');
    context.update(record, { pickup_address: place?.label ?? null });
    return success();
  };

  const requestVoucher = ({ params }: RouteContext): Response => {
    const record = context.find(params.code as string);
    const { order } = record;
    const eligible = order.state === 'accepted' && preorders.has(order.code) && !order.courier_voucher && order.pickup_window != null;
    if (!eligible) fail(422, 'order_error', 'Cannot request voucher: order is not an accepted preorder without a voucher.');
    // The service makes the voucher after answering; it arrives as order_updated with courier_voucher.
    context.issueVoucher(record);
    return success();
  };

  const uploadCreditInvoice = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = context.find(params.code as string);
    let file: FormDataEntryValue | null = null;
    if (parseMediaType(request.headers.get('content-type'))?.type === 'multipart/form-data') {
      try {
        file = (await request.formData()).get('credit_invoice_file');
      } catch {
        file = null;
      }
    }
    if (file === null || typeof file === 'string') return fail(400, 'credit_invoice_file', 'Missing credit invoice file');
    const { state } = record.order;
    const neverAccepted = state === 'open' || state === 'rejected' || state === 'expired' || (state === 'cancelled' && record.order.pickup_window == null);
    if (neverAccepted) fail(422, 'credit_invoice_file', 'Failed to upload credit invoice. Order must be accepted first.');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = context.sniff(bytes);
    if (!type) fail(422, 'credit_invoice_file', `Credit invoice file ${file.type || 'application/octet-stream'} mime-type is not accepted`);
    if (bytes.byteLength > MAX_CREDIT_INVOICE_BYTES) fail(422, 'credit_invoice_file', 'Credit invoice file size must be less than 7MB');
    // One per order: a new upload replaces the earlier one.
    creditInvoices.set(record.order.code, { filename: file.name || 'credit_invoice', contentType: type as string, bytes });
    return success();
  };

  const ORDER = '/merchants/ecommerce/orders/:code';
  const routes: Route[] = [
    { method: 'POST', pattern: `${ORDER}/reschedule_pickup`, api: 'orders', handler: reschedule },
    { method: 'POST', pattern: `${ORDER}/relocate_pickup`, api: 'orders', handler: relocate },
    { method: 'POST', pattern: `${ORDER}/request_voucher`, api: 'orders', handler: requestVoucher },
    { method: 'POST', pattern: `${ORDER}/credit_invoices`, api: 'orders', handler: uploadCreditInvoice },
  ];

  const kit = {
    /** Marks an order as a preorder (how the service shows one is not documented): `requestVoucher` then works once it is accepted. */
    markPreorder(code: string): void {
      preorders.add(code);
    },
    /** The credit invoice last uploaded for the order, if any. */
    creditInvoice(code: string): CreditInvoice | undefined {
      const file = creditInvoices.get(code);
      return file && { ...file, bytes: file.bytes.slice() };
    },
  };

  return { routes, kit, withActionOptions };
}
