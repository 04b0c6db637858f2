/**
 * The CSV feed (the service's fallback for shops that cannot produce XML), on csv-stringify:
 * RFC 4180 quoting, a header row of the published column names plus the optional columns the
 * XML feed has (the service ignores columns it does not know), additional images in one
 * column separated by commas.
 */
import { stringify } from 'csv-stringify/sync';
import { createWriter, type FeedFormat, type FeedWriter, type FeedWriterOptions } from './output.js';
import type { WrittenProduct } from './rules.js';

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

function row(p: WrittenProduct): string {
  return stringify([
    [
      p.id,
      p.name,
      p.link,
      p.image,
      p.additional_images.join(','),
      p.category,
      p.price,
      p.vat ?? '',
      p.manufacturer,
      p.mpn,
      p.ean ?? '',
      p.availability,
      p.size ?? '',
      p.weight ?? '',
      p.shipping ?? '',
      p.color ?? '',
      p.description ?? '',
      p.quantity ?? '',
    ],
  ]);
}

const CSV_FORMAT: FeedFormat = {
  mode: 'csv',
  head: () => `${COLUMNS.join(',')}\n`,
  product: row,
  // Counted in the row itself: not every checked value has a column (the values' count would overshoot).
  productLines: (text) => {
    let lines = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
    return lines;
  },
  tail: '',
};

/**
 * A streaming CSV feed writer, with the XML writer's checks (descriptions up to 1000
 * characters, as the CSV page has it). Size variations have no place in CSV and are refused.
 */
export function createCsvFeedWriter(options?: FeedWriterOptions): FeedWriter {
  return createWriter(CSV_FORMAT, options, 'createCsvFeedWriter');
}
