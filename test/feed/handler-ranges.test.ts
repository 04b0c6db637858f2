/** The feed handler's `Range` answers (a crawler resuming a download) and its `If-Modified-Since` dates. */
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createFeedHandler } from 'emporio/feed';
import { describe, expect, it } from 'vitest';

const CRAWLER = { remoteAddress: '185.6.76.10' };
const FEED = `<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore><created_at>2026-06-10 09:30</created_at><products>${'<product/>'.repeat(20_000)}</products></mywebstore>\n`;
const BYTES = new TextEncoder().encode(FEED);
const get = (headers: Record<string, string> = {}, method = 'GET') => new Request('http://shop.example/feed.xml', { method, headers });
const bytesOf = async (answer: Response) => new Uint8Array(await answer.arrayBuffer());

function feedFile(content: Uint8Array | string, name = 'feed.xml'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'feed-range-')), name);
  writeFileSync(file, content);
  return file;
}

describe('createFeedHandler: Range', () => {
  for (const [kind, feed] of [
    ['in memory', FEED],
    ['a file', feedFile(FEED)],
  ] as const) {
    it(`serves one range as 206 with Content-Range (${kind}); the rest of a download, a suffix, an end past the size`, async () => {
      const handler = createFeedHandler({ feed });
      const whole = await handler(get(), CRAWLER);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      const size = BYTES.byteLength;

      const middle = await handler(get({ range: 'bytes=100-199' }), CRAWLER);
      expect(middle.status).toBe(206);
      expect(middle.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
      expect(middle.headers.get('content-length')).toBe('100');
      expect(await bytesOf(middle)).toEqual(BYTES.subarray(100, 200));

      // Resuming past the first 64 KiB read of a file, to the end.
      const rest = await handler(get({ range: 'bytes=70000-' }), CRAWLER);
      expect(rest.status).toBe(206);
      expect(rest.headers.get('content-range')).toBe(`bytes 70000-${size - 1}/${size}`);
      expect(await bytesOf(rest)).toEqual(BYTES.subarray(70_000));

      const suffix = await handler(get({ range: 'bytes=-10' }), CRAWLER);
      expect(suffix.status).toBe(206);
      expect(await bytesOf(suffix)).toEqual(BYTES.subarray(size - 10));

      const pastEnd = await handler(get({ range: `bytes=${size - 5}-${size + 1000}` }), CRAWLER);
      expect(pastEnd.headers.get('content-range')).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
      expect(await bytesOf(pastEnd)).toEqual(BYTES.subarray(size - 5));

      const head = await handler(get({ range: 'bytes=0-9' }, 'HEAD'), CRAWLER);
      expect(head.status).toBe(206);
      expect(head.headers.get('content-length')).toBe('10');
      expect(await head.text()).toBe('');
    });
  }

  it('a range that starts past the end is 416 with the size; several ranges or a malformed one get the whole feed', async () => {
    const handler = createFeedHandler({ feed: FEED });
    const size = BYTES.byteLength;
    const unsatisfiable = await handler(get({ range: `bytes=${size}-` }), CRAWLER);
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${size}`);
    expect((await handler(get({ range: 'bytes=-0' }), CRAWLER)).status).toBe(416);
    for (const range of ['bytes=0-9, 20-29', 'bytes=abc', 'items=0-9', 'bytes=9-0']) {
      const whole = await handler(get({ range }), CRAWLER);
      expect(whole.status, range).toBe(200);
      expect((await bytesOf(whole)).byteLength).toBe(size);
    }
  });

  it('If-Range: the range while the ETag still matches, the whole feed once it changed', async () => {
    const handler = createFeedHandler({ feed: FEED });
    const etag = (await handler(get(), CRAWLER)).headers.get('etag') as string;
    expect((await handler(get({ range: 'bytes=0-9', 'if-range': etag }), CRAWLER)).status).toBe(206);
    const changed = await handler(get({ range: 'bytes=0-9', 'if-range': '"an-older-feed"' }), CRAWLER);
    expect(changed.status).toBe(200);
    expect((await bytesOf(changed)).byteLength).toBe(BYTES.byteLength);
  });

  it('a gzip file is served in ranges of its own bytes; a feed gzipped on the way out is whole (no offsets known in advance)', async () => {
    const zipped = gzipSync(FEED);
    const fromFile = createFeedHandler({ feed: feedFile(zipped, 'feed.xml.gz') });
    const part = await fromFile(get({ range: 'bytes=10-', 'accept-encoding': 'gzip' }), CRAWLER);
    expect(part.status).toBe(206);
    expect(part.headers.get('content-encoding')).toBe('gzip');
    expect(await bytesOf(part)).toEqual(new Uint8Array(zipped.subarray(10)));
    const onTheFly = await createFeedHandler({ feed: FEED })(get({ range: 'bytes=10-', 'accept-encoding': 'gzip' }), CRAWLER);
    expect(onTheFly.status).toBe(200);
    expect(onTheFly.headers.get('accept-ranges')).toBeNull();
    await onTheFly.arrayBuffer();
  });
});

describe('createFeedHandler: If-Modified-Since', () => {
  it('a date in the future is no reason for 304: the feed is sent; a past date after the change still is', async () => {
    const file = feedFile(FEED);
    const changed = new Date(Date.now() - 3_600_000);
    utimesSync(file, changed, changed);
    const handler = createFeedHandler({ feed: file });
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    const answer = await handler(get({ 'if-modified-since': future }), CRAWLER);
    expect(answer.status).toBe(200);
    expect((await bytesOf(answer)).byteLength).toBe(BYTES.byteLength);
    expect((await handler(get({ 'if-modified-since': new Date(Date.now() - 60_000).toUTCString() }), CRAWLER)).status).toBe(304);
  });
});
