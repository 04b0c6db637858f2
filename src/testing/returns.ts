/**
 * The Returns API and the return review (the service since July 2026): a return store with the
 * sandbox return `DEMO-RETURN` (as recorded, stateless like the service's demo codes), the review
 * with its options by return reason and its one-decision rule, and the returns webhook events
 * (created, then updated on state, courier and tracking changes).
 *
 * What the service's documentation leaves out is chosen here: the messages of the 422 codes
 * `comment`, `return_status` and `rejection_comment_sanitized`; the options of reasons other
 * than faulty, missing part and withdrawal (`approve` and `resolved_via_customer_communication`);
 * the courier (`ACS`) and address an approved return ships with. Time stamps are UTC with `Z`.
 * One return's events are at least a second apart, as receivers tell events apart by
 * return code, event type and event time.
 */
import type { ReturnReason } from '../schemas/returns.js';
import { utcTimestamp } from './clock.js';
import type { Random } from './random.js';
import type { Route, RouteContext } from './router.js';
import type { Change, MockOrder, MockReturn, MockReturnEvent } from './types.js';
import { copy, fail, json, readJsonBody, success } from './wire.js';
import { onVendorHosts } from './vendor-hosts.js';

/** Options of `mock.returns.create`. */
export interface CreateReturnOptions {
  /** The customer's reason for every item (default `faulty`): it decides the review options. */
  reason?: ReturnReason | undefined;
  /** Which of the order's line items come back (default all), by line item id. */
  line_item_ids?: readonly string[] | undefined;
  /** The customer's free text. */
  user_comment?: string | undefined;
  /** Absolute URLs of the customer's photos. */
  user_photos?: readonly string[] | undefined;
  /** The return's code (default a new `R-######-#######`). */
  return_code?: string | undefined;
}

/** What the merchant decided, as the review request carried it (kit bookkeeping; not on the wire). */
export interface ReturnDecision {
  option: string;
  comment?: string | undefined;
  proposed_part_url?: string | undefined;
}

export interface ReturnsContext {
  vendor: string;
  now: () => number;
  random: Random;
  order: (code: string) => MockOrder | undefined;
  /** The marketplace's own courier as the vendor writes it: it carries no missing part. */
  ownCourier: string;
  /** Sends an event to `to` (the URLs a return's created event went to), or to every registered URL. */
  send: (event: MockReturnEvent, to?: Iterable<string>) => void;
  /** The registered returns webhook URLs now. */
  urls: () => string[];
}

const MAX_COMMENT_LENGTH = 1000;
const SECOND = 1000;

/** The recorded sandbox return: `GET .../returns/DEMO-RETURN` always answers it, and nothing changes it. */
const DEMO_RETURN: MockReturn = {
  return_code: 'DEMO-RETURN',
  state: 'returning',
  order_code: 'DEMO-OPEN',
  created_at: '2026-01-01T10:00:00Z',
  courier_tracking_ids: ['DEMO-RET-TRACK-1', 'DEMO-RET-TRACK-2'],
  courier: 'ACS',
  returning_address: { street_name: 'Demo Shop', street_number: '7', zip: '18531', city: 'Piraeus', region: 'Attica', country_code: 'GR' },
  return_line_items: [
    {
      id: 'demo-rli-1',
      ean: '1234567890123',
      product_name: 'Demo return item',
      returning_quantity: 1,
      return_reason: 'damaged_product',
      user_comment: 'Demo customer comment about the return',
      user_photos: [
        'https://demo.cdn.example.gr/ds/ecommerce/return_request_line_item_images/demo-img-1.jpeg',
        'https://demo.cdn.example.gr/ds/ecommerce/return_request_line_item_images/demo-img-2.jpeg',
      ],
    },
  ],
};

/** Where an approved return is sent back to. */
const SHOP_ADDRESS = { street_name: 'Ermou', street_number: '12', zip: '10563', city: 'Athens', region: 'Attica', country_code: 'GR' };

interface ReviewOptionEntry {
  option: string;
  comment_required?: boolean | undefined;
  supports_proposed_part_url_required?: boolean | undefined;
}
const reject = (option: string, commentRequired: boolean, partUrl = false): ReviewOptionEntry => ({
  option,
  comment_required: commentRequired,
  supports_proposed_part_url_required: partUrl,
});

interface ReturnRecord {
  value: MockReturn;
  /** The URLs its created event went to: updates go there only (a later URL gets none). */
  urls: Set<string>;
  /** The time of its latest event (epoch ms). */
  lastEventAt: number;
  decision?: ReturnDecision | undefined;
}

