import type * as z from 'zod/mini';
import { toIssues } from '../schemas/common.js';
import { RequestValidationError, type ValidationIssue } from './errors.js';
import { MAX_TIMEOUT_MS, type ApiName } from './options.js';
import type { RequestPath } from './paths.js';
import { encodeQuery, type QueryParams } from './query.js';
import { isHeaderValue } from './text.js';

/** Building a request: what a call asks for, checked before anything is sent. */

/** The optional last argument of every method. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
}

/** Options of a paginated list call. */
export interface ListOptions extends RequestOptions {
  /**
   * Fetch the next page while the caller works on the current one. Off by default: it
   * spends one request more when the caller stops early, and catalog requests are budgeted.
   */
  prefetch?: boolean | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestSpec<T = unknown> {
  api: ApiName;
  method: HttpMethod;
  /** A checked path (see `path`), a fixed path, or an absolute URL (next pages). */
  path: RequestPath | string;
  query?: QueryParams | undefined;
  /**
   * Checks `query` when the request is built, inside the call's promise: a bad parameter
   * rejects it with `RequestValidationError`, also for a `PagePromise`, and nothing is sent.
   */
  querySchema?: z.ZodMiniType | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data. */
  form?: FormData | undefined;
  /** Checks the answer; without it the answer is returned as parsed. */
  schema?: z.ZodMiniType<T> | undefined;
  /** Safe to repeat on a transient failure. Default: only GET. */
  idempotent?: boolean | undefined;
  /** Named in the message of a 401 or 403, e.g. 'favorites'. */
  permission?: string | undefined;
  /**
   * For an endpoint the service's documentation does not show: a 404 or 405 answer means the
   * endpoint is not there, a `NotFoundError` whose message carries this explanation.
   */
  unavailable?: string | undefined;
  /** Legacy v2 `authenticate` carries no token. */
  anonymous?: boolean | undefined;
  /**
   * Told of each request put on the wire (retries and redirect hops included), and of each
   * that got no complete answer, so it may have taken effect unseen. For `updateMany`'s report.
   */
  onWire?: ((event: 'sent' | 'unanswered') => void) | undefined;
  options?: RequestOptions | undefined;
}

/** A call without options (most calls): one object for all of them. */
export const NO_OPTIONS: RequestOptions = Object.freeze({});

/** The call's options checked (nothing sent when they are wrong); its retry count. */
export function checkCallOptions(options: RequestOptions, clientMaxRetries: number): number {
  const maxRetries = options.maxRetries ?? clientMaxRetries;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new RequestValidationError('Invalid request options', [
      { path: ['maxRetries'], message: 'must be a non-negative integer' },
    ]);
  }
  const timeout = options.timeout;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout >= 1 && timeout <= MAX_TIMEOUT_MS)) {
    throw new RequestValidationError('Invalid request options', [
      { path: ['timeout'], message: `must be a number from 1 to ${MAX_TIMEOUT_MS}` },
    ]);
  }
  if (options.headers !== undefined) checkHeaders(options.headers);
  return maxRetries;
}

/** The request's URL: the API's base, the path and the checked query; or a next-page link as it is. */
export function buildUrl(spec: RequestSpec<unknown>, baseUrl: string, legacyBaseUrl: string | undefined): string {
  const relative = typeof spec.path === 'string' ? spec.path : spec.path.build();
  // A path starts with '/'; anything else may be an absolute URL (a next-page link).
  if (relative.charCodeAt(0) !== 47 /* / */ && /^https?:\/\//i.test(relative)) return relative;
  const base = spec.api === 'legacyV2' ? legacyBaseUrl : baseUrl;
  if (base === undefined) {
    throw new RequestValidationError('The legacy v2 interface needs the `legacyBaseUrl` client option');
  }
  if (spec.querySchema) {
    const checked = spec.querySchema.safeParse(spec.query ?? {});
    if (!checked.success) throw new RequestValidationError('Invalid parameters', toIssues(checked.error, spec.query ?? {}));
  }
  return base + relative + encodeQuery(spec.query);
}

/** The headers and body of a request (credentials are added per hop, by origin). */
export function requestContent(
  spec: RequestSpec<unknown>,
  options: RequestOptions,
  accept: string,
  userAgent: string,
): { headers: Record<string, string>; body: BodyInit | undefined } {
  const headers: Record<string, string> = options.headers ? lowerCaseKeys(options.headers) : {};
  headers.accept = accept;
  headers['user-agent'] = userAgent;
  let body: BodyInit | undefined;
  if (spec.form) body = spec.form;
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  return { headers, body };
}

/** True when `url` is on `origin` (a configured base's origin, no trailing slash). */
export function isSameOrigin(url: string, origin: string): boolean {
  if (origin === '' || !url.startsWith(origin)) return false;
  const next = url.charCodeAt(origin.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */ || next === 35 /* # */;
}

/** The headers the SDK itself sets: all a request keeps when a redirect takes it to another origin. */
const OWN_HEADERS = new Set(['accept', 'user-agent', 'content-type']);

/** Drops every header but the SDK's own: credentials and whatever the caller added stay with the API's origin. */
export function keepOnlyOwnHeaders(headers: Record<string, string>): void {
  for (const name of Object.keys(headers)) if (!OWN_HEADERS.has(name)) delete headers[name];
}

/** Headers the SDK or fetch decide (framing, connection): a caller's value would break the request. */
const RESERVED_HEADERS = new Set(['connection', 'content-length', 'expect', 'host', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** `RequestOptions.headers`, checked before anything is sent: names are tokens, values sendable. */
function checkHeaders(headers: Record<string, string>): void {
  const issues: ValidationIssue[] = [];
  if (typeof headers !== 'object' || headers === null) {
    throw new RequestValidationError('Invalid request options', [{ path: ['headers'], message: 'must be an object of strings' }]);
  }
  for (const [name, value] of Object.entries(headers)) {
    const path = ['headers', name];
    if (!/^[!#$%&'*+.^`|~\w-]+$/.test(name)) issues.push({ path, message: 'is not a valid header name' });
    else if (RESERVED_HEADERS.has(name.toLowerCase())) issues.push({ path, message: 'is set by the HTTP layer and cannot be given' });
    else if (typeof value !== 'string') issues.push({ path, message: 'must be a string' });
    // The value is not quoted: it may be a credential.
    else if (!isHeaderValue(value)) issues.push({ path, message: 'contains a control character or a character outside Latin-1' });
  }
  if (issues.length > 0) throw new RequestValidationError('Invalid request headers', issues);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
