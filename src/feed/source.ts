/**
 * Where a feed's bytes come from (a path, a URL, a string, bytes, a stream) and their
 * decompression (gzip and zip, recognised by their first bytes). A URL's download is bounded
 * in size and time; whatever the source, bytes flow through in chunks, never held whole.
 */
import { whenAborted } from '../core/abort.js';
import { concatBytes } from '../core/bytes.js';
import { isRedirect, MAX_REDIRECTS } from '../core/redirects.js';
import { isAllowedSourceIp } from '../webhooks/ip.js';
import { Unzip, UnzipInflate } from 'fflate';

/** What `checkFeed` reads: a file path, an `http(s)` URL, the feed's text, its bytes, or a stream of bytes. */
export type FeedSource = string | URL | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface SourceOptions {
  /** Largest feed from a URL, in bytes as sent and again once decompressed (default 1 GiB). */
  maxBytes?: number | undefined;
  /** Longest a URL's download may take, in ms (default 10 minutes). */
  timeoutMs?: number | undefined;
  /** Stops the read. */
  signal?: AbortSignal | undefined;
  /**
   * Lets a URL (or a redirect) reach loopback, private and link-local addresses: off by default,
   * so an application checking the URLs its merchants give it cannot be sent into its own network.
   */
  allowPrivateNetwork?: boolean | undefined;
}

/** Why a source could not be read to its end: a report's error with this rule. */
export class SourceError extends Error {
  constructor(
    readonly rule: 'too_large' | 'timeout' | 'compression' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_MAX_URL_BYTES = 1024 ** 3;
const DEFAULT_URL_TIMEOUT_MS = 10 * 60 * 1000;
/** Bytes (or characters) handed on at a time, whatever the source holds at once. */
const PIECE = 64 * 1024;
const encoder = new TextEncoder();

/** True when `source` is a URL `checkFeed` downloads. */
export function isUrl(source: FeedSource): source is string | URL {
  return source instanceof URL || (typeof source === 'string' && /^https?:\/\//i.test(source));
}

/**
 * The source's bytes as sent (still compressed, if they are). `signal` ends the read: a URL's
 * download is cancelled at once, a file closed.
 */
export async function openSource(source: FeedSource, options: SourceOptions, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  if (source instanceof Uint8Array) return pieces(source);
  if (typeof source === 'string' && isFeedText(source)) return textPieces(source);
  if (isUrl(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      // Not the text: it may hold a password.
      throw new TypeError('checkFeed: not a valid URL');
    }
    return download(url, options, signal);
  }
  if (typeof source === 'string') {
    const { createReadStream } = await import('node:fs');
    return createReadStream(source, { highWaterMark: PIECE, signal }) as AsyncIterable<Uint8Array>;
  }
  if (typeof (source as ReadableStream).getReader === 'function') return fromWebStream(source as ReadableStream<Uint8Array>);
  if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') return asBytes(source as AsyncIterable<Uint8Array | string>);
  throw new TypeError('checkFeed: expected a path, URL, string, Uint8Array or stream');
}

/** A string is the feed itself when it starts with markup or spans lines; otherwise it is a path. */
function isFeedText(text: string): boolean {
  return /^\ufeff?\s*</.test(text) || text.includes('\n');
}

/** Bytes given whole, handed on a piece at a time (views, no copies): decoded and inflated like a file's. */
async function* pieces(bytes: Uint8Array, size = PIECE): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += size) yield bytes.subarray(at, at + size);
}

/** Text given whole, encoded a piece at a time (never between the two halves of a surrogate pair). */
async function* textPieces(text: string): AsyncIterable<Uint8Array> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + PIECE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last < 0xdc00) end--;
    yield encoder.encode(text.slice(at, end));
    at = end;
  }
}

