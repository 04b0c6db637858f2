/**
 * What the XML and CSV writers share: validation before anything is written, the report,
 * text buffered into chunks of about 64 KiB, a web stream with backpressure, gzip on request.
 */
import { Readable } from 'node:stream';
import { FeedValidationError } from './errors.js';
import { IdSet } from './id-set.js';
import { plainProduct } from './plain-product.js';
import { addIds, checkHeldProduct, checkProduct, type IssueLists, removeIds, type RuleMode, type WriteStats } from './rules.js';
import { ValueScan } from './value-scan.js';
import type { WrittenProduct } from './values.js';
import type { FeedIssue, FeedProduct, FeedReport } from './types.js';

export interface FeedWriterOptions {
  /** When the feed was generated (default now), written in the shop's local time as `YYYY-MM-DD HH:MM`. */
  createdAt?: Date | undefined;
  /** Compress the output with gzip (the service wants feeds over 10 MB compressed). */
  gzip?: boolean | undefined;
  /** An invalid product is left out and reported (`'skip'`, the default) or thrown as a `FeedValidationError`. */
  onInvalid?: 'skip' | 'throw' | undefined;
  /** How many issues the report lists (default 1000); its counts count them all. */
  maxIssues?: number | undefined;
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

/**
 * Chunks are flushed at this many characters, well below 65,536: an outside profile found
 * `TextEncoder.encodeInto` converting a string built with `+=` about 5 times slower once it reaches
 * 65,536 characters (about 100 ms per 64 MB at 48 Ki or 60,000 characters, about 600 ms at 64 Ki or
 * 96 Ki, ASCII and Greek alike), half the writer's time while chunks were flushed at 64 Ki. Here
 * (Node 20.20, 300,000 products) 32 Ki wrote in 1.2–1.6 s wall, 48 Ki in 1.3–2.0 s, 64 Ki in 1.5–2.2 s,
 * CPU time alike. A chunk ends after the product that reaches it, so under 65,536 unless one
 * product alone holds some 32,000 characters.
 */
const CHUNK_CHARS = 32 * 1024;
/** Room for any chunk of ASCII but one with a giant product (a chunk ends past CHUNK_CHARS). */
const RECYCLED_CHUNK_BYTES = 64 * 1024;
const DEFAULT_MAX_ISSUES = 1000;
const NO_SPECIAL: readonly string[] = [];

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
  /**
   * `special`: the values that may need escaping; any other is written as it is. With `scan`, the
   * product's texts are unchecked: the format tells the scan where they are.
   */
  product(product: WrittenProduct, special: readonly string[], scan?: ValueScan): string;
  /** Whether the format can tell a scan where a product's texts are (see value-scan.ts). */
  defersTexts?: boolean;
  /** The line ends of `text`, the product as written: `valueLines` are those its checked values hold. */
  productLines(text: string, valueLines: number): number;
  tail: string;
}

/** Where a writer's chunks go: a web stream (the default), or a Node stream `writeFeed` attaches. */
interface Sink {
  /** Takes a chunk, made by `bytes` (in `into` when it is given and large enough); false when the consumer is full. */
  push(bytes: (into?: Uint8Array) => Uint8Array): boolean;
  /** Resolves when there is room again. */
  room(): Promise<void>;
  close(): void;
}

export interface WriterCore {
  writer: FeedWriter;
  /**
   * Sends the output to a Node stream instead of `readable` (faster: no web stream in between).
   * `recycle`: the stream is done with a chunk once its write calls back (a file stream, never one
   * whose reader may keep chunks), so a chunk's memory is used again for a later one.
   */
  attach(sink: NodeJS.WritableStream, recycle?: boolean): void;
}

export function createWriter(format: FeedFormat, options: FeedWriterOptions = {}, what = 'createFeedWriter'): FeedWriter {
  return createWriterCore(format, options, what).writer;
}

