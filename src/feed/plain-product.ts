/**
 * The quick yes of the writer's checks: a product whose every value is in its plain form (text
 * with nothing to trim and no character that needs a closer look, https links, numbers as
 * numbers) is written without the checker. It only ever says yes to what the checker takes
 * unchanged, with no issue; for anything else it says undefined, and the checker (rules.ts),
 * which names what is wrong, decides. Repeated ids are looked up after either.
 */
import { PRODUCT_AVAILABILITY, VARIATION_AVAILABILITY } from './types.js';
import {
  AVIF,
  formatDecimal,
  formatWeight,
  isCategoryPath,
  isCleanText,
  isValidGtin,
  isVatRate,
  MAX_IMAGE_LINKS,
  MAX_LENGTH,
  MAX_QUANTITY,
  HTTPS,
  PLAIN_HTTPS,
  type WrittenProduct,
  type WrittenVariation,
} from './values.js';

/** Why the quick path gave up on an attribute (a value, not an exception: most attributes pass). */
const DOUBT = Symbol('doubt');
type Doubt = typeof DOUBT;

/** An attribute products in a row often share (a category, a maker, a size list), and the last value of it found plain. */
interface Shared {
  readonly max: number;
  /** A category is a path too (a one-level one is warned about: the checker's part). */
  readonly path: boolean;
  last: unknown;
}
const shared = (max: number, path = false): Shared => ({ max, path, last: DOUBT });
/**
 * A value equal to the last one found plain is not scanned again: comparing costs a fraction of
 * a scan, and fails at once for most other values.
 */
const SHARED = {
  category: shared(MAX_LENGTH.category, true),
  manufacturer: shared(MAX_LENGTH.manufacturer),
  description: shared(MAX_LENGTH.description),
  size: shared(MAX_LENGTH.size),
  color: shared(MAX_LENGTH.color),
  season: shared(MAX_LENGTH.season),
  size_fit: shared(MAX_LENGTH.size_fit),
  author: shared(MAX_LENGTH.author),
  expiration_date: shared(MAX_LENGTH.expiration_date),
  country_of_origin: shared(MAX_LENGTH.country_of_origin),
};

/** The last VAT rate found valid and its text: a feed's products mostly share one rate. */
const lastVat = { value: DOUBT as unknown, text: '' };

/** The last availability found among the product availabilities: products mostly share one. */
let lastAvailability: unknown = DOUBT;

function isAvailability(value: unknown): value is string {
  if (value === lastAvailability) return true;
  if (typeof value !== 'string' || !PRODUCT_AVAILABILITY.includes(value as never)) return false;
  lastAvailability = value;
  return true;
}

/**
 * `p` as written, when every value is plain (the writer's mode, XML); else undefined.
 *
 * With `deferTexts`, the texts that change with every product (id, name, link, image, mpn) are
 * only looked at for their type and length: the writer checks them later, many at once, in the
 * encoded chunk (value-scan.ts), and has `checkHeldProduct` check a product in doubt in full.
 */
export function plainProduct(p: Record<string, unknown>, deferTexts = false): WrittenProduct | undefined {
  const { id, name, link, image, category, price, vat, availability, manufacturer, mpn, ean, description, quantity, size } = p;
  // The free texts first: they are the values most likely to hold `&` or markup, which the checker takes on.
  if (!isShared(description, SHARED.description) || !isShared(category, SHARED.category) || !isShared(manufacturer, SHARED.manufacturer)) return undefined;
  if (deferTexts) {
    if (!isShortText(name, MAX_LENGTH.name) || !isShortText(id, MAX_LENGTH.id) || !isShortText(mpn, MAX_LENGTH.mpn)) return undefined;
    if (!isShortLink(link, MAX_LENGTH.link) || (image !== '' && !isShortLink(image, MAX_LENGTH.image))) return undefined;
  } else {
    if (!isCleanText(name, MAX_LENGTH.name) || !isCleanText(id, MAX_LENGTH.id) || !isCleanText(mpn, MAX_LENGTH.mpn)) return undefined;
    if (!isPlainLink(link, MAX_LENGTH.link) || (image !== '' && !isPlainImage(image))) return undefined;
  }
  const priceText = formatDecimal(price);
  const vatText = vat === lastVat.value ? lastVat.text : plainVat(vat);
  if (typeof priceText !== 'string' || vatText === DOUBT) return undefined;
  if (!isAvailability(availability)) return undefined;
  if (typeof ean !== 'string' || !isValidGtin(ean)) return undefined;
  const quantityText = plainQuantity(quantity);
  if (quantityText === DOUBT || !isOptionalShared(size, SHARED.size)) return undefined;
  const images = plainImages(p.additional_images);
  const variations = plainVariations(p.variations);
  if (images === DOUBT || variations === DOUBT || (variations.length > 0 && size === undefined)) return undefined;
  const weight = p.weight === undefined ? undefined : formatWeight(p.weight);
  const shipping = optionalDecimal(p.shipping);
  const wholesale = optionalDecimal(p.wholesale_price);
  const outlet = plainOutlet(p.outlet);
  if (weight === undefined && p.weight !== undefined) return undefined;
  if (shipping === DOUBT || wholesale === DOUBT || outlet === DOUBT) return undefined;
  const { color, season, size_fit, author, expiration_date, country_of_origin } = p;
  if (!isOptionalShared(color, SHARED.color) || !isOptionalShared(season, SHARED.season) || !isOptionalShared(size_fit, SHARED.size_fit)) return undefined;
  if (!isOptionalShared(author, SHARED.author) || !isOptionalShared(expiration_date, SHARED.expiration_date)) return undefined;
  if (!isOptionalShared(country_of_origin, SHARED.country_of_origin)) return undefined;
  // The checker's shape, attribute for attribute.
  return {
    id,
    name,
    link,
    image,
    additional_images: images,
    category,
    price: priceText,
    vat: vatText,
    availability,
    manufacturer,
    mpn,
    ean,
    description,
    quantity: quantityText,
    size,
    weight,
    shipping,
    color,
    wholesale_price: wholesale,
    season,
    size_fit,
    outlet,
    author,
    expiration_date,
    country_of_origin,
    variations,
  };
}