async function* asBytes(chunks: AsyncIterable<Uint8Array | string>): AsyncIterable<Uint8Array> {
  for await (const chunk of chunks) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

async function* fromWebStream(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * A URL's body, refused past `maxBytes` or `timeoutMs` (a slow endless answer ends too), or once
 * `stop` aborts (the check reached its verdict). Redirects are followed by hand, up to 5 as the
 * client does: each target is checked like the first URL, and a password in the URL is sent as
 * basic auth to its own origin only.
 */
async function* download(start: URL, options: SourceOptions, stop: AbortSignal): AsyncIterable<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_URL_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_URL_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new SourceError('timeout', `the download took longer than ${timeoutMs} ms`)), timeoutMs);
  const end = () => {
    clearTimeout(timer);
    controller.abort(stop.reason);
  };
  if (stop.aborted) end();
  const stopListening = stop.aborted ? () => {} : whenAborted(stop, end);
  const { authorization, origin } = credentials(start);
  let url = start;
  try {
    let response: Response;
    for (let hop = 0; ; hop++) {
      if (options.allowPrivateNetwork !== true) await refusePrivate(url);
      try {
        response = await fetch(url, {
          signal: controller.signal,
          redirect: 'manual',
          headers: { accept: 'application/xml,application/gzip,text/csv,*/*;q=0.8', ...(url.origin === origin && authorization ? { authorization } : {}) },
        });
      } catch (error) {
        if (stop.aborted) throw error;
        throw timedOut(controller) ?? new SourceError('unreachable', `${shown(url)} could not be reached (${describe(error)})`);
      }
      if (!isRedirect(response.status)) break;
      await response.body?.cancel().catch(() => {});
      url = nextHop(url, response, hop);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new SourceError('unreachable', `${shown(url)} answered ${response.status} ${response.statusText}`.trim());
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw new SourceError('too_large', `the feed is ${declared} bytes; the limit is ${maxBytes}`);
    }
    if (response.body === null) return;
    const reader = response.body.getReader();
    let total = 0;
    try {
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          throw timedOut(controller) ?? error;
        }
        if (next.done) return;
        total += next.value.byteLength;
        if (total > maxBytes) throw new SourceError('too_large', `the download passed ${maxBytes} bytes`);
        yield next.value;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  } finally {
    stopListening();
    end();
  }
}

/** The URL's user and password as a basic `Authorization` header, taken out of the URL. */
function credentials(url: URL): { authorization: string | undefined; origin: string } {
  let authorization: string | undefined;
  if (url.username || url.password) {
    const decoded = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part; // a broken escape is taken as written
      }
    };
    const pair = `${decoded(url.username)}:${decoded(url.password)}`;
    authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { authorization, origin: url.origin };
}