export function createWriterCore(format: FeedFormat, options: FeedWriterOptions = {}, what = 'createFeedWriter'): WriterCore {
  const createdAt = options.createdAt ?? new Date();
  if (!(createdAt instanceof Date) || Number.isNaN(createdAt.getTime())) throw new TypeError(`${what}: createdAt must be a valid Date`);
  const onInvalid = options.onInvalid ?? 'skip';
  if (onInvalid !== 'skip' && onInvalid !== 'throw') throw new TypeError(`${what}: onInvalid must be 'skip' or 'throw'`);
  const builder = new ReportBuilder(options.maxIssues);
  const ids = new IdSet();
  const issues: IssueLists = { errors: [], warnings: [] };
  const stats: WriteStats = { valueLines: 0, special: [] };
  let sink: Sink | undefined;
  let readable: ReadableStream<Uint8Array> | undefined;
  let pending = format.head(createdAt);
  let line = 1 + countLines(pending);
  /** Checks the texts of most products once their chunk is encoded; not when an invalid product must throw at once. */
  const scan = onInvalid === 'skip' && format.defersTexts ? ValueScan.create() : undefined;
  /** The products at the end of `pending` whose texts the scan has yet to check, where each starts, and its line. */
  const held: WrittenProduct[] = [];
  const heldAt: number[] = [];
  const heldLine: number[] = [];
  /** Characters of the chunk the scan has encoded (the rest are `pending`'s). */
  let scannedChars = 0;
  let ended = false;
  /** Set when the reader cancels `readable`: a later write says so, rather than "after end()". */
  let cancelled: { reason: unknown } | undefined;

  const webStream = (): ReadableStream<Uint8Array> => {
    if (readable !== undefined) return readable;
    if (sink !== undefined) throw new Error(`${what}: the output already goes elsewhere`);
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let wake: (() => void) | undefined;
    const raw = new ReadableStream<Uint8Array>(
      {
        start(c) {
          controller = c;
        },
        pull() {
          wake?.();
          wake = undefined;
        },
        cancel(reason) {
          cancelled = { reason };
          wake?.();
        },
      },
      { highWaterMark: 4 },
    );
    sink = {
      push(bytes) {
        if (cancelled !== undefined) return true;
        if (!ended) controller.enqueue(bytes());
        return ended || (controller.desiredSize ?? 1) > 0;
      },
      room: () =>
        new Promise<void>((resolve) => {
          wake = resolve;
        }),
      close: () => {
        if (cancelled === undefined) controller.close();
      },
    };
    readable = options.gzip ? raw.pipeThrough(new CompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>) : raw;
    return readable;
  };

  /** Where chunks go: the attached Node stream, else the web stream (made on first need). */
  const currentSink = (): Sink => {
    if (sink === undefined) webStream();
    return sink!;
  };

  /** Has the scan check the held products' texts; the products in doubt are checked in full. */
  const settle = (): void => {
    if (held.length === 0) return;
    const doubts = scan!.check(pending);
    if (doubts > 0) rewrite(doubts);
    scannedChars += pending.length;
    pending = '';
    held.length = 0;
    heldAt.length = 0;
    heldLine.length = 0;
  };

  /**
   * Writes the held products again from the first in doubt: those in doubt checked in full, in
   * order, the others as they were (unless their id now repeats: a product in doubt may have
   * changed its own). Their ids are taken out first, so a refused product keeps none.
   */
  const rewrite = (doubts: number): void => {
    const first = scan!.doubtful(0);
    const lastLine = line;
    let text = pending.slice(0, heldAt[first]);
    line = heldLine[first]!;
    builder.report.products -= held.length - first;
    for (let i = first; i < held.length; i++) removeIds(held[i]!, ids);
    for (let i = first, next = 0; i < held.length; i++) {
      const inDoubt = next < doubts && scan!.doubtful(next) === i;
      if (inDoubt) next++;
      if (!inDoubt && addIds(held[i]!, ids)) {
        const last = i === held.length - 1;
        text += pending.slice(heldAt[i], last ? pending.length : heldAt[i + 1]);
        line += (last ? lastLine : heldLine[i + 1]!) - heldLine[i]!;
        builder.report.products++;
        continue;
      }
      clearIssues();
      const written = checkHeldProduct(held[i]!, issues, line, ids, stats);
      if (issues.errors.length > 0 || issues.warnings.length > 0) builder.add(issues);
      if (written === undefined) continue;
      const product = format.product(written, stats.special);
      text += product;
      line += format.productLines(product, stats.valueLines);
      builder.report.products++;
    }
    scan!.append(text);
  };

  const flush = (): boolean => {
    settle();
    scannedChars = 0;
    if (scan !== undefined && scan.heldBytes > 0) {
      if (pending.length > 0) scan.append(pending);
      pending = '';
      return currentSink().push((into) => {
        const taken = scan.take();
        const bytes = chunkMemory(taken.length, into);
        bytes.set(taken);
        return taken.length === bytes.length ? bytes : bytes.subarray(0, taken.length);
      });
    }
    if (pending.length === 0) return true;
    const chunk = pending;
    pending = '';
    return currentSink().push((into) => encodeUtf8(chunk, into));
  };

  // Emptied only when filled: setting an array's length is a call into the engine.
  const clearIssues = (): void => {
    if (issues.errors.length > 0) issues.errors.length = 0;
    if (issues.warnings.length > 0) issues.warnings.length = 0;
    if (stats.special.length > 0) stats.special.length = 0;
    stats.valueLines = 0;
  };

  /** Writes `product`, whose texts the scan checks with its chunk's (its ids are in `ids` already). */
  const hold = (product: WrittenProduct): Promise<void> | undefined => {
    if (scan!.full) settle();
    const start = pending.length;
    scan!.product(start, held.length);
    const text = format.product(product, NO_SPECIAL, scan);
    held.push(product);
    heldAt.push(start);
    heldLine.push(line);
    pending += text;
    line += format.productLines(text, 0);
    builder.report.products++;
    if (scannedChars + pending.length < CHUNK_CHARS || flush()) return undefined;
    return sink!.room();
  };

  const writer: FeedWriter = {
    get readable() {
      return webStream();
    },
    get report() {
      // Reading the report is reason enough to check the held products: it is never behind.
      settle();
      return builder.report;
    },
    toNodeStream: () => Readable.fromWeb(webStream() as import('node:stream/web').ReadableStream<Uint8Array>),
    write(product) {
      if (ended) throw new Error(`${what}: write() after end()`);
      if (cancelled !== undefined) throw cancellation(what, cancelled.reason);
      if (scan !== undefined) {
        const quick = typeof product === 'object' && product !== null ? plainProduct(product as unknown as Record<string, unknown>, true) : undefined;
        if (quick !== undefined && addIds(quick, ids)) return hold(quick);
        // This product's verdict may hang on a held one's (a repeated id), and its issues come after theirs.
        settle();
      }
      clearIssues();
      // With a scan, the quick path has had its say (it takes no product the lenient one refused).
      const written = checkProduct(product, format.mode, issues, line, ids, stats, scan === undefined);
      if (issues.errors.length > 0 || issues.warnings.length > 0) builder.add(issues);
      if (written === undefined) {
        if (onInvalid === 'throw') throw new FeedValidationError([...issues.errors]);
        return undefined;
      }
      const text = format.product(written, stats.special);
      pending += text;
      line += format.productLines(text, stats.valueLines);
      builder.report.products++;
      if (scannedChars + pending.length < CHUNK_CHARS || flush()) return undefined;
      return sink!.room();
    },
    end() {
      if (!ended) {
        settle();
        pending += format.tail;
        flush();
        ended = true;
        currentSink().close();
      }
      return builder.report;
    },
  };

  return {
    writer,
    attach(target, recycle = false) {
      if (sink !== undefined) throw new Error(`${what}: the output already goes elsewhere`);
      let failed = false;
      /** Chunks the stream is done with: fresh memory for each chunk is a page fault per 4 KiB. */
      const spare: Uint8Array[] = [];
      target.once('error', () => {
        failed = true;
      });
      sink = {
        push: (made) => {
          if (!recycle) return target.write(made()) && !failed;
          const bytes = made(spare.pop() ?? Buffer.allocUnsafeSlow(RECYCLED_CHUNK_BYTES));
          return target.write(bytes, () => spare.push(bytes)) && !failed;
        },
        room: () =>
          new Promise<void>((resolve) => {
            const done = () => {
              target.off('drain', done);
              target.off('error', done);
              target.off('close', done);
              resolve();
            };
            target.on('drain', done);
            target.on('error', done);
            target.on('close', done);
          }),
        close: () => target.end(),
      };
    },
  };
}

