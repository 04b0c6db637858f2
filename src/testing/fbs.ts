/**
 * The FBS warehouse API of the FBS API documentation: the warehouse's stock, purchase orders that add
 * to it once received (`mock.fbs.receive(code)`), and the shop's suppliers. Seeded with the
 * recordings' records. Codes the documentation leaves out are chosen here: `invalid_format` 400 for a
 * malformed body, `invalid_option` 422 for an unknown supplier.
 */
import { isCalendarDate } from '../core/calendar-date.js';
import { paginate } from './paginate.js';
import type { Random } from './random.js';
import type { Route, RouteContext } from './router.js';
import { copy, fail, json, readJsonBody, success, timestamp } from './wire.js';

/** The FBS lists page by 100, as recorded. */
const FBS_PER = 100;

export interface MockFbsProduct {
  id: number;
  shop_uid: string;
  active: boolean;
  quantity: number;
}

export interface MockPurchaseOrderLine {
  product_uid: string;
  expected_quantity: number;
  keep_serial_numbers: boolean;
  has_expiration_date: boolean;
  storage_conditions: number;
  /** Counted on receipt; null until then. */
  actual_quantity: number | null;
}

export interface MockPurchaseOrder {
  code: string;
  supplier_id: string;
  expected_date: string;
  created_at: string;
  received_at: string | null;
  line_items: MockPurchaseOrderLine[];
}

export interface MockSupplier {
  id: string;
  code: string | null;
  name: string | null;
  address: string | null;
  city: string | null;
  area: string | null;
  zip_code: string | null;
  phone: string | null;
  tax_number: string | null;
  email: string | null;
}

const SUPPLIER_FIELDS = ['code', 'name', 'address', 'city', 'area', 'zip_code', 'phone', 'tax_number', 'email'] as const;
const FBS = '/merchants/ecommerce/fbs';

