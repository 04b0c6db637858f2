import type { RawAnswer } from './answer.js';
import { type ApiError, apiErrorClass, NotFoundError, type RequestTarget, type WireError } from './errors.js';
import { scrub, scrubbedHeaders } from './logger.js';
import type { ApiName } from './options.js';
import { tryParseJson } from './text.js';

/** Errors from answers: an answer that is not a success, as the typed error its status and body call for. */

/** What the error needs of its call: the API, and the permission a 401 or 403 names. */
export interface ErrorCall {
  api: ApiName;
  permission?: string | undefined;
  /** What a 404 or 405 means for an endpoint the documentation does not show (see `RequestSpec.unavailable`). */
  unavailable?: string | undefined;
}

export function apiErrorOf(call: ErrorCall, raw: RawAnswer, target: RequestTarget, token: string | undefined): ApiError {
  let errors: WireError[] = [];
  let detail: string | undefined;
  const parsed = tryParseJson(raw.text);
  // Every text is scrubbed before it is cut to an excerpt: a cut token would no longer be recognised.
  const shown = (value: unknown) => wireText(value, token);
  const list = wireErrorList(parsed);
  if (list !== undefined) {
    errors = list.map((e) => ({
      code: shown(e.code),
      messages: (Array.isArray(e.messages) ? e.messages : [e.messages ?? e.message]).map(shown).filter(Boolean),
    }));
  } else if (isObject(parsed) && isObject(parsed.error) && call.api === 'legacyV2') {
    // A legacy v2 envelope on an HTTP error: its error element, under the status's class.
    const { code, text } = parsed.error;
    errors = [{ code: shown(code), messages: [shown(text)].filter(Boolean) }];
  } else if (isObject(parsed) && typeof parsed.message === 'string') {
    detail = parsed.message;
  } else if (raw.text) {
    detail = excerpt(scrub(raw.text, token));
  } else if (raw.status === 304) {
    // Never an empty success: no cached body stands for it (the caller's own If-None-Match, or a 304 nobody asked for).
    detail = 'Not Modified, and the client holds no cached answer to use in its place';
  }
  if (token && detail !== undefined) detail = scrub(detail, token);
  const rateLimitBody = list === undefined;
  const missing = call.unavailable !== undefined && (raw.status === 404 || raw.status === 405);
  const ErrorClass = missing ? NotFoundError : apiErrorClass(raw.status, rateLimitBody, errors);
  // Every account call needs a user token; some also name a permission.
  const needs = call.permission
    ? `a user token with the ${call.permission} permission`
    : call.api === 'account'
      ? 'a user token'
      : undefined;
  const hint = missing
    ? call.unavailable
    : needs && (raw.status === 401 || (raw.status === 403 && !rateLimitBody))
      ? `this call needs ${needs}`
      : undefined;
  const headers = scrubbedHeaders(raw.headers, token);
  return new ErrorClass({ status: raw.status, errors, headers, target, detail, hint, api: call.api });
}

/** A body in one of the service's error forms (below), whatever the status. */
export function isErrorBody(value: unknown): boolean {
  const list = wireErrorList(value);
  return list !== undefined && list.length > 0 && list.length === Object.keys((value as { errors: object }).errors).length;
}

/**
 * The errors of a body in either error form: `{ errors: [{ code, messages }, ...] }`, or
 * `{ errors: { name: ["...", ...] } }` (recorded for a favorite list's creation), one error per
 * field, coded by its name. Undefined for any other body.
 */
function wireErrorList(body: unknown): Record<string, unknown>[] | undefined {
  if (!isObject(body)) return undefined;
  const { errors } = body;
  if (Array.isArray(errors)) return errors.filter(isObject);
  if (!isObject(errors)) return undefined;
  const fields = Object.entries(errors);
  const messages = fields.length > 0 && fields.every(([, m]) => typeof m === 'string' || Array.isArray(m));
  return messages ? fields.map(([code, messages]) => ({ code, messages })) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A wire error's code or message as text, without the token: a string as is, any other value as
 * an excerpt of its JSON (never `[object Object]`), scrubbed before it is cut, in the token's
 * JSON-escaped form too.
 */
function wireText(value: unknown, token: string | undefined): string {
  if (typeof value === 'string') return scrub(value, token);
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') return scrub(String(value), token);
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    return '';
  }
  if (token) json = scrub(scrub(json, token), JSON.stringify(token).slice(1, -1));
  return excerpt(json);
}

/** A short, single-line excerpt of a non-JSON body (an HTML error page from a proxy). */
function excerpt(text: string): string {
  const plain = text.replace(/<[^>]{0,200}>/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.length > 160 ? `${plain.slice(0, 160)}…` : plain;
}
