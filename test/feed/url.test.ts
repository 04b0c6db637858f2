/** `checkFeed(url)`: the download, bounded and stopped at the verdict; redirects, basic auth, the private-network guard. */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { checkFeed } from 'emporio/feed';
import { afterEach, describe, expect, it } from 'vitest';
import { written } from './sample.js';

const LOOPBACK = { allowPrivateNetwork: true };
const servers: Server[] = [];
afterEach(closeServers);

/** A loopback server; its URL's origin (no path). */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('checkFeed: a URL', () => {
  it('is downloaded and checked, gzip included', async () => {
    const body = gzipSync(await written(3));
    const url = await serve((_req, res) => res.end(body));
    expect(await checkFeed(`${url}/feed.xml`, LOOPBACK)).toMatchObject({ products: 3, errors: [] });
  });

  it('an answer other than 200, or no server at all, is an error in the report', async () => {
    const url = await serve((_req, res) => {
      res.statusCode = 404;
      res.end('not here');
    });
    expect((await checkFeed(`${url}/feed.xml`, LOOPBACK)).errors).toEqual([expect.objectContaining({ rule: 'unreachable', message: expect.stringContaining('404') })]);
    await closeServers();
    expect((await checkFeed(`${url}/feed.xml`, LOOPBACK)).errors).toEqual([
      expect.objectContaining({ rule: 'unreachable', message: expect.stringContaining('ECONNREFUSED') }),
    ]);
  });

  it('a slow endless answer ends at timeoutMs, a large one at maxBytes, with a clear error', async () => {
    const url = await serve((_req, res) => {
      res.write('<?xml version="1.0" encoding="UTF-8"?><mywebstore><products>');
      const timer = setInterval(() => res.write('<product><id>1</id></product>'.repeat(50)), 5);
      res.on('close', () => clearInterval(timer));
    });
    const slow = await checkFeed(`${url}/feed.xml`, { ...LOOPBACK, timeoutMs: 300 });
    expect(slow.errors.at(-1)).toMatchObject({ rule: 'timeout', message: expect.stringContaining('300 ms') });
    const large = await checkFeed(`${url}/feed.xml`, { ...LOOPBACK, maxBytes: 200_000 });
    expect(large.errors.at(-1)).toMatchObject({ rule: 'too_large' });
  });

  it('stops downloading at the verdict: the server is cut off, not read to its end', async () => {
    // Nesting without end: the verdict comes within the first kilobyte; the server would send 64 MiB.
    const block = Buffer.from('<a>'.repeat(64 * 1024));
    let sent = 0;
    let closed: Promise<unknown> | undefined;
    const url = await serve(async (_req, res) => {
      closed = once(res, 'close');
      res.write('<?xml version="1.0" encoding="UTF-8"?><mywebstore>');
      while (sent < 64 * 1024 * 1024 && !res.destroyed) {
        sent += block.length;
        if (!res.write(block)) await Promise.race([once(res, 'drain'), closed]);
      }
      res.end();
    });
    const report = await checkFeed(`${url}/feed.xml`, LOOPBACK);
    expect(report.errors).toEqual([expect.objectContaining({ rule: 'xml', message: expect.stringContaining('nest more than') })]);
    await closed;
    // What the socket buffers held when the download was cancelled, not the 64 MiB.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('counts maxBytes on the decompressed bytes too: a small gzip that inflates past it is too_large', async () => {
    const text = new TextDecoder().decode(await written(2)).replace('<products>', `<products>${' '.repeat(8 * 1024 * 1024)}`);
    const bomb = gzipSync(text);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const url = await serve((_req, res) => res.end(bomb));
    let read = 0;
    const report = await checkFeed(`${url}/feed.xml.gz`, { ...LOOPBACK, maxBytes: 1024 * 1024, onProgress: (bytes) => (read = bytes) });
    expect(report.errors.at(-1)).toMatchObject({ rule: 'too_large', message: expect.stringContaining('decompressed') });
    expect(read).toBeLessThanOrEqual(1024 * 1024);
  });
});

