/**
 * The order beacon: the analytics calls the merchant's order-confirmation page makes after the
 * service's tracking script (one `addOrder`, one `addItem` per line), as script text safe to
 * place inside an HTML `<script>` element.
 */
import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { formatDecimal } from './values.js';
import type { FeedDecimal } from './types.js';

/** The payment types the service recommends (it takes others, but these are what its reports group by). */
export const PAYMENT_TYPES = Object.freeze(['bank_transfer', 'cash_on_delivery', 'card', 'paypal', 'pay_in_store', 'cryptocurrency'] as const);
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export interface BeaconOrder {
  /** The shop's order id, unique per transaction. */
  order_id: string;
  /** Grand total in euros, shipping and tax included, payment costs (such as a cash-on-delivery fee) excluded. */
  revenue: FeedDecimal;
  /** Total shipping in euros, payment costs excluded. */
  shipping: FeedDecimal;
  /** Total tax in euros. */
  tax: FeedDecimal;
  /** The payment method's type (required for shops selling in Technology categories: see `requirePaidBy`). */
  paid_by?: PaymentType | undefined;
  /** A free-text description of the payment method. */
  paid_by_descr?: string | undefined;
}

export interface BeaconItem {
  /** The product's Unique ID in the feed: the service matches them. */
  product_id: string;
  /** The product's name in the feed. */
  name: string;
  /** The final unit price in euros. */
  price: FeedDecimal;
  /** Units bought. */
  quantity: number;
}

export interface OrderBeaconOptions {
  /** The service's vendor name (as the client's `vendor`): the calls go to `<vendor>_analytics`. Default `EMPORIO_VENDOR` from the environment. */
  vendor?: string | undefined;
  /** The analytics function's name, when the loader snippet renamed it (overrides `vendor`). */
  functionName?: string | undefined;
  /** The shop account id (`SA-XXXX-YYYY`): when given, the calls start with the session's `connect`. */
  shopAccountId?: string | undefined;
  /** Require `paid_by` and `paid_by_descr` (the service does for shops selling in Technology categories). */
  requirePaidBy?: boolean | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const SHOP_ACCOUNT = /^SA-[0-9A-Z]{4}-[0-9A-Z]{4}$/i;
// Characters that could end the script element or a comment in it, or end a line in older JavaScript.
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/**
 * The analytics calls for one completed order as script text, e.g.
 * `shop_analytics("ecommerce", "addOrder", {...});` then one `addItem` per line. Every value is
 * checked (required fields, decimal euros, whole quantities, the payment type) and every string
 * is JSON with `<`, `>`, `&`, U+2028 and U+2029 escaped, so no value can close the `<script>`
 * element or open a comment. Bad input is a `RequestValidationError` naming each field.
 */
export function orderBeacon(order: BeaconOrder, items: readonly BeaconItem[], options: OrderBeaconOptions = {}): string {
  const issues: ValidationIssue[] = [];
  const name = functionName(options, issues);
  const text = (value: unknown, path: PropertyKey[], max = 200): string => {
    if (typeof value !== 'string' || value.trim() === '') issues.push({ path, message: 'a non-empty string is required' });
    else if (value.length > max) issues.push({ path, message: `at most ${max} characters` });
    return String(value);
  };
  const euros = (value: unknown, path: PropertyKey[]): string => {
    const formatted = value === undefined ? { reason: 'required' } : formatDecimal(value);
    if (typeof formatted === 'string') return formatted;
    issues.push({ path, message: `euros like 654.90 expected (${formatted.reason})` });
    return '';
  };
  if (typeof order !== 'object' || order === null) throw new RequestValidationError('Invalid order beacon', [{ path: ['order'], message: 'expected an object' }]);
  const orderData: Record<string, string> = {
    order_id: text(order.order_id, ['order', 'order_id']),
    revenue: euros(order.revenue, ['order', 'revenue']),
    shipping: euros(order.shipping, ['order', 'shipping']),
    tax: euros(order.tax, ['order', 'tax']),
  };
  if (order.paid_by !== undefined || options.requirePaidBy) {
    if (!(PAYMENT_TYPES as readonly unknown[]).includes(order.paid_by)) {
      issues.push({ path: ['order', 'paid_by'], message: `one of ${PAYMENT_TYPES.join(', ')}` });
    }
    orderData.paid_by = String(order.paid_by);
  }
  if (order.paid_by_descr !== undefined || options.requirePaidBy) orderData.paid_by_descr = text(order.paid_by_descr, ['order', 'paid_by_descr']);
  if (!Array.isArray(items) || items.length === 0) issues.push({ path: ['items'], message: 'an order has at least one line' });
  const itemData = (Array.isArray(items) ? items : []).map((item, i) => {
    const quantity = item?.quantity;
    if (!Number.isSafeInteger(quantity) || quantity < 1) issues.push({ path: ['items', i, 'quantity'], message: 'a whole number of units, at least 1' });
    return {
      order_id: orderData.order_id,
      product_id: text(item?.product_id, ['items', i, 'product_id']),
      name: text(item?.name, ['items', i, 'name'], 300),
      price: euros(item?.price, ['items', i, 'price']),
      quantity: String(quantity),
    };
  });
  if (issues.length > 0) throw new RequestValidationError('Invalid order beacon', issues);

  const call = (category: string, command: string, data: unknown) => `${name}(${safeJson(category)}, ${safeJson(command)}, ${safeJson(data)});`;
  const lines: string[] = [];
  if (options.shopAccountId !== undefined) lines.push(call('session', 'connect', options.shopAccountId));
  lines.push(call('ecommerce', 'addOrder', orderData));
  for (const item of itemData) lines.push(call('ecommerce', 'addItem', item));
  return `${lines.join('\n')}\n`;
}

function functionName(options: OrderBeaconOptions, issues: ValidationIssue[]): string {
  if (options.shopAccountId !== undefined && !SHOP_ACCOUNT.test(options.shopAccountId)) {
    issues.push({ path: ['options', 'shopAccountId'], message: 'the shop account id, like SA-0001-0001' });
  }
  if (options.functionName !== undefined) {
    if (!IDENTIFIER.test(options.functionName)) issues.push({ path: ['options', 'functionName'], message: 'a JavaScript identifier' });
    return options.functionName;
  }
  const vendor = options.vendor ?? (typeof process === 'undefined' ? undefined : process.env.EMPORIO_VENDOR);
  if (vendor === undefined || !IDENTIFIER.test(`${vendor}_analytics`)) {
    issues.push({ path: ['options', 'vendor'], message: 'the vendor name (letters, digits, _) naming <vendor>_analytics, or set EMPORIO_VENDOR' });
  }
  return `${vendor}_analytics`;
}

function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
