/**
 * Reads a CSV feed (the service's fallback format, RFC 4180) on csv-parse: the separator is
 * the one the first line uses, a header row is optional (without one the columns are read in
 * the published order), empty lines are skipped, and every row must have as many fields as
 * the first. Products are checked by the CSV page's rules (no VAT or quantity required,
 * `http` links allowed, descriptions up to 1000 characters).
 */
import { parse } from 'csv-parse';
import { PRODUCT_ELEMENTS } from './names.js';
import { AttributeLines, finishProduct, type ReadContext, warnOnce } from './read-context.js';

/** A row's issues all stand at the row's line: no attribute has a line of its own. */
const ROW_LINES = new AttributeLines();

/** The published header; a file without a header row has these columns in this order. */
export const PUBLISHED_CSV_COLUMNS = [
  'id',
  'name',
  'link',
  'image',
  'additionalimage',
  'category',
  'price_with_vat',
  'manufacturer',
  'mpn',
  'ean',
  'instock',
  'availability',
  'size',
  'weight',
  'color',
] as const;

const SEPARATORS = [',', ';', '\t', '|'];
/** A record (a row, or what an unclosed quote runs on into) is cut off past this many characters. */
const MAX_RECORD = 1024 * 1024;
/** Several additional images share one column: a comma (or space) before each further URL. */
const IMAGE_SPLIT = /[\s,]+(?=https?:\/\/)/i;

interface Row {
  record: string[];
  info: { lines: number };
}

export async function readCsv(texts: AsyncIterable<string>, context: ReadContext, skippedLines: number, at: (line: () => number) => void): Promise<void> {
  const { builder } = context;
  let parser: ReturnType<typeof parse> | undefined;
  let columns: (readonly [string, string] | undefined)[] = [];
  let width = 0;
  let rows = 0;
  let lastLine = 1 + skippedLines;
  at(() => lastLine);
  let failure: Error | undefined;

  const handle = (row: Row) => {
    lastLine = row.info.lines + skippedLines;
    const fields = row.record;
    if (rows++ === 0) {
      width = fields.length;
      const names = fields.map((field) => field.trim().toLowerCase());
      if (names.includes('id') || names.includes('uid') || names.includes('uniqueid')) {
        columns = names.map((name) => PRODUCT_ELEMENTS[name]);
        names.forEach((name, i) => {
          if (columns[i] === undefined && name !== '') {
            warnOnce(context, `column:${name}`, {
              line: 1,
              rule: name === 'instock' ? 'deprecated' : 'unknown_element',
              message: name === 'instock' ? 'the instock column is deprecated and ignored' : `the column ${fields[i]} is not a feed attribute; it is ignored`,
            });
          }
        });
        return;
      }
      columns = PUBLISHED_CSV_COLUMNS.map((name) => PRODUCT_ELEMENTS[name]);
      builder.warning({ line: 1, rule: 'spelling', message: 'no header row: the columns are read in the published order' });
    }
    if (fields.length !== width) {
      builder.error({ line: lastLine, rule: 'csv', message: `${fields.length} fields where the first row has ${width}: every row has the same number` });
      return;
    }
    const values: Record<string, unknown> = {};
    fields.forEach((field, i) => {
      const column = columns[i];
      if (column === undefined) return;
      const value = field.trim();
      if (value === '') return;
      if (column[0] === 'additional_images') {
        values.additional_images = value.split(IMAGE_SPLIT);
      } else if (values[column[0]] === undefined) values[column[0]] = value;
    });
    finishProduct(context, values, 'read-csv', lastLine, ROW_LINES);
  };

  const drain = () => {
    for (let row = parser?.read() as Row | null; row !== null && row !== undefined; row = parser?.read() as Row | null) handle(row);
  };

  for await (const text of texts) {
    if (parser === undefined) {
      parser = parse({ delimiter: separatorOf(text), info: true, max_record_size: MAX_RECORD, relax_column_count: true, skip_empty_lines: true, trim: true, bom: true });
      parser.on('error', (error: Error) => {
        failure = error;
      });
    }
    parser.write(text);
    drain();
    // Set at once, where the 'error' event waits for a tick that a source of ready chunks never leaves.
    failure ??= parser.errored ?? undefined;
    if (failure !== undefined) break;
  }
  if (parser !== undefined && failure === undefined) {
    const ended = new Promise<void>((resolve) => {
      parser?.on('end', resolve);
      parser?.on('error', () => resolve());
    });
    parser.end();
    parser.on('readable', drain);
    drain();
    await ended;
    drain();
  }
  if (failure !== undefined) {
    if ((failure as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') {
      builder.fatal({ line: lastLine, rule: 'too_large', message: `a record runs on for over ${MAX_RECORD} characters (a quote never closed?)` });
    } else builder.fatal({ line: lastLine, rule: 'csv', message: `not valid CSV: ${failure.message}` });
    return;
  }
  if (builder.report.products === 0) builder.error({ line: lastLine, rule: 'no_products', message: 'no product rows found' });
}

/** The separator the first line uses most (outside quotes). */
function separatorOf(text: string): string {
  const end = text.indexOf('\n');
  const line = (end === -1 ? text : text.slice(0, end)).replace(/"[^"]*"/g, '');
  let best = ',';
  let most = 0;
  for (const separator of SEPARATORS) {
    const count = line.split(separator).length - 1;
    if (count > most) {
      best = separator;
      most = count;
    }
  }
  return best;
}
