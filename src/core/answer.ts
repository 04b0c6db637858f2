import { whenAborted } from './abort.js';
import { concatBytes } from './bytes.js';
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
  cachedLink?: string | null | undefined;
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
 * allocates no closures for what only some callers read (`link`, `response()`). It keeps what
 * the answer said, not its text: a page held while the next one loads holds its parsed body only.
 */
export class Answer<T> implements Answered {
  readonly body: T;
  readonly status: number;
  readonly headers: Headers;
  /** The URL that answered, after redirects. */
  readonly url: string;
  /** The Link header of a cached answer (a 304 carries none); undefined: read from `headers`. */
  readonly #cachedLink: string | null | undefined;
  /** The token the request carried, to scrub from what `response()` shows. */
  readonly #token: string | undefined;

  constructor(body: T, raw: RawAnswer) {
    this.body = body;
    this.status = raw.status;
    this.headers = raw.headers;
    this.url = raw.url;
    this.#cachedLink = raw.cachedLink;
    this.#token = raw.token;
  }

  /** The Link header; a cached answer's own (a 304 carries none). */
  get link(): string | null {
    const cached = this.#cachedLink;
    return cached !== undefined ? cached : this.headers.get('link');
  }

  /** What `.withResponse()` and `page.response` show: credentials and the token scrubbed, as in errors. */
  response(): APIResponse {
    const token = this.#token;
    return {
      status: this.status,
      // As errors show them: the token scrubbed from every value.
      headers: scrubbedHeaders(this.headers, token),
      url: scrub(redactUrl(this.url), token),
      requestId: requestIdOf(this.headers, token),
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
 * The body as text, within `limit` decoded bytes, by the deadline, or until the caller's abort.
 * Read as a stream, so it can be stopped: past `limit` decoded bytes (fetch has already undone
 * gzip/br, so a small bomb counts at its full size), at the deadline, or on the caller's abort.
 * Stopping cancels the stream, which closes the connection instead of leaving it downloading.
 * The reader loop is also the cheapest way to a body on Node 20: `arrayBuffer()` and `text()` run
 * the same loop inside fetch, wrapped in checks, a deferred promise and one or two copies of the
 * bytes (on loopback, the recorded order read this way took 20–40 µs less than through `arrayBuffer()`).
 */
export async function readBody(response: Response, limit: number, deadline: number, signal: AbortSignal | undefined): Promise<string> {
  const stream = response.body;
  if (stream === null) return '';
  const read = new BodyRead(stream.getReader(), deadline);
  const stopListening = signal && whenAborted(signal, () => read.stop(signal.reason));
  deadlines.add(read);
  // Decoded once at the end: one call, no streaming state (a body is mostly one chunk).
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await read.reader.read();
      if (read.stopped) throw read.reason;
      if (done) return chunks.length === 0 ? '' : decodeUtf8(concatBytes(chunks, total));
      total += value.byteLength;
      if (total > limit) {
        read.stop(BODY_TOO_LARGE);
        throw BODY_TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch (error) {
    const why = read.stopped ? read.reason : error;
    read.stop(error);
    throw why;
  } finally {
    deadlines.delete(read);
    stopListening?.();
  }
}

/** A body read under way, and why it was stopped; linked into the list of those the deadline timer watches. */
class BodyRead {
  stopped = false;
  reason: unknown;
  prev: BodyRead | undefined = undefined;
  next: BodyRead | undefined = undefined;

  constructor(
    readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    readonly deadline: number,
  ) {}

  stop(why: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = why;
    this.reader.cancel().catch(() => {});
  }
}

/**
 * The body reads under way, stopped at their deadlines by one timer set for the earliest of
 * them. A read that ends leaves the timer as it is, and one that starts sets it only when its
 * deadline comes first: a timer set and cleared for every answer cost more than the rest of reading a small one.
 * The reads form a list linked through themselves: adding and removing one allocates and hashes nothing.
 */
const deadlines = {
  first: undefined as BodyRead | undefined,
  timer: undefined as ReturnType<typeof setTimeout> | undefined,
  /** When the timer fires (Infinity: not set). */
  at: Number.POSITIVE_INFINITY,

  add(read: BodyRead): void {
    read.next = this.first;
    if (read.next !== undefined) read.next.prev = read;
    this.first = read;
    if (read.deadline < this.at) this.arm(read.deadline);
    else if (read.next === undefined) this.hold(true);
  },

  /** Takes `read` out of the list; nothing when it is not there (a read stopped by the timer ends later). */
  delete(read: BodyRead): void {
    if (read.prev !== undefined) read.prev.next = read.next;
    else if (this.first === read) this.first = read.next;
    else return;
    if (read.next !== undefined) read.next.prev = read.prev;
    read.prev = read.next = undefined;
    if (this.first === undefined) this.hold(false);
  },

  arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => this.fire(), Math.max(1, at - Date.now()));
    this.hold(this.first !== undefined);
  },

  /** The timer keeps the process alive while a read waits on it, as a timer of its own would; not once none does. */
  hold(held: boolean): void {
    const timer = this.timer as { ref?: (() => void) | undefined; unref?: (() => void) | undefined } | undefined;
    if (held) timer?.ref?.();
    else timer?.unref?.();
  },

  fire(): void {
    this.timer = undefined;
    this.at = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (let read = this.first; read !== undefined; ) {
      const following = read.next;
      if (read.deadline <= now) {
        this.delete(read);
        read.stop(BODY_TIMEOUT);
      } else if (read.deadline < next) next = read.deadline;
      read = following;
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  },
};

const utf8 = new TextDecoder();
const STREAM = Object.freeze({ stream: true });

/**
 * The body's bytes as text (UTF-8, invalid sequences replaced, as `response.text()` does).
 * Decoded as a stream and flushed in the same synchronous step, so no state is left for the
 * next answer: the same text as one `decode(bytes)`, but Node 20 takes its ICU path for it,
 * which makes a string of non-ASCII text faster than its one-shot path, the one `text()` takes
 * (a recorded 68 KB catalog page with Greek text: 165–185 µs instead of 190–220; the recorded
 * order, 2.5 KB with Greek names: 3.3 µs instead of 8), and ASCII text about as fast.
 */
function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes, STREAM) + utf8.decode();
}

/** A body stream that failed in its decompressor (zlib, brotli), not on the socket. */
export function isDecodingFailure(error: unknown): boolean {
  const code = error instanceof Error && error.cause instanceof Error ? (error.cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(Z_|ERR__|ERR_BROTLI|ERR_ZLIB|ERR_ZSTD)/.test(code);
}
