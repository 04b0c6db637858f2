/** Feed products for property tests: mostly plain values, and every kind the checks must catch. */
import fc from 'fast-check';
import { PRODUCT_AVAILABILITY, VARIATION_AVAILABILITY } from '../../src/feed/types.js';

/** Mostly plain text, and every character the quick path must leave to the checker, at either end or inside. */
export const text = (max: number) =>
  fc.oneof(
    { weight: 60, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,>/\t-]{0,30}[A-Za-z0-9]$/) },
    { weight: 6, arbitrary: fc.constantFrom('Παπούτσια > Αθλητικά', 'Ελαφρύ παπούτσι, 42', 'Ζώνη 2€', 'Été', 'ένα\tδύο', 'x'.repeat(max), 'ω'.repeat(max)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', ' ', ' padded', 'padded ', '\tx', 'x\t', '\u00a0x', 'x\u00a0', '\ufeffx', 'a\tb', 'A & B', 'x < y', 'a]b', 'line\nend', 'cr\rend', '\u0007', '😀', 'x\ud800', 'x'.repeat(max + 1), 'ω'.repeat(max + 1)),
    },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, 7, true) },
  );
export const link = (max: number) =>
  fc.oneof(
    { weight: 60, arbitrary: fc.stringMatching(/^[a-z0-9\-._~/?=&%#@]{0,30}$/).map((path) => `https://shop.example.com/${path}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'HTTPS://SHOP.EXAMPLE.COM/A', 'https://shop.example.gr/παπούτσια', 'https://παπούτσια.gr/', 'https://shop.example.gr/a b', 'https://shop.example.gr/ά&b', 'https://shop.example.gr/x.avif', 'http://shop.example.com/p', 'https://shop.example.com/a b', ' https://shop.example.com/', 'https://cdn.example.com/x.avif', 'https://cdn.example.com/x.AVIF?w=1', 'https://shop.example.com/ü', `https://shop.example.com/${'p'.repeat(max)}`, 'https://user@host/', 'https:///x'),
    },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, 1) },
  );
export const euros = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 0, max: 10_000_000 }).map((cents) => cents / 100) },
  { weight: 1, arbitrary: fc.stringMatching(/^\d{1,4}\.\d\d$/) },
  { weight: 1, arbitrary: fc.constantFrom('23.90', '23.9', '023.90', '7', '1,234.50', '-1', '', 0.1 + 0.2, 0.001, -0, Number.NaN, 1e16, undefined, null) },
);
export const ean = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom('2004001001422', '96385074', '036000291452') },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('2004001001423', '', 2004001001422), fc.stringMatching(/^\d{8,13}$/)) },
);
export const quantity = fc.oneof({ weight: 30, arbitrary: fc.integer({ min: 0, max: 10_000_000 }) }, { weight: 1, arbitrary: fc.constantFrom(-1, -0, 1.5, 10_000_001, '12', undefined) });
export const variation = fc.record(
  {
    variation_id: text(200),
    availability: fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...VARIATION_AVAILABILITY) }, { weight: 1, arbitrary: fc.constantFrom('In stock', 'Available from 4 to 6 days') }),
    size: text(64),
    quantity,
    price: euros,
    link: link(2000),
    mpn: text(80),
    ean,
    outlet: fc.oneof({ weight: 30, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'Y') }),
  },
  { requiredKeys: ['variation_id', 'availability', 'size', 'quantity'] },
);
export const product = fc.record(
  {
    id: text(200),
    name: text(300),
    link: link(1000),
    image: fc.oneof({ weight: 10, arbitrary: link(400) }, { weight: 1, arbitrary: fc.constant('') }),
    additional_images: fc.oneof(
      { weight: 30, arbitrary: fc.array(link(400), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.oneof(fc.array(fc.constant('https://shop.example.com/i.jpg'), { minLength: 14, maxLength: 16 }), fc.constant(null)) },
    ),
    category: fc.oneof({ weight: 10, arbitrary: fc.constantFrom('Fashion > Shoes', 'A/B', 'A - B') }, { weight: 1, arbitrary: fc.constantFrom('Books', 'A-B') }, { weight: 1, arbitrary: text(250) }),
    price: euros,
    vat: fc.oneof({ weight: 30, arbitrary: fc.constantFrom(0, 6, 24, 100, '13.00', '24') }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom(0.5, 100.01, 100.000000001), euros) }),
    availability: fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...PRODUCT_AVAILABILITY) }, { weight: 1, arbitrary: fc.constantFrom('Delivery 1 to 3 days', 'In Stock ') }),
    manufacturer: text(100),
    mpn: text(80),
    ean,
    description: text(10_000),
    quantity,
    size: text(500),
    weight: fc.oneof({ weight: 10, arbitrary: fc.constantFrom(3200, 0, 1.5, '3.2 kg', '3.2kg', '3.2 KG') }, { weight: 1, arbitrary: fc.constantFrom(-1, '3.2 lbs', '', null) }),
    shipping: euros,
    color: text(100),
    wholesale_price: euros,
    season: text(100),
    size_fit: text(100),
    outlet: fc.oneof({ weight: 30, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom('Y', null) }),
    author: text(255),
    expiration_date: text(255),
    country_of_origin: text(255),
    variations: fc.oneof({ weight: 30, arbitrary: fc.array(variation, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant(null) }),
  },
  { requiredKeys: ['id', 'name', 'link', 'image', 'category', 'price', 'vat', 'availability', 'manufacturer', 'mpn', 'ean', 'description', 'quantity'] },
);
