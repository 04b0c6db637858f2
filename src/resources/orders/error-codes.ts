import { ApiError, type NotFoundError, type UnprocessableEntityError } from '../../core/errors.js';

/** The error codes that the Orders and Products APIs answer with. */
export const ORDER_ERROR_CODES = {
  /** 404 unknown order; 422 order not eligible for set_as_ready / set_as_not_ready. */
  orderError: 'order_error',
  /** 422 the order's state forbids the action, e.g. `Order already accepted.` */
  orderStatus: 'order_status',
  /** 400 Products API payload malformed (missing field, wrong type, not an array). */
  invalidFormat: 'invalid_format',
  /** 400 more than 500 products in one batch. */
  invalidBatchSize: 'invalid_batch_size',
  /** 422 the shop may not update now: a bad shop state, or its XML feed is being scanned. */
  invalidShopState: 'invalid_shop_state',
} as const;

export type OrderErrorCode = (typeof ORDER_ERROR_CODES)[keyof typeof ORDER_ERROR_CODES];

/** True when `error` is an `ApiError` whose wire body carries `code` (in any of its entries). */
export function hasErrorCode(error: unknown, code: OrderErrorCode | (string & {})): error is ApiError {
  return error instanceof ApiError && error.errors.some((e) => e.code === code);
}

function mentions(error: ApiError, pattern: RegExp): boolean {
  return error.errors.some((e) => e.messages.some((m) => pattern.test(m)));
}

/** 422 `order_status` "Order already accepted.": a repeated accept; usually safe to treat as done. */
export function isOrderAlreadyAccepted(error: unknown): error is UnprocessableEntityError {
  return (
    hasErrorCode(error, ORDER_ERROR_CODES.orderStatus) && error.status === 422 && mentions(error, /already accepted/i)
  );
}

/** 422 `order_status` "Order already rejected.": a repeated reject (Orders API and CPS orders); usually safe to treat as done. */
export function isOrderAlreadyRejected(error: unknown): error is UnprocessableEntityError {
  return (
    hasErrorCode(error, ORDER_ERROR_CODES.orderStatus) && error.status === 422 && mentions(error, /already rejected/i)
  );
}

/** 404 from the Orders API: no order with that code (`order_error` "Order not found", or no body). */
export function isOrderNotFound(error: unknown): error is NotFoundError {
  return error instanceof ApiError && error.status === 404 && (error.code === undefined || error.code === 'order_error');
}

/**
 * 422 `order_error` from set_as_ready ("Order is not eligible to be marked as ready") or
 * set_as_not_ready ("Order is not eligible for undo"): the order's state does not allow it.
 * `canSetAsReady` / `canSetAsNotReady` tell why before calling.
 */
export function isNotEligibleForReady(error: unknown): error is UnprocessableEntityError {
  return hasErrorCode(error, ORDER_ERROR_CODES.orderError) && error.status === 422 && mentions(error, /not eligible/i);
}

/**
 * 422 `invalid_shop_state` "We are currently scanning your XML. Please try again later.":
 * a passing condition, unlike the other `invalid_shop_state` answer (a shop state that
 * forbids updates). `products.updateMany` waits it out by itself.
 */
export function isShopBusy(error: unknown): error is UnprocessableEntityError {
  return hasErrorCode(error, ORDER_ERROR_CODES.invalidShopState) && error.status === 422 && mentions(error, /scanning/i);
}