/** An https link the checker takes as it is: printable ASCII (one scan), or clean text of the https form. */
function isPlainLink(value: unknown, max: number): value is string {
  // An `h` first: reading a character also flattens a string built by concatenation, which the
  // regex engine then scans directly (given a concatenation, it goes through a slower way).
  if (typeof value !== 'string' || value.length > max || (value.charCodeAt(0) | 0x20) !== 0x68) return false;
  return PLAIN_HTTPS.test(value) || (isCleanText(value, max) && HTTPS.test(value));
}

/** A text the deferred check may take: a string of 1 to `max` characters. */
function isShortText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value !== '' && value.length <= max;
}

/** A link the deferred check may take: a string of at most `max` characters (it reads the rest). */
function isShortLink(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

function isPlainImage(value: unknown): value is string {
  return isPlainLink(value, MAX_LENGTH.image) && !AVIF.test(value);
}

function isOptionalText(value: unknown, max: number): value is string | undefined {
  return value === undefined || isCleanText(value, max);
}

/** A plain value of a shared attribute: the last one found plain, or one found plain now. */
function isShared(value: unknown, attribute: Shared): value is string {
  if (value === attribute.last) return true;
  if (!isCleanText(value, attribute.max) || (attribute.path && !isCategoryPath(value))) return false;
  attribute.last = value;
  return true;
}

function isOptionalShared(value: unknown, attribute: Shared): value is string | undefined {
  return value === undefined || isShared(value, attribute);
}

function plainVat(value: unknown): string | Doubt {
  const text = formatDecimal(value);
  if (typeof text !== 'string' || !isVatRate(value, text)) return DOUBT;
  lastVat.value = value;
  lastVat.text = text;
  return text;
}

function plainQuantity(value: unknown): string | Doubt {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_QUANTITY ? String(value) : DOUBT;
}

function optionalDecimal(value: unknown): string | undefined | Doubt {
  if (value === undefined) return undefined;
  const text = formatDecimal(value);
  return typeof text === 'string' ? text : DOUBT;
}

function plainOutlet(value: unknown): 'Y' | 'N' | undefined | Doubt {
  if (value === undefined) return undefined;
  if (value === true || value === false) return value ? 'Y' : 'N';
  return DOUBT;
}

/** Fewer links than the limit counts (at the limit, the checker counts the distinct ones). */
function plainImages(value: unknown): string[] | Doubt {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length >= MAX_IMAGE_LINKS) return DOUBT;
  for (let i = 0; i < value.length; i++) if (!isPlainImage(value[i])) return DOUBT;
  return value.slice();
}

function plainVariations(value: unknown): WrittenVariation[] | Doubt {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return DOUBT;
  const out: WrittenVariation[] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'object' || item === null) return DOUBT;
    const v = item as Record<string, unknown>;
    const { variation_id, availability, size, link, mpn, ean } = v;
    if (!isCleanText(variation_id, MAX_LENGTH.variationId) || !isCleanText(size, MAX_LENGTH.variationSize)) return DOUBT;
    if (typeof availability !== 'string' || !VARIATION_AVAILABILITY.includes(availability as never)) return DOUBT;
    if (link !== undefined && !isPlainLink(link, MAX_LENGTH.variationLink)) return DOUBT;
    if (!isOptionalText(mpn, MAX_LENGTH.variationMpn) || (ean !== undefined && (typeof ean !== 'string' || !isValidGtin(ean)))) return DOUBT;
    const quantity = plainQuantity(v.quantity);
    const price = optionalDecimal(v.price);
    const outlet = plainOutlet(v.outlet);
    if (quantity === DOUBT || price === DOUBT || outlet === DOUBT) return DOUBT;
    out.push({ variation_id, availability, size, quantity, price, link, mpn, ean, outlet });
  }
  return out;
}
