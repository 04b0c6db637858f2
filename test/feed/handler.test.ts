import { once } from 'node:events';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createFeedHandler, toNodeHandler } from 'emporio/feed';
import { afterEach, describe, expect, it } from 'vitest';

const CRAWLER = { remoteAddress: '185.6.76.10' };
const FEED = '<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore><created_at>2026-06-10 09:30</created_at><products></products></mywebstore>\n';
const get = (headers: Record<string, string> = {}, method = 'GET') => new Request('http://shop.example/feed.xml', { method, headers });

describe('createFeedHandler', () => {
  it('serves the crawler’s ranges (the webhooks’ list, the 2025 /32s included) and refuses anyone else', async () => {
    const handler = createFeedHandler({ feed: FEED });
    const ok = await handler(get(), CRAWLER);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await ok.text()).toBe(FEED);
    expect((await handler(get(), { remoteAddress: '3.73.204.153' })).status).toBe(200);
    expect((await handler(get(), { remoteAddress: '2a03:e40::7' })).status).toBe(200);
    expect((await handler(get(), { remoteAddress: '203.0.113.9' })).status).toBe(403);
    expect((await handler(get())).status).toBe(403);
    expect((await handler(get({ 'x-forwarded-for': '185.6.76.10' }), { remoteAddress: '203.0.113.9' })).status).toBe(403);
    expect((await handler(new Request('http://shop.example/feed.xml', { method: 'POST', body: 'x' }), CRAWLER)).status).toBe(405);
  });

  it('trusts X-Forwarded-For only with trustProxy, and takes its own ranges', async () => {
    const behindProxy = createFeedHandler({ feed: FEED, trustProxy: 1 });
    expect((await behindProxy(get({ 'x-forwarded-for': '185.6.76.10' }), { remoteAddress: '10.0.0.2' })).status).toBe(200);
    const own = createFeedHandler({ feed: FEED, allowedRanges: ['127.0.0.0/8'] });
    expect((await own(get(), { remoteAddress: '127.0.0.1' })).status).toBe(200);
    expect((await own(get(), CRAWLER)).status).toBe(403);
    expect(() => createFeedHandler({ feed: FEED, allowedRanges: ['nope'] })).toThrow(TypeError);
  });

  it('gzips when asked, with its own ETag, answers 304 to If-None-Match, and HEAD without a body', async () => {
    const handler = createFeedHandler({ feed: FEED });
    const zipped = await handler(get({ 'accept-encoding': 'gzip, deflate' }), CRAWLER);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(new Uint8Array(await zipped.arrayBuffer())).toString()).toBe(FEED);
    const plain = await handler(get(), CRAWLER);
    const etag = plain.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(zipped.headers.get('etag')).not.toBe(etag);
    const again = await handler(get({ 'if-none-match': etag }), CRAWLER);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await handler(get({ 'if-none-match': '"other"' }), CRAWLER)).status).toBe(200);
    const head = await handler(get({}, 'HEAD'), CRAWLER);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(FEED)));
    expect(await head.text()).toBe('');
  });

  it('serves a file read per request with Last-Modified and 304 to If-Modified-Since; a gzip file as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-'));
    const file = join(dir, 'feed.xml.gz');
    writeFileSync(file, gzipSync(FEED));
    const handler = createFeedHandler({ feed: file });
    const first = await handler(get({ 'accept-encoding': 'gzip' }), CRAWLER);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(new Uint8Array(await first.arrayBuffer())).toString()).toBe(FEED);
    const lastModified = first.headers.get('last-modified')!;
    expect((await handler(get({ 'if-modified-since': lastModified }), CRAWLER)).status).toBe(304);
    const noGzip = await handler(get(), CRAWLER);
    expect(noGzip.headers.get('content-type')).toBe('application/gzip');
    expect(noGzip.headers.get('content-encoding')).toBeNull();
    const missing = createFeedHandler({ feed: join(dir, 'missing.xml') });
    const unavailable = await missing(get(), CRAWLER);
    expect(unavailable.status).toBe(503);
    expect(await unavailable.text()).not.toContain(dir);
  });
});

describe('createFeedHandler: a feed made per request', () => {
  it('serves the file it described: a file replaced between the headers and the body still gives the bytes its headers name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-handler-'));
    const path = join(dir, 'feed.xml');
    const longer = FEED.replace('<products></products>', `<products>${' '.repeat(5000)}</products>`);
    writeFileSync(path, FEED);
    const handler = createFeedHandler({ feed: path });
    for (let round = 0; round < 20; round++) {
      const [before, after] = round % 2 === 0 ? [FEED, longer] : [longer, FEED];
      const response = await handler(get(), CRAWLER);
      // Replaced as writeFeed does: a new file renamed over the old one.
      writeFileSync(`${path}.tmp`, after);
      renameSync(`${path}.tmp`, path);
      const body = await response.text();
      expect(body).toBe(before);
      expect(Buffer.byteLength(body)).toBe(Number(response.headers.get('content-length')));
    }
  });

  it('calls the function per request, tags its bytes by content (304 while unchanged) and hides its failures', async () => {
    let version = 1;
    const handler = createFeedHandler({ feed: async () => FEED.replace('09:30', `09:3${version}`) });
    const first = await handler(get(), CRAWLER);
    const etag = first.headers.get('etag')!;
    expect((await handler(get({ 'if-none-match': etag }), CRAWLER)).status).toBe(304);
    version = 2;
    const changed = await handler(get({ 'if-none-match': etag }), CRAWLER);
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('09:32');
    const failing = createFeedHandler({
      feed: () => {
        throw new Error('db password=hunter2 refused');
      },
    });
    const answer = await failing(get(), CRAWLER);
    expect(answer.status).toBe(503);
    expect(await answer.text()).not.toContain('hunter2');
  });
});

describe('toNodeHandler', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('streams the feed over node:http to a loopback client', async () => {
    server = createServer(toNodeHandler(createFeedHandler({ feed: FEED, allowedRanges: ['127.0.0.1/32'] })));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const body = await new Promise<{ status: number | undefined; text: string; encoding: string | undefined }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: '/feed.xml', headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, text: gunzipSync(Buffer.concat(chunks)).toString(), encoding: res.headers['content-encoding'] }));
      })
        .on('error', reject)
        .end();
    });
    expect(body).toEqual({ status: 200, text: FEED, encoding: 'gzip' });
  });
});
