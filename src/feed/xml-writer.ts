/**
 * The XML feed as the service's published examples lay it out (root `mywebstore`, `created_at`
 * as `YYYY-MM-DD HH:MM`, `price_with_vat`, `additionalimage`, no deprecated `instock`): the
 * layout shop platforms produce and the service reads.
 */
import { writeAll } from './file-target.js';
import { createWriter, createWriterCore, type FeedFormat, type FeedWriter, type FeedWriterOptions, type NodeWritableLike } from './output.js';
import { IMAGE, LINK, TEXT, type ValueScan } from './value-scan.js';
import type { WrittenProduct } from './values.js';
import type { FeedProduct, FeedReport } from './types.js';

/** A streaming XML feed writer: every product is checked before it is written. */
export function createFeedWriter(options?: FeedWriterOptions): FeedWriter {
  return createWriter(XML_FORMAT, options);
}

/**
 * Writes `products` (an array, iterable or async iterable) as an XML feed to `target` (a file
 * path, replaced only once the whole feed is written, or a Node Writable); resolves with the report.
 * A stream you pass keeps its own buffer size: `fs.createWriteStream(path, { highWaterMark: 512 * 1024 })`
 * writes a large feed faster than Node's default of 16 KiB (a path gets 512 KiB).
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
/** The line ends of the last `productXml` (values' own aside): counted as it writes them. */
let lines = 0;

