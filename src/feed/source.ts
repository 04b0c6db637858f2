/**
 * Where a feed's bytes come from (a path, a URL, a string, bytes, a stream) and their
 * decompression (gzip and zip, recognised by their first bytes). A URL's download is bounded
 * in size and time; whatever the source, bytes flow through in chunks, never held whole.
 */
import { whenAborted } from '../core/abort.js';
import { concatBytes } from '../core/bytes.js';
import { Unzip, UnzipInflate } from 'fflate';

/** What `checkFeed` reads: a file path, an `http(s)` URL, the feed's text, its bytes, or a stream of bytes. */
export type FeedSource = string | URL | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface SourceOptions {
  /** Largest download from a URL, in bytes as sent (default 1 GiB). */
  maxBytes?: number | undefined;
  /** Longest a URL's download may take, in ms (default 10 minutes). */
  timeoutMs?: number | undefined;
  /** Stops the read. */
  signal?: AbortSignal | undefined;
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

const DEFAULT_MAX_URL_BYTES = 1024 ** 3;
const DEFAULT_URL_TIMEOUT_MS = 10 * 60 * 1000;
const encoder = new TextEncoder();

/** The source's bytes as sent (still compressed, if they are). */
export async function openSource(source: FeedSource, options: SourceOptions): Promise<AsyncIterable<Uint8Array>> {
  if (source instanceof Uint8Array) return once(source);
  if (typeof source === 'string' && isFeedText(source)) return once(encoder.encode(source));
  if (source instanceof URL || (typeof source === 'string' && /^https?:\/\//i.test(source))) return download(new URL(source), options);
  if (typeof source === 'string') {
    const { createReadStream } = await import('node:fs');
    return createReadStream(source, { highWaterMark: 64 * 1024, signal: options.signal }) as AsyncIterable<Uint8Array>;
  }
  if (typeof (source as ReadableStream).getReader === 'function') return fromWebStream(source as ReadableStream<Uint8Array>);
  if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') return asBytes(source as AsyncIterable<Uint8Array | string>);
  throw new TypeError('checkFeed: expected a path, URL, string, Uint8Array or stream');
}

/** A string is the feed itself when it starts with markup or spans lines; otherwise it is a path. */
function isFeedText(text: string): boolean {
  return /^\ufeff?\s*</.test(text) || text.includes('\n');
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
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

/** A URL's body, refused past `maxBytes` or `timeoutMs` (a slow endless answer ends too). */
async function* download(url: URL, options: SourceOptions): AsyncIterable<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_URL_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_URL_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new SourceError('timeout', `the download took longer than ${timeoutMs} ms`)), timeoutMs);
  const { signal } = options;
  const stopListening = signal && whenAborted(signal, () => controller.abort(signal.reason));
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, redirect: 'follow', headers: { accept: 'application/xml,application/gzip,text/csv,*/*;q=0.8' } });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw timedOut(controller) ?? new SourceError('unreachable', `${url.host} could not be reached (${describe(error)})`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new SourceError('unreachable', `${url.host} answered ${response.status} ${response.statusText}`.trim());
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
    clearTimeout(timer);
    stopListening?.();
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } | undefined })?.cause;
  return typeof cause?.code === 'string' ? cause.code : String((error as Error)?.message ?? error);
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
  const gunzipper = Readable.from(chunks).pipe(createGunzip());
  try {
    for await (const chunk of gunzipper) yield chunk as Uint8Array;
  } catch (error) {
    throw new SourceError('compression', `the gzip data is damaged or cut short (${(error as Error).message})`);
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
  for await (const chunk of chunks) {
    push(chunk, false);
    yield* drain();
  }
  push(new Uint8Array(0), true);
  yield* drain();
  if (!started) throw new SourceError('compression', 'the zip archive holds no file');
  if (!finished) throw new SourceError('compression', 'the zip archive is cut short');
}

