/**
 * Every error the SDK throws. One class per failure kind, one copy of each class:
 * `emporio` and `emporio/webhooks` import this module from a shared chunk, so
 * `instanceof` works whichever entry the caller imported from.
 */

import type { ApiName } from './api-name.js';

/** One entry of the wire error body `{ errors: [{ code, messages }] }`. */
export interface WireError {
  /** The service's error code, such as `OrderNotFound`: what `hasErrorCode` and the `is...` helpers test. */
  code: string;
  /** Human-readable explanations, in the service's words. */
  messages: string[];
}

/** A problem found in input before sending, or in an answer after receiving. */
export interface ValidationIssue {
  /** Where the problem is, as a JSON path (`['line_items', 0, 'reason_id']`). */
  path: readonly PropertyKey[];
  /** What is wrong there. */
  message: string;
}

/** Where a request went: method and URL, with secrets already removed from the URL. */
export interface RequestTarget {
  /** The HTTP method, such as `GET`. */
  method: string;
  /** The URL, without tokens or secrets. */
  url: string;
}

/** Every error the SDK throws (an abort excepted: that rejects with your signal's reason). */
export class EmporioError extends Error {
  override name = 'EmporioError';
}

/** Base for failures tied to one request: carries its method, URL and request id. */
abstract class RequestFailure extends EmporioError {
  /** The request's HTTP method, when the failure is tied to a request. */
  readonly method: string | undefined;
  /** The request's URL with tokens and secrets removed. */
  readonly url: string | undefined;
  /** The service's `X-Request-Id` for the answer, when it sent one: quote it to the marketplace's support. */
  readonly requestId: string | undefined;

  constructor(message: string, target?: RequestTarget, requestId?: string, options?: ErrorOptions) {
    super(message, options);
    this.method = target?.method;
    this.url = target?.url;
    this.requestId = requestId;
  }
}

export interface ApiErrorInit {
  /** The answer's HTTP status. */
  status: number;
  /** The body's `{ errors }` entries (empty when the body had another form). */
  errors: WireError[];
  /** The answer's headers. */
  headers: Headers;
  /** The request that got the answer. */
  target?: RequestTarget | undefined;
  /** Readable text when the body carried no `{ errors }`: a rate-limit `{ message }`, or an excerpt of a non-JSON body. */
  detail?: string | undefined;
  /** Appended to the message, e.g. which permission the call needs. */
  hint?: string | undefined;
  /** Which token the call used: an `AuthenticationError` names it. */
  api?: ApiName | undefined;
}

/** The service answered with HTTP 4xx or 5xx. */
export class ApiError extends RequestFailure {
  override name = 'ApiError';
  /** The answer's HTTP status: 400 to 599, or a 2xx whose body was the `{ errors }` form (the service refusing all the same). */
  readonly status: number;
  /** The first error's code, when the body had the `{ errors }` form. */
  readonly code: string | undefined;
  /** Every `{ code, messages }` entry of the body; empty when the body had another form. */
  readonly errors: WireError[];
  /** The answer's headers, credentials scrubbed (rate-limit figures, `Retry-After`, `X-Request-Id`). */
  readonly headers: Headers;

  constructor(init: ApiErrorInit) {
    const requestId = init.headers.get('x-request-id') ?? undefined;
    super(describe(init), init.target, requestId);
    this.status = init.status;
    this.errors = init.errors;
    this.code = init.errors[0]?.code;
    this.headers = init.headers;
  }
}

function describe(init: ApiErrorInit): string {
  const texts = init.errors.flatMap((e) => (e.messages.length ? e.messages : [e.code]));
  const text = texts.length ? texts.join('; ') : init.detail || 'no details in the answer';
  const code = init.errors[0]?.code;
  const where = init.target ? ` (${init.target.method} ${init.target.url})` : '';
  const explained = init.hint ?? wireCodeHint(init.status, init.errors);
  const hint = explained ? ` (${explained})` : '';
  return `${init.status}${code ? ` ${code}` : ''}: ${text}${hint}${where}`;
}

