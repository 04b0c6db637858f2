import type { Answered, APIResponse } from './api-promise.js';
import { ResponseValidationError, type RequestTarget } from './errors.js';
import { redactUrl, scrub, scrubbedHeaders } from './logger.js';
import type { ApiName } from './options.js';

/** Reading an answer: its body within limits, decoded, and what callers are shown of it. */

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  url: string;
  /** The Link header of a cached answer (a 304 carries none); read from `headers` otherwise. */
  cachedLink?: string | null;
  /** The token the request carried. */
  token: string | undefined;
}

/** Where an answer came from, for its errors and drift reports. */
export interface AnswerContext {
  api: ApiName;
  status: number;
  headers: Headers;
  target: RequestTarget;
  /** The token the request carried, kept out of what an error shows. */
  token?: string | undefined;
}

/**
 * A successful answer: the checked body, or undefined for an empty one. A class, so a call
 * allocates no closures for what only some callers read (`link`, `response()`).
 */
export class Answer<T> implements Answered {
  readonly body: T;
  readonly #raw: RawAnswer;
  /** The token the request carried, to scrub from what `response()` shows. */
  readonly #token: string | undefined;

  constructor(body: T, raw: RawAnswer, token: string | undefined) {
    this.body = body;
    this.#raw = raw;
    this.#token = token;
  }

  get status(): number {
    return this.#raw.status;
  }

  get headers(): Headers {
    return this.#raw.headers;
  }

  /** The URL that answered, after redirects. */
  get url(): string {
    return this.#raw.url;
  }

  /** The Link header; a cached answer's own (a 304 carries none). */
  get link(): string | null {
    const cached = this.#raw.cachedLink;
    return cached !== undefined ? cached : this.#raw.headers.get('link');
  }

  /** What `.withResponse()` and `page.response` show: credentials and the token scrubbed, as in errors. */
  response(): APIResponse {
    const token = this.#token;
    return {
      status: this.#raw.status,
      // As errors show them: the token scrubbed from every value.
      headers: scrubbedHeaders(this.#raw.headers, token),
      url: scrub(redactUrl(this.#raw.url), token),
      requestId: requestIdOf(this.#raw.headers, token),
    };
  }
}

export const bodyOf = (answer: Answered): unknown => (answer as Answer<unknown>).body;

/**
 * The answer's `X-Request-Id`, without the token: the one source of the request id that errors,
 * `.withResponse()`, `checkKeys()` and the CLI show (a server may echo anything there).
 */
export function requestIdOf(headers: Headers, token: string | undefined): string | undefined {
  const id = headers.get('x-request-id');
  return id === null ? undefined : scrub(id, token);
}

/** A request URL as logs and hooks show it: a redirect target may echo the token in a parameter redactUrl does not know. */
export const shownUrl = (url: string, token: string | undefined): string => scrub(redactUrl(url), token);

/** The answer's JSON; undefined for an empty one (a schema then decides whether that is acceptable). */
export function parseJson(raw: RawAnswer, target: RequestTarget): unknown {
  try {
    return raw.text.length === 0 || raw.status === 204 ? undefined : JSON.parse(raw.text);
  } catch {
    // No cause: the parser's message quotes the body, which may echo a credential.
    throw new ResponseValidationError('the answer is not valid JSON', {
      status: raw.status,
      target,
      requestId: requestIdOf(raw.headers, raw.token),
    });
  }
}

/** Marks a body read that ran out of time (never seen by callers: mapped to TimeoutError). */
export const BODY_TIMEOUT = Symbol('body timeout');
/** Marks a body cancelled at `maxResponseBytes` (mapped to ResponseTooLargeError). */
export const BODY_TOO_LARGE = Symbol('body too large');

/**
 * The body as text, read as a stream so it can be stopped: past `limit` decoded bytes
 * (fetch has already undone gzip/br, so a small bomb counts at its full size), at the
 * deadline, or on the caller's abort. Stopping cancels the stream, which closes the
 * connection instead of leaving it downloading.
 */
export async function readBody(response: Response, limit: number, deadline: number, signal: AbortSignal | undefined): Promise<string> {
  const stream = response.body;
  if (stream === null) return '';
  const reader = stream.getReader();
  let stopped = false;
  let reason: unknown;
  const stop = (why: unknown) => {
    if (stopped) return;
    stopped = true;
    reason = why;
    reader.cancel().catch(() => {});
  };
  const timer = setTimeout(stop, Math.max(1, deadline - Date.now()), BODY_TIMEOUT);
  const abort = signal && (() => stop(signal.reason));
  if (abort) signal?.addEventListener('abort', abort, { once: true });
  // Decoded once at the end: one call, no streaming state (a body is mostly one chunk).
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (stopped) throw reason;
      if (done) return decodeUtf8(chunks, total);
      total += value.byteLength;
      if (total > limit) {
        stop(BODY_TOO_LARGE);
        throw BODY_TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch (error) {
    const why = stopped ? reason : error;
    stop(error);
    throw why;
  } finally {
    clearTimeout(timer);
    if (abort) signal?.removeEventListener('abort', abort);
  }
}

const utf8 = new TextDecoder();

/** The body's bytes as text (UTF-8, invalid sequences replaced, as `response.text()` does). */
function decodeUtf8(chunks: readonly Uint8Array[], total: number): string {
  if (chunks.length === 0) return '';
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return utf8.decode(bytes);
}

/** A body stream that failed in its decompressor (zlib, brotli), not on the socket. */
export function isDecodingFailure(error: unknown): boolean {
  const code = error instanceof Error && error.cause instanceof Error ? (error.cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(Z_|ERR__|ERR_BROTLI|ERR_ZLIB|ERR_ZSTD)/.test(code);
}
