/**
 * `checkFeed`: reads a feed as it streams in and reports what the service would refuse
 * (errors) or map on its own (warnings), each with its line, product and attribute.
 */
import { whenAborted } from '../core/abort.js';
import { IdSet } from './id-set.js';
import { countLines, ReportBuilder } from './output.js';
import type { CheckedProduct, ReadContext } from './read-context.js';
import { DEFAULT_MAX_URL_BYTES, decompress, type FeedSource, isUrl, openSource, SourceError, type SourceOptions } from './source.js';
import type { FeedReport } from './types.js';
import { createXmlReader } from './xml-reader.js';

export type { CheckedProduct } from './read-context.js';
export type { FeedSource } from './source.js';

export interface CheckFeedOptions extends SourceOptions {
  /**
   * Called with each valid product as read (values as the writer writes them) and its line. A
   * promise it returns (a full `FeedWriter.write`) is awaited before more of the feed is read.
   */
  onProduct?: ((product: CheckedProduct, line: number) => unknown) | undefined;
  /** Called as bytes are read (after decompression), for a progress display. */
  onProgress?: ((bytes: number) => void) | undefined;
  /** How many issues of each kind the report lists (default 1000); its counts count them all. */
  maxIssues?: number | undefined;
}

/** Over this, an uncompressed feed must be served compressed. */
const COMPRESS_ABOVE_BYTES = 10 * 1000 * 1000;
/** Bytes looked at for a byte-order mark and the XML declaration. */
const HEAD_BYTES = 1024;

/**
 * Checks a feed: a file path, an `http(s)` URL, the feed's text (a string starting with `<` or
 * spanning lines), its bytes, or a stream. Gzip and zip are recognised by their first bytes;
 * XML and CSV by the first character. Memory does not grow with the feed's size: one product
 * is held at a time, and the report keeps the first `maxIssues` issues of each kind.
 */
export async function checkFeed(source: FeedSource, options: CheckFeedOptions = {}): Promise<FeedReport> {
  const builder = new ReportBuilder(options.maxIssues);
  const context: ReadContext = { builder, ids: new IdSet(), onProduct: options.onProduct, said: new Set(), lists: { errors: [], warnings: [] } };
  // Aborted once the verdict is in (or the caller's signal aborts): a download stops there.
  const stop = new AbortController();
  const { signal } = options;
  if (signal?.aborted) stop.abort(signal.reason);
  const stopListening = signal && !signal.aborted ? whenAborted(signal, () => stop.abort(signal.reason)) : undefined;
  // A URL's feed is bounded once decompressed too (a small gzip may inflate without end).
  const maxBytes = isUrl(source) ? (options.maxBytes ?? DEFAULT_MAX_URL_BYTES) : Number.POSITIVE_INFINITY;
  let line = () => 1;
  try {
    let compressed: string | undefined;
    const bytes = await decompress(await openSource(source, options, stop.signal), (kind) => {
      compressed = kind;
    });
    let total = 0;
    const counted = async function* () {
      for await (const chunk of bytes) {
        total += chunk.byteLength;
        if (total > maxBytes) throw new SourceError('too_large', `the feed passed ${maxBytes} bytes once decompressed`);
        options.onProgress?.(total);
        yield chunk;
        const room = context.room;
        if (room !== undefined) {
          context.room = undefined;
          await room;
        }
      }
    };
    const text = decode(counted(), builder, () => line());
    // Leading white space does not decide the format, and is not kept (a feed of nothing but
    // spaces would grow one string without bound): only its line ends count, for the line numbers.
    let skipped = 0;
    let blank = false;
    let first = await text.next();
    while (!first.done && first.value.trim() === '') {
      blank = true;
      skipped += countLines(first.value);
      first = await text.next();
    }
    if (first.done) {
      builder.error({ line: 1, rule: 'no_products', message: 'the feed is empty' });
      return builder.report;
    }
    const start = first.value;
    const rest = async function* () {
      yield start;
      for (let next = await text.next(); !next.done; next = await text.next()) yield next.value;
    };
    if (start.trimStart().startsWith('<')) {
      const reader = createXmlReader(context, skipped);
      line = reader.line;
      // Leading white space is still no XML declaration's place: one space says so to the parser.
      if (blank) reader.write(' ');
      for await (const chunk of rest()) if (!reader.write(chunk)) break;
      reader.close();
    } else {
      // The CSV parser loads only for a CSV feed: most feeds are XML, and it is a quarter of this entry's size.
      const { readCsv } = await import('./csv-reader.js');
      await readCsv(rest(), context, skipped, (at) => {
        line = at;
      });
    }
    if (compressed === undefined && total > COMPRESS_ABOVE_BYTES) {
      builder.warning({ line: 1, rule: 'too_large', message: `the feed is ${total} bytes; over 10 MB it must be served compressed (gzip or zip)` });
    }
  } catch (error) {
    if (error instanceof SourceError) builder.fatal({ line: line(), rule: error.rule, message: error.message });
    else throw error;
  } finally {
    stopListening?.();
    stop.abort();
  }
  return builder.report;
}

