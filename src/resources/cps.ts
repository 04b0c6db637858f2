import * as z from 'zod/mini';
import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { path } from '../core/paths.js';
import type { Answered, APIPromise } from '../core/api-promise.js';
import type { RequestOptions, RequestSpec } from '../core/transport.js';
import { checkRequest, lazy } from '../schemas/common.js';
import { type CpsOrder, CpsOrderEnvelope, CpsRejectParams } from '../schemas/cps.js';
import { SuccessAnswer } from '../schemas/common.js';
import { actOnce } from './orders/lost-answer.js';
import { APIResource } from './resource.js';

/** Options of `cps.reject`: the request options, plus the order as `get` returned it, to check the reason before sending. */
export interface CpsRejectCallOptions extends RequestOptions {
  order?: Pick<CpsOrder, 'code' | 'reject_options'> | undefined;
}

const orderPath = (code: string) => path`/merchants/cps/orders/${code}`;
const getSpec = (code: string, options: RequestOptions | undefined): RequestSpec<z.output<typeof CpsOrderEnvelope>> => ({
  api: 'cps',
  method: 'GET',
  path: orderPath(code),
  schema: CpsOrderEnvelope,
  options,
});
const RejectAnswer = /* @__PURE__ */ lazy(() => z.optional(SuccessAnswer));

/**
 * The CPS orders API (orders of the pay-per-sale programme), the CPS API documentation, with its own
 * token `tokens.cps`. A rejection is sent once, never repeated: when its answer is lost the
 * order is read once, and the call resolves if the order already shows the rejection.
 */
export class Cps extends APIResource {
  /** `GET /merchants/cps/orders/:code`: the order, with `reject_options` while it can be rejected. */
  get(code: string, options?: RequestOptions): APIPromise<CpsOrder> {
    return this._transport.request(getSpec(code, options), (body) => body.order);
  }

  /**
   * `POST /merchants/cps/orders/:code/reject` with `{ reason: { name, comment? } }`; `other`
   * requires a comment. Pass `{ order }` to have the reason checked against the order's
   * `reject_options` before sending. A repeated reject is answered 422 `order_status`: see
   * `isOrderAlreadyRejected`.
   */
  reject(code: string, reason: CpsRejectParams, options?: CpsRejectCallOptions): APIPromise<void> {
    return this._transport.call(async () => {
      const { order, ...requestOptions } = options ?? {};
      const checked = checkRequest(CpsRejectParams, reason, 'rejection reason', ['reason']);
      const issues = order ? checkAgainstOrder(code, checked, order) : [];
      if (issues.length) throw new RequestValidationError('The rejection does not fit the order', issues);
      const send = () =>
        this._transport.send({
          api: 'cps',
          method: 'POST',
          path: path`/merchants/cps/orders/${code}/reject`,
          body: { reason: checked },
          schema: RejectAnswer,
          options: requestOptions,
        });
      const read = () =>
        this._transport.send(getSpec(code, { ...requestOptions, maxRetries: 0 })).then((answer) => ({ order: answer.body.order, answer }));
      const answer = await actOnce<CpsOrder, Answered>(send, read, (current) => current.rejection_reason != null);
      return { data: undefined, answer };
    });
  }
}

function checkAgainstOrder(code: string, reason: CpsRejectParams, order: Pick<CpsOrder, 'code' | 'reject_options'>): ValidationIssue[] {
  if (order.code !== code) {
    return [{ path: ['order', 'code'], message: `expected ${JSON.stringify(code)}, got ${JSON.stringify(order.code)}` }];
  }
  const offered = order.reject_options;
  if (!offered?.length) return [{ path: ['order', 'reject_options'], message: 'the order offers no reject_options: it can no longer be rejected' }];
  const option = offered.find((o) => o.name === reason.name);
  if (!option) {
    return [{ path: ['reason', 'name'], message: `${JSON.stringify(reason.name)} is not among the order's reject_options (${offered.map((o) => o.name).join(', ')})` }];
  }
  if (option.requires_additional_comment === true && reason.comment === undefined) {
    return [{ path: ['reason', 'comment'], message: `is required for ${JSON.stringify(reason.name)}` }];
  }
  return [];
}
