/**
 * The vendor's spelling (the service's documentation today): the real service writes its own name where the
 * documents write `marketplace` (`fulfilled_by_acme`, `fees.acme_coins_fee`,
 * `customer.acme_plus_user`, the courier `Acme Last Mile`). Answers are checked against
 * schemas that carry the vendor's names with the types of the names they stand for (so a
 * vendor field of another type is drift like any other), then orders get the typed
 * `marketplace` names filled from the vendor's, and are remembered as that vendor's, so
 * `canSetAsReady` knows its courier.
 */
import type * as z from 'zod/mini';
import { maybe, record } from './common.js';
import { defOf } from './definition.js';
import { Customer, Fees, Order } from './order.js';


/**
 * The names one vendor writes; undefined for `marketplace`, the documentation's own spelling.
 * @internal
 */
export interface VendorSpelling {
  vendor: string;
  fulfilledBy: string;
  coinsFee: string;
  plusUser: string;
}

/** Which vendor's spelling each order came in (orders from a client or parser with a vendor). */
const orderVendors = new WeakMap<object, string>();

const spellings = new Map<string, VendorSpelling>();

/** Answer schemas in each spelling, built on first use (see `inSpelling`). */
const spelledSchemas = new WeakMap<VendorSpelling, Map<object, z.ZodMiniType>>();

export function vendorSpelling(vendor: string | undefined): VendorSpelling | undefined {
  if (vendor === undefined) return undefined;
  let spelling = spellings.get(vendor);
  if (spelling === undefined) {
    const name = vendor.toLowerCase();
    if (name === 'marketplace') return undefined;
    spelling = { vendor: name, fulfilledBy: `fulfilled_by_${name}`, coinsFee: `${name}_coins_fee`, plusUser: `${name}_plus_user` };
    if (spellings.size < 100) spellings.set(vendor, spelling);
  }
  return spelling;
}

/** The marketplace's own last-mile courier as `vendor` writes it: `Acme Last Mile`. */
export function lastMileCourier(vendor: string): string {
  return `${vendor.charAt(0).toUpperCase()}${vendor.slice(1)} Last Mile`;
}

/** The vendor an order came in with, when a client or parser with a vendor read it. */
export function vendorOf(order: object): string | undefined {
  return orderVendors.get(order);
}

/**
 * `schema` (the order, or an answer whose required `order` member is one) with the vendor's
 * names added beside the names they stand for, of the same types: the answer is checked
 * (fast path, drift, strict) as it is for the documentation's spelling. Built once per spelling.
 */
export function inSpelling<T>(schema: z.ZodMiniType<T>, spelling: VendorSpelling | undefined): z.ZodMiniType<T> {
  if (spelling === undefined) return schema;
  let schemas = spelledSchemas.get(spelling);
  if (schemas === undefined) {
    schemas = new Map();
    spelledSchemas.set(spelling, schemas);
  }
  let spelled = schemas.get(schema);
  if (spelled === undefined) {
    spelled = schema === Order ? spelledOrder(spelling) : record({ ...defOf(schema).shape, order: inSpelling(Order, spelling) });
    schemas.set(schema, spelled);
  }
  return spelled as z.ZodMiniType<T>;
}

function spelledOrder({ fulfilledBy, coinsFee, plusUser }: VendorSpelling): z.ZodMiniType {
  const order = defOf(Order).shape!;
  const fees = defOf(Fees).shape!;
  const customer = defOf(Customer).shape!;
  return record({
    ...order,
    [fulfilledBy]: order.fulfilled_by_marketplace!,
    fees: maybe(record({ ...fees, [coinsFee]: fees.marketplace_coins_fee! })),
    customer: maybe(record({ ...customer, [plusUser]: customer.marketplace_plus_user! })),
  });
}

/**
 * Fills the typed names from the vendor's spelling where only that is present (the wire
 * fields stay), and remembers the order's vendor. A vendor field of another type than the
 * typed name's is not copied: checking the answer against `inSpelling`'s schema reported it
 * as drift. A few property reads: cheap enough for every order.
 */
export function adoptSpelling<T>(order: T, spelling: VendorSpelling | undefined): T {
  if (spelling === undefined || typeof order !== 'object' || order === null) return order;
  const fields = order as Record<string, unknown>;
  orderVendors.set(fields, spelling.vendor);
  copy(fields, spelling.fulfilledBy, 'fulfilled_by_marketplace', 'boolean');
  if (isObject(fields.fees)) copy(fields.fees, spelling.coinsFee, 'marketplace_coins_fee', 'number');
  if (isObject(fields.customer)) copy(fields.customer, spelling.plusUser, 'marketplace_plus_user', 'boolean');
  return order;
}

function copy(fields: Record<string, unknown>, from: string, to: string, type: 'boolean' | 'number'): void {
  if (fields[to] === undefined && typeof fields[from] === type) fields[to] = fields[from];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
