/**
 * Where `writeFeed` writes: a file path, written beside the target under a temporary name and
 * renamed over it at the end, or a Node Writable the caller passes.
 */
import type { FeedProduct, FeedReport } from './types.js';
import type { NodeWritableLike, WriterCore } from './output.js';

const FILE_BUFFER_BYTES = 512 * 1024;

/**
 * A name beside `target` for writing it first, then renaming it over `target`: random, so nobody
 * can plant a link there in advance, and created with `wx` (O_EXCL), which never follows one.
 */
export function temporaryPath(target: string): string {
  return `${target}.${crypto.randomUUID()}.tmp`;
}

/**
 * Pumps `products` into `target`: a Node Writable, or a file path, written beside it under a
 * temporary name and renamed over it at the end, so whoever reads the file (the crawler) never
 * sees half a feed. On failure the temporary file is removed.
 */
export async function writeAll(
  core: WriterCore,
  products: Iterable<FeedProduct> | AsyncIterable<FeedProduct>,
  target: string | NodeWritableLike,
  gzip: boolean,
): Promise<FeedReport> {
  const { finished } = await import('node:stream/promises');
  const fs = await import('node:fs');
  const temporary = typeof target === 'string' ? temporaryPath(target) : undefined;
  // With Node's default buffer (16 KiB) every chunk fills it: the writer stops after each one
  // until the file has taken it, producing and writing take turns, and each turn puts the thread
  // to sleep and wakes it again (a tenth to a fifth of the time on a virtual machine). With room
  // for eight chunks both stay busy and the stream hands the file several in one call. Measured
  // best from 256 KiB to 1 MiB; with 4 MiB the feed was written slower again.
  const destination =
    temporary === undefined
      ? (target as unknown as NodeJS.WritableStream)
      : fs.createWriteStream(temporary, { flags: 'wx', highWaterMark: FILE_BUFFER_BYTES });
  // Only a file this call created is removed on failure (never one found at the name).
  let created = false;
  (destination as NodeJS.EventEmitter).once('open', () => {
    created = true;
  });
  let sink: NodeJS.WritableStream = destination;
  if (gzip) {
    const { createGzip } = await import('node:zlib');
    const gzipper = createGzip();
    gzipper.pipe(destination);
    gzipper.once('error', (error) => (destination as unknown as { destroy(error: Error): void }).destroy(error));
    sink = gzipper;
  }
  // Our own file stream is done with a chunk once written; zlib or the caller's stream may not be.
  core.attach(sink, sink === destination && temporary !== undefined);
  const done = finished(destination);
  let failure: unknown;
  done.catch((error: unknown) => {
    failure = error ?? new Error('the feed could not be written');
  });
  const { writer } = core;
  try {
    if (Symbol.iterator in products) {
      // A plain iterable is walked without a promise per product.
      for (const product of products) {
        const room = writer.write(product);
        if (room !== undefined) await room;
        if (failure !== undefined) throw failure;
      }
    } else {
      for await (const product of products) {
        const room = writer.write(product);
        if (room !== undefined) await room;
        if (failure !== undefined) throw failure;
      }
    }
    const report = writer.end();
    await done;
    if (temporary !== undefined) await fs.promises.rename(temporary, target as string);
    return report;
  } catch (error) {
    (destination as unknown as { destroy(error?: Error): void }).destroy();
    await done.catch(() => {});
    if (temporary !== undefined && created) await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}