export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}
/**
 * The service refused the call's key or token (401, or the wire code
 * `EcommerceMerchantUnauthorized` whatever the status). `api` says which token the call
 * used; the message names it and what to do, never the token itself. Not retried.
 */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
  /** Which token the call used (FBS calls use the orders key). */
  readonly api: ApiName;

  constructor(init: ApiErrorInit & { api: ApiName }) {
    super(init);
    this.api = init.api;
    this.message = `${refusedKey(init.api)}. ${this.message}`;
  }
}

/** What a refusal means for each token, and what to do about it. */
function refusedKey(api: ApiName): string {
  const newKey = 'generate a new one in the merchant panel (a new key expires the old one)';
  const newToken = 'it may have expired; get a new one';
  switch (api) {
    case 'orders':
      return `the Orders API key was refused: ${newKey}`;
    case 'products':
      return `the Products API key was refused: ${newKey}`;
    case 'cps':
      return "the CPS orders API key was refused: generate a new one in the shop's CPS order settings";
    case 'catalog':
      return `the catalog API token was refused: ${newToken}`;
    case 'account':
      return `the account API user token was refused: ${newToken}`;
    case 'legacyV2':
      return 'the legacy v2 access token was refused: call legacyV2.authenticate() again';
  }
}

/** The wire code the Orders API has been seen to refuse a key with, at statuses other than 401 (the service's documentation today). */
const MERCHANT_UNAUTHORIZED = 'EcommerceMerchantUnauthorized';
/**
 * The FBS API's 401 for a purchase order of another shop: the key was accepted, the purchase
 * order is not the shop's. Taken for a refused key, it would send users to generate a new
 * key, which expires the shop's working one.
 */
const FOREIGN_PURCHASE_ORDER = 'purchase_order_error';

const isForeignPurchaseOrder = (status: number, errors: readonly WireError[]) =>
  status === 401 && errors.some((e) => e.code === FOREIGN_PURCHASE_ORDER);

/** What a wire code means when its status alone would mislead. */
function wireCodeHint(status: number, errors: readonly WireError[]): string | undefined {
  return isForeignPurchaseOrder(status, errors)
    ? 'this purchase order belongs to another shop, or does not exist; the key itself was accepted'
    : undefined;
}
/** 403 (the catalog's rate-limit answer) or 429. `reset` is the epoch second the window reopens, when known. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** The epoch second the window reopens (`X-RateLimit-Reset`), when the answer said. */
  get reset(): number | undefined {
    const value = Number(this.headers.get('x-ratelimit-reset'));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  }
}
/**
 * A 403 whose body is the `{ errors }` form: the token lacks a permission, not budget. Also the
 * FBS API's 401 `purchase_order_error`: a purchase order of another shop (the key was accepted).
 */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
export class UnprocessableEntityError extends ApiError {
  override name = 'UnprocessableEntityError';
}
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}
export class NotImplementedError extends ApiError {
  override name = 'NotImplementedError';
}

/**
 * The client-side twin of the service's rate limit: a request refused before sending,
 * because it would cross the daily budget (crossing the real cap expires every token of
 * the client until the next UTC day), or because the service asked this token to wait
 * longer than the SDK waits in silence. Nothing was sent; `status` is 429.
 */
export class RateLimitBudgetError extends RateLimitError {
  override name = 'RateLimitBudgetError';
  /**
   * Epoch second at which requests may go again: the next UTC midnight for the daily
   * budget (`code` 'client_daily_budget'), the time the service asked this token to
   * wait for, by a rate-limit answer longer than the SDK waits out (`code` 'service_wait'),
   * or a moment later when the shared rate-limit store (`rateLimitStore`) did not answer
   * within the call's timeout, as a budgeted request needs (`code` 'store_unavailable').
   */
  readonly retryAt: number;

  constructor(
    message: string,
    retryAt: number,
    target?: RequestTarget,
    code: 'client_daily_budget' | 'service_wait' | 'store_unavailable' = 'client_daily_budget',
  ) {
    super({
      status: 429,
      errors: [{ code, messages: [message] }],
      headers: new Headers(),
      target,
    });
    this.retryAt = retryAt;
  }
}

/** The request got no HTTP answer: DNS, refused or reset connection. */
export class ConnectionError extends RequestFailure {
  override name = 'ConnectionError';
}

/** The attempt took longer than `timeout` milliseconds. */
export class TimeoutError extends RequestFailure {
  override name = 'TimeoutError';
}

