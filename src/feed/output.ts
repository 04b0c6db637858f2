/**
 * What the XML and CSV writers share: validation before anything is written, the report,
 * text buffered into chunks of about 64 KiB, a web stream with backpressure, gzip on request.
 */
import { Readable } from 'node:stream';
import { FeedValidationError } from './errors.js';
import { IdSet } from './id-set.js';
import { checkProduct, type IssueLists, type RuleMode, type WrittenProduct } from './rules.js';
import type { FeedIssue, FeedProduct, FeedReport } from './types.js';

export interface FeedWriterOptions {
  /** When the feed was generated (default now), written in the shop's local time as `YYYY-MM-DD HH:MM`. */
  createdAt?: Date;
  /** Compress the output with gzip (the service wants feeds over 10 MB compressed). */
  gzip?: boolean;
  /** An invalid product is left out and reported (`'skip'`, the default) or thrown as a `FeedValidationError`. */
  onInvalid?: 'skip' | 'throw';
  /** How many issues the report lists (default 1000); its counts count them all. */
  maxIssues?: number;
}

/**
 * The parts of a Node Writable (a file stream, an HTTP response) the feed writes to. Typed
 * structurally so the entry's declarations need no Node types.
 */
export interface NodeWritableLike {
  write(chunk: Uint8Array, callback?: (error?: Error | null) => void): boolean;
  end(callback?: () => void): unknown;
  on(event: 'close' | 'drain' | 'error' | 'finish', listener: (...args: never[]) => void): unknown;
  once(event: 'close' | 'drain' | 'error' | 'finish', listener: (...args: never[]) => void): unknown;
}

/** What `toNodeStream()` returns: a Node `stream.Readable`, typed by what `stream.pipeline` needs of it. */
export interface NodeReadableLike extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
}

export interface FeedWriter {
  /** The feed's bytes. Read it (or `toNodeStream()`) while writing: `write` waits while it is full. */
  readonly readable: ReadableStream<Uint8Array>;
  /**
   * Checks `product` and writes it, or leaves it out and reports why (`onInvalid: 'throw'`
   * throws a `FeedValidationError` instead). Returns a promise while the output is full: await it.
   */
  write(product: FeedProduct): Promise<void> | undefined;
  /** Writes the end of the feed and closes the stream; returns the report. */
  end(): FeedReport;
  /** What was written and left out so far. */
  readonly report: FeedReport;
  /** `readable` as a Node `stream.Readable`, for `stream.pipeline(writer.toNodeStream(), destination)`. */
  toNodeStream(): NodeReadableLike;
}

const CHUNK_CHARS = 64 * 1024;
const DEFAULT_MAX_ISSUES = 1000;

/** Keeps the first `max` issues of each kind and counts them all. */
export class ReportBuilder {
  readonly report: FeedReport = { products: 0, errors: [], warnings: [], errorCount: 0, warningCount: 0 };
  private readonly max: number;

  constructor(maxIssues = DEFAULT_MAX_ISSUES) {
    if (!Number.isSafeInteger(maxIssues) || maxIssues < 0) throw new TypeError('maxIssues must be a non-negative integer');
    this.max = maxIssues;
  }

  error(issue: FeedIssue): void {
    if (this.report.errorCount++ < this.max) this.report.errors.push(issue);
  }

  warning(issue: FeedIssue): void {
    if (this.report.warningCount++ < this.max) this.report.warnings.push(issue);
  }

  /** An error that ends the read: listed even past `maxIssues`, so the report says why it ended. */
  fatal(issue: FeedIssue): void {
    this.report.errorCount++;
    this.report.errors.push(issue);
  }

  add(lists: IssueLists): void {
    for (const issue of lists.errors) this.error(issue);
    for (const issue of lists.warnings) this.warning(issue);
  }
}

/** How a writer renders its format. */
export interface FeedFormat {
  mode: RuleMode;
  head(createdAt: Date): string;
  product(product: WrittenProduct): string;
  tail: string;
}

