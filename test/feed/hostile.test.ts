/**
 * `checkFeed` against feeds built to hurt it: each ends in a report, reads no further than its
 * verdict, and holds a bounded part of the feed at a time. The bombs are made here, small.
 */
import { gzipSync } from 'node:zlib';
import { checkFeed } from 'emporio/feed';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { written } from './sample.js';

const MiB = 1024 * 1024;
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore>\n<created_at>2026-06-10 09:30</created_at>\n<products>\n';

/** The most bytes `checkFeed` reported read at once, and in all. */
function progress() {
  let last = 0;
  let largestStep = 0;
  return {
    onProgress: (bytes: number) => {
      largestStep = Math.max(largestStep, bytes - last);
      last = bytes;
    },
    read: () => last,
    largestStep: () => largestStep,
  };
}

describe('checkFeed: hostile feeds', () => {
  it('nesting without end (a gzip of a million <a>) is an error at a depth limit, read no further', async () => {
    const bomb = gzipSync(`<?xml version="1.0" encoding="UTF-8"?><mywebstore>${'<a>'.repeat(1024 * 1024)}`);
    const seen = progress();
    const report = await checkFeed(bomb, seen);
    expect(report.errors).toEqual([expect.objectContaining({ rule: 'xml', message: 'elements nest more than 64 deep' })]);
    expect(seen.read()).toBeLessThan(MiB);
  });

  it('a feed of nothing but spaces is an empty feed, the spaces not kept', async () => {
    const spaces = new Uint8Array(64 * 1024).fill(0x20);
    const start = process.memoryUsage().heapUsed;
    let peak = start;
    async function* blank() {
      for (let i = 0; i < 2048; i++) yield spaces; // 128 MiB
    }
    const report = await checkFeed(blank(), {
      onProgress: (bytes) => {
        if (bytes % (4 * MiB) === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    });
    expect(report.errors).toEqual([expect.objectContaining({ rule: 'no_products', message: 'the feed is empty' })]);
    // Kept whole, the spaces were 128 MiB of string by the end; what is left is the garbage of a few chunks.
    expect(peak - start).toBeLessThan(64 * MiB);
  });

  it('leading blank lines still count for the line numbers', async () => {
    // No XML declaration: white space before one is an XML error of its own.
    const text = new TextDecoder()
      .decode(await written(1))
      .replace(/^<\?xml[^>]*>\n/, '')
      .replace('<price_with_vat>49.90</price_with_vat>', '<price_with_vat>1,5</price_with_vat>');
    const plain = await checkFeed(text);
    const blank = await checkFeed(`${'\n'.repeat(70 * 1024)}${text}`);
    expect(blank.errors.find((issue) => issue.attribute === 'price')?.line).toBe(plain.errors.find((issue) => issue.attribute === 'price')!.line + 70 * 1024);
    const csv = 'id,name,link,image,category,price_with_vat,manufacturer,mpn,availability\n1,A,https://s.example.com/1,,A > B,1.5.0,M,X,In Stock\n';
    expect((await checkFeed(`\n\n\n${csv}`)).errors).toEqual([expect.objectContaining({ line: 5, attribute: 'price' })]);
  });

  it('bytes given whole are read in chunks, as a file is', async () => {
    const bytes = await written(2000);
    expect(bytes.length).toBeGreaterThan(MiB);
    const seen = progress();
    expect(await checkFeed(bytes, seen)).toMatchObject({ products: 2000, errors: [] });
    expect(seen.read()).toBe(bytes.length);
    expect(seen.largestStep()).toBeLessThanOrEqual(64 * 1024);
  });

  it('a zip given as bytes is inflated a little at a time (a small zip of a large feed)', async () => {
    const text = new TextDecoder().decode(await written(3)).replace('<products>', `<products>${' '.repeat(12 * MiB)}`);
    const zip = zipSync({ 'feed.xml': new TextEncoder().encode(text) });
    expect(zip.length).toBeLessThan(64 * 1024);
    const seen = progress();
    expect(await checkFeed(zip, seen)).toMatchObject({ products: 3, errors: [] });
    expect(seen.read()).toBe(text.length);
    expect(seen.largestStep()).toBeLessThanOrEqual(2 * MiB);
  });

  it('a CSV record without end (a quote never closed) is cut off as too_large, read no further', async () => {
    const block = new TextEncoder().encode('x'.repeat(64 * 1024));
    let pulled = 0;
    async function* unclosed() {
      yield new TextEncoder().encode('id,name,link\n1,"Example');
      for (; pulled < 128; pulled++) yield block; // 8 MiB
    }
    const report = await checkFeed(unclosed());
    expect(report.errors).toEqual([expect.objectContaining({ rule: 'too_large', message: expect.stringContaining('a record runs on for over 1048576 characters') })]);
    expect(pulled).toBeLessThan(32);
  });

  it('a UTF-8 byte-order mark does not hide an encoding declaration that lies', async () => {
    const text = feedWith('<product><id>1</id><name>Καφές</name></product>').replace('encoding="UTF-8"', 'encoding="windows-1253"');
    const report = await checkFeed(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]));
    expect(report.errors[0]).toMatchObject({ line: 1, rule: 'encoding', message: 'the feed declares windows-1253, but its byte-order mark says UTF-8' });
  });

  it('a repeated id with other errors reports the repetition too, every problem of the product at once', async () => {
    const text = new TextDecoder().decode(await written(2));
    const second = text.indexOf('<product>', text.indexOf('<id>P-1</id>') - 40);
    const broken = `${text.slice(0, second)}${text
      .slice(second)
      .replace('<id>P-1</id>', '<id>P-0</id>')
      .replace('https://shop.example.com/product.php', 'ftp://shop.example.com/product.php')
      .replace('<price_with_vat>49.90</price_with_vat>', '<price_with_vat>1,5</price_with_vat>')
      .replace('<quantity>25</quantity>', '<quantity>many</quantity>')}`;
    const report = await checkFeed(broken);
    expect(report.errors.map((issue) => [issue.productId, issue.attribute, issue.rule])).toEqual([
      ['P-0', 'link', 'https'],
      ['P-0', 'price', 'decimal'],
      ['P-0', 'quantity', 'integer'],
      ['P-0', 'id', 'duplicate_id'],
    ]);
  });
});

function feedWith(products: string): string {
  return `${HEAD}${products}</products>\n</mywebstore>\n`;
}
