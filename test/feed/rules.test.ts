/** One refusing case per rule of the feed's attribute rules: the writer names the product, the attribute and the rule. */
import { createCsvFeedWriter, createFeedWriter, type FeedProduct, FeedValidationError } from 'emporio/feed';
import { describe, expect, it } from 'vitest';
import { sampleProduct } from './sample.js';

function refusal(product: unknown, csv = false) {
  const writer = (csv ? createCsvFeedWriter : createFeedWriter)({ onInvalid: 'throw' });
  try {
    writer.write(product as FeedProduct);
  } catch (error) {
    expect(error).toBeInstanceOf(FeedValidationError);
    const { productId, attribute, rule } = error as FeedValidationError;
    return { productId, attribute, rule };
  }
  return undefined;
}
const long = (n: number) => 'x'.repeat(n);
const url = (n: number) => `https://shop.example.com/${'p'.repeat(n - 25)}`;
const variation = { variation_id: 'V-1', availability: 'In Stock', size: 'M', quantity: 1 } as const;

describe('every rule has a refusing case', () => {
  it.each(['id', 'name', 'link', 'image', 'category', 'price', 'vat', 'availability', 'manufacturer', 'mpn', 'ean', 'description', 'quantity'] as const)(
    'required: %s',
    (attribute) => {
      const product: Record<string, unknown> = { ...sampleProduct() };
      delete product[attribute];
      expect(refusal(product)).toMatchObject({ attribute, rule: 'required' });
    },
  );

  it('required: a blank value, variation fields, and the size list of a product with variations', () => {
    expect(refusal(sampleProduct({ name: '   ' }))).toMatchObject({ attribute: 'name', rule: 'required' });
    for (const key of ['variation_id', 'availability', 'size', 'quantity'] as const) {
      const v: Record<string, unknown> = { ...variation };
      delete v[key];
      expect(refusal(sampleProduct({ variations: [v as never] }))).toMatchObject({ attribute: `variations[0].${key}`, rule: 'required' });
    }
    expect(refusal(sampleProduct({ size: undefined, variations: [variation] }))).toMatchObject({ attribute: 'size', rule: 'required' });
  });

  it.each([
    ['id', long(201)],
    ['name', long(301)],
    ['link', url(1001)],
    ['image', url(401)],
    ['category', `A > ${long(247)}`],
    ['manufacturer', long(101)],
    ['mpn', long(81)],
    ['size', long(501)],
    ['color', long(101)],
    ['description', long(10_001)],
    ['season', long(101)],
    ['size_fit', long(101)],
    ['author', long(256)],
    ['expiration_date', long(256)],
    ['country_of_origin', long(256)],
  ] as const)('max_length: %s', (attribute, value) => {
    expect(refusal(sampleProduct({ [attribute]: value }))).toMatchObject({ attribute, rule: 'max_length' });
    // One character less passes: the limits are the documentation's, in characters (an emoji is one).
    expect(refusal(sampleProduct({ [attribute]: value.slice(0, -1) }))).toBeUndefined();
  });

  it('max_length counts characters, not UTF-16 units; variation limits; CSV descriptions stop at 1000', () => {
    expect(refusal(sampleProduct({ name: '😀'.repeat(300) }))).toBeUndefined();
    expect(refusal(sampleProduct({ name: '😀'.repeat(301) }))).toMatchObject({ rule: 'max_length' });
    expect(refusal(sampleProduct({ variations: [{ ...variation, variation_id: long(201) }] }))).toMatchObject({ attribute: 'variations[0].variation_id', rule: 'max_length' });
    expect(refusal(sampleProduct({ variations: [{ ...variation, size: long(65) }] }))).toMatchObject({ attribute: 'variations[0].size', rule: 'max_length' });
    expect(refusal(sampleProduct({ variations: [{ ...variation, link: url(2001) }] }))).toMatchObject({ attribute: 'variations[0].link', rule: 'max_length' });
    expect(refusal(sampleProduct({ variations: [{ ...variation, mpn: long(81) }] }))).toMatchObject({ attribute: 'variations[0].mpn', rule: 'max_length' });
    expect(refusal(sampleProduct({ description: long(1001) }), true)).toMatchObject({ attribute: 'description', rule: 'max_length' });
  });

  it.each([
    ['price', 23.899999],
    ['price', '23.899999'],
    ['price', '1,234.50'],
    ['price', '23,90'],
    ['price', 'free'],
    ['price', Number.NaN],
    ['vat', 24.555],
    ['wholesale_price', '1.234'],
    ['shipping', '3 EUR'],
  ] as const)('decimal: %s %s', (attribute, value) => {
    expect(refusal(sampleProduct({ [attribute]: value }))).toMatchObject({ attribute, rule: 'decimal' });
  });

  it.each([
    ['price', -1],
    ['vat', 0.5],
    ['vat', 100.01],
    ['wholesale_price', -0.01],
    ['quantity', 10_000_001],
    ['quantity', -1],
  ] as const)('range: %s %s', (attribute, value) => {
    expect(refusal(sampleProduct({ [attribute]: value }))).toMatchObject({ attribute, rule: 'range' });
  });

  it('range: the bounds themselves pass', () => {
    for (const product of [sampleProduct({ vat: 0 }), sampleProduct({ vat: 1 }), sampleProduct({ vat: 100 }), sampleProduct({ quantity: 0 }), sampleProduct({ quantity: 10_000_000 })]) {
      expect(refusal(product)).toBeUndefined();
    }
  });

  it('integer: a quantity that is not a whole number', () => {
    expect(refusal(sampleProduct({ quantity: 1.5 }))).toMatchObject({ attribute: 'quantity', rule: 'integer' });
    expect(refusal(sampleProduct({ quantity: '10 units' as never }))).toMatchObject({ attribute: 'quantity', rule: 'integer' });
  });

  it('value_set: availability outside the fixed set (and the product set for a variation), outlet other than true/false', () => {
    expect(refusal(sampleProduct({ availability: 'In stock' as never }))).toMatchObject({ attribute: 'availability', rule: 'value_set' });
    expect(refusal(sampleProduct({ availability: 'Available up to 30 days' as never }))).toMatchObject({ attribute: 'availability', rule: 'value_set' });
    expect(refusal(sampleProduct({ variations: [{ ...variation, availability: 'Available from 4 to 6 days' as never }] }))).toMatchObject({
      attribute: 'variations[0].availability',
      rule: 'value_set',
    });
    expect(refusal(sampleProduct({ outlet: 'Yes' as never }))).toMatchObject({ attribute: 'outlet', rule: 'value_set' });
  });

  it('ean: a wrong check digit, a wrong length, a number; EAN-8, UPC-A and EAN-13 pass', () => {
    expect(refusal(sampleProduct({ ean: '2001001001019' }))).toMatchObject({ attribute: 'ean', rule: 'ean' });
    expect(refusal(sampleProduct({ ean: '123456789' }))).toMatchObject({ attribute: 'ean', rule: 'ean' });
    expect(refusal(sampleProduct({ ean: 2001001001018 as never }))).toMatchObject({ attribute: 'ean', rule: 'type' });
    expect(refusal(sampleProduct({ variations: [{ ...variation, ean: '12345678' }] }))).toMatchObject({ attribute: 'variations[0].ean', rule: 'ean' });
    for (const ean of ['96385074', '036000291452', '4006381333931']) expect(refusal(sampleProduct({ ean }))).toBeUndefined();
  });

  it('https: http, other schemes, spaces, relative links; CSV takes http', () => {
    for (const link of ['http://shop.example.com/p/1', 'ftp://shop.example.com/p', 'https://shop.example.com/a b', '/p/1']) {
      expect(refusal(sampleProduct({ link }))).toMatchObject({ attribute: 'link', rule: 'https' });
    }
    expect(refusal(sampleProduct({ additional_images: ['http://shop.example.com/1.jpg'] }))).toMatchObject({ attribute: 'additional_images[0]', rule: 'https' });
    expect(refusal(sampleProduct({ link: 'http://shop.example.com/p/1' }), true)).toBeUndefined();
  });

  it('no_html: tags, comments and character references in any attribute', () => {
    expect(refusal(sampleProduct({ description: 'A <b>bold</b> claim' }))).toMatchObject({ attribute: 'description', rule: 'no_html' });
    expect(refusal(sampleProduct({ name: 'Shoe&nbsp;White' }))).toMatchObject({ attribute: 'name', rule: 'no_html' });
    expect(refusal(sampleProduct({ link: 'https://shop.example.com/p?id=1&amp;v=3' }))).toMatchObject({ attribute: 'link', rule: 'no_html' });
    expect(refusal(sampleProduct({ variations: [{ ...variation, size: '<br/>M' }] }))).toMatchObject({ attribute: 'variations[0].size', rule: 'no_html' });
    // A bare & or < in text is not markup.
    expect(refusal(sampleProduct({ name: 'Salt & Pepper Mill < 20 cm' }))).toBeUndefined();
  });

  it('invalid_character: control characters and lone surrogates, which XML cannot carry', () => {
    expect(refusal(sampleProduct({ name: 'Bell\u0007' }))).toMatchObject({ attribute: 'name', rule: 'invalid_character' });
    expect(refusal(sampleProduct({ description: 'half \ud83d emoji' }))).toMatchObject({ attribute: 'description', rule: 'invalid_character' });
  });

  it('image_count: at most 15 distinct image links; image_format: no AVIF', () => {
    const images = Array.from({ length: 15 }, (_, i) => `https://shop.example.com/${i}.jpg`);
    expect(refusal(sampleProduct({ additional_images: images }))).toMatchObject({ attribute: 'additional_images', rule: 'image_count' });
    expect(refusal(sampleProduct({ additional_images: images.slice(1) }))).toBeUndefined();
    expect(refusal(sampleProduct({ image: 'https://shop.example.com/1.avif' }))).toMatchObject({ attribute: 'image', rule: 'image_format' });
    expect(refusal(sampleProduct({ image: '' }))).toBeUndefined();
  });

  it('image_format: an AVIF link ends in .avif (any case) at its end or before a query or fragment, in an image or additional image', () => {
    const avif = ['https://shop.example.com/1.avif', 'https://shop.example.com/1.AVIF', 'https://shop.example.com/1.AvIf?w=200', 'https://shop.example.com/1.avif#top', 'https://shop.example.com/p?x=1#a.avif', 'https://shop.example.com/p?f=1.avif', 'https://shop.example.com/p?f=1.avif?', 'https://shop.example.com/a?b?c.avif#d'];
    const other = ['https://shop.example.com/1.avif.jpg', 'https://shop.example.com/avif/1.jpg', 'https://shop.example.com/1avif', 'https://shop.example.com/1.avi', 'https://shop.example.com/1.avifs?w=1', 'https://shop.example.com/1.av\u0131f', 'https://shop.example.com/1.AV\u0130F', 'https://shop.example.com/?.avi#f'];
    for (const image of avif) {
      expect(refusal(sampleProduct({ image })), image).toMatchObject({ attribute: 'image', rule: 'image_format' });
      expect(refusal(sampleProduct({ additional_images: [image] })), image).toMatchObject({ attribute: 'additional_images[0]', rule: 'image_format' });
    }
    for (const image of other) expect(refusal(sampleProduct({ image, additional_images: [image] })), image).toBeUndefined();
  });

  it('weight: grams or kilograms ending in kg', () => {
    expect(refusal(sampleProduct({ weight: '3.2 lbs' }))).toMatchObject({ attribute: 'weight', rule: 'weight' });
    expect(refusal(sampleProduct({ weight: -5 }))).toMatchObject({ attribute: 'weight', rule: 'weight' });
    expect(refusal(sampleProduct({ weight: '3.2 kg' }))).toBeUndefined();
    expect(refusal(sampleProduct({ weight: 3200 }))).toBeUndefined();
  });

  it('type: values of the wrong kind; a CSV feed has no variations', () => {
    expect(refusal(sampleProduct({ name: 42 as never }))).toMatchObject({ attribute: 'name', rule: 'type' });
    expect(refusal(sampleProduct({ variations: 'M,L' as never }))).toMatchObject({ attribute: 'variations', rule: 'type' });
    expect(refusal(null)).toMatchObject({ rule: 'type' });
    expect(refusal(sampleProduct({ variations: [variation] }), true)).toMatchObject({ attribute: 'variations', rule: 'type' });
  });

  it('category_path: a one-level category is written, with a warning', () => {
    const writer = createFeedWriter();
    writer.write(sampleProduct({ category: 'Sneakers' }));
    expect(writer.end()).toMatchObject({ products: 1, errors: [], warnings: [expect.objectContaining({ attribute: 'category', rule: 'category_path' })] });
  });

  it('category_path: a path split by >, / or a spaced dash is no warning; a dash inside a word is', () => {
    const warned = (category: string) => {
      const writer = createFeedWriter();
      writer.write(sampleProduct({ category }));
      return writer.end().warnings.some((w) => w.rule === 'category_path');
    };
    for (const path of ['Shoes > Running', 'Shoes>Running', 'Shoes/Running', 'Shoes - Running']) expect(warned(path), path).toBe(false);
    for (const one of ['T-Shirts', 'Shoes -Running', 'Shoes- Running']) expect(warned(one), one).toBe(true);
  });
});
