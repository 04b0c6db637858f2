/**
 * The feed's rules, one validator for the writers and the checker: required attributes,
 * lengths, number formats, ranges, value sets, EAN check digits, https links, no HTML,
 * repeated ids. It turns a product into its written form (every value a string) or reports why
 * it cannot be written. The writers are strict; reading is lenient where the service maps a
 * shop's own wording (availability, `Yes`/`No`).
 */
import type { IdSet } from './id-set.js';
import { type FeedIssue, PRODUCT_AVAILABILITY, VARIATION_AVAILABILITY } from './types.js';

/** `write`: a product the SDK writes as XML; `csv`: one written as CSV; `read`, `read-csv`: a product read from a feed. */
export type RuleMode = 'write' | 'csv' | 'read' | 'read-csv';

export interface WrittenVariation {
  variation_id: string;
  availability: string;
  size: string;
  quantity: string;
  price?: string | undefined;
  link?: string | undefined;
  mpn?: string | undefined;
  ean?: string | undefined;
  outlet?: 'Y' | 'N' | undefined;
}

/** A product as written: every value a string in the feed's format. */
export interface WrittenProduct {
  id: string;
  name: string;
  link: string;
  image: string;
  additional_images: string[];
  category: string;
  price: string;
  vat?: string | undefined;
  availability: string;
  manufacturer: string;
  mpn: string;
  ean?: string | undefined;
  description?: string | undefined;
  quantity?: string | undefined;
  size?: string | undefined;
  weight?: string | undefined;
  shipping?: string | undefined;
  color?: string | undefined;
  wholesale_price?: string | undefined;
  season?: string | undefined;
  size_fit?: string | undefined;
  outlet?: 'Y' | 'N' | undefined;
  author?: string | undefined;
  expiration_date?: string | undefined;
  country_of_origin?: string | undefined;
  variations: WrittenVariation[];
}

