import type { APIPromise } from '../core/api-promise.js';
import type { Page, PagePromise } from '../core/pagination.js';
import { ResponseValidationError } from '../core/errors.js';
import { path } from '../core/paths.js';
import type { ListOptions, RequestOptions, Transport } from '../core/transport.js';
import type { PageMeta } from '../schemas/catalog/base.js';
import { checkRequest } from '../schemas/common.js';
import {
  FbsListParams,
  type FbsProduct,
  FbsProductsPage,
  type PurchaseOrder,
  type PurchaseOrderCreated,
  PurchaseOrderCreated as PurchaseOrderCreatedAnswer,
  PurchaseOrderInput,
  type PurchaseOrderLineItem,
  PurchaseOrderLineItemsAnswer,
  PurchaseOrdersPage,
  SupplierAnswer,
  SupplierChanges,
  SupplierInput,
  type Supplier,
  SuppliersPage,
} from '../schemas/fbs.js';
import { APIResource } from './resource.js';

const FBS = '/merchants/ecommerce/fbs';

/**
 * Every page of a listing as one call (the service pages lists the documentation shows whole); the
 * pages come through the transport's pagination, and `.withResponse()` shows the last one's answer.
 */
function allPages<Item, Meta, T>(transport: Transport, list: PagePromise<Item, Meta>, itemsOf: (page: Page<Item, Meta>) => readonly T[]): APIPromise<T[]> {
  return transport.call(async () => {
    const items: T[] = [];
    let last: Page<Item, Meta> | undefined;
    for await (const page of list.pages()) {
      items.push(...itemsOf(page));
      last = page;
    }
    const answered = last as Page<Item, Meta>;
    return { data: items, answer: { response: () => answered.response } };
  });
}

/** The warehouse's stock. */
class FbsProducts extends APIResource {
  /** `GET /merchants/ecommerce/fbs/products`, page by page. */
  list(params: FbsListParams = {}, options?: ListOptions): PagePromise<FbsProduct, PageMeta> {
    return this._transport.list(
      { api: 'orders', method: 'GET', path: `${FBS}/products`, query: params, querySchema: FbsListParams, schema: FbsProductsPage, options },
      'products',
    );
  }
}

/** Purchase orders: stock on its way to the warehouse. */
class PurchaseOrders extends APIResource {
  /** `GET /merchants/ecommerce/fbs/purchase_orders`, page by page. */
  list(params: FbsListParams = {}, options?: ListOptions): PagePromise<PurchaseOrder, PageMeta> {
    return this._transport.list(
      { api: 'orders', method: 'GET', path: `${FBS}/purchase_orders`, query: params, querySchema: FbsListParams, schema: PurchaseOrdersPage, options },
      'purchase_orders',
    );
  }

  /**
   * `POST /merchants/ecommerce/fbs/purchase_orders` → `{ success, code }`. Checked before
   * sending: `expected_date` a real `YYYY-MM-DD` date, quantities positive integers,
   * `storage_conditions` 0–3. Not repeated on a lost answer: a second request would create
   * a second purchase order. An answer without `code` (some service versions send only
   * `{ success: true }`) still resolves, `code` absent and reported as drift: the purchase
   * order exists, so look it up in `list()` instead of creating it again.
   */
  create(purchaseOrder: PurchaseOrderInput, options?: RequestOptions): APIPromise<PurchaseOrderCreated> {
    return this._transport.request(() => {
      const body = checkRequest(PurchaseOrderInput, purchaseOrder, 'purchase order');
      return {
        api: 'orders',
        method: 'POST',
        path: `${FBS}/purchase_orders`,
        body,
        schema: PurchaseOrderCreatedAnswer,
        options,
      };
    });
  }

  /** `GET .../purchase_orders/:code/line_items`: expected and counted quantities, every page. */
  lineItems(code: string, options?: RequestOptions): APIPromise<PurchaseOrderLineItem[]> {
    const spec = { api: 'orders', method: 'GET', path: path`/merchants/ecommerce/fbs/purchase_orders/${code}/line_items`, schema: PurchaseOrderLineItemsAnswer, options } as const;
    // The recording's root key, or the spec table's `line_items`; an answer with neither is refused.
    return allPages(this._transport, this._transport.list(spec, 'purchase_order_line_items'), (page) => {
      const items = page.items ?? (page.body as { line_items?: PurchaseOrderLineItem[] | null | undefined }).line_items;
      if (Array.isArray(items)) return items;
      const { status, url, requestId } = page.response;
      throw new ResponseValidationError('the answer has neither purchase_order_line_items nor line_items', {
        issues: [{ path: ['purchase_order_line_items'], message: 'purchase_order_line_items is missing' }],
        status,
        target: { method: 'GET', url },
        ...(requestId === undefined ? {} : { requestId }),
      });
    });
  }
}

/** The shop's suppliers. */
class Suppliers extends APIResource {
  /** `GET /merchants/ecommerce/fbs/suppliers`: every supplier, every page. */
  list(options?: RequestOptions): APIPromise<Supplier[]> {
    return allPages(this._transport, this._transport.list({ api: 'orders', method: 'GET', path: `${FBS}/suppliers`, schema: SuppliersPage, options }, 'suppliers'), (page) => page.items);
  }

  /** `POST /merchants/ecommerce/fbs/suppliers`: resolves to the answer as the service sent it. */
  create(supplier: SupplierInput, options?: RequestOptions): APIPromise<SupplierAnswer> {
    return this._transport.request(() => {
      const body = checkRequest(SupplierInput, supplier, 'supplier');
      return { api: 'orders', method: 'POST', path: `${FBS}/suppliers`, body, schema: SupplierAnswer, options };
    });
  }

  /** `PATCH /merchants/ecommerce/fbs/suppliers/:id` with only the given fields; resolves to the answer as sent. */
  update(id: string, changes: SupplierChanges, options?: RequestOptions): APIPromise<SupplierAnswer> {
    return this._transport.request(() => {
      const body = checkRequest(SupplierChanges, changes, 'supplier changes');
      return {
        api: 'orders',
        method: 'PATCH',
        path: path`/merchants/ecommerce/fbs/suppliers/${id}`,
        body,
        schema: SupplierAnswer,
        // Setting the same fields again changes nothing more.
        idempotent: true,
        options,
      };
    });
  }
}

/**
 * The FBS (fulfilled by the marketplace) warehouse API, the FBS API documentation: the orders token,
 * version 3.0. `products` is the warehouse's stock, `purchaseOrders` bring stock in,
 * `suppliers` are the shop's suppliers.
 */
export class Fbs extends APIResource {
  readonly products = new FbsProducts(this._transport);
  readonly purchaseOrders = new PurchaseOrders(this._transport);
  readonly suppliers = new Suppliers(this._transport);
}
