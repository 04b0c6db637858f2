/**
 * The forms of a feed's values, shared by the checker (rules.ts), which names what is wrong, and
 * its quick path for a product in plain form (plain-product.ts): each limit and pattern once.
 */

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

/** The most characters (code points) each attribute holds. */
export const MAX_LENGTH = {
  id: 200,
  name: 300,
  link: 1000,
  image: 400,
  category: 250,
  availability: 60,
  manufacturer: 100,
  mpn: 80,
  description: 10_000,
  csvDescription: 1000,
  size: 500,
  color: 100,
  season: 100,
  size_fit: 100,
  author: 255,
  expiration_date: 255,
  country_of_origin: 255,
  variationId: 200,
  variationAvailability: 100,
  variationSize: 64,
  variationLink: 2000,
  variationMpn: 80,
} as const;
export const MAX_IMAGE_LINKS = 15;
export const MAX_QUANTITY = 10_000_000;

/**
 * The characters that need a closer look: control characters, line ends (counted, for the
 * writer's line numbers), `<`, `&` and `]` (CDATA, markup), surrogates (a lone one is refused).
 * A text value without any is taken as it is.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
export const SUSPECT = /[\0-\x08\x0a-\x1f<&\]\ud800-\udfff\ufffe\uffff]/;
/**
 * An https URL of printable ASCII without `<`, `&` or `]`: one scan does for both checks. Any
 * other URL (with non-ASCII, say) takes the slower way, HTTPS and SUSPECT.
 */
export const PLAIN_HTTPS =
  /^https:\/\/[\x21\x22\x24\x25\x27-\x2e\x30-\x3b\x3d\x3e\x41-\x5c\x5e-\x7e]+(?:[/?#][\x21-\x25\x27-\x3b\x3d-\x5c\x5e-\x7e]*)?$/i;
export const HTTPS = /^https:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i;
export const AVIF = /\.avif(?:[?#]|$)/i;
const DECIMAL = /^(\d{1,15})(?:\.(\d{1,2}))?$/;
const CANONICAL_DECIMAL = /^(?:0|[1-9]\d{0,14})\.\d\d$/;
const LOOSE_DECIMAL = /^-?[\d.,\s]+$/;
const WEIGHT = /^(\d{1,9}(?:\.\d{1,3})?)(\s?kg)?$/i;

/** False when both ends are printable ASCII (no white space of any kind): then there is nothing to trim. */
export function startsOrEndsBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return !(first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f);
}

/** A text value the checker takes as it is: 1 to `max` characters, nothing to trim, no SUSPECT character. */
export function isCleanText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value !== '' && value.length <= max && (!startsOrEndsBlank(value) || value.trim() === value) && !SUSPECT.test(value);
}

/** A category path, split by `>`, `/` or ` - ` (three vectorised searches, cheaper than one regex). */
export function isCategoryPath(text: string): boolean {
  return text.includes('>') || text.includes('/') || text.includes(' - ');
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

/** `00` to `99`, the cents of an amount as written. */
const CENTS = Array.from({ length: 100 }, (_, n) => (n < 10 ? `0${n}` : `${n}`));

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
    return `${euros}.${CENTS[cents - euros * 100]!}`;
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

/** Whether `rate`, the written form of `value`, is a VAT rate: 0, or 1 to 100. */
export function isVatRate(value: unknown, rate: string): boolean {
  // A number was found to have at most 2 decimal places: rounded, it is the rate written.
  const n = typeof value === 'number' ? Math.round(value * 100) / 100 : Number(rate);
  return !(n !== 0 && (n < 1 || n > 100));
}

/** A weight as written (grams, `3200`, or kilograms, `3.2 kg`), or undefined when `value` is none. */
export function formatWeight(value: unknown): string | undefined {
  const text = typeof value === 'number' && value >= 0 && Number.isFinite(value) ? String(value) : value;
  const match = typeof text === 'string' ? WEIGHT.exec(text) : null;
  if (match === null) return undefined;
  return match[2] === undefined ? match[1] : `${match[1]} kg`;
}
