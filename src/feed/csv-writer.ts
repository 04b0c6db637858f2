/**
 * The CSV feed (the service's fallback for shops that cannot produce XML): RFC 4180 quoting, a
 * header row of the published column names plus the optional columns the XML feed has (the
 * service ignores columns it does not know), additional images in one column separated by commas.
 */
import { countLines, createWriter, type FeedFormat, type FeedWriter, type FeedWriterOptions } from './output.js';
import type { WrittenProduct } from './values.js';

export interface CsvFeedWriterOptions extends FeedWriterOptions {
  /**
   * A text cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a
   * `'` before it, so a spreadsheet that opens the file shows it rather than running it as a
   * formula (CSV injection). Number columns are never changed. Default true; `false` writes every
   * value as it is (the service then reads an id like `-12` unchanged).
   */
  neutraliseFormulas?: boolean | undefined;
}

const COLUMNS = [
  'id',
  'name',
  'link',
  'image',
  'additionalimage',
  'category',
  'price_with_vat',
  'vat',
  'manufacturer',
  'mpn',
  'ean',
  'availability',
  'size',
  'weight',
  'shipping',
  'color',
  'description',
  'quantity',
] as const;

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA = /^[=+\-@\t\r]/;

/** One cell: quoted when it holds a separator, a quote or a line end; `'` before a formula's first character. */
function cell(value: string | undefined, neutralise: boolean): string {
  if (value === undefined) return '';
  const text = neutralise && FORMULA.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvFormat(neutralise: boolean): FeedFormat {
  const t = (value: string | undefined) => cell(value, neutralise);
  // The number columns (price, vat, weight, shipping, quantity) are checked numbers: never a formula.
  const n = (value: string | undefined) => cell(value, false);
  return {
    mode: 'csv',
    head: () => `${COLUMNS.join(',')}\n`,
    product: (p: WrittenProduct) =>
      `${[
        t(p.id),
        t(p.name),
        t(p.link),
        t(p.image),
        t(p.additional_images.join(',')),
        t(p.category),
        n(p.price),
        n(p.vat),
        t(p.manufacturer),
        t(p.mpn),
        t(p.ean),
        t(p.availability),
        t(p.size),
        n(p.weight),
        n(p.shipping),
        t(p.color),
        t(p.description),
        n(p.quantity),
      ].join(',')}\n`,
    // Counted in the row itself: not every checked value has a column (the values' count would overshoot).
    productLines: countLines,
    tail: '',
  };
}

/**
 * A streaming CSV feed writer, with the XML writer's checks (descriptions up to 1000
 * characters, as the CSV page has it). Size variations have no place in CSV and are refused.
 */
export function createCsvFeedWriter(options?: CsvFeedWriterOptions): FeedWriter {
  const neutralise = options?.neutraliseFormulas ?? true;
  if (typeof neutralise !== 'boolean') throw new TypeError('createCsvFeedWriter: neutraliseFormulas must be true or false');
  return createWriter(csvFormat(neutralise), options, 'createCsvFeedWriter');
}
