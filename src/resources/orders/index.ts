import type { Answered, APIPromise } from '../../core/api-promise.js';
import * as z from 'zod/mini';
import { RequestValidationError } from '../../core/errors.js';
import { path } from '../../core/paths.js';
import type { PagePromise } from '../../core/pagination.js';
import type { QueryParams } from '../../core/query.js';
import { type ListOptions, noData, type RequestOptions, type RequestSpec } from '../../core/transport.js';
import { listPage, type PageMeta } from '../../schemas/catalog/base.js';
import { OrdersListParams, OrdersPage } from '../../schemas/order-listing.js';
import { checkRequest, lazy } from '../../schemas/common.js';
import {
  AcceptParams,
  Order,
  OrderEnvelope,
  type RejectOptions,
  RejectParams,
  type TrackingDetail,
  TrackingDetails,
} from '../../schemas/order.js';
import { RelocateParams, RescheduleParams } from '../../schemas/pickup-moves.js';
import { SuccessAnswer } from '../../schemas/common.js';

import { APIResource } from '../resource.js';
import { adoptSpelling, inSpelling, type VendorSpelling } from '../../schemas/vendor.js';
import { canSetAsNotReady, canSetAsReady, type Eligibility, type EligibilityOrder } from './eligibility.js';
import { type InvoiceFile, invoiceForm, type InvoiceKind } from './invoice.js';
import { actOnce } from './lost-answer.js';
import { checkRejection } from './reject-check.js';

export {
  canSetAsNotReady,
  canSetAsReady,
  type Eligibility,
  type EligibilityOptions,
  type EligibilityOrder,
} from './eligibility.js';
export {
  hasErrorCode,
  isNotEligibleForReady,
  isOrderAlreadyAccepted,
  isOrderAlreadyRejected,
  isOrderExpress,
  isOrderNotFound,
  isShopBusy,
  ORDER_ERROR_CODES,
  type OrderErrorCode,
} from './error-codes.js';
export { type InvoiceFile, MAX_INVOICE_BYTES } from './invoice.js';

/** Options of `reject`: the request options, plus what the order offered, to check the rejection before sending. */
export interface RejectCallOptions extends RequestOptions {
  /** The order as `get` returned it: its `reject_options` and `line_items` are checked against. */
  order?: Pick<Order, 'code' | 'line_items' | 'reject_options'> | undefined;
  /** The order's `reject_options`, when the order itself is not at hand. */
  rejectOptions?: RejectOptions | undefined;
}

/** Options of `get`: the request options, and whether to ask for the pickup-move options. */
export interface GetOrderOptions extends RequestOptions {
  /**
   * Also return `reschedule_options` and `relocate_options` (`?action_options=1`): the dates
   * and pickup locations an accepted order may move to right now.
   */
  actionOptions?: boolean | undefined;
}

/** Second argument of `setAsReady` / `setAsNotReady`. */
export interface ReadyParams {
  /** The order as the SDK returned it: checked with `canSetAsReady` / `canSetAsNotReady` before sending. */
  order?: EligibilityOrder & Pick<Order, 'code'> | undefined;
}

/** What a sandbox trigger asks the service to deliver (the sandbox documentation). */
export const WEBHOOK_TRIGGER_KINDS = ['creation', 'voucher_update', 'extension', 'cancellation'] as const;
export type WebhookTriggerKind = (typeof WEBHOOK_TRIGGER_KINDS)[number];
const TriggerKind = /* @__PURE__ */ lazy(() => z.enum(WEBHOOK_TRIGGER_KINDS, { error: `expected one of ${WEBHOOK_TRIGGER_KINDS.join(', ')}` }));

/** An action's answer: `{ success: true }`, or an empty answer. */
const ActionAnswer = /* @__PURE__ */ lazy(() => z.optional(SuccessAnswer));
const CREDIT_INVOICE: InvoiceKind = { field: 'credit_invoice_file', name: 'credit invoice' };
/** What the later order actions resolve: the answer as sent; an empty 2xx reads as `{ success: true }`. */
const successOf = (answer: SuccessAnswer | undefined): SuccessAnswer => answer ?? { success: true };

function checkSameOrder(code: string, order: Pick<Order, 'code'> | undefined): void {
  if (order && order.code !== code) {
    throw new RequestValidationError('The order passed is not the order acted on', [
      { path: ['order', 'code'], message: `expected ${JSON.stringify(code)}, got ${JSON.stringify(order.code)}` },
    ]);
  }
}

function refuseIneligible(action: string, eligibility: Eligibility): void {
  if (!eligibility.ok) {
    throw new RequestValidationError(
      `The order cannot be ${action}`,
      eligibility.reasons.map((message) => ({ path: ['order'], message })),
    );
  }
}