/** The error a write meets once the feed's reader has cancelled it, naming the reader's reason. */
function cancellation(what: string, reason: unknown): Error {
  const why = reason instanceof Error ? reason.message : reason === undefined ? '' : String(reason);
  return new Error(`${what}: the reader cancelled the feed${why ? `: ${why}` : ''}`, { cause: reason });
}

const encoder = new TextEncoder();

/**
 * Room for at least `length` bytes: all of `into`'s memory (a chunk given back) when it is large
 * enough, else a block of exactly `length` of its own, never Node's shared pool, so whoever reads
 * the stream may keep or transfer its `buffer`.
 */
function chunkMemory(length: number, into: Uint8Array | undefined): Uint8Array {
  const memory = into?.buffer;
  return memory !== undefined && memory.byteLength >= length ? new Uint8Array(memory) : Buffer.allocUnsafeSlow(length);
}

/**
 * A chunk's UTF-8 bytes, in `into` or in new memory (see `chunkMemory`). `encodeInto` a buffer of
 * one byte per character converts a chunk of ASCII (most feeds) several times faster than
 * `Buffer.from(text)` or `encode`, which size the output first; a chunk that does not fit is
 * encoded again the ordinary way.
 */
function encodeUtf8(chunk: string, into?: Uint8Array): Uint8Array {
  const bytes = chunkMemory(chunk.length, into);
  const { read, written } = encoder.encodeInto(chunk, bytes);
  if (read !== chunk.length) return encoder.encode(chunk);
  return written === bytes.length ? bytes : bytes.subarray(0, written);
}

export function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}