export function createReturns(context: ReturnsContext) {
  const records = new Map<string, ReturnRecord>();

  /** The options valid now, by the first item's reason, as the service's three examples show them. */
  const optionsOf = (record: ReturnRecord): ReviewOptionEntry[] => {
    const reason = record.value.return_line_items?.[0]?.return_reason;
    const approve = { option: 'approve' };
    if (reason === 'faulty') {
      return [approve, reject('contact_manufacturer', true), reject('resolved_via_customer_communication', false), reject('usability_suggestions', true), reject('not_faulty', true)];
    }
    if (reason === 'missing_part') {
      const ownCargo = context.order(record.value.order_code ?? '')?.courier === context.ownCourier;
      return [
        approve,
        ...(ownCargo ? [] : [{ option: 'send_missing_part' }]),
        reject('resolved_via_customer_communication', false),
        reject('part_not_included', true, true),
        reject(`incorrect_${context.vendor.toLowerCase()}_content`, true),
      ];
    }
    if (reason === 'withdrawal') return [approve, reject('out_of_policy_withdrawal', false)];
    return [approve, reject('resolved_via_customer_communication', false)];
  };

  /** As the API answers it: `review_options` only while awaiting review. */
  const view = (record: ReturnRecord): MockReturn => {
    const shown = copy(record.value);
    if (shown.state === 'pending_merchant_review') shown.review_options = optionsOf(record);
    return shown;
  };

  const emit = (record: ReturnRecord, type: MockReturnEvent['event_type'], changes?: Record<string, Change>) => {
    // One return's events a second apart at least: receivers tell them apart by their time.
    const at = Math.max(Math.floor(context.now() / SECOND) * SECOND, record.lastEventAt + SECOND);
    record.lastEventAt = at;
    const event: MockReturnEvent = { event_type: type, event_time: utcTimestamp(at), return: view(record) };
    if (changes) event.changes = changes;
    context.send(event, type === 'merchant_return_created' ? undefined : record.urls);
  };

  /**
   * Applies `patch`, then sends an update naming each changed member `{ old, new }`. A member
   * set to the value it has is no change, and a patch of no change sends nothing (the service
   * sends an update only when the state, the courier or the tracking ids change).
   */
  const update = (record: ReturnRecord, patch: Partial<MockReturn>) => {
    const changes: Record<string, Change> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (JSON.stringify(record.value[key] ?? null) === JSON.stringify(value ?? null)) continue;
      changes[key] = { old: copy(record.value[key] ?? null), new: copy(value) };
      record.value[key] = value;
    }
    if (Object.keys(changes).length > 0) emit(record, 'merchant_return_updated', changes);
  };

  const find = (code: string): ReturnRecord | undefined => (code === DEMO_RETURN.return_code ? undefined : records.get(code));
  const demoReturn = onVendorHosts(DEMO_RETURN, context.vendor);

  const get = ({ params }: RouteContext): Response => {
    const code = params.code as string;
    if (code === DEMO_RETURN.return_code) return json(200, { return: copy(demoReturn) });
    const record = find(code) ?? fail(404, 'not_found', 'Return not found');
    return json(200, { return: view(record) });
  };

  const review = async ({ request, params }: RouteContext): Promise<Response> => {
    const code = params.code as string;
    const record = find(code);
    if (!record && code !== DEMO_RETURN.return_code) fail(404, 'not_found', 'Return not found');
    const body = await readJsonBody(request);
    // DEMO-RETURN is on its way back: never awaiting review, and nothing changes it.
    const live = record?.value.state === 'pending_merchant_review' ? record : fail(422, 'return_status', 'Return is not pending merchant review.');
    const option = optionsOf(live).find((entry) => entry.option === body.option) ?? fail(422, 'option', 'Invalid or missing option.');
    const comment = body.comment;
    if (comment !== undefined && comment !== null && typeof comment !== 'string') fail(422, 'comment', 'Comment is invalid.');
    const text = typeof comment === 'string' ? comment : undefined;
    if (option.comment_required && (text ?? '').trim() === '') fail(422, 'comment', "Comment can't be blank.");
    if (text !== undefined && [...text].length > MAX_COMMENT_LENGTH) {
      fail(422, 'rejection_comment_sanitized', `Rejection comment is too long (maximum is ${MAX_COMMENT_LENGTH} characters).`);
    }
    const decision: ReturnDecision = { option: option.option };
    if (text !== undefined) decision.comment = text;
    // Taken only where the option supports it; otherwise dropped without error.
    if (option.supports_proposed_part_url_required && typeof body.proposed_part_url === 'string') decision.proposed_part_url = body.proposed_part_url;
    live.decision = decision;
    if (option.option === 'approve') {
      update(live, { state: 'returning', courier: 'ACS', returning_address: copy(SHOP_ADDRESS) });
    } else {
      update(live, { state: option.option === 'send_missing_part' ? 'cancelled' : 'rejected' });
    }
    return success();
  };

  const routes: Route[] = [
    { method: 'GET', pattern: '/merchants/ecommerce/returns/:code', api: 'orders', handler: get },
    { method: 'POST', pattern: '/merchants/ecommerce/returns/:code/review', api: 'orders', handler: review },
  ];

  const must = (code: string, action: string, states?: readonly string[]): ReturnRecord => {
    const record = find(code);
    if (!record) throw new Error(`mock.returns.${action}: no return ${code}${code === DEMO_RETURN.return_code ? ' (DEMO-RETURN never changes)' : ''}`);
    if (states && !states.includes(record.value.state ?? '')) {
      throw new Error(`mock.returns.${action}: return ${code} is ${record.value.state}, expected ${states.join(' or ')}`);
    }
    return record;
  };
  const newCode = () => {
    let code: string;
    do code = `R-${context.random.int(100_000, 999_999)}-${context.random.int(1_000_000, 9_999_999)}`;
    while (records.has(code));
    return code;
  };

  const kit = {
    /**
     * The customer asks to return items of an order the mock knows: a return awaiting the
     * merchant's review, with the options of `reason` (default `faulty`); sends
     * `merchant_return_created` to the registered returns webhook URLs.
     */
    create(orderCode: string, options: CreateReturnOptions = {}): MockReturn {
      const order = context.order(orderCode);
      if (!order) throw new Error(`mock.returns.create: no order ${orderCode}`);
      const code = options.return_code ?? newCode();
      if (records.has(code) || code === DEMO_RETURN.return_code) throw new Error(`mock.returns.create: return ${code} already exists`);
      const wanted = options.line_item_ids;
      const items = (order.line_items ?? []).filter((item) => wanted === undefined || wanted.includes(item.id ?? ''));
      if (items.length === 0) throw new Error(`mock.returns.create: order ${orderCode} has no such line items`);
      const createdAt = Math.floor(context.now() / SECOND) * SECOND;
      const record: ReturnRecord = {
        value: {
          return_code: code,
          state: 'pending_merchant_review',
          order_code: orderCode,
          created_at: utcTimestamp(createdAt),
          return_line_items: items.map((item) => ({
            id: item.id ?? '',
            ...(item.ean ? { ean: item.ean } : {}),
            product_name: item.product_name ?? '',
            returning_quantity: item.quantity ?? 1,
            return_reason: options.reason ?? 'faulty',
            ...(options.user_comment ? { user_comment: options.user_comment } : {}),
            ...(options.user_photos ? { user_photos: [...options.user_photos] } : {}),
          })),
        },
        urls: new Set(context.urls()),
        lastEventAt: createdAt - SECOND,
      };
      records.set(code, record);
      emit(record, 'merchant_return_created');
      return view(record);
    },
    /** A copy of the return as GET answers it. */
    get(code: string): MockReturn | undefined {
      if (code === DEMO_RETURN.return_code) return copy(demoReturn);
      const record = records.get(code);
      return record && view(record);
    },
    list(): MockReturn[] {
      return [...records.values()].map(view);
    },
    /** What the merchant's review sent, once it was accepted. */
    decision(code: string): ReturnDecision | undefined {
      return copy(records.get(code)?.decision);
    },
    /**
     * The courier's tracking ids become available (default one new id), deduplicated as the
     * service lists them. An empty list is no change: the service sends the ids only with a value.
     */
    setTracking(code: string, ids?: readonly string[]): MockReturn {
      const record = must(code, 'setTracking', ['returning']);
      const prefix = (record.value.courier ?? 'TRK').replace(/\W/g, '').toUpperCase();
      const tracking = [...new Set(ids ?? [`${prefix}${context.random.int(1_000_000_000, 9_999_999_999)}`])];
      if (tracking.length > 0) update(record, { courier_tracking_ids: tracking });
      return view(record);
    },
    /** The return shipment goes to another courier; its tracking ids stay as they were. */
    changeCourier(code: string, courier: string): MockReturn {
      const record = must(code, 'changeCourier', ['returning']);
      update(record, { courier });
      return view(record);
    },
    /** The parcel is delivered back to the merchant. */
    markReturned(code: string): MockReturn {
      const record = must(code, 'markReturned', ['returning', 'pending_physical_review']);
      update(record, { state: 'returned' });
      return view(record);
    },
    /** The merchant did not decide in time. */
    expire(code: string): MockReturn {
      const record = must(code, 'expire', ['pending_merchant_review']);
      update(record, { state: 'expired' });
      return view(record);
    },
  };

  return { routes, kit };
}
