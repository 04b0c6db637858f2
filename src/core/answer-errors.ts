import type { RawAnswer } from './answer.js';
import { type ApiError, apiErrorClass, type RequestTarget, type WireError } from './errors.js';
import { scrub, scrubbedHeaders } from './logger.js';
import type { ApiName } from './options.js';
import { tryParseJson } from './text.js';

/** Errors from answers: an answer that is not a success, as the typed error its status and body call for. */

/** What the error needs of its call: the API, and the permission a 401 or 403 names. */
export interface ErrorCall {
  api: ApiName;
  permission?: string | undefined;
}

export function apiErrorOf(call: ErrorCall, raw: RawAnswer, target: RequestTarget, token: string | undefined): ApiError {
  let errors: WireError[] = [];
  let detail: string | undefined;
  const parsed = tryParseJson(raw.text);
  if (isObject(parsed) && Array.isArray(parsed.errors)) {
    errors = parsed.errors.filter(isObject).map((e) => ({
      code: wireText(e.code),
      messages: (Array.isArray(e.messages) ? e.messages : [e.messages ?? e.message]).map(wireText).filter(Boolean),
    }));
  } else if (isObject(parsed) && isObject(parsed.error) && call.api === 'legacyV2') {
    // A legacy v2 envelope on an HTTP error: its error element, under the status's class.
    const { code, text } = parsed.error;
    errors = [{ code: wireText(code), messages: [wireText(text)].filter(Boolean) }];
  } else if (isObject(parsed) && typeof parsed.message === 'string') {
    detail = parsed.message;
  } else if (raw.text) {
    // Scrubbed before it is cut: a cut token would no longer be recognised.
    detail = excerpt(scrub(raw.text, token));
  }
  if (token) {
    detail = detail === undefined ? undefined : scrub(detail, token);
    errors = errors.map((e) => ({ code: scrub(e.code, token), messages: e.messages.map((m) => scrub(m, token)) }));
  }
  const rateLimitBody = !(isObject(parsed) && Array.isArray(parsed.errors));
  const ErrorClass = apiErrorClass(raw.status, rateLimitBody, errors);
  // Every account call needs a user token; some also name a permission.
  const needs = call.permission
    ? `a user token with the ${call.permission} permission`
    : call.api === 'account'
      ? 'a user token'
      : undefined;
  const hint = needs && (raw.status === 401 || (raw.status === 403 && !rateLimitBody)) ? `this call needs ${needs}` : undefined;
  const headers = scrubbedHeaders(raw.headers, token);
  return new ErrorClass({ status: raw.status, errors, headers, target, detail, hint, api: call.api });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A wire error's code or message as text: a string as is, any other value as its JSON (never `[object Object]`). */
function wireText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') return String(value);
  try {
    return excerpt(JSON.stringify(value));
  } catch {
    return '';
  }
}

/** A short, single-line excerpt of a non-JSON body (an HTML error page from a proxy). */
function excerpt(text: string): string {
  const plain = text.replace(/<[^>]{0,200}>/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.length > 160 ? `${plain.slice(0, 160)}…` : plain;
}
