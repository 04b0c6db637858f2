/**
 * The feed's rules, one validator for the writers and the checker: required attributes,
 * lengths, number formats, ranges, value sets, EAN check digits, https links, no HTML,
 * repeated ids. It turns a product into its written form (every value a string) or reports why
 * it cannot be written. The writers are strict; reading is lenient where the service maps a
 * shop's own wording (availability, `Yes`/`No`).
 */
import type { IdSet } from './id-set.js';
import { plainProduct } from './plain-product.js';
import { type FeedIssue, PRODUCT_AVAILABILITY, VARIATION_AVAILABILITY } from './types.js';
import {
  AVIF,
  formatDecimal,
  formatWeight,
  isCategoryPath,
  isValidGtin,
  isVatRate,
  MAX_IMAGE_LINKS,
  MAX_LENGTH,
  MAX_QUANTITY,
  HTTPS,
  PLAIN_HTTPS,
  startsOrEndsBlank,
  SUSPECT,
  type WrittenProduct,
  type WrittenVariation,
} from './values.js';

/** `write`: a product the SDK writes as XML; `csv`: one written as CSV; `read`, `read-csv`: a product read from a feed. */
export type RuleMode = 'write' | 'csv' | 'read' | 'read-csv';

/** Wordings the service retired, and what replaced them. */
const RETIRED_AVAILABILITY: Readonly<Record<string, string>> = {
  'delivery 1 to 3 days': 'Available from 1 to 3 days',
  'available in store / delivery 1 to 3 days': 'In Stock',
  'available from 4 to 10 days': 'Available from 4 to 6 days',
  'available up to 30 days': 'Available up to 12 days',
};

