import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { type CheckedProduct, checkFeed } from 'emporio/feed';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { written } from './sample.js';

const FIXTURES = new URL('../fixtures/feed/', import.meta.url);
const fixture = (name: string) => new URL(name, FIXTURES).pathname;
const rules = (issues: { rule: string }[]) => issues.map((issue) => issue.rule);

/** The published simple example (3.9) as it is: the examples' names, CDATA, a retired availability. */
const PUBLISHED_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<mywebstore>
   <created_at>2010-04-08 12:32</created_at>
   <products>
      <product>
        <id>322233</id>
        <name><![CDATA[Examplewear Canvas High Sneaker]]></name>
        <link><![CDATA[https://shop.example.com/product/322233]]></link>
        <image><![CDATA[https://shop.example.com/product/322233.jpg]]></image>
        <additionalimage><![CDATA[https://shop.example.com/product/322233/front.jpg]]></additionalimage>
        <category><![CDATA[Outdoor > Sneakers]]></category>
        <price_with_vat>30.00</price_with_vat>
        <vat>24.00</vat>
        <wholesale_price>20.00</wholesale_price>
        <season>SS26</season>
        <size_fit>regular</size_fit>
        <outlet>Y</outlet>
        <author>A. N. Author</author>
        <expiration_date>2026-12-31</expiration_date>
        <manufacturer><![CDATA[Examplewear]]></manufacturer>
        <mpn>EXW7652</mpn>
        <ean>2003001001012</ean>
        <availability>Delivery 1 to 3 days</availability>
        <size>5.5,6</size>
        <weight>2000</weight>
        <color>White</color>
        <description>Classic canvas high-top sneaker with a non-slip rubber sole.</description>
        <quantity>10</quantity>
      </product>
   </products>
</mywebstore>`;

function feed(products: string, head = '<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore>\n<created_at>2026-06-10 09:30</created_at>\n<products>\n') {
  return `${head}${products}</products>\n</mywebstore>\n`;
}

describe('checkFeed: the fixtures and the published layouts', () => {
  it('reads the XSD-layout fixtures with no errors and the spelling warnings 3.11 calls for, once each', async () => {
    for (const [name, products] of [['simple.xml', 3], ['variations.xml', 2]] as const) {
      const read: CheckedProduct[] = [];
      const report = await checkFeed(fixture(name), { onProduct: (product) => read.push(product) });
      expect(report.errors).toEqual([]);
      expect(report.products).toBe(products);
      expect(read).toHaveLength(products);
      expect(rules(report.warnings)).toEqual(['spelling', 'spelling', 'spelling', 'spelling', 'deprecated']);
      expect(report.warnings.map((w) => w.message).join('\n')).toMatch(/<storedata>[\s\S]*<uid>[\s\S]*<additional_image>[\s\S]*<price>[\s\S]*<instock>/);
    }
  });

  it('reads the fixtures’ values: a CDATA link as itself, an entity-escaped one decoded, prices in the writer’s form, variations', async () => {
    const read: CheckedProduct[] = [];
    await checkFeed(fixture('simple.xml'), { onProduct: (product) => read.push(product) });
    expect(read[0]).toMatchObject({ id: 'EX-1001', link: 'https://shop.example.com/product.php?id=1001&lang=en', price: '49.90', category: 'Fashion > Shoes > Sneakers' });
    expect(read[1]?.link).toBe('https://shop.example.com/product.php?id=2001&lang=en');
    expect(read[2]).toMatchObject({ price: '12.00', vat: '24.00', outlet: 'Y' });
    const withSizes: CheckedProduct[] = [];
    await checkFeed(fixture('variations.xml'), { onProduct: (product) => withSizes.push(product) });
    expect(withSizes[0]?.variations.map((v) => [v.variation_id, v.size, v.price, v.mpn])).toEqual([
      ['EX-4001-42', '42', '59.90', 'EXW-TR-4001-42'],
      ['EX-4001-43', '43', '62.90', 'EXW-TR-4001-43'],
      ['EX-4001-44.5', '44 1/2', '59.90', 'EXW-TR-4001-445'],
    ]);
  });

  it('reads the published example: its created_at, and its retired availability as a warning naming the replacement', async () => {
    const report = await checkFeed(PUBLISHED_EXAMPLE);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([
      expect.objectContaining({ line: 23, productId: '322233', attribute: 'availability', rule: 'value_set', message: expect.stringContaining('now Available from 1 to 3 days') }),
    ]);
  });

  it('reads the other spellings without regard to case, each a warning: UniqueID, <product id>, title, PRICE_WITH_VAT', async () => {
    const product = (id: string) => `<PRODUCT id="${id}"><Title>Example Thing ${id}</Title><link>https://s.example.com/${id}</link><image></image><category>A > B</category><PRICE_WITH_VAT>1.50</PRICE_WITH_VAT><vat>0</vat><availability>In Stock</availability><manufacturer>M</manufacturer><mpn>X</mpn><ean>2001001001018</ean><description>d</description><quantity>0</quantity></PRODUCT>\n`;
    const read: CheckedProduct[] = [];
    const report = await checkFeed(feed(product('A1') + product('A2').replace('<PRODUCT id="A2">', '<PRODUCT><UniqueID>A2</UniqueID>').replace('<ean>2001001001018</ean>', '<ean>2001001001025</ean>')), {
      onProduct: (p) => read.push(p),
    });
    expect(report.errors).toEqual([]);
    expect(read.map((p) => [p.id, p.name, p.price])).toEqual([
      ['A1', 'Example Thing A1', '1.50'],
      ['A2', 'Example Thing A2', '1.50'],
    ]);
    expect(report.warnings.map((w) => w.message).join('\n')).toMatch(/<PRODUCT id="…">[\s\S]*<Title>[\s\S]*<PRICE_WITH_VAT>[\s\S]*<UniqueID>/);
    expect(rules(report.warnings).every((rule) => rule === 'spelling')).toBe(true);
  });

  it('reads back what the writer wrote with no issue at all', async () => {
    const report = await checkFeed(await written(5));
    expect(report).toMatchObject({ products: 5, errors: [], warnings: [] });
  });
});

describe('checkFeed: errors with line, product and attribute', () => {
  it('reports a broken rule at the attribute’s line and a repeated id at the later product', async () => {
    const text = new TextDecoder()
      .decode(await written(3))
      .replace('<price_with_vat>49.90</price_with_vat>', '<price_with_vat>1,234.50</price_with_vat>')
      .replace('<id>P-2</id>', '<id>P-1</id>');
    const report = await checkFeed(text);
    expect(report.errors).toEqual([
      expect.objectContaining({ line: 12, productId: 'P-0', attribute: 'price', rule: 'decimal' }),
      expect.objectContaining({ line: 40, productId: 'P-1', attribute: 'id', rule: 'duplicate_id' }),
    ]);
    // A product refused for another rule does not hold its id: the service would not have it either.
    expect(report.products).toBe(3);
  });

  it('treats markup inside a value as HTML, and a missing created_at and a feed with no product as errors', async () => {
    const report = await checkFeed(feed('<product><id>1</id><description>A <b>bold</b> claim</description></product>\n'));
    expect(report.errors).toContainEqual(expect.objectContaining({ attribute: 'description', rule: 'no_html', productId: '1' }));
    const empty = await checkFeed('<?xml version="1.0" encoding="UTF-8"?><mywebstore><products></products></mywebstore>');
    expect(rules(empty.errors)).toEqual(['required', 'no_products']);
  });

  it('keeps the first maxIssues issues and counts them all', async () => {
    const products = Array.from({ length: 50 }, (_, i) => `<product><id>${i}</id></product>\n`).join('');
    const report = await checkFeed(feed(products), { maxIssues: 10 });
    expect(report.errors).toHaveLength(10);
    expect(report.errorCount).toBeGreaterThan(50);
  });
});

describe('checkFeed: sources', () => {
  it('reads bytes, a web stream, a Node stream, gzip and zip', async () => {
    const bytes = await written(2);
    const sources = [
      bytes,
      new Response(bytes as Uint8Array<ArrayBuffer>).body!,
      Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]),
      gzipSync(bytes),
      zipSync({ 'feed.xml': bytes }),
    ];
    for (const source of sources) expect(await checkFeed(source)).toMatchObject({ products: 2, errors: [] });
  });
});

