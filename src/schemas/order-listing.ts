/**
 * The orders listing shop plugins use (`GET /merchants/ecommerce/orders`): not in the service's
 * documentation. Its query is checked before sending; its pages are `{ orders, meta }`.
 */
import * as z from 'zod/mini';
import { listPage, type PageMeta, strict } from './catalog/base.js';
import { integer, lazy, nonEmptyString, type Schema } from './common.js';
import { Order, type OrderState } from './order.js';

export const OrdersListParams = /* @__PURE__ */ lazy(() =>
  strict({
    /** Only orders in this state, e.g. `'open'` (shop plugins list `state=open`). */
    state: z.optional(nonEmptyString() as unknown as z.ZodMiniType<OrderState, OrderState>),
    /** 1-based; default the first page. */
    page: z.optional(integer(1)),
    /** Page size (shop plugins ask for 50; the service's maximum is not shown). */
    per: z.optional(integer(1)),
  }),
);
/** `orders.list`'s query: `state`, `page`, `per`. */
export interface OrdersListParams extends z.input<typeof OrdersListParams> {}

/** One page of the listing: `{ orders: Order[], meta }`. */
export const OrdersPage: Schema<{ orders: Order[]; meta?: PageMeta | null }> = /* @__PURE__ */ listPage('orders', Order);