export function createWriter(format: FeedFormat, options: FeedWriterOptions = {}, what = 'createFeedWriter'): FeedWriter {
  const createdAt = options.createdAt ?? new Date();
  if (!(createdAt instanceof Date) || Number.isNaN(createdAt.getTime())) throw new TypeError(`${what}: createdAt must be a valid Date`);
  const onInvalid = options.onInvalid ?? 'skip';
  if (onInvalid !== 'skip' && onInvalid !== 'throw') throw new TypeError(`${what}: onInvalid must be 'skip' or 'throw'`);
  const builder = new ReportBuilder(options.maxIssues);
  const ids = new IdSet();
  const encoder = new TextEncoder();
  const issues: IssueLists = { errors: [], warnings: [] };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wakeWriter: (() => void) | undefined;
  let pending = format.head(createdAt);
  let line = 1 + countLines(pending);
  let ended = false;

  const raw = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        wakeWriter?.();
        wakeWriter = undefined;
      },
      cancel() {
        ended = true;
        wakeWriter?.();
      },
    },
    { highWaterMark: 4 },
  );
  const readable = options.gzip ? raw.pipeThrough(new CompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>) : raw;

  const flush = () => {
    if (pending.length === 0) return;
    controller.enqueue(encoder.encode(pending));
    pending = '';
  };

  return {
    readable,
    report: builder.report,
    toNodeStream: () => Readable.fromWeb(readable as import('node:stream/web').ReadableStream<Uint8Array>),
    write(product) {
      if (ended) throw new Error(`${what}: write() after end()`);
      issues.errors.length = 0;
      issues.warnings.length = 0;
      const written = checkProduct(product, format.mode, issues, line, ids);
      builder.add(issues);
      if (written === undefined) {
        if (onInvalid === 'throw') throw new FeedValidationError([...issues.errors]);
        return undefined;
      }
      const text = format.product(written);
      line += countLines(text);
      builder.report.products++;
      pending += text;
      if (pending.length < CHUNK_CHARS) return undefined;
      flush();
      if ((controller.desiredSize ?? 1) > 0) return undefined;
      return new Promise<void>((resolve) => {
        wakeWriter = resolve;
      });
    },
    end() {
      if (!ended) {
        ended = true;
        pending += format.tail;
        flush();
        controller.close();
      }
      return builder.report;
    },
  };
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * Pumps `products` through `writer` into `target`: a Node Writable, or a file path, written
 * beside it under a temporary name and renamed over it at the end, so whoever reads the file
 * (the crawler) never sees half a feed. On failure the temporary file is removed.
 */
export async function writeAll(
  writer: FeedWriter,
  products: Iterable<FeedProduct> | AsyncIterable<FeedProduct>,
  target: string | NodeWritableLike,
): Promise<FeedReport> {
  const { pipeline } = await import('node:stream/promises');
  const fs = await import('node:fs');
  const temporary = typeof target === 'string' ? `${target}.${process.pid}.${Date.now()}.tmp` : undefined;
  const sink = temporary === undefined ? (target as unknown as NodeJS.WritableStream) : fs.createWriteStream(temporary);
  const source = writer.toNodeStream() as Readable;
  const piped = pipeline(source, sink);
  // A failing sink must stop the pump, not leave it waiting for room that never comes.
  let failure: unknown;
  const settled = piped.then(
    () => {},
    (error: unknown) => {
      failure = error ?? new Error('the feed could not be written');
    },
  );
  try {
    for await (const product of products) {
      if (failure !== undefined) break;
      const room = writer.write(product);
      if (room !== undefined) await Promise.race([room, settled]);
    }
    if (failure !== undefined) throw failure;
    const report = writer.end();
    await piped;
    if (temporary !== undefined) await fs.promises.rename(temporary, target as string);
    return report;
  } catch (error) {
    source.destroy(error as Error);
    await settled;
    if (temporary !== undefined) await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}
