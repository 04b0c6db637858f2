import { lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createFeedWriter, type FeedProduct, FeedValidationError, toProductUpdate, writeFeed } from 'emporio/feed';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAll, sampleProduct } from './sample.js';

async function writeToText(products: FeedProduct[], options: Parameters<typeof createFeedWriter>[0] = {}) {
  const writer = createFeedWriter({ createdAt: new Date(2026, 5, 10, 9, 5), ...options });
  const bytes = readAll(writer.readable);
  for (const product of products) await writer.write(product);
  const report = writer.end();
  return { text: new TextDecoder().decode(await bytes), report };
}

describe('createFeedWriter', () => {
  it('writes the examples’ layout: mywebstore, created_at as YYYY-MM-DD HH:MM, price_with_vat, additionalimage, no instock', async () => {
    const { text, report } = await writeToText([sampleProduct()]);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore>\n  <created_at>2026-06-10 09:05</created_at>\n  <products>\n')).toBe(true);
    expect(text).toContain('<id>EX-1001</id>');
    expect(text).toContain('<price_with_vat>49.90</price_with_vat>');
    expect(text).toContain('<vat>24.00</vat>');
    expect(text).toContain('<additionalimage>https://shop.example.com/images/ex-1001-side.jpg</additionalimage>');
    expect(text).toContain('<ean>2001001001018</ean>');
    expect(text).not.toContain('instock');
    expect(text.endsWith('  </products>\n</mywebstore>\n')).toBe(true);
    expect(report).toMatchObject({ products: 1, errors: [], warnings: [], errorCount: 0 });
  });

  it('refuses a write after its reader cancelled, naming the cancellation; a waiting write wakes to it', async () => {
    const writer = createFeedWriter();
    const reader = writer.readable.getReader();
    let full: Promise<void> | undefined;
    for (let i = 0; i < 10_000 && full === undefined; i++) full = writer.write(sampleProduct({ id: `EX-${i}` }));
    expect(full).toBeInstanceOf(Promise);
    await reader.cancel(new Error('the client went away'));
    await full;
    expect(() => writer.write(sampleProduct({ id: 'EX-last' }))).toThrow(/reader cancelled the feed: the client went away/);
    expect(() => writer.end()).not.toThrow();
  });

  it('hands out chunks that own their memory, ASCII or not, and the same text either way', async () => {
    for (const name of ['Plain Mill', 'Μύλος πιπεριού 😀']) {
      const writer = createFeedWriter({ createdAt: new Date(2026, 5, 10, 9, 5) });
      const reader = writer.readable.getReader();
      await writer.write(sampleProduct({ name }));
      writer.end();
      const chunks: Uint8Array[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
      // A chunk that is a view into a shared pool would hand a reader other bytes with its buffer.
      expect(chunks.every((chunk) => chunk.byteOffset === 0 && chunk.buffer.byteLength === chunk.byteLength)).toBe(true);
      expect(new TextDecoder().decode(Buffer.concat(chunks))).toContain(`<name>${name}</name>`);
    }
  });

  it('flushes chunks below 65,536 characters, where TextEncoder.encodeInto slows about 5 times', async () => {
    // Why the size is pinned: encoding a chunk (a string built with +=) was half the writer's time
    // while chunks were flushed at 64 Ki characters, past that cliff (see CHUNK_CHARS in src/feed/output.ts).
    const writer = createFeedWriter({ createdAt: new Date(2026, 5, 10, 9, 5) });
    const chunks = readChunks(writer.readable);
    for (let i = 0; i < 1000; i++) await writer.write(sampleProduct({ id: `P-${i}` }));
    writer.end();
    const sizes = (await chunks).map((chunk) => chunk.byteLength);
    expect(sizes.length).toBeGreaterThan(10);
    // ASCII: a byte a character. Every chunk but the last is full, and under the cliff.
    expect(sizes.slice(0, -1).every((size) => size >= 16 * 1024 && size < 65_536)).toBe(true);
  });

  it('puts text holding & or < in CDATA, so a URL reads as itself, and splits ]]>', async () => {
    const { text } = await writeToText([sampleProduct({ name: 'Salt & Pepper ]]> Mill' })]);
    expect(text).toContain('<link><![CDATA[https://shop.example.com/product.php?id=1001&lang=en]]></link>');
    expect(text).toContain('<name><![CDATA[Salt & Pepper ]]]]><![CDATA[> Mill]]></name>');
  });

  it('formats euros with two decimals and no separators, float noise included, and keeps an EAN’s leading zeros', async () => {
    const { text } = await writeToText([
      sampleProduct({ price: 0.1 + 0.2, vat: '6', shipping: 0, wholesale_price: '1234.5', ean: '0012345600012' }),
    ]);
    expect(text).toContain('<price_with_vat>0.30</price_with_vat>');
    expect(text).toContain('<vat>6.00</vat>');
    expect(text).toContain('<shipping>0.00</shipping>');
    expect(text).toContain('<wholesale_price>1234.50</wholesale_price>');
    expect(text).toContain('<ean>0012345600012</ean>');
  });

  it('writes size variations with the writer’s names, outlet as Y or N', async () => {
    const product = sampleProduct({
      outlet: false,
      variations: [
        { variation_id: 'EX-1001-40', availability: 'Available from 4 to 10 days', size: '40', quantity: 3, price: '52', mpn: 'M-40', ean: '2004001001422', outlet: true, link: 'https://shop.example.com/p?size=40' },
      ],
    });
    const { text } = await writeToText([product]);
    expect(text).toContain('<outlet>N</outlet>');
    expect(text).toMatch(
      /<variation>\s*<variationid>EX-1001-40<\/variationid>\s*<availability>Available from 4 to 10 days<\/availability>\s*<size>40<\/size>\s*<quantity>3<\/quantity>\s*<price_with_vat>52.00<\/price_with_vat>\s*<link>https:\/\/shop.example.com\/p\?size=40<\/link>\s*<manufacturersku>M-40<\/manufacturersku>\s*<ean>2004001001422<\/ean>\s*<outlet>Y<\/outlet>\s*<\/variation>/,
    );
  });

  it('gzips on request', async () => {
    const writer = createFeedWriter({ gzip: true });
    const bytes = readAll(writer.readable);
    await writer.write(sampleProduct());
    writer.end();
    const gz = await bytes;
    expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
    expect(gunzipSync(gz).toString()).toContain('<id>EX-1001</id>');
  });

  it('leaves an invalid product out and reports it with its id, attribute, rule and output line', async () => {
    const { text, report } = await writeToText([sampleProduct(), sampleProduct({ id: 'BAD-1', price: '1,234.50' }), sampleProduct({ id: 'EX-3' })]);
    expect(text).not.toContain('BAD-1');
    expect(text).toContain('<id>EX-3</id>');
    expect(report.products).toBe(2);
    expect(report.errors).toEqual([
      expect.objectContaining({ productId: 'BAD-1', attribute: 'price', rule: 'decimal', line: 22 }),
    ]);
    expect(text.split('\n')[21]).toBe('    <product>');
  });

  it("throws a FeedValidationError with onInvalid: 'throw'", async () => {
    const writer = createFeedWriter({ onInvalid: 'throw' });
    void readAll(writer.readable);
    let error: unknown;
    try {
      await writer.write(sampleProduct({ ean: '2001001001019' }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FeedValidationError);
    expect(error).toMatchObject({ productId: 'EX-1001', attribute: 'ean', rule: 'ean' });
  });

  it('catches a repeated id (and a repeated variation id) and writes the first only', async () => {
    const variation = { variation_id: 'V-1', availability: 'In Stock', size: 'M', quantity: 1 } as const;
    const { text, report } = await writeToText([
      sampleProduct({ name: 'First' }),
      sampleProduct({ name: 'Second' }),
      sampleProduct({ id: 'A', variations: [variation] }),
      sampleProduct({ id: 'B', variations: [variation] }),
    ]);
    expect(text).toContain('First');
    expect(text).not.toContain('Second');
    expect(report.errors.map((e) => [e.productId, e.attribute, e.rule])).toEqual([
      ['EX-1001', 'id', 'duplicate_id'],
      ['B', 'variations[0].variation_id', 'duplicate_id'],
    ]);
  });

  it('tells numbered ids apart exactly (leading zeros, other prefixes, large numbers) and catches each one repeated', async () => {
    // `SKU-` and a number is the feed's numbered form (kept apart from every other id); the
    // rest are ids of other forms that read alike.
    const ids = ['SKU-7', 'SKU-07', 'SKU-007', '7', 'EXT-7', 'SKU-7a', 'SKU-0', 'SKU-00', 'SKU-1000000', 'SKU-5000000'];
    const large = ['SKU-16777215', 'SKU-16777216', 'SKU-23456789', 'SKU-123456789'];
    const unique = [...ids, ...large];
    const { text, report } = await writeToText([...unique, ...unique.slice().reverse()].map((id) => sampleProduct({ id })));
    for (const id of unique) expect(text).toContain(`<id>${id}</id>`);
    expect(report.products).toBe(unique.length);
    expect(report.errors.map((e) => [e.productId, e.rule])).toEqual(unique.slice().reverse().map((id) => [id, 'duplicate_id']));
  });

  it('reports as repeated exactly the ids a Set has seen, whatever mix of numbered and other ids', async () => {
    // Mostly a few small numbers, so that the same number comes back in another form.
    const number = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 12 }) }, fc.integer({ min: 16_777_210, max: 16_777_220 }), fc.integer({ min: 0, max: 2 ** 31 }));
    const id = fc.oneof(
      fc.tuple(fc.constantFrom('', 'SKU-', 'EXT-', 'SKU-0', 'SKU-1'), fc.constantFrom('', '0', '00'), number).map(([prefix, zeros, n]) => `${prefix}${zeros}${n}`),
      fc.constantFrom('SKU-', 'SKU-x', 'x7'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(id, { minLength: 1, maxLength: 60 }), async (ids) => {
        const { report } = await writeToText(ids.map((each) => sampleProduct({ id: each })));
        const seen = new Set<string>();
        const repeated = ids.filter((each) => seen.size === seen.add(each).size);
        expect(report.errors.map((e) => [e.productId, e.rule])).toEqual(repeated.map((each) => [each, 'duplicate_id']));
        expect(report.products).toBe(seen.size);
      }),
      { numRuns: 150 },
    );
  });

  it('holds no id of a product it refused: the same id written later is no repeat', async () => {
    const { report } = await writeToText([
      sampleProduct({ id: 'SKU-9', vat: 101 }),
      sampleProduct({ id: 'SKU-9' }),
      sampleProduct({ id: 'OTHER-9', vat: 101 }),
      sampleProduct({ id: 'OTHER-9' }),
      sampleProduct({ id: 'SKU-9', vat: 101 }),
    ]);
    expect(report.products).toBe(2);
    expect(report.errors.map((e) => [e.productId, e.rule])).toEqual([
      ['SKU-9', 'range'],
      ['OTHER-9', 'range'],
      ['SKU-9', 'range'],
      ['SKU-9', 'duplicate_id'],
    ]);
  });

  it('waits while the reader is not reading (backpressure) and goes on when it reads', async () => {
    const writer = createFeedWriter();
    let waited = false;
    for (let i = 0; i < 2000 && !waited; i++) {
      const room = writer.write(sampleProduct({ id: `P-${i}` }));
      if (room !== undefined) waited = true;
    }
    expect(waited).toBe(true);
    const reader = writer.readable.getReader();
    await reader.read();
    reader.releaseLock();
  });
});

