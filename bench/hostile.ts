/**
 * 7. A hostile server: an endless body, and a gzip bomb (1 MB on the wire, 1 GiB decoded).
 * The process's RSS growth during one call, sampled every few ms, must stay within the
 * client's `maxResponseBytes` plus a small constant (what decoding, text and the
 * runtime's buffers add); before the limit, an endless body grew RSS without bound.
 */
import type { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createGzip } from 'node:zlib';
import { MarketplaceClient, ResponseTooLargeError } from 'emporio';
import { fmt, loopbackServer, type Row } from './harness.js';

const MiB = 1024 * 1024;
const LIMIT = 8 * MiB;
/**
 * Allowed above the limit, whatever the body's length: the decoded text, chunks not yet
 * collected, decoder and socket buffers (measured 8-50 MB with an 8 MiB limit, by GC timing).
 */
const CONSTANT = 64 * MiB;
const BOMB_DECODED = 1024 * MiB;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** 1 GiB of spaces, gzipped from a reused buffer (never held whole). */
async function gzipBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const block = Buffer.alloc(MiB, 0x20);
  for (let i = 0; i < BOMB_DECODED / MiB; i++) {
    if (!gzip.write(block)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** Writes 64 KiB blocks for as long as the client reads (at most 10 s). */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const block = Buffer.alloc(64 * 1024, 0x20);
  const until = Date.now() + 10_000;
  const pump = () => {
    while (!res.destroyed && Date.now() < until) {
      if (!res.write(block)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** Peak RSS above the start while `run` goes on. */
async function rssGrowth(run: () => Promise<unknown>): Promise<number> {
  gc();
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return peak - start;
}

export async function benchHostile(): Promise<Row[]> {
  const bomb = await gzipBomb();
  const server = await loopbackServer((req, res) => {
    if (req.url?.includes('small')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"order":{"code":"small"}}');
    } else if (req.url?.includes('bomb')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    } else endless(res);
  });
  try {
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: 'marketplace', token: 'bench-token', maxResponseBytes: LIMIT });
    const refused = async (code: string) => {
      const outcome = await client.orders.get(code).then(
        () => 'resolved',
        (error: unknown) => (error instanceof ResponseTooLargeError ? 'refused' : String(error)),
      );
      if (outcome !== 'refused') throw new Error(`expected ResponseTooLargeError, got ${outcome}`);
    };
    // Warm-up with an ordinary answer: loads the code without growing the heap for a big body.
    await client.orders.get('small');
    const endlessGrowth = await rssGrowth(() => refused('endless'));
    const bombGrowth = await rssGrowth(() => refused('bomb'));
    const bound = LIMIT + CONSTANT;
    const row = (name: string, growth: number, data: Record<string, unknown>): Row => ({
      name,
      measured: `+${fmt.mb(growth)} RSS`,
      baseline: `${fmt.mb(LIMIT)} limit + ${fmt.mb(CONSTANT)}`,
      ratio: growth / bound,
      goal: '<= 1.00',
      pass: growth <= bound,
      data: { rssGrowthBytes: growth, maxResponseBytes: LIMIT, constantBytes: CONSTANT, ...data },
    });
    return [
      row('hostile: endless body (RSS growth)', endlessGrowth, {}),
      row('hostile: gzip bomb 1 GiB decoded (RSS growth)', bombGrowth, { bombWireBytes: bomb.length, bombDecodedBytes: BOMB_DECODED }),
    ];
  } finally {
    await server.close();
  }
}
