/**
 * Serves the feed to the service's crawler only: the crawler comes from the same source
 * ranges as the order webhooks (one list, `WEBHOOK_SOURCE_RANGES`), sends no credentials, asks
 * for gzip and follows redirects. Conditional requests (`ETag`, `Last-Modified`) spare it a
 * download of an unchanged feed, and a `Range` lets it resume one (byte-range.ts).
 */
import type { FileHandle } from 'node:fs/promises';
import { requestedRange } from './byte-range.js';
import { senderAddress } from '../webhooks/handler.js';
import { compileRanges, isAllowedSourceIp, WEBHOOK_SOURCE_RANGES } from '../webhooks/ip.js';

/** Bytes read from a feed file at a time. */
const FILE_CHUNK_BYTES = 64 * 1024;

/** A feed held in memory, or made per request. */
export type FeedBody = Uint8Array | string;

export interface FeedHandlerOptions {
  /**
   * The feed: a file path (read per request, so a rewritten file is served at once; a gzip file
   * is served as gzip), its bytes or text, or a function making them per request.
   */
  feed: string | FeedBody | (() => FeedBody | Promise<FeedBody>);
  /** CIDR ranges the crawler comes from (default the service's, the webhooks' list); `false` serves anyone. */
  allowedRanges?: readonly string[] | false | undefined;
  /** Behind proxies: a hop count or the proxies' CIDRs, as for the webhook handler. Off by default. */
  trustProxy?: number | readonly string[] | undefined;
  /** The feed's content type (default `application/xml`, or `text/csv` for a feed that does not start with `<`). */
  contentType?: string | undefined;
}

export type FeedHandler = (request: Request, info?: { remoteAddress?: string | undefined }) => Promise<Response>;

interface Served {
  bytes: Uint8Array | undefined;
  /** The file described, open: its body is read from this handle, never from the path again. */
  file: FileHandle | undefined;
  size: number;
  etag: string;
  lastModified: Date | undefined;
  gzipped: boolean;
  contentType: string;
}

/** A fetch handler serving the feed: 200 (or 304, or 206 for a range) to the crawler, 403 to anyone else, 405 to anything but GET and HEAD. */
export function createFeedHandler(options: FeedHandlerOptions): FeedHandler {
  const feed = options?.feed;
  if (typeof feed !== 'string' && typeof feed !== 'function' && !(feed instanceof Uint8Array)) {
    throw new TypeError('createFeedHandler: feed must be a file path, the feed’s bytes or text, or a function returning them');
  }
  const ranges = options.allowedRanges === false ? undefined : (options.allowedRanges ?? WEBHOOK_SOURCE_RANGES);
  if (ranges !== undefined) {
    if (!Array.isArray(ranges) || ranges.length === 0) throw new TypeError('createFeedHandler: allowedRanges must be a non-empty array of CIDR strings, or false');
    compileRanges(ranges, true);
  }
  const proxy = options.trustProxy;
  if (proxy !== undefined && !(Number.isSafeInteger(proxy) && (proxy as number) >= 0)) compileRanges(proxy as readonly string[], true);
  const startedAt = new Date();
  let cached: { source: FeedBody; served: Promise<Served> } | undefined;

  const inMemory = (source: FeedBody): Promise<Served> => {
    if (cached?.source === source) return cached.served;
    const served = describeBytes(typeof source === 'string' ? new TextEncoder().encode(source) : source, options.contentType, startedAt);
    cached = { source, served };
    return served;
  };

  return async (request, info) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'method not allowed', { allow: 'GET, HEAD' });
    const address = senderAddress(request, info?.remoteAddress, proxy);
    if (ranges !== undefined && (address === undefined || !isAllowedSourceIp(address, ranges))) return answer(403, 'forbidden');
    let served: Served;
    try {
      if (typeof feed === 'function') served = await describeBytes(toBytes(await feed()), options.contentType, undefined);
      else if (typeof feed === 'string' && !looksLikeFeedText(feed)) served = await describeFile(feed, options.contentType);
      else served = await inMemory(feed);
    } catch {
      // Whatever went wrong (a missing file, a failing source) stays in the app: its text may name paths.
      return answer(503, 'the feed is not available', { 'retry-after': '300' });
    }
    return respond(request, served);
  };
}

/** A string holding the feed itself rather than naming a file. */
function looksLikeFeedText(text: string): boolean {
  return text.trimStart().startsWith('<') || text.includes('\n');
}

function toBytes(body: FeedBody): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