describe('writeFeed', () => {
  it('writes an async iterable to a file, replacing it only once the feed is whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-'));
    const file = join(dir, 'feed.xml');
    async function* products() {
      for (let i = 0; i < 500; i++) yield sampleProduct({ id: `P-${i}` });
    }
    const report = await writeFeed(products(), file);
    expect(report.products).toBe(500);
    const text = readFileSync(file, 'utf8');
    expect(text.match(/<product>/g)).toHaveLength(500);
    expect(readdirSync(dir)).toEqual(['feed.xml']);
  });

  it('writes a feed many times its file buffer to a path with the same bytes as the web stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-'));
    const file = join(dir, 'feed.xml');
    // About 4 MB: the file stream's buffer fills and drains many times over, and its chunks'
    // memory is used again; some chunks are not ASCII (encoded the other way).
    const words = (i: number) => (i % 900 === 0 ? `Größe ${i} € ` : `Item ${i} `);
    const products = Array.from({ length: 6000 }, (_, i) => sampleProduct({ id: `P-${i}`, description: words(i).repeat(40 + (i % 7)) }));
    const createdAt = new Date(2026, 5, 10, 9, 5);
    const report = await writeFeed(products, file, { createdAt });
    expect(report).toMatchObject({ products: 6000, errorCount: 0 });
    const written = readFileSync(file, 'utf8');
    expect(written.length).toBeGreaterThan(4 * 512 * 1024);
    expect(written).toBe((await writeToText(products)).text);
  });

  it('leaves no file behind when a product throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-'));
    const error = await writeFeed([sampleProduct(), sampleProduct({ vat: 101 })], join(dir, 'feed.xml'), { onInvalid: 'throw' }).catch((e) => e);
    expect(error).toBeInstanceOf(FeedValidationError);
    expect(error.rule).toBe('range');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('writeFeed: the temporary file', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const plant = () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-'));
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    return { dir, file: join(dir, 'feed.xml'), victim };
  };

  it('has a random name: a link planted at the name it once had (`<target>.<pid>.<ms>.tmp`) is not followed', async () => {
    const { dir, file, victim } = plant();
    // The clock held still, so the old name is known in advance, as a local attacker could guess it.
    vi.spyOn(Date, 'now').mockReturnValue(1_780_000_000_000);
    symlinkSync(victim, `${file}.${process.pid}.1780000000000.tmp`);
    expect((await writeFeed([sampleProduct()], file)).products).toBe(1);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(file, 'utf8')).toContain('<id>EX-1001</id>');
    expect(readdirSync(dir).sort()).toEqual(['feed.xml', `feed.xml.${process.pid}.1780000000000.tmp`, 'victim.txt']);
  });

  it('is created exclusively (wx): a link at its very name fails the write, and neither it nor its target is touched', async () => {
    const { dir, file, victim } = plant();
    vi.spyOn(crypto, 'randomUUID').mockReturnValue('00000000-0000-4000-8000-000000000000');
    const planted = `${file}.00000000-0000-4000-8000-000000000000.tmp`;
    symlinkSync(victim, planted);
    await expect(writeFeed([sampleProduct()], file)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([planted.slice(dir.length + 1), 'victim.txt']);
  });
});

