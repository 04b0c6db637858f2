/**
 * The XML feed as the service's published examples lay it out (root `mywebstore`, `created_at`
 * as `YYYY-MM-DD HH:MM`, `price_with_vat`, `additionalimage`, no deprecated `instock`): the
 * layout shop platforms produce and the service reads.
 */
import { createWriter, createWriterCore, type FeedFormat, type FeedWriter, type FeedWriterOptions, type NodeWritableLike, writeAll } from './output.js';
import type { WrittenProduct } from './rules.js';
import type { FeedProduct, FeedReport } from './types.js';

/** A streaming XML feed writer: every product is checked before it is written. */
export function createFeedWriter(options?: FeedWriterOptions): FeedWriter {
  return createWriter(XML_FORMAT, options);
}

/**
 * Writes `products` (an array, iterable or async iterable) as an XML feed to `target` (a file
 * path, replaced only once the whole feed is written, or a Node Writable); resolves with the report.
 */
export function writeFeed(
  products: Iterable<FeedProduct> | AsyncIterable<FeedProduct>,
  target: string | NodeWritableLike,
  options?: FeedWriterOptions,
): Promise<FeedReport> {
  // The output goes to the file or stream directly, gzipped by zlib: no web stream in between.
  return writeAll(createWriterCore(XML_FORMAT, { ...options, gzip: false }), products, target, options?.gzip === true);
}

/** `YYYY-MM-DD HH:MM` in the process's local time (the shop's, as the service's example has it). */
export function formatCreatedAt(date: Date): string {
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

const NEEDS_CDATA = /[<&]|]]>/;
/** The values of the product being written that may need CDATA (the rest were found plain when checked). */
let special: readonly string[] = [];
/** The line ends of the last `productXml` (values' own aside): counted as it writes them. */
let lines = 0;

/** Text as XML content: as it is, or in CDATA when it holds `<` or `&` (so a URL reads as itself). */
function text(value: string): string {
  if (special.length === 0 || !special.includes(value) || !NEEDS_CDATA.test(value)) return value;
  // `]]>` cannot stand inside one CDATA section: it is split across two.
  return `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

function optional(name: string, value: string | undefined, indent: string): string {
  if (value === undefined) return '';
  lines++;
  return `${indent}<${name}>${text(value)}</${name}>\n`;
}

function productXml(p: WrittenProduct, specialValues: readonly string[]): string {
  special = specialValues;
  lines = 15 + p.additional_images.length;
  const i = '      ';
  let xml = `    <product>
${i}<id>${text(p.id)}</id>
${i}<name>${text(p.name)}</name>
${i}<link>${text(p.link)}</link>
${i}<image>${text(p.image)}</image>
`;
  for (const image of p.additional_images) xml += `${i}<additionalimage>${text(image)}</additionalimage>\n`;
  xml += `${i}<category>${text(p.category)}</category>
${i}<price_with_vat>${p.price}</price_with_vat>
${i}<vat>${p.vat}</vat>
${i}<availability>${p.availability}</availability>
${i}<manufacturer>${text(p.manufacturer)}</manufacturer>
${i}<mpn>${text(p.mpn)}</mpn>
${i}<ean>${p.ean}</ean>
`;
  xml +=
    optional('size', p.size, i) +
    optional('weight', p.weight, i) +
    optional('shipping', p.shipping, i) +
    optional('color', p.color, i) +
    `${i}<description>${text(p.description ?? '')}</description>
${i}<quantity>${p.quantity}</quantity>
` +
    optional('wholesale_price', p.wholesale_price, i) +
    optional('season', p.season, i) +
    optional('size_fit', p.size_fit, i) +
    optional('outlet', p.outlet, i) +
    optional('author', p.author, i) +
    optional('expiration_date', p.expiration_date, i) +
    optional('country_of_origin', p.country_of_origin, i);
  if (p.variations.length > 0) {
    const v = '          ';
    xml += `${i}<variations>\n`;
    lines += 2 + 6 * p.variations.length;
    for (const variation of p.variations) {
      xml += `${i}  <variation>
${v}<variationid>${text(variation.variation_id)}</variationid>
${v}<availability>${variation.availability}</availability>
${v}<size>${text(variation.size)}</size>
${v}<quantity>${variation.quantity}</quantity>
${optional('price_with_vat', variation.price, v)}${optional('link', variation.link, v)}${optional('manufacturersku', variation.mpn, v)}${optional('ean', variation.ean, v)}${optional('outlet', variation.outlet, v)}${i}  </variation>
`;
    }
    xml += `${i}</variations>\n`;
  }
  return `${xml}    </product>\n`;
}

const XML_FORMAT: FeedFormat = {
  mode: 'write',
  productLines: (_text, valueLines) => lines + valueLines,
  head: (createdAt) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore>\n  <created_at>${formatCreatedAt(createdAt)}</created_at>\n  <products>\n`,
  product: productXml,
  tail: '  </products>\n</mywebstore>\n',
};
