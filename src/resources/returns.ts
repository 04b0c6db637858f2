import type { Answered, APIPromise } from '../core/api-promise.js';
import { ApiError, RequestValidationError, type UnprocessableEntityError, type ValidationIssue } from '../core/errors.js';
import { path } from '../core/paths.js';
import type { RequestOptions, RequestSpec } from '../core/transport.js';
import * as z from 'zod/mini';
import { checkRequest, lazy } from '../schemas/common.js';
import { SuccessAnswer } from '../schemas/common.js';
import { type Return, ReturnEnvelope, type ReviewOption, ReviewParams } from '../schemas/returns.js';
import { actOnce } from './orders/lost-answer.js';
import { APIResource } from './resource.js';

const returnPath = (code: string) => path`/merchants/ecommerce/returns/${code}`;
/** The review's answer: `{ success: true }`, or an empty 2xx (the decision was taken all the same, as for order actions). */
const ReviewAnswer = /* @__PURE__ */ lazy(() => z.optional(SuccessAnswer));
const getSpec = (code: string, options: RequestOptions | undefined): RequestSpec<{ return: Return }> => ({
  api: 'orders',
  method: 'GET',
  path: returnPath(code),
  schema: ReturnEnvelope,
  options,
});

/**
 * The Returns API (the service's documentation marks it "under development"): read a return,
 * and review one that awaits the merchant's decision. It uses the orders token. Return codes
 * come from the returns webhook; `DEMO-RETURN` is a sandbox return that always answers.
 *
 * A review is sent once, never repeated: when its answer is lost (time-out, dropped
 * connection) the return is read once, and the call resolves if the return already shows the
 * decision (approve → `returning`, `send_missing_part` → `cancelled`, a reject option →
 * `rejected`); otherwise the original `ConnectionError` / `TimeoutError` is thrown.
 */
export class Returns extends APIResource {
  /** `GET /merchants/ecommerce/returns/:return_code`: the return, with `review_options` while it awaits review. */
  get(returnCode: string, options?: RequestOptions): APIPromise<Return> {
    return this._transport.request(getSpec(returnCode, options), (body) => body.return);
  }

  /**
   * `POST /merchants/ecommerce/returns/:return_code/review`: one decision per return, taken
   * once: `approve`, a reject option, or `send_missing_part` (which only cancels the return
   * and e-mails the customer: the merchant ships the part outside this call).
   *
   * Pass the return itself (as `get` or a webhook event gave it) rather than its code to have
   * the decision checked against its `review_options` before sending: an option it does not
   * offer, or a blank `comment` where the option has `comment_required: true`, is a
   * `RequestValidationError`. A `comment` over 1000 characters is refused in any case. A
   * return that no longer awaits review is answered 422 `return_status`: see `isReturnNotReviewable`.
   */
  review(returnCodeOrReturn: string | Return, params: ReviewParams, options?: RequestOptions): APIPromise<SuccessAnswer> {
    return this._transport.call(async () => {
      const given = typeof returnCodeOrReturn === 'string' ? undefined : returnCodeOrReturn;
      const code = typeof returnCodeOrReturn === 'string' ? returnCodeOrReturn : codeOf(returnCodeOrReturn);
      const decision = checkRequest(ReviewParams, params, 'review', []);
      const offered = given?.review_options;
      const issues = Array.isArray(offered) ? checkAgainstOptions(decision, offered) : [];
      if (issues.length) throw new RequestValidationError('The review does not fit the return', issues);
      const send = () =>
        this._transport.send({
          api: 'orders',
          method: 'POST',
          path: path`/merchants/ecommerce/returns/${code}/review`,
          body: decision,
          schema: ReviewAnswer,
          options,
        });
      // One read, as for order actions: its own retries would delay the original error.
      const read = () =>
        this._transport.send(getSpec(code, { ...options, maxRetries: 0 })).then((answer) => ({ order: answer.body.return, answer: { data: { success: true }, answer } }));
      const expected = stateAfter(decision.option);
      // A lost answer settled by the read resolves as the service would have answered.
      const sent = () => send().then((answer) => ({ data: answer.body ?? { success: true }, answer }));
      return actOnce<Return, { data: SuccessAnswer; answer: Answered }>(sent, read, (current) => current.state === expected);
    });
  }
}

/**
 * 422 `return_status`: the return no longer awaits the merchant's review (decided already,
 * expired, cancelled, or never awaiting it, as `DEMO-RETURN`).
 */
export function isReturnNotReviewable(error: unknown): error is UnprocessableEntityError {
  return error instanceof ApiError && error.status === 422 && error.errors.some((e) => e.code === 'return_status');
}

/** The state a decision moves a return to. */
function stateAfter(option: string): string {
  if (option === 'approve') return 'returning';
  return option === 'send_missing_part' ? 'cancelled' : 'rejected';
}

function codeOf(given: Return): string {
  const code = typeof given === 'object' && given !== null ? (given as { return_code?: unknown }).return_code : undefined;
  if (typeof code !== 'string') {
    throw new RequestValidationError('Invalid return', [{ path: ['return_code'], message: 'expected the return (with its return_code) or a return code' }]);
  }
  return code;
}

function checkAgainstOptions(decision: ReviewParams, offered: readonly (ReviewOption | null | undefined)[]): ValidationIssue[] {
  const option = offered.find((o) => o?.option === decision.option);
  if (!option) {
    const names = offered.map((o) => o?.option).filter((name) => typeof name === 'string');
    return [{ path: ['option'], message: `${JSON.stringify(decision.option)} is not among the return's review_options (${names.join(', ')})` }];
  }
  if (option.comment_required === true && (decision.comment ?? '').trim() === '') {
    return [{ path: ['comment'], message: `is required for ${JSON.stringify(decision.option)}` }];
  }
  return [];
}
