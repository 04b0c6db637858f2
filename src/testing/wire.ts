/** The documentation's answer shapes: `{ errors: [{ code, messages }] }`, `{ success: true }`, JSON with the service's Content-Type. */
import { readLimited } from '../webhooks/read-limited.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function json(status: number, body: unknown, headers?: HeadersInit): Response {
  const answer = new Response(JSON.stringify(body), headers === undefined ? { status } : { status, headers });
  answer.headers.set('Content-Type', JSON_CONTENT_TYPE);
  return answer;
}

export function errorBody(code: string, ...messages: string[]) {
  return { errors: [{ code, messages }] };
}

export function wireError(status: number, code: string, ...messages: string[]): Response {
  return json(status, errorBody(code, ...messages));
}

export const success = (): Response => json(200, { success: true });

/** Thrown inside handlers to answer with an error body; caught by the router. */
export class WireFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly messages: string[],
  ) {
    super(messages.join(' '));
  }

  toResponse(): Response {
    return wireError(this.status, this.code, ...this.messages);
  }
}

export const fail = (status: number, code: string, ...messages: string[]): never => {
  throw new WireFailure(status, code, messages);
};

/** The service's time stamp format (Athens time with its offset), defined with the mock's clock. */
export { timestamp } from './clock.js';

/** Media type and parameters of an `Accept` or `Content-Type` value, lower-cased. */
export function parseMediaType(value: string | null): { type: string; params: Map<string, string> } | undefined {
  if (!value) return undefined;
  const [type = '', ...rest] = value.split(';');
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim().replace(/^"|"$/g, ''));
  }
  return { type: type.trim().toLowerCase(), params };
}

/** Far past any request the service takes (a batch of thousands of products is a few MB). */
export const MAX_JSON_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Reads a JSON object body, answering 415 / 400 on the wrong content type or broken JSON, and
 * 413 past `MAX_JSON_BODY_BYTES` (read no further: a runaway client cannot fill the mock's memory).
 */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const media = parseMediaType(request.headers.get('content-type'));
  if (media?.type !== 'application/json') {
    fail(415, 'unsupported_media_type', 'Content-Type must be application/json.');
  }
  const bytes = await readLimited(request, MAX_JSON_BODY_BYTES);
  if (bytes === undefined) return fail(413, 'payload_too_large', `The request body is larger than ${MAX_JSON_BODY_BYTES} bytes.`);
  const text = new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(400, 'invalid_format', 'Request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    fail(400, 'invalid_format', 'Request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** The operator's name as the service writes it in texts (`Acme` for vendor `acme`): the User-Agent, "Fulfilled by Acme". */
export const brandName = (vendor: string): string => {
  const name = vendor.toLowerCase();
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
};

/** Structured clone for plain JSON data (stored state never leaks by reference). */
export const copy = <T>(value: T): T => structuredClone(value);

/** Money in euros, rounded to cents where the mock makes it (so no 382.78900000000004 goes out). */
export const cents = (euros: number): number => Math.round(euros * 100) / 100;