/** The listing's page schema in a vendor's spelling, built once per spelling. */
const spelledPages = new WeakMap<VendorSpelling, typeof OrdersPage>();
const spelledPage = (spelling: VendorSpelling): typeof OrdersPage => {
  let page = spelledPages.get(spelling);
  if (page === undefined) {
    page = listPage('orders', inSpelling(Order, spelling)) as unknown as typeof OrdersPage;
    spelledPages.set(spelling, page);
  }
  return page;
};

const orderPath = (code: string) => path`/merchants/ecommerce/orders/${code}`;
const getSpec = (code: string, spelling: VendorSpelling | undefined, options: GetOrderOptions | undefined): RequestSpec<OrderEnvelope> => {
  if (options?.actionOptions === undefined) return { api: 'orders', method: 'GET', path: orderPath(code), schema: inSpelling(OrderEnvelope, spelling), options };
  const { actionOptions, ...requestOptions } = options;
  if (typeof actionOptions !== 'boolean') {
    throw new RequestValidationError('Invalid order options', [{ path: ['actionOptions'], message: 'expected a boolean' }]);
  }
  return {
    api: 'orders',
    method: 'GET',
    path: orderPath(code),
    ...(actionOptions ? { query: { action_options: 1 } } : {}),
    schema: inSpelling(OrderEnvelope, spelling),
    options: requestOptions,
  };
};

/**
 * Orders API (the merchant API documentation). Order actions are sent exactly once, never retried: when an
 * answer is lost (time-out, dropped connection), accept, reject, setAsReady and
 * setAsNotReady read the order once and resolve if it already shows the effect;
 * otherwise they throw the original `ConnectionError` / `TimeoutError`.
 */
export class Orders extends APIResource {
  /**
   * GET /merchants/ecommerce/orders/:code: the order, with `accept_options` / `reject_options`
   * while it is open. With `{ actionOptions: true }` also `reschedule_options` and
   * `relocate_options`, for `reschedulePickup` / `relocatePickup`.
   */
  get(code: string, options?: GetOrderOptions): APIPromise<Order> {
    const spelling = this._transport.vendorSpelling;
    // Built inside the call only when there is an option to check (most reads have none).
    const spec = options?.actionOptions === undefined ? getSpec(code, spelling, options) : () => getSpec(code, spelling, options);
    return this._transport.request(spec, (body) => adoptSpelling(body.order, spelling));
  }

  /**
   * GET /merchants/ecommerce/orders: the shop's orders, page by page (`{ state: 'open' }` for the
   * ones awaiting acceptance), with the usual `Link` / `meta.pagination` paging. The service's
   * documentation does not show this endpoint: shop plugins use it (`?state=open&per=50`). A
   * service that does not offer it to the shop answers 404 or 405: the call rejects with a
   * `NotFoundError` saying the listing is not available for this shop. The query is checked
   * before sending (`state` a non-empty string, `page` and `per` positive integers).
   *
   * @example
   * for await (const order of client.orders.list({ state: 'open', per: 50 })) console.log(order.code, order.expires_at);
   */
  list(params: OrdersListParams = {}, options?: ListOptions): PagePromise<Order, PageMeta> {
    const spelling = this._transport.vendorSpelling;
    return this._transport.list(
      {
        api: 'orders',
        method: 'GET',
        path: '/merchants/ecommerce/orders',
        query: params as QueryParams,
        querySchema: OrdersListParams,
        schema: spelling === undefined ? OrdersPage : spelledPage(spelling),
        unavailable: 'the orders listing is not available for this shop; it is not in the service\'s documentation',
        options,
      },
      'orders',
      spelling === undefined ? undefined : (order) => adoptSpelling(order, spelling),
    );
  }

  /**
   * POST .../orders/:code/accept with ids from the order's `accept_options`. Express orders
   * cannot be accepted through the API (an automated mechanism accepts them). A repeated
   * accept is answered 422 `order_status`: see `isOrderAlreadyAccepted`.
   */
  accept(code: string, params: AcceptParams, options?: RequestOptions): APIPromise<void> {
    return this._transport.call(() => {
      const body = checkRequest(AcceptParams, params, 'accept parameters');
      return this.#act(code, 'accept', body, options, (order) => order.state === 'accepted');
    });
  }

  /**
   * POST .../orders/:code/reject: either chosen line items, each with a `reason_id` from the
   * order's `reject_options` (and `available_quantity` when the reason requires it), or
   * the whole order with `rejection_reason_other`.
   *
   * Pass `{ order }` (or `{ rejectOptions }`) to have reason ids, required quantities and
   * line item ids checked before sending.
   */
  reject(code: string, params: RejectParams, options?: RejectCallOptions): APIPromise<void> {
    return this._transport.call(() => {
      const { order, rejectOptions, ...requestOptions } = options ?? {};
      const body = checkRequest(RejectParams, params, 'reject parameters');
      checkSameOrder(code, order);
      const issues = checkRejection(body, order, rejectOptions);
      if (issues.length) throw new RequestValidationError('The rejection does not fit the order', issues);
      return this.#act(code, 'reject', body, requestOptions, (current) => current.state === 'rejected');
    });
  }

