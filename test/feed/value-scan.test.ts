/**
 * The writer's deferred value check (src/feed/value-scan.ts): it may only ever call plain what the
 * quick path takes, and the writer that uses it writes exactly what the writer without it writes
 * (where WebAssembly cannot be compiled, as in an edge worker), bytes and report alike.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFeedWriter, type FeedProduct, type FeedReport } from 'emporio/feed';
import { plainProduct } from '../../src/feed/plain-product.js';
import { IMAGE, LINK, TEXT, ValueScan } from '../../src/feed/value-scan.js';
import { generatedModule } from '../../scripts/build-wasm.mjs';
import { product } from './arbitraries.js';
import { readAll, sampleProduct } from './sample.js';

const CREATED_AT = new Date(2026, 5, 10, 9, 30);

/** Characters the rules single out, beside plain ASCII. */
const SPECIAL = [
  '\0', '\u0007', '\t', '\n', '\r', '\u000b', '\u001f', ' ', '\u007f', '\u0085', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028',
  '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\ufffd', '\ufffe', '\uffff', '\ud800', '\udfff', '😀', '<', '>', '&', ']', '[',
  '"', "'", '@', '/', '?', '#', '.', '%', 'é', 'ω', 'Ά', '€', 'ก', '中', 'ü', '\u00ad',
];
const unit = fc.oneof(
  { weight: 12, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
);
const anyText = fc.string({ unit, maxLength: 40 });
const anyLink = fc
  .tuple(fc.constantFrom('https://', 'HTTPS://', 'hTTps://', 'http://', 'https:/', '', 'https://@', 'https://.'), anyText, fc.constantFrom('', '.avif', '.AviF', '.avif?w=1', '.avif#x', '.avifx', '/a.jpg'))
  .map(([scheme, rest, end]) => `${scheme}${rest}${end}`);

/** The scan's verdict on `value` of `kind`, between markup as in a feed. */
function scanSays(value: string, kind: number): 'plain' | 'doubt' {
  const scan = ValueScan.create()!;
  const text = `      <name>${value}</name>\n`;
  scan.product(0, 0);
  scan.value(12, value.length, kind);
  return scan.check(text) === 0 ? 'plain' : 'doubt';
}

/** Whether the quick path takes `value` as `attribute` of an otherwise plain product. */
function quickTakes(attribute: 'name' | 'link' | 'image', value: string): boolean {
  return plainProduct({ ...sampleProduct({ link: 'https://shop.example.com/p/1', image: '' }), [attribute]: value }) !== undefined;
}

describe('the deferred value check', () => {
  it('is compiled from value-scan.wat as committed (node scripts/build-wasm.mjs)', async () => {
    const committed = readFileSync(new URL('../../src/feed/value-scan-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await generatedModule());
  });

  it('calls a text plain only when the quick path takes it', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        if (scanSays(value, TEXT) === 'plain') expect(quickTakes('name', value)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('calls a link or an image plain only when the quick path takes it', () => {
    fc.assert(
      fc.property(anyLink, (value) => {
        if (scanSays(value, LINK) === 'plain') expect(quickTakes('link', value)).toBe(true);
        if (scanSays(value, IMAGE) === 'plain') expect(quickTakes('image', value)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('calls the values of most shops plain, Greek ones too (else it would only slow the writer)', () => {
    for (const name of ['Examplewear Trail Runner 42 Blue', 'Παπούτσια Αθλητικά Nike Air 42', 'a', 'Été 2026 – Ζώνη 2€', 'x\ty']) {
      expect(scanSays(name, TEXT), name).toBe('plain');
    }
    for (const link of ['https://shop.example.com/p/42', 'HTTPS://SHOP.EXAMPLE.COM', 'https://shop.example.gr/παπούτσια-42?c=1#top', 'https://e.gr/%CE%B1']) {
      expect(scanSays(link, LINK), link).toBe('plain');
    }
    expect(scanSays('https://cdn.example.com/i/42.jpg', IMAGE)).toBe('plain');
    expect(scanSays('https://cdn.example.com/i/42.avif', IMAGE)).toBe('doubt');
    expect(scanSays('https://cdn.example.com/i/42.avif', LINK)).toBe('plain');
  });

  it('finds its values after text of any length and script (the units counted, not the bytes)', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), anyText, (before, value) => {
        const scan = ValueScan.create()!;
        const text = `${before}<name>${value}</name>`;
        scan.product(0, 0);
        scan.value(before.length + 6, value.length, TEXT);
        expect(scan.check(text) === 0).toBe(scanSays(value, TEXT) === 'plain');
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * Writes `products` into bytes and a report; with `readEvery`, the report's figures are read after
 * every `readEvery`-th write too (reading them settles the products held).
 */
async function write(create: typeof createFeedWriter, products: readonly unknown[], readEvery = 0) {
  const writer = create({ createdAt: CREATED_AT });
  const bytes = readAll(writer.readable);
  const seen: number[][] = [];
  for (const [i, item] of products.entries()) {
    await writer.write(item as FeedProduct);
    if (readEvery > 0 && i % readEvery === 0) seen.push([writer.report.products, writer.report.errorCount, writer.report.warningCount]);
  }
  const report: FeedReport = structuredClone(writer.end());
  return { text: new TextDecoder().decode(await bytes), report, seen };
}

/** `createFeedWriter` as loaded where compiling WebAssembly is refused (an edge worker). */
async function writerWithoutWasm(): Promise<typeof createFeedWriter> {
  vi.resetModules();
  const { CompileError } = WebAssembly;
  const refused = vi.fn(function refuse() {
    throw new CompileError('WebAssembly.Module(): Wasm code generation disallowed by embedder');
  });
  vi.stubGlobal('WebAssembly', { ...WebAssembly, Module: refused });
  const loaded = await import('../../src/feed/xml-writer.js');
  // A writer is made to load the module's (refused) compilation.
  loaded.createFeedWriter().end();
  vi.unstubAllGlobals();
  expect(refused).toHaveBeenCalledOnce();
  return loaded.createFeedWriter;
}

describe('the writer with the deferred check', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** Products of a few ids, so that ids repeat, some of them first held by a product later refused. */
  const feed = fc.array(
    fc.tuple(product, fc.constantFrom('A-1', 'A-2', ' A-1', 'A-1\u0007', 'B 7', undefined)).map(([p, id]) => (id === undefined ? p : { ...p, id })),
    { maxLength: 24 },
  );

  it('writes the same bytes and report as the writer without it, whatever the products', async () => {
    const withoutWasm = await writerWithoutWasm();
    await fc.assert(
      fc.asyncProperty(feed, fc.constantFrom(0, 1, 5), async (products, readEvery) => {
        const expected = await write(withoutWasm, products, readEvery);
        const actual = await write(createFeedWriter, products, readEvery);
        expect(actual.text).toBe(expected.text);
        expect(actual.report).toEqual(expected.report);
        expect(actual.seen).toEqual(expected.seen);
      }),
      { numRuns: 150 },
    );
  });

  it('checks a product in doubt before the products held after it: the id it takes makes a later one a repeat', async () => {
    const products = [
      sampleProduct({ id: ' A-1', link: 'https://shop.example.com/p/1' }),
      sampleProduct({ id: 'A-1', link: 'https://shop.example.com/p/2' }),
      sampleProduct({ id: 'A-2', link: 'https://shop.example.com/p/3', name: 'Runner <b>3</b>' }),
      sampleProduct({ id: 'A-3', link: 'https://shop.example.com/p/4' }),
    ];
    const withoutWasm = await writerWithoutWasm();
    const expected = await write(withoutWasm, products);
    const actual = await write(createFeedWriter, products);
    expect(actual.report.errors.map((issue) => [issue.productId, issue.rule])).toEqual([
      ['A-1', 'duplicate_id'],
      ['A-2', 'no_html'],
    ]);
    expect(actual.report.products).toBe(2);
    expect(actual.report).toEqual(expected.report);
    expect(actual.text).toBe(expected.text);
  });

  it('writes the same bytes and report over many chunks, with products in doubt and repeated ids among them', async () => {
    const products: unknown[] = [];
    for (let i = 0; i < 3000; i++) {
      const p = sampleProduct({ id: `P-${i % 2900}`, name: `Examplewear Runner ${i}`, link: `https://shop.example.com/p/${i}`, mpn: `M-${i}` });
      if (i % 97 === 0) p.name = `Runner <b>${i}</b>`;
      if (i % 89 === 0) p.link = `https://shop.example.com/p?id=${i}&lang=el`;
      if (i % 83 === 0) p.mpn = ` M-${i} `;
      if (i % 79 === 0) p.image = `https://shop.example.com/${i}.avif`;
      if (i % 73 === 0) p.name = 'Παπούτσια Αθλητικά';
      if (i % 71 === 0) p.id = `P-${i}\u0001`;
      products.push(p);
    }
    const withoutWasm = await writerWithoutWasm();
    const expected = await write(withoutWasm, products);
    const actual = await write(createFeedWriter, products);
    expect(expected.report.errorCount).toBeGreaterThan(100);
    expect(actual.report).toEqual(expected.report);
    expect(actual.text).toBe(expected.text);
  });
});