describe('checkFeed: bad input', () => {
  it('malformed XML: an error at its line, and the check ends', async () => {
    const report = await checkFeed('<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore>\n<created_at>2026-06-10 09:30</created_at>\n<products>\n<product><id>1</ids>\n</products></mywebstore>');
    expect(report.errors).toEqual([expect.objectContaining({ line: 5, rule: 'xml' })]);
  });

  it('a truncated gzip', async () => {
    const gz = gzipSync(await written(50));
    const report = await checkFeed(gz.subarray(0, gz.length - 200));
    expect(rules(report.errors)).toContain('compression');
  });

  it('a truncated zip', async () => {
    const zip = zipSync({ 'feed.xml': await written(50) }, { level: 0 });
    const report = await checkFeed(zip.subarray(0, 3000));
    expect(rules(report.errors)).toContain('compression');
  });

  it('an XML bomb: entities declared in a DOCTYPE are refused before anything expands', async () => {
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE mywebstore [<!ENTITY lol0 "lol">${lol}]><mywebstore><created_at>&lol9;</created_at></mywebstore>`;
    const before = process.memoryUsage().heapUsed;
    const report = await checkFeed(bomb);
    expect(report.errors).toEqual([expect.objectContaining({ rule: 'doctype' })]);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('a BOM: a warning, and the feed is read', async () => {
    const bytes = await written(1);
    const report = await checkFeed(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]));
    expect(report).toMatchObject({ products: 1, errors: [] });
    expect(report.warnings).toEqual([expect.objectContaining({ rule: 'encoding', message: expect.stringContaining('byte-order mark') })]);
  });

  it('a declared encoding that lies, either way', async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode(feed('<product><id>1</id><name>Caf')), 0xe9, ...new TextEncoder().encode('</name></product>')]);
    const saysUtf8 = await checkFeed(latin1);
    expect(saysUtf8.errors[0]).toMatchObject({ rule: 'encoding', message: expect.stringContaining('not UTF-8') });
    const saysGreek = await checkFeed(new TextEncoder().encode(feed('<product><id>1</id><name>Καφές</name></product>', '<?xml version="1.0" encoding="ISO-8859-7"?><mywebstore><created_at>2026-06-10 09:30</created_at><products>')));
    expect(saysGreek.errors[0]).toMatchObject({ rule: 'encoding', message: expect.stringContaining('read as UTF-8') });
  });

  it('elements and columns named after Object.prototype members are unknown names, not a crash', async () => {
    const product = `<product><id>A1</id><title>Example Thing</title><link>https://s.example.com/a</link><image></image><category>A > B</category><price>1.50</price><vat>0</vat><availability>In Stock</availability><manufacturer>M</manufacturer><mpn>X</mpn><ean>2001001001018</ean><description>d</description><quantity>0</quantity><constructor>x</constructor><__proto__>y</__proto__><size>42</size><variations><variation><variationid>A1.42</variationid><availability>In Stock</availability><size>42</size><quantity>1</quantity><toString>z</toString></variation></variations></product>\n`;
    const xml = await checkFeed(feed(product));
    expect(xml.errors).toEqual([]);
    expect(xml.warnings.filter((w) => w.rule === 'unknown_element').map((w) => w.message)).toEqual([
      '<constructor> is not a feed attribute; it is ignored',
      '<__proto__> is not a feed attribute; it is ignored',
      '<toString> is not a feed attribute; it is ignored',
    ]);
    const csv = await checkFeed('id,name,constructor,__proto__\nA1,Example Thing,x,y\n');
    expect(csv.warnings.filter((w) => w.rule === 'unknown_element').map((w) => w.message)).toEqual([
      'the column constructor is not a feed attribute; it is ignored',
      'the column __proto__ is not a feed attribute; it is ignored',
    ]);
  });

  it('text that runs on without end is cut off with an error, memory bounded', async () => {
    async function* endless() {
      yield '<?xml version="1.0" encoding="UTF-8"?><mywebstore><products><product><description>';
      const block = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 64; i++) yield block;
    }
    const report = await checkFeed(endless());
    expect(report.errors).toEqual([expect.objectContaining({ rule: 'too_large' })]);
  });
});