describe('toProductUpdate', () => {
  it('turns euros into integer cents without float error and availability into enabled', () => {
    expect(toProductUpdate(sampleProduct({ price: 23.9, quantity: 7 }))).toEqual({ product_id: 'EX-1001', price: 2390, quantity: 7, enabled: true });
    expect(toProductUpdate(sampleProduct({ price: 1.15 })).price).toBe(115);
    expect(toProductUpdate(sampleProduct({ price: '19.99' })).price).toBe(1999);
    expect(1.15 * 100).not.toBe(115); // what a plain multiplication would have sent
  });

  it('maps variations, a variation without a price taking the product’s', () => {
    const update = toProductUpdate(
      sampleProduct({ price: 10, variations: [{ variation_id: 'V', availability: 'In Stock', size: 'M', quantity: 2 }, { variation_id: 'W', availability: 'In Stock', size: 'L', quantity: 0, price: 12.5 }] }),
    );
    expect(update.variations).toEqual([
      { variation_id: 'V', quantity: 2, enabled: true, price: 1000 },
      { variation_id: 'W', quantity: 0, enabled: true, price: 1250 },
    ]);
  });

  it('refuses a product the feed would refuse', () => {
    expect(() => toProductUpdate(sampleProduct({ price: 23.899 }))).toThrow(FeedValidationError);
  });
});

describe('writeFeed to a Node stream of your own', () => {
  it('hands it bytes, gzipped on request', async () => {
    const { Writable } = await import('node:stream');
    const chunks: unknown[] = [];
    const sink = new Writable({
      decodeStrings: false,
      write(chunk, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    const report = await writeFeed([sampleProduct()], sink);
    expect(report.products).toBe(1);
    expect(chunks.every((chunk) => chunk instanceof Uint8Array)).toBe(true);
    const zipped: Uint8Array[] = [];
    const gzSink = new Writable({
      write(chunk, _encoding, callback) {
        zipped.push(chunk);
        callback();
      },
    });
    await writeFeed([sampleProduct()], gzSink, { gzip: true });
    expect(gunzipSync(Buffer.concat(zipped)).toString()).toContain('<id>EX-1001</id>');
  });
});

async function readChunks(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks;
}