// Most values are printable ASCII without `<`, `&` or `]`: one scan for a character outside that
// set clears them (the class spelled as what it looks for, which the regex engine scans faster
// than the negated set). Only a value holding one of SUSPECT's characters gets the slower checks
// below (line ends are counted there, for the writer's line numbers), and only such a value may
// need CDATA (`<`, `&`, `]]>`).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const NOT_PLAIN_TEXT = /[\0-\x08\n-\x1f&<\]\x7f-\uffff]/;
const BAD_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HTML = /<\/?[a-z][^>]*>|<!--|&(?:[a-z][a-z0-9]{1,31}|#\d{1,7}|#x[0-9a-f]{1,6});/i;
const HTTP_OR_HTTPS = /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i;
const INTEGER = /^\d{1,8}$/;

/** Where one product's issues go. */
export interface IssueLists {
  errors: FeedIssue[];
  warnings: FeedIssue[];
}

/** Validates one product, pushing what is wrong onto `issues`; the written form, or undefined when it has an error (`quick`: try the writer's quick path first). */
export function checkProduct(
  product: unknown,
  mode: RuleMode,
  issues: IssueLists,
  line: number,
  ids?: IdSet,
  stats?: WriteStats,
  quick = mode === 'write',
): WrittenProduct | undefined {
  return check(product, mode, issues, line, ids, stats, quick);
}

/** `checkProduct` without the quick path: the checker the quick path is held to (its tests compare the two). */
export function checkProductFully(product: unknown, mode: RuleMode, issues: IssueLists, line: number, stats?: WriteStats): WrittenProduct | undefined {
  return check(product, mode, issues, line, undefined, stats, false);
}

function check(
  product: unknown,
  mode: RuleMode,
  issues: IssueLists,
  line: number,
  ids: IdSet | undefined,
  stats: WriteStats | undefined,
  quick: boolean,
): WrittenProduct | undefined {
  // One checker, reset per product (a million products, a million fewer objects to collect).
  const c = checker.reset(mode, issues, line, stats?.special ?? []);
  if (typeof product !== 'object' || product === null) {
    c.error(undefined, 'type', 'a product must be an object');
    return undefined;
  }
  const p = product as Record<string, unknown>;
  c.productId = typeof p.id === 'string' && p.id !== '' ? p.id : undefined;
  // Most products a shop writes have every value in plain form: those skip the checker (as an
  // answer that conforms skips zod); any other goes through it, which names what is wrong.
  const written = (quick ? plainProduct(p) : undefined) ?? checkValues(c, p, mode);
  if (ids !== undefined) checkIds(c, written, ids);
  if (stats !== undefined) stats.valueLines = c.valueLines;
  return c.errors > 0 ? undefined : written;
}

/** What the writer learns while a product is checked. */
export interface WriteStats {
  /** Line ends inside the values. */
  valueLines: number;
  /** The values that hold `<`, `&`, `]` or a line end (the only ones that may need CDATA); emptied by the caller. */
  special: string[];
}

/** The texts the XML writer may check late (see `checkHeldProduct`), each checked one way wherever it is. */
const TEXTS = {
  id: (c: Checker, value: unknown) => c.text(value, 'id', MAX_LENGTH.id, true) ?? '',
  name: (c: Checker, value: unknown) => c.text(value, 'name', MAX_LENGTH.name, true) ?? '',
  link: (c: Checker, value: unknown) => c.url(value, 'link', MAX_LENGTH.link, true) ?? '',
  image: (c: Checker, value: unknown) => c.url(value, 'image', MAX_LENGTH.image, false, true) ?? '',
  mpn: (c: Checker, value: unknown) => c.text(value, 'mpn', MAX_LENGTH.mpn, true) ?? '',
};

/** Every value of `p` checked and written (as far as it can be: `c` counts the errors). */
function checkValues(c: Checker, p: Record<string, unknown>, mode: RuleMode): WrittenProduct {
  const csv = mode === 'csv' || mode === 'read-csv';
  const written: WrittenProduct = {
    id: TEXTS.id(c, p.id),
    name: TEXTS.name(c, p.name),
    link: TEXTS.link(c, p.link),
    image: TEXTS.image(c, p.image),
    additional_images: c.images(p.additional_images),
    category: c.category(p.category) ?? '',
    price: c.decimal(p.price, 'price', true) ?? '',
    vat: c.vat(p.vat, !csv),
    availability: c.availability(p.availability, 'availability', PRODUCT_AVAILABILITY, MAX_LENGTH.availability) ?? '',
    manufacturer: c.text(p.manufacturer, 'manufacturer', MAX_LENGTH.manufacturer, true) ?? '',
    mpn: TEXTS.mpn(c, p.mpn),
    ean: c.ean(p.ean, 'ean', !csv),
    description: c.text(p.description, 'description', csv ? MAX_LENGTH.csvDescription : MAX_LENGTH.description, !csv),
    quantity: c.integer(p.quantity, 'quantity', !csv),
    size: c.text(p.size, 'size', MAX_LENGTH.size, false),
    weight: c.weight(p.weight),
    shipping: c.decimal(p.shipping, 'shipping', false),
    color: c.text(p.color, 'color', MAX_LENGTH.color, false),
    wholesale_price: c.decimal(p.wholesale_price, 'wholesale_price', false),
    season: c.text(p.season, 'season', MAX_LENGTH.season, false),
    size_fit: c.text(p.size_fit, 'size_fit', MAX_LENGTH.size_fit, false),
    outlet: c.outlet(p.outlet, 'outlet'),
    author: c.text(p.author, 'author', MAX_LENGTH.author, false),
    expiration_date: c.text(p.expiration_date, 'expiration_date', MAX_LENGTH.expiration_date, false),
    country_of_origin: c.text(p.country_of_origin, 'country_of_origin', MAX_LENGTH.country_of_origin, false),
    variations: c.variations(p.variations),
  };
  if (written.additional_images.length >= MAX_IMAGE_LINKS) {
    const distinct = new Set([written.image, ...written.additional_images].filter((link) => link !== ''));
    if (distinct.size > MAX_IMAGE_LINKS) {
      c.error('additional_images', 'image_count', `${distinct.size} image links; at most ${MAX_IMAGE_LINKS} in all`);
    }
  }
  if (mode === 'csv' && written.variations.length > 0) c.error('variations', 'type', 'a CSV feed has no size variations');
  if (written.variations.length > 0 && written.size === undefined) {
    c.error('size', 'required', 'a product with size variations lists its sizes in size');
  }
  return written;
}

/**
 * Repeated ids. Looked up whatever else is wrong, so every problem of a product is reported at
 * once; only a product that is written (or read as valid) holds its ids.
 */
function checkIds(c: Checker, written: WrittenProduct, ids: IdSet): void {
  const keep = c.errors === 0;
  if (written.id !== '' && !ids.add(written.id, 0, keep)) {
    c.error('id', 'duplicate_id', `the Unique ID ${written.id} is used by an earlier product`);
  }
  for (let i = 0; i < written.variations.length; i++) {
    const id = written.variations[i]!.variation_id;
    if (id !== '' && !ids.add(id, 1, keep && c.errors === 0)) {
      c.error(`variations[${i}].variation_id`, 'duplicate_id', `the variation id ${id} is used earlier`);
    }
  }
}

/**
 * Adds the ids of a product the writer takes before its texts are checked (see `plainProduct`'s
 * `deferTexts`); false, with nothing kept, when one of them is there already (the writer then
 * checks the products it holds first: the earlier one may yet be refused).
 */
export function addIds(written: WrittenProduct, ids: IdSet): boolean {
  if (!ids.add(written.id)) return false;
  for (let i = 0; i < written.variations.length; i++) {
    if (!ids.add(written.variations[i]!.variation_id, 1)) {
      for (let j = 0; j < i; j++) ids.remove(written.variations[j]!.variation_id, 1);
      ids.remove(written.id);
      return false;
    }
  }
  return true;
}

/** Takes the ids `addIds` added out again. */
export function removeIds(written: WrittenProduct, ids: IdSet): void {
  ids.remove(written.id);
  for (const variation of written.variations) ids.remove(variation.variation_id, 1);
}

/**
 * A product `plainProduct` took with its texts unchecked, checked now as `checkProduct` would have
 * checked the product: its other values are in the form the checker gives them, with no issue,
 * so only the deferred texts (in the checker's order) can change it.
 */
export function checkHeldProduct(held: WrittenProduct, issues: IssueLists, line: number, ids: IdSet, stats: WriteStats): WrittenProduct | undefined {
  const c = checker.reset('write', issues, line, stats.special);
  c.productId = held.id !== '' ? held.id : undefined;
  // In checkValues's order (the product's other values have no issue to interleave).
  const id = TEXTS.id(c, held.id);
  const name = TEXTS.name(c, held.name);
  const link = TEXTS.link(c, held.link);
  const image = TEXTS.image(c, held.image);
  const mpn = TEXTS.mpn(c, held.mpn);
  const written = { ...held, id, name, link, image, mpn };
  checkIds(c, written, ids);
  stats.valueLines = c.valueLines;
  return c.errors > 0 ? undefined : written;
}

/** Collects the issues of one product and checks its values one by one. */
class Checker {
  errors = 0;
  /** Line ends inside the values checked. */
  valueLines = 0;
  productId: string | undefined;
  /** Whether the last value `text` checked matched its `plain` pattern. */
  private plain = false;
  private reading = false;
  private csv = false;
  private issues: IssueLists = { errors: [], warnings: [] };
  private line = 0;
  private special: string[] = [];

  reset(mode: RuleMode, issues: IssueLists, line: number, special: string[]): this {
    this.errors = 0;
    this.valueLines = 0;
    this.productId = undefined;
    this.reading = mode === 'read' || mode === 'read-csv';
    this.csv = mode === 'csv' || mode === 'read-csv';
    this.issues = issues;
    this.line = line;
    this.special = special;
    return this;
  }

  error(attribute: string | undefined, rule: FeedIssue['rule'], message: string): void {
    this.errors++;
    this.push(attribute, rule, message, 'error');
  }

  warn(attribute: string | undefined, rule: FeedIssue['rule'], message: string): void {
    this.push(attribute, rule, message, 'warning');
  }

  private push(attribute: string | undefined, rule: FeedIssue['rule'], message: string, severity: 'error' | 'warning'): void {
    const issue: FeedIssue = { line: this.line, rule, message };
    if (this.productId !== undefined) issue.productId = this.productId;
    if (attribute !== undefined) issue.attribute = attribute;
    (severity === 'error' ? this.issues.errors : this.issues.warnings).push(issue);
  }

  text(value: unknown, attribute: string, max: number, required: boolean, plain?: RegExp): string | undefined {
    if (typeof value !== 'string' || value === '') {
      if (value === undefined || value === null || value === '') {
        if (required) this.error(attribute, 'required', `${attribute} is required`);
      } else this.error(attribute, 'type', `${attribute} must be a string`);
      return undefined;
    }
    // Surrounding white space is no part of a value, and XML reads every line end as \n:
    // written so, a value reads back as it was written.
    let text = startsOrEndsBlank(value) ? value.trim() : value;
    if (text === '') {
      if (required) this.error(attribute, 'required', `${attribute} is blank`);
      return undefined;
    }
    if (text.length > max && codePoints(text) > max) {
      this.error(attribute, 'max_length', `${attribute} has ${codePoints(text)} characters; at most ${max}`);
    }
    const isPlain = plain === undefined ? !NOT_PLAIN_TEXT.test(text) : plain.test(text);
    this.plain = isPlain && plain !== undefined;
    if (!isPlain && SUSPECT.test(text)) {
      if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
      this.special.push(text);
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.valueLines++;
      if (BAD_CHARACTER.test(text)) {
        this.error(attribute, 'invalid_character', `${attribute} holds a control character or a lone surrogate, which XML cannot carry`);
      }
      if (HTML.test(text)) this.error(attribute, 'no_html', `${attribute} holds HTML markup or an HTML character reference`);
    }
    return text;
  }

  url(value: unknown, attribute: string, max: number, required: boolean, image = false): string | undefined {
    if (image && value === '') return '';
    if (image && value === undefined && !this.reading) {
      this.error(attribute, 'required', `${attribute} is required ('' while the product has no image)`);
      return undefined;
    }
    const text = this.text(value, attribute, max, required, this.csv ? undefined : PLAIN_HTTPS);
    if (text === undefined) return undefined;
    if (!this.plain && !(this.csv ? HTTP_OR_HTTPS : HTTPS).test(text)) {
      this.error(attribute, 'https', `${attribute} must be an ${this.csv ? 'http or https' : 'https'} URL without spaces`);
    } else if (image && AVIF.test(text)) {
      this.error(attribute, 'image_format', `${attribute} is an AVIF image, which the service does not take`);
    }
    return text;
  }

  images(value: unknown): string[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.error('additional_images', 'type', 'additional_images must be an array of URLs');
      return [];
    }
    const out: string[] = [];
    value.forEach((link, i) => {
      const checked = this.url(link, `additional_images[${i}]`, MAX_LENGTH.image, true, true);
      if (checked) out.push(checked);
    });
    return out;
  }

  category(value: unknown): string | undefined {
    const text = this.text(value, 'category', MAX_LENGTH.category, true);
    if (text !== undefined && !isCategoryPath(text)) {
      this.warn('category', 'category_path', 'a one-level category: give the full path, e.g. Computers > External Hard Drives');
    }
    return text;
  }

  decimal(value: unknown, attribute: string, required: boolean): string | undefined {
    if (value === undefined || value === null || value === '') {
      if (required) this.error(attribute, 'required', `${attribute} is required`);
      return undefined;
    }
    const formatted = formatDecimal(value);
    if (typeof formatted === 'string') return formatted;
    const rule = formatted.reason === 'negative' || formatted.reason === 'too large' ? 'range' : 'decimal';
    this.error(attribute, rule, `${attribute} ${JSON.stringify(value)}: ${formatted.reason} (euros like 23.90)`);
    return undefined;
  }

  vat(value: unknown, required: boolean): string | undefined {
    const rate = this.decimal(value, 'vat', required);
    if (rate === undefined) return undefined;
    if (!isVatRate(value, rate)) {
      this.error('vat', 'range', `vat ${rate}: the rate is 0, or from 1 to 100`);
      return undefined;
    }
    return rate;
  }

  integer(value: unknown, attribute: string, required: boolean): string | undefined {
    if (value === undefined || value === null || value === '') {
      if (required) this.error(attribute, 'required', `${attribute} is required`);
      return undefined;
    }
    let n: number;
    if (typeof value === 'number' && Number.isInteger(value)) n = value;
    else if (typeof value === 'string' && INTEGER.test(value)) n = Number(value);
    else {
      this.error(attribute, 'integer', `${attribute} ${JSON.stringify(value)}: a whole number of units`);
      return undefined;
    }
    if (n < 0 || n > MAX_QUANTITY) {
      this.error(attribute, 'range', `${attribute} ${n}: from 0 to ${MAX_QUANTITY}`);
      return undefined;
    }
    return String(n);
  }

  weight(value: unknown): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    const weight = formatWeight(value);
    if (weight === undefined) this.error('weight', 'weight', `weight ${JSON.stringify(value)}: grams (3200) or kilograms ending in kg ('3.2 kg')`);
    return weight;
  }

  ean(value: unknown, attribute: string, required: boolean): string | undefined {
    if (value === undefined || value === null || value === '') {
      if (required) this.error(attribute, 'required', `${attribute} is required`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.error(attribute, 'type', `${attribute} must be a digit string (a number loses leading zeros)`);
      return undefined;
    }
    if (!isValidGtin(value)) {
      this.error(attribute, 'ean', `${attribute} ${JSON.stringify(value)}: 8, 12 or 13 digits ending in a valid check digit`);
      return undefined;
    }
    return value;
  }

  availability(value: unknown, attribute: string, allowed: readonly string[], max: number): string | undefined {
    // One of the fixed values (plain text, nothing to trim): no scan needed.
    if (typeof value === 'string' && allowed.includes(value)) return value;
    const text = this.text(value, attribute, max, true);
    if (text === undefined || allowed.includes(text)) return text;
    const replacement = RETIRED_AVAILABILITY[text.toLowerCase()];
    const replacementIsAllowed = replacement !== undefined && allowed.includes(replacement);
    const known = replacementIsAllowed ? ` (a retired wording: now ${replacement})` : '';
    const message = `availability ${JSON.stringify(text)} is not one of ${allowed.join(', ')}${known}`;
    if (this.reading) this.warn(attribute, 'value_set', `${message}; the service maps it onto one of them`);
    else this.error(attribute, 'value_set', message);
    return text;
  }

  outlet(value: unknown, attribute: string): 'Y' | 'N' | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    if (value === true || value === false) return value ? 'Y' : 'N';
    if (this.reading && typeof value === 'string') {
      const lower = value.toLowerCase();
      if (lower === 'y' || lower === 'yes') return 'Y';
      if (lower === 'n' || lower === 'no') return 'N';
    }
    this.error(attribute, 'value_set', `${attribute} ${JSON.stringify(value)}: ${this.reading ? 'Y, N, Yes or No' : 'true or false'}`);
    return undefined;
  }

  variations(value: unknown): WrittenVariation[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.error('variations', 'type', 'variations must be an array');
      return [];
    }
    const out: WrittenVariation[] = [];
    value.forEach((item, i) => {
      const at = `variations[${i}]`;
      if (typeof item !== 'object' || item === null) {
        this.error(at, 'type', `${at} must be an object`);
        return;
      }
      const v = item as Record<string, unknown>;
      out.push({
        variation_id: this.text(v.variation_id, `${at}.variation_id`, MAX_LENGTH.variationId, true) ?? '',
        availability: this.availability(v.availability, `${at}.availability`, VARIATION_AVAILABILITY, MAX_LENGTH.variationAvailability) ?? '',
        size: this.text(v.size, `${at}.size`, MAX_LENGTH.variationSize, true) ?? '',
        quantity: this.integer(v.quantity, `${at}.quantity`, true) ?? '',
        price: this.decimal(v.price, `${at}.price`, false),
        link: v.link === undefined ? undefined : this.url(v.link, `${at}.link`, MAX_LENGTH.variationLink, false),
        mpn: this.text(v.mpn, `${at}.mpn`, MAX_LENGTH.variationMpn, false),
        ean: this.ean(v.ean, `${at}.ean`, false),
        outlet: this.outlet(v.outlet, `${at}.outlet`),
      });
    });
    return out;
  }
}

const checker = new Checker();

function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) count--;
  }
  return count;
}
