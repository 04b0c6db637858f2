/**
 * The product feed's shapes: what a merchant writes (`FeedProduct`) and what a check reports
 * (`FeedReport`). Field names follow the service's documented attribute names; the writer maps
 * them onto the feed's element names (`price` is written as `price_with_vat`).
 */

/** The product availabilities the service documents; any other wording is mapped by the service (a warning when read). */
export const PRODUCT_AVAILABILITY = Object.freeze([
  'In Stock',
  'Available from 1 to 3 days',
  'Available from 4 to 6 days',
  'Available up to 12 days',
] as const);
export type ProductAvailability = (typeof PRODUCT_AVAILABILITY)[number];

/** The size variations' availabilities (the service kept the older, longer delivery times for them). */
export const VARIATION_AVAILABILITY = Object.freeze([
  'In Stock',
  'Available from 1 to 3 days',
  'Available from 4 to 10 days',
  'Available up to 30 days',
] as const);
export type VariationAvailability = (typeof VARIATION_AVAILABILITY)[number];

/** A euro amount: a number (`23.9`) or a decimal string with a dot (`'23.90'`); at most 2 decimal places. */
export type FeedDecimal = number | string;

/** One size of a product (the feed's `<variation>`). */
export interface FeedVariation {
  /** Stable, never reused; up to 200 characters (`12431.XL`). */
  variation_id: string;
  availability: VariationAvailability;
  /** One size (`38`, `38 1/2`, `XL`, `5.5-6.5`), up to 64 characters. */
  size: string;
  /** Units purchasable, 0 to 10,000,000. */
  quantity: number;
  /** Euros, VAT included. */
  price?: FeedDecimal | undefined;
  /** The product page (`https`), up to 2000 characters. */
  link?: string | undefined;
  /** The manufacturer's part number of this size, up to 80 characters. */
  mpn?: string | undefined;
  /** EAN-8, UPC-A or EAN-13 as a digit string. */
  ean?: string | undefined;
  /** Overrides the product's outlet mark. */
  outlet?: boolean | undefined;
}

/** One product of the feed, as the service's documentation names its attributes. */
export interface FeedProduct {
  /** The Unique ID: the product's id in the shop's database, stable and never reused; up to 200 characters. */
  id: string;
  /** The full title (manufacturer, model, colour...), up to 300 characters. */
  name: string;
  /** The product's own page, an `https` URL as itself (not URL-encoded), up to 1000 characters. */
  link: string;
  /** The image file's `https` URL, up to 400 characters; `''` while the product has no image yet. */
  image: string;
  /** More image URLs (at most 15 distinct image links in all, counting `image`). */
  additional_images?: readonly string[] | undefined;
  /** The full category path, e.g. `Computers > External Hard Drives`; up to 250 characters. */
  category: string;
  /** Euros, VAT included, valid for every buyer; written as `price_with_vat`. */
  price: FeedDecimal;
  /** The VAT rate in percent: 0, or 1 to 100. */
  vat: FeedDecimal;
  availability: ProductAvailability;
  /** The real maker, up to 100 characters. */
  manufacturer: string;
  /** The manufacturer's part number (books: the ISBN), up to 80 characters. */
  mpn: string;
  /** EAN-8, UPC-A or EAN-13 as a digit string (a number would lose leading zeros). */
  ean: string;
  /** Plain text, up to 10,000 characters. */
  description: string;
  /** Units purchasable through the marketplace, 0 to 10,000,000. */
  quantity: number;
  /** Every available size, comma-separated (`5.5,6,6.5`), up to 500 characters. */
  size?: string | undefined;
  /** Grams as a number (`3200`), or kilograms as a string ending in `kg` (`'3.2 kg'`). */
  weight?: number | string | undefined;
  /** Euros, the same for every destination; 0 is free shipping. */
  shipping?: FeedDecimal | undefined;
  /** The one colour shown in the image, up to 100 characters. */
  color?: string | undefined;
  /** Euros, VAT excluded, the shop's purchase price. */
  wholesale_price?: FeedDecimal | undefined;
  season?: string | undefined;
  size_fit?: string | undefined;
  /** Marks an outlet item (written `Y` or `N`). */
  outlet?: boolean | undefined;
  author?: string | undefined;
  /** Recommended `YYYY-MM-DD`. */
  expiration_date?: string | undefined;
  country_of_origin?: string | undefined;
  /** One entry per size; the product itself stays complete. */
  variations?: readonly FeedVariation[] | undefined;
}

/** Which rule an issue is about. */
export type FeedRule =
  | 'required'
  | 'type'
  | 'max_length'
  | 'decimal'
  | 'integer'
  | 'range'
  | 'value_set'
  | 'ean'
  | 'https'
  | 'no_html'
  | 'invalid_character'
  | 'image_count'
  | 'image_format'
  | 'weight'
  | 'duplicate_id'
  | 'category_path'
  | 'created_at'
  | 'spelling'
  | 'deprecated'
  | 'unknown_element'
  | 'xml'
  | 'encoding'
  | 'doctype'
  | 'too_large'
  | 'timeout'
  | 'compression'
  | 'unreachable'
  | 'csv'
  | 'no_products';

/** One problem found in a feed. */
export interface FeedIssue {
  /** The line in the feed (1-based); for the writer, the output line where the left-out product would have started. */
  line: number;
  /** The product's Unique ID, when the issue belongs to a product. */
  productId?: string | undefined;
  /** The attribute (`price`, `variations[1].size`), when the issue belongs to one. */
  attribute?: string | undefined;
  rule: FeedRule;
  message: string;
}

/** What a write or a check found. Lists keep the first `maxIssues` issues; the counts count them all. */
export interface FeedReport {
  /** Products written, or read. */
  products: number;
  errors: FeedIssue[];
  warnings: FeedIssue[];
  errorCount: number;
  warningCount: number;
}