  /**
   * POST .../orders/:code/invoices (multipart field `invoice_file`): the receipt or invoice.
   * One file per order; a later upload replaces the earlier one. The type is decided from
   * the file's first bytes (PDF, PNG or JPEG), the size is at most 7 MiB; the file name
   * defaults to `invoice.<detected extension>` (a `File`'s own name, with that extension).
   * Resolves to the service's answer as sent, `{ success: true }` (the documentation does not
   * show it; `undefined` for an empty answer).
   */
  uploadInvoice(code: string, file: InvoiceFile, params?: { filename?: string | undefined }, options?: RequestOptions): APIPromise<SuccessAnswer | undefined> {
    return this._transport.call(async () => {
      const form = await invoiceForm(file, params?.filename);
      const answer = await this._transport.send({
        api: 'orders',
        method: 'POST',
        path: path`/merchants/ecommerce/orders/${code}/invoices`,
        form,
        schema: ActionAnswer,
        options,
      });
      return { data: answer.body, answer };
    });
  }

  /**
   * POST .../orders/:code/set_as_ready: ready for pickup by the marketplace's last-mile
   * courier (the Orders API documentation's rule 3). Required for shops in the Set as Ready programme
   * (`set_as_ready_required: true`) from 2026-03-30: for them a voucher download no longer
   * marks the order ready. Pass `{ order }` to check `canSetAsReady` before sending.
   */
  setAsReady(code: string, params?: ReadyParams, options?: RequestOptions): APIPromise<void> {
    return this._transport.call(() => {
      if (params?.order) {
        checkSameOrder(code, params.order);
        refuseIneligible('set as ready', canSetAsReady(params.order, { vendor: this._transport.vendorSpelling?.vendor }));
      }
      return this.#act(code, 'set_as_ready', undefined, options, (order) => order.is_ready_for_dispatch === true);
    });
  }

  /**
   * POST .../orders/:code/set_as_not_ready: undo `setAsReady` before pickup (the merchant API documentation,
   * rule 4). Pass `{ order }` to check `canSetAsNotReady` before sending.
   */
  setAsNotReady(code: string, params?: ReadyParams, options?: RequestOptions): APIPromise<void> {
    return this._transport.call(() => {
      if (params?.order) {
        checkSameOrder(code, params.order);
        refuseIneligible('set as not ready', canSetAsNotReady(params.order, { vendor: this._transport.vendorSpelling?.vendor }));
      }
      return this.#act(code, 'set_as_not_ready', undefined, options, (order) => order.is_ready_for_dispatch === false);
    });
  }

  /**
   * POST .../orders/:code/tracking_details: one `{ courier, tracking_code }` per outgoing
   * shipment. Merchant-fulfilled (FBM) orders only; returns are handled in the merchant panel.
   */
  sendTrackingDetails(code: string, trackingDetails: TrackingDetail[], options?: RequestOptions): APIPromise<void> {
    return this._transport.request(() => {
      const tracking_details = checkRequest(TrackingDetails, trackingDetails, 'tracking details', ['tracking_details']);
      return {
        api: 'orders',
        method: 'POST',
        path: path`/merchants/ecommerce/orders/${code}/tracking_details`,
        body: { tracking_details },
        schema: ActionAnswer,
        options,
      };
    }, noData);
  }

  /**
   * POST .../orders/:code/reschedule_pickup: moves an accepted order's pickup **date** to a
   * `date` of its `reschedule_options` (read them with `get(code, { actionOptions: true })`
   * right before: the list changes with time, and a date no longer offered is refused with
   * 422 `reschedule_date`, never moved elsewhere). Not for FBS, FBM, store-pickup or express
   * orders (422 `order_status`). Sent once; a lost answer is settled by reading the order's
   * pickup window.
   */
  reschedulePickup(code: string, params: RescheduleParams, options?: RequestOptions): APIPromise<SuccessAnswer> {
    return this._transport.call(() => {
      const body = checkRequest(RescheduleParams, params, 'reschedule parameters');
      const moved = (order: Order) => typeof order.pickup_window?.from === 'string' && order.pickup_window.from.startsWith(body.reschedule_date);
      const send = () =>
        this._transport
          .send({ api: 'orders', method: 'POST', path: path`/merchants/ecommerce/orders/${code}/reschedule_pickup`, body, schema: ActionAnswer, options })
          .then((answer) => ({ data: successOf(answer.body), answer: answer as Answered }));
      // The order already on the new date: the lost request took effect.
      const read = () => this.#readOnce(code, options).then(({ order, answer }) => ({ order, answer: { data: { success: true }, answer } }));
      return actOnce(send, read, moved);
    });
  }

