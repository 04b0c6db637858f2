/**
 * One workload of the instruction counts (bench/instructions.ts), run under valgrind:
 * `instructions-workload.ts <workload> <n>` does n units of it and exits.
 * - feed-sdk, feed-template: n products written, by `writeFeed` or the chunked template writer
 *   of bench/feed.ts, into a stream that drops every chunk at once (a file would make the
 *   work depend on how fast the disk takes it).
 * - orders-sdk, orders-ky, orders-fetch: n sequential `orders.get` calls, or bare ky's and raw
 *   fetch's, the variants of bench/request-overhead.ts, against a loopback server in a process
 *   of its own (valgrind does not follow it, so its work is not counted).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { MarketplaceClient } from 'emporio';
import { writeFeed } from 'emporio/feed';
import { CREATED_AT, products, templateWriter } from './feed.js';
import { clientOptions, orderBody, variantsOn } from './request-overhead.js';

const [workload, count] = process.argv.slice(2) as [string, string];
const n = Number(count);

/** A stream that takes every chunk at once and keeps none. */
const discarding = () =>
  new Writable({
    highWaterMark: 512 * 1024,
    write(_chunk, _encoding, done) {
      done();
    },
  });

/** The canned order, answered by a plain node:http server in a child process; resolves to its URL and a stop. */
async function orderServer(): Promise<{ url: string; stop(): void }> {
  const code = `const body = Buffer.from(process.env.ORDER_BODY);
    const server = require('node:http').createServer({ keepAlive: true }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ORDER_BODY: orderBody().toString('utf8') } });
  const [port] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${port.toString('utf8').trim()}`, stop: () => child.kill() };
}

if (workload === 'feed-sdk') {
  const report = await writeFeed(products(n), discarding(), { createdAt: CREATED_AT });
  if (report.products !== n) throw new Error(`wrote ${report.products} of ${n} products`);
} else if (workload === 'feed-template') {
  await templateWriter(n, discarding(), true);
} else if (workload.startsWith('orders-')) {
  const server = await orderServer();
  try {
    const variants = variantsOn(server.url, new MarketplaceClient(clientOptions(server.url)));
    const variant = variants[workload.slice('orders-'.length) as keyof typeof variants];
    if (variant === undefined) throw new Error(`unknown workload ${workload}`);
    await variant(n);
  } finally {
    server.stop();
  }
} else {
  throw new Error(`unknown workload ${workload}`);
}