/** Closes the servers started so far (the next request meets a closed port). */
async function closeServers() {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('checkFeed: a URL and a signal', () => {
  it('an aborted signal rejects with its reason before any request is made', async () => {
    let requests = 0;
    const url = await serve((_req, res) => {
      requests++;
      res.end();
    });
    const reason = new Error('shutting down');
    await expect(checkFeed(`${url}/feed.xml`, { ...LOOPBACK, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(requests).toBe(0);
  });
});

describe('checkFeed: a URL with a user and password', () => {
  it('sends them as basic auth to their own origin only, never across a redirect, and shows them nowhere', async () => {
    const body = await written(2);
    let elsewhere: IncomingHttpHeaders | undefined;
    const other = await serve((req, res) => {
      elsewhere = req.headers;
      res.end(body);
    });
    const seen: (string | undefined)[] = [];
    const shop = await serve((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== `Basic ${Buffer.from('merchant:s3cr3t pass').toString('base64')}`) {
        res.statusCode = 401;
        res.end();
      } else if (req.url === '/feed.xml') {
        res.statusCode = 302;
        res.setHeader('location', '/moved.xml');
        res.end();
      } else if (req.url === '/moved.xml') {
        res.end(body);
      } else {
        res.statusCode = 302;
        res.setHeader('location', `${other}/feed.xml`);
        res.end();
      }
    });
    const url = shop.replace('http://', 'http://merchant:s3cr3t%20pass@');
    expect(await checkFeed(`${url}/feed.xml`, LOOPBACK)).toMatchObject({ products: 2, errors: [] });
    expect(seen).toHaveLength(2);
    // Another origin (another port) gets no credentials.
    expect(await checkFeed(`${url}/to-other`, LOOPBACK)).toMatchObject({ products: 2, errors: [] });
    expect(elsewhere).toBeDefined();
    expect(elsewhere?.authorization).toBeUndefined();
    // Refused: the report names the URL without its password.
    const refused = await checkFeed(`${shop.replace('http://', 'http://merchant:wrong@')}/feed.xml`, LOOPBACK);
    expect(refused.errors).toEqual([expect.objectContaining({ rule: 'unreachable', message: expect.stringContaining(`${shop}/feed.xml answered 401`) })]);
    const unreachable = await checkFeed('http://merchant:s3cr3t@127.0.0.1:1/feed.xml?key=k3y', LOOPBACK);
    expect(JSON.stringify([refused, unreachable])).not.toMatch(/s3cr3t|wrong|k3y/);
    expect(unreachable.errors[0]?.message).toContain('http://127.0.0.1:1/feed.xml?…');
  });

  it('names a redirect it does not follow, without credentials or query', async () => {
    const url = await serve((req, res) => {
      res.statusCode = 302;
      const hop = Number(req.url?.slice(1).split('?')[0]) || 0;
      res.setHeader('location', req.url === '/creds' ? 'http://u:p4ss@example.com/x' : `/${hop + 1}?token=t0k`);
      res.end();
    });
    const loop = await checkFeed(`${url}/0`, LOOPBACK);
    expect(loop.errors).toEqual([expect.objectContaining({ rule: 'unreachable', message: expect.stringContaining(`more than 5 times (last to ${url}/6?…)`) })]);
    const creds = await checkFeed(`${url}/creds`, LOOPBACK);
    expect(creds.errors[0]?.message).toContain('to http://example.com/x with credentials in the URL, not followed');
    expect(JSON.stringify([loop, creds])).not.toMatch(/t0k|p4ss/);
  });
});

describe('checkFeed: a URL into a private network is refused unless allowed', () => {
  it('refuses loopback by default, before any request reaches it', async () => {
    let requests = 0;
    const url = await serve((_req, res) => {
      requests++;
      res.end();
    });
    const report = await checkFeed(`${url}/feed.xml`);
    expect(report.errors).toEqual([
      expect.objectContaining({ rule: 'unreachable', message: expect.stringMatching(/is at 127\.0\.0\.1, a loopback, private or link-local address: refused \(allowPrivateNetwork/) }),
    ]);
    expect(requests).toBe(0);
  });

  it('refuses the cloud metadata address, private ranges, IPv6 loopback and localhost without connecting', async () => {
    for (const host of ['169.254.169.254', '10.1.2.3', '192.168.0.10', '172.20.0.1', '[::1]', '[::ffff:127.0.0.1]', '[fd00::1]', '[fe80::1]', 'localhost', '0.0.0.0']) {
      const report = await checkFeed(`http://${host}/latest/meta-data/`, { timeoutMs: 2000 });
      expect(report.errors, host).toEqual([expect.objectContaining({ rule: 'unreachable', message: expect.stringContaining('refused') })]);
    }
  });
});