/** Where a redirect answer sends the download, by the client's rules; a `SourceError` naming it otherwise. */
function nextHop(url: URL, response: Response, hop: number): URL {
  const location = response.headers.get('location');
  let next: URL | undefined;
  try {
    next = new URL(location ?? '', url);
  } catch {}
  const refuse = (why: string) => new SourceError('unreachable', `${shown(url)} redirected ${why}`);
  if (location === null || next === undefined || (next.protocol !== 'https:' && next.protocol !== 'http:')) throw refuse('to a location that is not an http(s) URL');
  // Its credentials stay out of the message: `shown` leaves them out.
  if (next.username || next.password) throw refuse(`to ${shown(next)} with credentials in the URL, not followed`);
  if (next.protocol === 'http:' && url.protocol === 'https:') throw refuse(`from https to http (${shown(next)}), not followed`);
  if (hop + 1 > MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} times (last to ${shown(next)})`);
  return next;
}

/** A URL as a message may show it: no user or password, and the query (which may hold a key) left out. */
export function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
}

/**
 * Refuses a URL whose host is, or resolves to, an address the public internet does not reach
 * (loopback, private, link-local, unique-local, carrier-grade NAT, unspecified). A name is
 * resolved here and again when fetched: one that changes its answer in between (DNS rebinding)
 * is not caught, so a checker that must never reach its network also needs a firewall.
 */
async function refusePrivate(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    const { lookup } = await import('node:dns/promises');
    addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch (error) {
    throw new SourceError('unreachable', `${shown(url)} could not be resolved (${describe(error)})`);
  }
  const internal = addresses.find((address) => isAllowedSourceIp(address, INTERNAL_RANGES));
  if (internal !== undefined) {
    throw new SourceError(
      'unreachable',
      `${shown(url)} is at ${internal}, a loopback, private or link-local address: refused (allowPrivateNetwork: true checks feeds on your own network)`,
    );
  }
}

/** Addresses the public internet does not reach (RFC 6890's special-purpose ranges that matter here). */
const INTERNAL_RANGES: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::/127',
  'fc00::/7',
  'fe80::/10',
];

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } | undefined })?.cause;
  const code = cause?.code ?? (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : String((error as Error)?.message ?? error);
}

function timedOut(controller: AbortController): SourceError | undefined {
  const reason: unknown = controller.signal.reason;
  return reason instanceof SourceError ? reason : undefined;
}

/** The bytes, decompressed when they start as gzip or zip; `onCompression` is told which. */
export async function decompress(
  chunks: AsyncIterable<Uint8Array>,
  onCompression: (kind: 'gzip' | 'zip' | undefined) => void,
): Promise<AsyncIterable<Uint8Array>> {
  const iterator = chunks[Symbol.asyncIterator]();
  // Enough bytes to recognise the format (a stream may hand them over one at a time).
  const head: Uint8Array[] = [];
  let headLength = 0;
  let done = false;
  while (headLength < 4) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.byteLength;
  }
  const first = concatBytes(head, headLength);
  async function* all(): AsyncIterable<Uint8Array> {
    if (first.byteLength > 0) yield first;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (first[0] === 0x1f && first[1] === 0x8b) {
    onCompression('gzip');
    return gunzip(all());
  }
  if (first[0] === 0x50 && first[1] === 0x4b && first[2] === 0x03 && first[3] === 0x04) {
    onCompression('zip');
    return unzip(all());
  }
  onCompression(undefined);
  return all();
}

async function* gunzip(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const { createGunzip } = await import('node:zlib');
  const { Readable } = await import('node:stream');
  const source = Readable.from(chunks);
  const gunzipper = source.pipe(createGunzip());
  try {
    for await (const chunk of gunzipper) yield chunk as Uint8Array;
  } catch (error) {
    throw new SourceError('compression', `the gzip data is damaged or cut short (${(error as Error).message})`);
  } finally {
    // Ends the source too (a download cancelled), when the read stops early.
    source.destroy();
  }
}

/** The first file of a zip archive, inflated as its bytes arrive. */
async function* unzip(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | undefined;
  let started = false;
  let finished = false;
  const archive = new Unzip((file) => {
    if (started) return; // the feed is the archive's first file
    started = true;
    file.ondata = (error, data, final) => {
      if (error) failure = error;
      else out.push(data);
      if (final) finished = true;
    };
    try {
      file.start();
    } catch (error) {
      failure = error as Error;
    }
  });
  archive.register(UnzipInflate);
  const drain = function* () {
    if (failure !== undefined) throw new SourceError('compression', `the zip archive cannot be read (${failure.message})`);
    yield* out.splice(0);
  };
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      archive.push(chunk, final);
    } catch (error) {
      failure ??= error as Error;
    }
  };
  // Small pieces: each inflates to at most about a thousand times its size (a bomb's ratio) at once.
  for await (const chunk of chunks) {
    for await (const piece of pieces(chunk, 1024)) {
      push(piece, false);
      yield* drain();
    }
  }
  push(new Uint8Array(0), true);
  yield* drain();
  if (!started) throw new SourceError('compression', 'the zip archive holds no file');
  if (!finished) throw new SourceError('compression', 'the zip archive is cut short');
}