async function describeBytes(bytes: Uint8Array, contentType: string | undefined, lastModified: Date | undefined): Promise<Served> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return { bytes, file: undefined, size: bytes.byteLength, etag: `"${hex}"`, lastModified, gzipped, contentType: contentType ?? typeOf(bytes, gzipped) };
}

/**
 * Opened once: the headers (size, ETag, Last-Modified) and the body come from the same file,
 * even if a new feed is renamed over the path meanwhile. The caller closes the handle.
 */
async function describeFile(path: string, contentType: string | undefined): Promise<Served> {
  const { promises: fs } = await import('node:fs');
  const handle = await fs.open(path);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a file');
    const head = new Uint8Array(16);
    await handle.read(head, 0, 16, 0);
    const gzipped = head[0] === 0x1f && head[1] === 0x8b;
    const etag = `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`;
    return { bytes: undefined, file: handle, size: stat.size, etag, lastModified: stat.mtime, gzipped, contentType: contentType ?? typeOf(head, gzipped) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function typeOf(head: Uint8Array, gzipped: boolean): string {
  if (gzipped) return 'application/xml';
  let i = head[0] === 0xef ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  return head[i] === 0x3c ? 'application/xml; charset=utf-8' : 'text/csv; charset=utf-8';
}

function respond(request: Request, served: Served): Response {
  const acceptsGzip = /\bgzip\b/i.test(request.headers.get('accept-encoding') ?? '');
  // A gzip file goes out as it is: with Content-Encoding to a client that asked, as a gzip file to one that did not.
  const encoding = acceptsGzip ? 'gzip' : undefined;
  const etag = encoding === 'gzip' && !served.gzipped ? `${served.etag.slice(0, -1)}-gzip"` : served.etag;
  const headers: Record<string, string> = {
    'content-type': served.gzipped && !acceptsGzip ? 'application/gzip' : served.contentType,
    etag,
    vary: 'Accept-Encoding',
    'cache-control': 'no-cache',
  };
  if (served.lastModified !== undefined) headers['last-modified'] = served.lastModified.toUTCString();
  if (encoding !== undefined) headers['content-encoding'] = encoding;
  if (notModified(request, etag, served.lastModified)) {
    void served.file?.close();
    return new Response(null, { status: 304, headers });
  }
  const compressOnTheFly = encoding === 'gzip' && !served.gzipped;
  // Bytes compressed as they go out have no offsets known in advance: such an answer is whole.
  const range = compressOnTheFly ? undefined : requestedRange(request, served.size, etag, served.lastModified);
  if (range === 'unsatisfiable') {
    void served.file?.close();
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${served.size}` } });
  }
  const { start, end } = range ?? { start: 0, end: served.size - 1 };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${served.size}`;
  if (!compressOnTheFly) {
    headers['accept-ranges'] = 'bytes';
    headers['content-length'] = String(end + 1 - start);
  }
  const status = range ? 206 : 200;
  if (request.method === 'HEAD') {
    void served.file?.close();
    return new Response(null, { status, headers });
  }
  let body =
    served.file !== undefined
      ? fileStream(served.file, start, end + 1)
      : (new Response((served.bytes as Uint8Array<ArrayBuffer>).subarray(start, end + 1)).body as ReadableStream<Uint8Array>);
  if (compressOnTheFly) body = body.pipeThrough(new CompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>);
  return new Response(body, { status, headers });
}

function notModified(request: Request, etag: string, lastModified: Date | undefined): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  }
  const ifModifiedSince = request.headers.get('if-modified-since');
  if (ifModifiedSince === null || lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  // A date still to come is no date the client saw the feed at (a wrong clock): the feed is sent.
  if (Number.isNaN(since) || since > Date.now()) return false;
  return Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

/** The described file's bytes from `start` up to `size`, read from its handle as pulled; the handle is closed at the end, on cancel or on failure. */
function fileStream(file: FileHandle, start: number, size: number): ReadableStream<Uint8Array> {
  let position = start;
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await file.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const length = Math.max(0, Math.min(FILE_CHUNK_BYTES, size - position));
          const chunk = new Uint8Array(length);
          // Ends at the described size, or sooner if the file was cut short in place.
          const { bytesRead } = length > 0 ? await file.read(chunk, 0, length, position) : { bytesRead: 0 };
          if (bytesRead === 0) {
            await close();
            controller.close();
            return;
          }
          position += bytesRead;
          controller.enqueue(bytesRead === length ? chunk : chunk.subarray(0, bytesRead));
        } catch (error) {
          await close().catch(() => {});
          controller.error(error);
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}

function answer(status: number, text: string, headers?: Record<string, string>): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}