  /**
   * POST .../orders/:code/relocate_pickup: moves an accepted order's pickup **location** to an
   * `id` of its `relocate_options`, keeping date and slot; the courier is chosen again and a
   * new voucher may follow. Refused with 422 `pickup_location` for a location not offered.
   * Sent once, never repeated: after a lost answer, read the order before trying again.
   */
  relocatePickup(code: string, params: RelocateParams, options?: RequestOptions): APIPromise<SuccessAnswer> {
    return this._transport.request(() => {
      const body = checkRequest(RelocateParams, params, 'relocate parameters');
      return { api: 'orders', method: 'POST', path: path`/merchants/ecommerce/orders/${code}/relocate_pickup`, body, schema: ActionAnswer, options };
    }, successOf);
  }

  /**
   * POST .../orders/:code/request_voucher: dispatch an accepted preorder early (the panel's
   * "create voucher now"); the service picks location and window. The voucher comes later,
   * in an `order_updated` event and the order's `courier_voucher`. An ineligible order is
   * 422 `order_error`. Sent once, never repeated.
   */
  requestVoucher(code: string, options?: RequestOptions): APIPromise<SuccessAnswer> {
    return this._transport.request(
      { api: 'orders', method: 'POST', path: path`/merchants/ecommerce/orders/${code}/request_voucher`, schema: ActionAnswer, options },
      successOf,
    );
  }

  /**
   * POST .../orders/:code/credit_invoices (multipart field `credit_invoice_file`): the credit
   * invoice of an accepted order that was cancelled or returned after its fiscal document was
   * issued. The file rules of `uploadInvoice`: PDF, PNG or JPEG by its first bytes, at most
   * 7 MiB, checked before sending; one per order, a new upload replaces it. Sent once.
   */
  uploadCreditInvoice(code: string, file: InvoiceFile, params?: { filename?: string | undefined }, options?: RequestOptions): APIPromise<SuccessAnswer> {
    return this._transport.call(async () => {
      const form = await invoiceForm(file, params?.filename, CREDIT_INVOICE);
      const answer = await this._transport.send({
        api: 'orders',
        method: 'POST',
        path: path`/merchants/ecommerce/orders/${code}/credit_invoices`,
        form,
        schema: ActionAnswer,
        options,
      });
      return { data: successOf(answer.body), answer };
    });
  }

  /**
   * Sandbox only: POST .../orders/:code/trigger_webhook_request/:kind asks the service to send
   * a test delivery for a demo order (`DEMO-OPEN`...) to the shop's webhook URL: `creation`
   * → `new_order`; `voucher_update`, `extension`, `cancellation` → `order_updated`. Resolves
   * `{ success: true }`; the delivery follows within seconds to minutes. Not retried: each
   * request sends a delivery.
   */
  triggerWebhook(code: string, kind: WebhookTriggerKind, options?: RequestOptions): APIPromise<SuccessAnswer> {
    return this._transport.request(() => {
      const checked = checkRequest(TriggerKind, kind, 'webhook trigger', ['kind']);
      return {
        api: 'orders',
        method: 'POST',
        path: path`/merchants/ecommerce/orders/${code}/trigger_webhook_request/${checked}`,
        schema: SuccessAnswer,
        options,
      };
    });
  }

  /** One order action, sent once; a lost answer is settled by reading the order. */
  #act(
    code: string,
    action: 'accept' | 'reject' | 'set_as_ready' | 'set_as_not_ready',
    body: unknown,
    options: RequestOptions | undefined,
    hasEffect: (order: Order) => boolean,
  ): Promise<{ data: undefined; answer: Answered }> {
    const send = () =>
      this._transport.send({
        api: 'orders',
        method: 'POST',
        path: path`/merchants/ecommerce/orders/${code}/${action}`,
        body,
        schema: ActionAnswer,
        options,
      });
    return actOnce<Order, Answered>(send, () => this.#readOnce(code, options), hasEffect).then((answer) => ({ data: undefined, answer }));
  }

  /** The one read that settles a lost answer: no retries of its own, which would delay the original error. */
  #readOnce(code: string, options: RequestOptions | undefined): Promise<{ order: Order; answer: Answered }> {
    return this._transport.send(getSpec(code, this._transport.vendorSpelling, { ...options, maxRetries: 0 })).then((answer) => ({ order: answer.body.order, answer }));
  }
}