/** Text as XML content: as it is, or in CDATA when it holds `<` or `&` (so a URL reads as itself). */
function text(value: string, special: readonly string[]): string {
  // Only the values found to hold `<`, `&`, `]` or a line end may need CDATA (the rest are plain).
  if (!special.includes(value) || !NEEDS_CDATA.test(value)) return value;
  // `]]>` cannot stand inside one CDATA section: it is split across two.
  return `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** A copy of `p` with each text as XML content (the numbers, EANs and availabilities never need CDATA). */
function escaped(p: WrittenProduct, special: readonly string[]): WrittenProduct {
  const t = (value: string) => text(value, special);
  const optionalText = (value: string | undefined) => (value === undefined ? undefined : t(value));
  return {
    ...p,
    id: t(p.id),
    name: t(p.name),
    link: t(p.link),
    image: t(p.image),
    additional_images: p.additional_images.map(t),
    category: t(p.category),
    manufacturer: t(p.manufacturer),
    mpn: t(p.mpn),
    description: optionalText(p.description),
    size: optionalText(p.size),
    color: optionalText(p.color),
    season: optionalText(p.season),
    size_fit: optionalText(p.size_fit),
    author: optionalText(p.author),
    expiration_date: optionalText(p.expiration_date),
    country_of_origin: optionalText(p.country_of_origin),
    variations: p.variations.map((v) => ({ ...v, variation_id: t(v.variation_id), size: t(v.size), link: optionalText(v.link), mpn: optionalText(v.mpn) })),
  };
}

/** `xml` and `open value close` on a line of its own, or `xml` alone when the value is absent (most are). */
function optional(xml: string, open: string, value: string | undefined, close: string): string {
  if (value === undefined) return xml;
  lines++;
  return `${xml}${open}${value}${close}`;
}

/**
 * A run of the template around values that products in a row mostly share (a category, a maker,
 * a description, the absent optional values), kept as one string while they stay the same. The
 * chunk is then built of a few pieces per product instead of one per tag and value: the pieces
 * are allocated, and visited again when the chunk is encoded (a seventh of a plain template
 * writer's instructions went there). A run is flattened once it is used a second time, so a run
 * that changes with every product costs what the template would.
 */
class SharedRun {
  // Up to seven values, compared one by one (an array per product would cost more than it saves).
  // The first starts as no value a product has, so the first run is built.
  private k0: unknown = SharedRun;
  private k1: unknown;
  private k2: unknown;
  private k3: unknown;
  private k4: unknown;
  private k5: unknown;
  private k6: unknown;
  private text = '';
  private flat = false;
  /** The line ends of the last run built or reused. */
  lines = 0;

  constructor(private readonly build: (...key: (string | undefined)[]) => string) {}

  get(k0?: string, k1?: string, k2?: string, k3?: string, k4?: string, k5?: string, k6?: string): string {
    if (k0 !== this.k0 || k1 !== this.k1 || k2 !== this.k2 || k3 !== this.k3 || k4 !== this.k4 || k5 !== this.k5 || k6 !== this.k6) {
      lines = 0;
      this.text = this.build(k0, k1, k2, k3, k4, k5, k6);
      this.lines = lines;
      this.k0 = k0;
      this.k1 = k1;
      this.k2 = k2;
      this.k3 = k3;
      this.k4 = k4;
      this.k5 = k5;
      this.k6 = k6;
      this.flat = false;
    } else if (!this.flat) {
      // Reading a character flattens the string the template built.
      this.text.charCodeAt(0);
      this.flat = true;
    }
    return this.text;
  }
}

const categoryRun = new SharedRun((category?: string) => `      <category>${category}</category>\n      <price_with_vat>`);
const makerRun = new SharedRun(
  (vat?: string, availability?: string, manufacturer?: string) =>
    `</price_with_vat>\n      <vat>${vat}</vat>\n      <availability>${availability}</availability>\n      <manufacturer>${manufacturer}</manufacturer>\n      <mpn>`,
);
const descriptionRun = new SharedRun(
  (size?: string, weight?: string, shipping?: string, color?: string, description?: string) => {
    let xml = '</ean>\n';
    xml = optional(xml, '      <size>', size, '</size>\n');
    xml = optional(xml, '      <weight>', weight, '</weight>\n');
    xml = optional(xml, '      <shipping>', shipping, '</shipping>\n');
    xml = optional(xml, '      <color>', color, '</color>\n');
    return `${xml}      <description>${description ?? ''}</description>\n      <quantity>`;
  },
);
const endRun = new SharedRun(
  (wholesale?: string, season?: string, sizeFit?: string, outlet?: string, author?: string, expiration?: string, origin?: string) => {
    let xml = '</quantity>\n';
    xml = optional(xml, '      <wholesale_price>', wholesale, '</wholesale_price>\n');
    xml = optional(xml, '      <season>', season, '</season>\n');
    xml = optional(xml, '      <size_fit>', sizeFit, '</size_fit>\n');
    xml = optional(xml, '      <outlet>', outlet, '</outlet>\n');
    xml = optional(xml, '      <author>', author, '</author>\n');
    xml = optional(xml, '      <expiration_date>', expiration, '</expiration_date>\n');
    return optional(xml, '      <country_of_origin>', origin, '</country_of_origin>\n');
  },
);

/** The product's first lines around its id, name, link and image: where those start is counted from them. */
const OPEN_ID = '    <product>\n      <id>';
const ID_NAME = '</id>\n      <name>';
const NAME_LINK = '</name>\n      <link>';
const LINK_IMAGE = '</link>\n      <image>';

// The indentation is written into the templates rather than put in from a variable: every piece
// put in is one more node of the string the chunk is built of.
function productXml(product: WrittenProduct, special: readonly string[], scan?: ValueScan): string {
  // Most products hold no value that needs CDATA: the template takes their values as they are.
  const p = special.length === 0 ? product : escaped(product, special);
  let xml = `${OPEN_ID}${p.id}${ID_NAME}${p.name}${NAME_LINK}${p.link}${LINK_IMAGE}${p.image}</image>\n`;
  for (const image of p.additional_images) xml += `      <additionalimage>${image}</additionalimage>\n`;
  const description = descriptionRun.get(p.size, p.weight, p.shipping, p.color, p.description);
  const end = endRun.get(p.wholesale_price, p.season, p.size_fit, p.outlet, p.author, p.expiration_date, p.country_of_origin);
  const category = categoryRun.get(p.category);
  const maker = makerRun.get(p.vat, p.availability, p.manufacturer);
  if (scan !== undefined) noteValues(scan, p, xml.length + category.length + p.price.length + maker.length);
  xml = `${xml}${category}${p.price}${maker}${p.mpn}</mpn>
      <ean>${p.ean}${description}${p.quantity}${end}`;
  lines = 15 + p.additional_images.length + descriptionRun.lines + endRun.lines;
  if (p.variations.length === 0) return `${xml}    </product>\n`;
  xml += '      <variations>\n';
  lines += 2 + 6 * p.variations.length;
  for (const variation of p.variations) {
    xml += `        <variation>
          <variationid>${variation.variation_id}</variationid>
          <availability>${variation.availability}</availability>
          <size>${variation.size}</size>
          <quantity>${variation.quantity}</quantity>
`;
    xml = optional(xml, '          <price_with_vat>', variation.price, '</price_with_vat>\n');
    xml = optional(xml, '          <link>', variation.link, '</link>\n');
    xml = optional(xml, '          <manufacturersku>', variation.mpn, '</manufacturersku>\n');
    xml = optional(xml, '          <ean>', variation.ean, '</ean>\n');
    xml = optional(xml, '          <outlet>', variation.outlet, '</outlet>\n');
    xml += '        </variation>\n';
  }
  return `${xml}      </variations>\n    </product>\n`;
}

/** Where the deferred texts of `p` sit in its XML (`mpnAt`: where its mpn starts), for the scan to check. */
function noteValues(scan: ValueScan, p: WrittenProduct, mpnAt: number): void {
  let at = OPEN_ID.length;
  scan.value(at, p.id.length, TEXT);
  at += p.id.length + ID_NAME.length;
  scan.value(at, p.name.length, TEXT);
  at += p.name.length + NAME_LINK.length;
  scan.value(at, p.link.length, LINK);
  at += p.link.length + LINK_IMAGE.length;
  if (p.image !== '') scan.value(at, p.image.length, IMAGE);
  scan.value(mpnAt, p.mpn.length, TEXT);
}

const XML_FORMAT: FeedFormat = {
  mode: 'write',
  defersTexts: true,
  productLines: (_text, valueLines) => lines + valueLines,
  head: (createdAt) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<mywebstore>\n  <created_at>${formatCreatedAt(createdAt)}</created_at>\n  <products>\n`,
  product: productXml,
  tail: '  </products>\n</mywebstore>\n',
};
