import { checkFeed, type CheckedProduct, createCsvFeedWriter } from 'emporio/feed';
import { describe, expect, it } from 'vitest';
import { readAll, sampleProduct } from './sample.js';

/** The CSV page's example (neutral data) as published: a space after each comma, a blank line after the header. */
const PUBLISHED = `id, name, link, image, additionalimage, category, price_with_vat, manufacturer, mpn, ean, instock, availability, size, weight, color

322233, Example Goggles 600, https://shop.example.com/product/322233, https://shop.example.com/product/322233.jpg, https://shop.example.com/product/322233/front.jpg, Outdoor > Extreme Sports, 322.33, Examplewear, ZHD332, 2001001001018, N, Pre Order, "5.5,6", 360, Black
322234, "Example Goggles 600 ""Extreme""", https://shop.example.com/product/322234, https://shop.example.com/product/322234.jpg, https://shop.example.com/product/322234/front.jpg, "Outdoor, Extreme Sports", 322.33, Examplewear, ZHD333, , N, Pre Order, "5.5,6, 6.5", , White
`;

async function read(csv: string | Uint8Array) {
  const products: CheckedProduct[] = [];
  const report = await checkFeed(csv, { onProduct: (product) => products.push(product) });
  return { report, products };
}

describe('CSV feeds', () => {
  it('reads the published example: quoted fields, doubled quotes, a blank line; its availability and instock as warnings', async () => {
    const { report, products } = await read(PUBLISHED);
    expect(report.errors).toEqual([]);
    expect(products.map((p) => [p.id, p.name, p.size, p.ean, p.category])).toEqual([
      ['322233', 'Example Goggles 600', '5.5,6', '2001001001018', 'Outdoor > Extreme Sports'],
      ['322234', 'Example Goggles 600 "Extreme"', '5.5,6, 6.5', undefined, 'Outdoor, Extreme Sports'],
    ]);
    expect(report.warnings.map((w) => w.rule).sort()).toEqual(['category_path', 'deprecated', 'value_set', 'value_set']);
  });

  it('awaits a promise onProduct returns before reading more of the feed', async () => {
    const header = 'id,name,link,image,category,price_with_vat,vat,manufacturer,mpn,ean,availability,description,quantity\n';
    const row = (id: string) => `${id},Bike,https://shop.example.com/p/${id},,Bikes > Mountain,10,24,Examplebikes,B600,,In Stock,A bike,3\n`;
    const encoder = new TextEncoder();
    const chunks = Array.from({ length: 10 }, (_, chunk) => Array.from({ length: 50 }, (_, i) => row(`P-${chunk * 50 + i}`)).join(''));
    let chunksRead = 0;
    const source = (async function* () {
      for (const [i, chunk] of chunks.entries()) {
        chunksRead++;
        yield encoder.encode(i === 0 ? header + chunk : chunk);
      }
    })();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let seen = 0;
    const checking = checkFeed(source, {
      onProduct: (product) => {
        seen++;
        return product.id === 'P-1' ? held : undefined;
      },
    });
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toBeGreaterThan(0);
    expect(chunksRead).toBeLessThan(5);
    release();
    const report = await checking;
    expect(report.errorCount).toBe(0);
    expect(seen).toBe(500);
  });

  it('takes other separators and no header row (the published column order), as a warning', async () => {
    const row = '322233;Example Goggles 600;https://shop.example.com/p/1;;;A > B;12.5;Examplewear;ZHD332;;N;In Stock;;;\n';
    const { report, products } = await read(row);
    expect(report.errors).toEqual([]);
    expect(products[0]).toMatchObject({ id: '322233', price: '12.50', availability: 'In Stock', image: '' });
    expect(report.warnings).toEqual([expect.objectContaining({ rule: 'spelling', message: expect.stringContaining('no header row') })]);
  });

  it('reports a row with another number of fields, and a broken quote ends the check with a line', async () => {
    const header = 'id,name,link,image,category,price_with_vat,manufacturer,mpn,availability\n';
    const ragged = await read(`${header}1,A,https://s.example.com/1,,A > B,1,M,X,In Stock\n2,B,https://s.example.com/2,,A > B,1,M\n`);
    expect(ragged.report.errors).toEqual([expect.objectContaining({ line: 3, rule: 'csv' })]);
    const broken = await read(`${header}1,"A,https://s.example.com/1,,A > B,1,M,X,In Stock\n`);
    expect(broken.report.errors.at(-1)).toMatchObject({ rule: 'csv' });
  });

  it('the CSV writer quotes per RFC 4180 and reads back', async () => {
    const writer = createCsvFeedWriter();
    const bytes = readAll(writer.readable);
    await writer.write(sampleProduct({ name: 'Bike 600 "Extreme", blue', size: '5.5,6' }));
    writer.end();
    const text = new TextDecoder().decode(await bytes);
    expect(text.split('\n')[0]).toBe('id,name,link,image,additionalimage,category,price_with_vat,vat,manufacturer,mpn,ean,availability,size,weight,shipping,color,description,quantity');
    expect(text).toContain('"Bike 600 ""Extreme"", blue"');
    const { report, products } = await read(text);
    expect(report).toMatchObject({ products: 1, errors: [], warnings: [] });
    expect(products[0]).toMatchObject({ name: 'Bike 600 "Extreme", blue', size: '5.5,6', vat: '24.00', quantity: '25' });
  });

  it('neutralises a text cell a spreadsheet would run as a formula, never a number column; neutraliseFormulas: false writes it as it is', async () => {
    const product = sampleProduct({
      id: '-12',
      name: '=HYPERLINK("https://evil.example/","click")',
      manufacturer: '@SUM(A1:A9)',
      mpn: '+31-555',
      description: 'Plain -2 +3 =4',
      price: '0.50',
    });
    const write = async (options?: { neutraliseFormulas: boolean }) => {
      const writer = createCsvFeedWriter(options);
      const bytes = readAll(writer.readable);
      await writer.write(product);
      writer.end();
      return new TextDecoder().decode(await bytes).split('\n')[1];
    };
    expect(await write()).toBe(
      `'-12,"'=HYPERLINK(""https://evil.example/"",""click"")",https://shop.example.com/product.php?id=1001&lang=en,https://shop.example.com/images/ex-1001.jpg,https://shop.example.com/images/ex-1001-side.jpg,Fashion > Shoes > Sneakers,0.50,24.00,'@SUM(A1:A9),'+31-555,2001001001018,Available from 1 to 3 days,"40,41,42",,,,Plain -2 +3 =4,25`,
    );
    expect(await write({ neutraliseFormulas: false })).toMatch(/^-12,"=HYPERLINK\(""https:\/\/evil\.example\/"",""click""\)",.*,@SUM\(A1:A9\),\+31-555,/);
    expect(() => createCsvFeedWriter({ neutraliseFormulas: 'no' as unknown as boolean })).toThrow(TypeError);
  });
});