/**
 * The answer's body, once decoded, passed the client's `maxResponseBytes`: it was
 * cancelled where it stood. Not retried (the next answer would be as large).
 */
export class ResponseTooLargeError extends RequestFailure {
  override name = 'ResponseTooLargeError';
  /** The limit that was passed, in bytes. */
  readonly limit: number;

  constructor(limit: number, target?: RequestTarget, requestId?: string) {
    const where = target ? ` (${target.method} ${target.url})` : '';
    super(`the answer's body passed maxResponseBytes (${limit} bytes) and was cancelled${where}`, target, requestId);
    this.limit = limit;
  }
}

/**
 * More than 5 redirect hops, a redirect loop, a redirect without a usable Location, or one
 * the SDK refuses to follow (credentials in its URL, https to http).
 */
export class RedirectError extends RequestFailure {
  override name = 'RedirectError';
}

/** Bad input caught before any request was sent; nothing was sent. */
export class RequestValidationError extends EmporioError {
  override name = 'RequestValidationError';
  /** Every problem found, each with its path in your input. */
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, issues: readonly ValidationIssue[] = []) {
    super(issues.length ? `${message}: ${formatIssues(issues)}` : message);
    this.issues = issues;
  }
}

/** A non-empty answer that is not JSON, or does not fit its schema. */
export class ResponseValidationError extends RequestFailure {
  override name = 'ResponseValidationError';
  /** What did not fit, each with its path in the answer. */
  readonly issues: readonly ValidationIssue[];
  /** The answer's HTTP status, when there was an answer. */
  readonly status: number | undefined;

  constructor(
    message: string,
    init: { issues?: readonly ValidationIssue[] | undefined; status?: number | undefined; target?: RequestTarget | undefined; requestId?: string | undefined; cause?: unknown } = {},
  ) {
    const issues = init.issues ?? [];
    const where = init.target ? ` (${init.target.method} ${init.target.url})` : '';
    super(`${issues.length ? `${message}: ${formatIssues(issues)}` : message}${where}`, init.target, init.requestId, {
      cause: init.cause,
    });
    this.issues = issues;
    this.status = init.status;
  }
}

/** The legacy v2 interface answered with an `error` element. */
export class LegacyApiError extends RequestFailure {
  override name = 'LegacyApiError';
  /** The legacy error code, such as `not_found` (see `LEGACY_ERROR_CODES`). */
  readonly code: string;
  /** The legacy error number, when the answer had one. */
  readonly number: number | undefined;
  /** The legacy error's text. */
  readonly text: string;

  constructor(error: { code: string; number?: number | undefined; text: string }, target?: RequestTarget) {
    super(`legacy v2 error ${error.code}${error.number === undefined ? '' : ` (${error.number})`}: ${error.text}`, target);
    this.code = error.code;
    this.number = error.number;
    this.text = error.text;
  }
}

/** A webhook body that is not a valid event. `path` points at the first bad field. */
export class WebhookParseError extends EmporioError {
  override name = 'WebhookParseError';
  /** JSON path of the first bad field (`[]` when the body itself is not JSON or not an object). */
  readonly path: readonly PropertyKey[];
  /** What is wrong there. */
  readonly reason: string;

  constructor(reason: string, path: readonly PropertyKey[] = [], options?: ErrorOptions) {
    super(path.length ? `${reason} at ${formatPath(path)}` : reason, options);
    this.path = path;
    this.reason = reason;
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}

function formatIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, 5).map((i) => (i.path.length ? `${formatPath(i.path)}: ${i.message}` : i.message));
  return shown.join('; ') + (issues.length > 5 ? `; and ${issues.length - 5} more` : '');
}

/** The one status → class mapping; a refused merchant key is an `AuthenticationError` whatever its status. */
export function apiErrorClass(status: number, isRateLimitBody: boolean, errors: readonly WireError[] = []): typeof ApiError {
  if (errors.some((e) => e.code === MERCHANT_UNAUTHORIZED)) return AuthenticationError;
  if (isForeignPurchaseOrder(status, errors)) return PermissionDeniedError;
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return isRateLimitBody ? RateLimitError : PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    case 501:
      return NotImplementedError;
    default:
      return status >= 500 ? InternalServerError : ApiError;
  }
}