/**
 * The bytes as text, in the encoding they declare. A byte-order mark is a warning; an XML
 * declaration naming an encoding the bytes do not match is an error (the service may refuse
 * the feed); the bytes that do not decode are reported once and read on as replacement characters.
 */
async function* decode(chunks: AsyncIterable<Uint8Array>, builder: ReportBuilder, line: () => number): AsyncGenerator<string> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.byteLength;
  }
  const first = new Uint8Array(headLength);
  let offset = 0;
  for (const chunk of head) {
    first.set(chunk, offset);
    offset += chunk.byteLength;
  }

  let bom: string | undefined;
  if (first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) bom = 'utf-8';
  else if (first[0] === 0xff && first[1] === 0xfe) bom = 'utf-16le';
  else if (first[0] === 0xfe && first[1] === 0xff) bom = 'utf-16be';
  // Past a UTF-8 mark (the UTF-16 decoders drop theirs), so it cannot hide the declaration behind it.
  const headText = new TextDecoder(bom?.startsWith('utf-16') ? bom : 'latin1').decode(first.subarray(bom === 'utf-8' ? 3 : 0, HEAD_BYTES));
  const declaration = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"']*)["']/.exec(headText);
  const declared = declaration?.[1]?.trim();
  const xml = headText.trimStart().startsWith('<');
  if (bom !== undefined) {
    builder.warning({ line: 1, rule: 'encoding', message: `the feed starts with a ${bom.toUpperCase()} byte-order mark; allowed, though some readers take it for text` });
  }
  if (xml && declared === undefined) {
    builder.warning({ line: 1, rule: 'encoding', message: 'no XML declaration naming the encoding (<?xml version="1.0" encoding="UTF-8"?>); read as UTF-8' });
  }
  let label = bom ?? 'utf-8';
  if (declared !== undefined) {
    let named: string | undefined;
    try {
      named = new TextDecoder(declared).encoding;
    } catch {
      builder.error({ line: 1, rule: 'encoding', message: `the declared encoding ${JSON.stringify(declared)} is unknown; read as ${label.toUpperCase()}` });
    }
    if (named !== undefined && bom !== undefined && named !== bom) {
      builder.error({ line: 1, rule: 'encoding', message: `the feed declares ${declared}, but its byte-order mark says ${bom.toUpperCase()}` });
    } else if (named !== undefined && bom === undefined) {
      label = named;
      if (named !== 'utf-8' && looksLikeUtf8(first)) {
        builder.error({ line: 1, rule: 'encoding', message: `the feed declares ${declared}, but its bytes read as UTF-8: declare UTF-8` });
      }
    }
  }

  let decoder = new TextDecoder(label, { fatal: true });
  const decodeChunk = (chunk: Uint8Array, stream: boolean): string => {
    try {
      return decoder.decode(chunk, { stream });
    } catch {
      builder.error({
        line: line(),
        rule: 'encoding',
        message: `bytes near line ${line()} are not ${label.toUpperCase()}, the encoding the feed ${declared === undefined ? 'is read in' : 'declares'}`,
      });
      decoder = new TextDecoder(label);
      return decoder.decode(chunk, { stream });
    }
  };
  if (first.byteLength > 0) yield decodeChunk(first, true);
  if (!ended) {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      yield decodeChunk(next.value, true);
    }
  }
  const tail = decodeChunk(new Uint8Array(0), false);
  if (tail !== '') yield tail;
}

/** True when the bytes hold non-ASCII text that decodes as UTF-8 (a single-byte declaration would then lie). */
function looksLikeUtf8(bytes: Uint8Array): boolean {
  if (!bytes.some((byte) => byte >= 0x80)) return false;
  try {
    // The head may end inside a character: only the complete part is judged.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, lastCharacterEnd(bytes)));
    return true;
  } catch {
    return false;
  }
}

function lastCharacterEnd(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0 && end > bytes.length - 4 && (bytes[end - 1]! & 0xc0) === 0x80) end--;
  if (end > 0 && bytes[end - 1]! >= 0xc0) end--;
  return end;
}