export function createFbs(context: { now: () => number; random: Random }) {
  const { now, random } = context;
  const stock = new Map<string, MockFbsProduct>();
  const purchaseOrders = new Map<string, MockPurchaseOrder>();
  const suppliers = new Map<string, MockSupplier>();
  let productId = 12_345_678;

  const addStock = (shopUid: string, quantity: number, active = true): MockFbsProduct => {
    const product = stock.get(shopUid) ?? { id: productId++, shop_uid: shopUid, active, quantity: 0 };
    product.quantity += quantity;
    stock.set(shopUid, product);
    return product;
  };

  // The recordings' records.
  addStock('79', 13);
  addStock('254', 0, false);
  suppliers.set('abcdefghi', {
    id: 'abcdefghi',
    code: 'ubersuppliercode',
    name: 'ubersuppliername',
    address: 'Κέντρου Καρδίτσης 8',
    city: 'Καρδίτσα',
    area: 'Θεσσαλία',
    zip_code: '43100',
    phone: '2441123456',
    tax_number: null,
    email: 'ubermail@ubersupplier.gr',
  });

  const nextCode = () => {
    let code: string;
    do code = `${timestamp(now()).slice(2, 10).replaceAll('-', '')}-${random.int(1000, 9999)}-${random.int(1000, 9999)}`;
    while (purchaseOrders.has(code));
    return code;
  };

  const lineView = (line: MockPurchaseOrderLine) => {
    const product = stock.get(line.product_uid);
    return {
      product_id: product?.id ?? null,
      shop_uid: line.product_uid,
      active: product?.active ?? true,
      expected_quantity: line.expected_quantity,
      actual_quantity: line.actual_quantity,
    };
  };
  const orderView = (order: MockPurchaseOrder) => ({
    code: order.code,
    received_at: order.received_at,
    created_at: order.created_at,
    expected_date: order.expected_date,
  });

  const findOrder = (code: string): MockPurchaseOrder => {
    const order = purchaseOrders.get(code);
    if (!order) return fail(404, 'purchase_order_error', 'Invalid purchase order');
    return order;
  };

  const createPurchaseOrder = async ({ request }: RouteContext): Promise<Response> => {
    const body = await readJsonBody(request);
    const problems: string[] = [];
    const date = body.expected_date;
    if (typeof date !== 'string' || !isCalendarDate(date)) problems.push("Field 'expected_date' must be a date YYYY-MM-DD");
    if (typeof body.supplier_id !== 'string' || body.supplier_id === '') problems.push("Field 'supplier_id' has invalid type");
    const items = body.line_items;
    if (!Array.isArray(items) || items.length === 0) problems.push("Field 'line_items' must be a non-empty array");
    else problems.push(...items.flatMap((item: unknown, index) => lineProblems(item, index)));
    if (problems.length > 0) fail(400, 'invalid_format', ...problems);
    if (!suppliers.has(body.supplier_id as string)) fail(422, 'invalid_option', `Unknown supplier '${String(body.supplier_id)}'.`);
    const order: MockPurchaseOrder = {
      code: nextCode(),
      supplier_id: body.supplier_id as string,
      expected_date: date as string,
      created_at: timestamp(now()),
      received_at: null,
      line_items: (items as MockPurchaseOrderLine[]).map((item) => ({
        product_uid: item.product_uid,
        expected_quantity: item.expected_quantity,
        keep_serial_numbers: item.keep_serial_numbers,
        has_expiration_date: item.has_expiration_date,
        storage_conditions: item.storage_conditions,
        actual_quantity: null,
      })),
    };
    purchaseOrders.set(order.code, order);
    return json(200, { success: true, code: order.code });
  };

  const supplierProblems = (body: Record<string, unknown>, allowId: boolean): string[] =>
    Object.entries(body).flatMap(([key, value]) => {
      if (!(SUPPLIER_FIELDS as readonly string[]).includes(key) && !(allowId && key === 'id')) return [`Unknown field '${key}'`];
      return typeof value === 'string' && value !== '' ? [] : [`Field '${key}' has invalid type`];
    });

  const createSupplier = async ({ request }: RouteContext): Promise<Response> => {
    const body = await readJsonBody(request);
    const problems = supplierProblems(body, true);
    if (body.name === undefined) problems.push("Missing required field 'name'");
    if (problems.length > 0) fail(400, 'invalid_format', ...problems);
    const id = typeof body.id === 'string' ? body.id : random.id(10);
    if (suppliers.has(id)) fail(422, 'invalid_option', `Supplier '${id}' already exists.`);
    const supplier = { id, ...Object.fromEntries(SUPPLIER_FIELDS.map((field) => [field, (body[field] as string | undefined) ?? null])) } as MockSupplier;
    suppliers.set(id, supplier);
    return success();
  };

  const updateSupplier = async ({ request, params }: RouteContext): Promise<Response> => {
    const supplier = suppliers.get(params.id as string);
    if (!supplier) fail(404, 'supplier_error', 'Supplier not found');
    const body = await readJsonBody(request);
    const problems = supplierProblems(body, false);
    if (Object.keys(body).length === 0) problems.push('Nothing to change');
    if (problems.length > 0) fail(400, 'invalid_format', ...problems);
    Object.assign(supplier as MockSupplier, body);
    return success();
  };

  const routes: Route[] = [
    { method: 'GET', pattern: `${FBS}/products`, api: 'orders', handler: ({ url }) => paginate(url, 'products', [...stock.values()].map(copy), {}, FBS_PER) },
    {
      method: 'GET',
      pattern: `${FBS}/purchase_orders`,
      api: 'orders',
      handler: ({ url }) => paginate(url, 'purchase_orders', [...purchaseOrders.values()].map(orderView), {}, FBS_PER),
    },
    { method: 'POST', pattern: `${FBS}/purchase_orders`, api: 'orders', handler: createPurchaseOrder },
    {
      method: 'GET',
      pattern: `${FBS}/purchase_orders/:code/line_items`,
      api: 'orders',
      // The recording's root key.
      handler: ({ url, params }) => paginate(url, 'purchase_order_line_items', findOrder(params.code as string).line_items.map(lineView), {}, FBS_PER),
    },
    { method: 'GET', pattern: `${FBS}/suppliers`, api: 'orders', handler: ({ url }) => paginate(url, 'suppliers', [...suppliers.values()].map(copy), {}, FBS_PER) },
    { method: 'POST', pattern: `${FBS}/suppliers`, api: 'orders', handler: createSupplier },
    { method: 'PATCH', pattern: `${FBS}/suppliers/:id`, api: 'orders', handler: updateSupplier },
  ];

  const kit = {
    /** The warehouse's stock, as GET answers it. */
    stock(): MockFbsProduct[] {
      return [...stock.values()].map(copy);
    },
    /** Sets a product's stock (test set-up). */
    setStock(shopUid: string, quantity: number, { active = true }: { active?: boolean | undefined } = {}): MockFbsProduct {
      const product = addStock(shopUid, 0, active);
      product.quantity = quantity;
      product.active = active;
      return copy(product);
    },
    purchaseOrder(code: string): MockPurchaseOrder | undefined {
      const order = purchaseOrders.get(code);
      return order && copy(order);
    },
    purchaseOrders(): MockPurchaseOrder[] {
      return [...purchaseOrders.values()].map(copy);
    },
    suppliers(): MockSupplier[] {
      return [...suppliers.values()].map(copy);
    },
    /**
     * The warehouse receives a purchase order: each line's `actual_quantity` is counted
     * (`quantities[product_uid]`, or the expected quantity) and added to the stock.
     */
    receive(code: string, { quantities = {} }: { quantities?: Record<string, number> | undefined } = {}): MockPurchaseOrder {
      const order = purchaseOrders.get(code);
      if (!order) throw new Error(`mock.fbs.receive: no purchase order ${code}`);
      if (order.received_at !== null) throw new Error(`mock.fbs.receive: purchase order ${code} was already received`);
      order.received_at = timestamp(now());
      for (const line of order.line_items) {
        line.actual_quantity = quantities[line.product_uid] ?? line.expected_quantity;
        addStock(line.product_uid, line.actual_quantity);
      }
      return copy(order);
    },
  };

  return { routes, kit };
}

function lineProblems(entry: unknown, index: number): string[] {
  if (typeof entry !== 'object' || entry === null) return [`Line item ${index}: has invalid type`];
  const item = entry as Record<string, unknown>;
  const problems: string[] = [];
  const check = (field: string, ok: (value: unknown) => boolean) => {
    if (item[field] === undefined) problems.push(`Line item ${index}: Missing required field '${field}'`);
    else if (!ok(item[field])) problems.push(`Line item ${index}: Field '${field}' has invalid type`);
  };
  check('product_uid', (v) => typeof v === 'string' && v !== '');
  check('expected_quantity', (v) => Number.isInteger(v) && (v as number) > 0);
  check('keep_serial_numbers', (v) => typeof v === 'boolean');
  check('has_expiration_date', (v) => typeof v === 'boolean');
  check('storage_conditions', (v) => v === 0 || v === 1 || v === 2 || v === 3);
  return problems;
}