const MAX_IMAGE_LINKS = 15;
const MAX_QUANTITY = 10_000_000;
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
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const SUSPECT = /[\0-\x08\x0a-\x1f<&\]\ud800-\udfff\ufffe\uffff]/;
const BAD_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HTML = /<\/?[a-z][^>]*>|<!--|&(?:[a-z][a-z0-9]{1,31}|#\d{1,7}|#x[0-9a-f]{1,6});/i;
const HTTPS = /^https:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i;
/**
 * An https URL of printable ASCII without `<`, `&` or `]`: one scan does for both checks. Any
 * other URL (with non-ASCII, say) takes the slower way, HTTPS and SUSPECT.
 */
const PLAIN_HTTPS =
  /^https:\/\/[\x21\x22\x24\x25\x27-\x2e\x30-\x3b\x3d\x3e\x41-\x5c\x5e-\x7e]+(?:[/?#][\x21-\x25\x27-\x3b\x3d-\x5c\x5e-\x7e]*)?$/i;
const HTTP_OR_HTTPS = /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i;
const AVIF = /\.avif(?:[?#]|$)/i;
const DECIMAL = /^(\d{1,15})(?:\.(\d{1,2}))?$/;
const CANONICAL_DECIMAL = /^(?:0|[1-9]\d{0,14})\.\d\d$/;
const LOOSE_DECIMAL = /^-?[\d.,\s]+$/;
const INTEGER = /^\d{1,8}$/;
const WEIGHT = /^(\d{1,9}(?:\.\d{1,3})?)(\s?kg)?$/i;

/** Where one product's issues go. */
export interface IssueLists {
  errors: FeedIssue[];
  warnings: FeedIssue[];
}

/** Validates one product, pushing what is wrong onto `issues`; the written form, or undefined when it has an error. */
export function checkProduct(
  product: unknown,
  mode: RuleMode,
  issues: IssueLists,
  line: number,
  ids?: IdSet,
  stats?: WriteStats,
): WrittenProduct | undefined {
  // One checker, reset per product (a million products, a million fewer objects to collect).
  const c = checker.reset(mode, issues, line, stats?.special ?? []);
  const written = checkValues(c, product, mode, ids);
  if (stats !== undefined) stats.valueLines = c.valueLines;
  return written;
}

/** What the writer learns while a product is checked. */
export interface WriteStats {
  /** Line ends inside the values. */
  valueLines: number;
  /** The values that hold `<`, `&`, `]` or a line end (the only ones that may need CDATA); emptied by the caller. */
  special: string[];
}

function checkValues(c: Checker, product: unknown, mode: RuleMode, ids: IdSet | undefined): WrittenProduct | undefined {
  if (typeof product !== 'object' || product === null) {
    c.error(undefined, 'type', 'a product must be an object');
    return undefined;
  }
  const p = product as Record<string, unknown>;
  c.productId = typeof p.id === 'string' && p.id !== '' ? p.id : undefined;
  const csv = mode === 'csv' || mode === 'read-csv';
  const written: WrittenProduct = {
    id: c.text(p.id, 'id', 200, true) ?? '',
    name: c.text(p.name, 'name', 300, true) ?? '',
    link: c.url(p.link, 'link', 1000, true) ?? '',
    image: c.url(p.image, 'image', 400, false, true) ?? '',
    additional_images: c.images(p.additional_images),
    category: c.category(p.category) ?? '',
    price: c.decimal(p.price, 'price', true) ?? '',
    vat: c.vat(p.vat, !csv),
    availability: c.availability(p.availability, 'availability', PRODUCT_AVAILABILITY, 60) ?? '',
    manufacturer: c.text(p.manufacturer, 'manufacturer', 100, true) ?? '',
    mpn: c.text(p.mpn, 'mpn', 80, true) ?? '',
    ean: c.ean(p.ean, 'ean', !csv),
    description: c.text(p.description, 'description', csv ? 1000 : 10_000, !csv),
    quantity: c.integer(p.quantity, 'quantity', !csv),
    size: c.text(p.size, 'size', 500, false),
    weight: c.weight(p.weight),
    shipping: c.decimal(p.shipping, 'shipping', false),
    color: c.text(p.color, 'color', 100, false),
    wholesale_price: c.decimal(p.wholesale_price, 'wholesale_price', false),
    season: c.text(p.season, 'season', 100, false),
    size_fit: c.text(p.size_fit, 'size_fit', 100, false),
    outlet: c.outlet(p.outlet, 'outlet'),
    author: c.text(p.author, 'author', 255, false),
    expiration_date: c.text(p.expiration_date, 'expiration_date', 255, false),
    country_of_origin: c.text(p.country_of_origin, 'country_of_origin', 255, false),
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
  if (ids !== undefined) {
    // Looked up whatever else is wrong, so every problem of a product is reported at once; only a
    // product that is written (or read as valid) holds its ids.
    const keep = c.errors === 0;
    if (written.id !== '' && !ids.add(written.id, 0, keep)) {
      c.error('id', 'duplicate_id', `the Unique ID ${written.id} is used by an earlier product`);
    }
    written.variations.forEach((variation, i) => {
      if (variation.variation_id !== '' && !ids.add(variation.variation_id, 1, keep && c.errors === 0)) {
        c.error(`variations[${i}].variation_id`, 'duplicate_id', `the variation id ${variation.variation_id} is used earlier`);
      }
    });
  }
  return c.errors > 0 ? undefined : written;
}

/** True when `digits` (8, 12 or 13 of them) end in their GS1 check digit. */
export function isValidGtin(digits: string): boolean {
  const length = digits.length;
  if (length !== 8 && length !== 12 && length !== 13) return false;
  let sum = 0;
  for (let i = length - 1, weight = 1; i >= 0; i--, weight = 4 - weight) {
    const digit = digits.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    sum += digit * weight;
  }
  // With the check digit weighted 1, a valid code sums to a multiple of 10.
  return sum % 10 === 0;
}

/** A euro amount in the feed's format (`23.90`), or a reason it has none. */
export function formatDecimal(value: unknown): string | { reason: string } {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { reason: 'not a finite number' };
    if (value < 0) return { reason: 'negative' };
    const cents = Math.round(value * 100);
    // 0.1 + 0.2 is 0.30000000000000004: float noise, not a third decimal place.
    if (Math.abs(value * 100 - cents) > 1e-9 * Math.max(1, cents)) return { reason: 'more than 2 decimal places' };
    if (!Number.isSafeInteger(cents)) return { reason: 'too large' };
    const euros = Math.floor(cents / 100);
    const rest = cents - euros * 100;
    return `${euros}.${rest < 10 ? '0' : ''}${rest}`;
  }
  if (typeof value !== 'string') return { reason: 'not a number or decimal string' };
  // Already in the feed's format (as every feed the SDK wrote has it): nothing to rebuild.
  if (CANONICAL_DECIMAL.test(value)) return value;
  const match = DECIMAL.exec(value);
  if (match === null) {
    if (/^\d+\.\d{3,}$/.test(value)) return { reason: 'more than 2 decimal places' };
    if (value.startsWith('-')) return { reason: 'negative' };
    if (LOOSE_DECIMAL.test(value)) return { reason: 'digits with one dot for decimals, no thousands separators or commas' };
    return { reason: 'not a decimal number' };
  }
  const fraction = match[2] ?? '';
  return `${match[1]!.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0')}`;
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
      const checked = this.url(link, `additional_images[${i}]`, 400, true, true);
      if (checked) out.push(checked);
    });
    return out;
  }

  category(value: unknown): string | undefined {
    const text = this.text(value, 'category', 250, true);
    // A path is split by `>`, `/` or ` - ` (three vectorised searches, cheaper than one regex).
    if (text !== undefined && !text.includes('>') && !text.includes('/') && !text.includes(' - ')) {
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
    // A number was found to have at most 2 decimal places: rounded, it is the rate written.
    const n = typeof value === 'number' ? Math.round(value * 100) / 100 : Number(rate);
    if (n !== 0 && (n < 1 || n > 100)) {
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
    const text = typeof value === 'number' && value >= 0 && Number.isFinite(value) ? String(value) : value;
    const match = typeof text === 'string' ? WEIGHT.exec(text) : null;
    if (match === null) {
      this.error('weight', 'weight', `weight ${JSON.stringify(value)}: grams (3200) or kilograms ending in kg ('3.2 kg')`);
      return undefined;
    }
    return match[2] === undefined ? match[1] : `${match[1]} kg`;
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
        variation_id: this.text(v.variation_id, `${at}.variation_id`, 200, true) ?? '',
        availability: this.availability(v.availability, `${at}.availability`, VARIATION_AVAILABILITY, 100) ?? '',
        size: this.text(v.size, `${at}.size`, 64, true) ?? '',
        quantity: this.integer(v.quantity, `${at}.quantity`, true) ?? '',
        price: this.decimal(v.price, `${at}.price`, false),
        link: v.link === undefined ? undefined : this.url(v.link, `${at}.link`, 2000, false),
        mpn: this.text(v.mpn, `${at}.mpn`, 80, false),
        ean: this.ean(v.ean, `${at}.ean`, false),
        outlet: this.outlet(v.outlet, `${at}.outlet`),
      });
    });
    return out;
  }
}

const checker = new Checker();

/** False when both ends are printable ASCII (no white space of any kind): then there is nothing to trim. */
function startsOrEndsBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return !(first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f);
}

function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) count--;
  }
  return count;
}
