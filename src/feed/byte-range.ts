/**
 * A `Range` request of the feed handler (RFC 9110, section 14): a crawler that lost its connection
 * may ask for the rest of the feed. One range is served (206); several ranges, a malformed value or
 * an `If-Range` that no longer matches get the whole feed (200), as the RFC allows; a range that
 * starts past the end is 416.
 */

/** The first and last byte to send (inclusive), `'unsatisfiable'`, or undefined for the whole feed. */
export type RangeVerdict = { start: number; end: number } | 'unsatisfiable' | undefined;

/**
 * What `request` asks of a representation of `size` bytes with this `etag` and `lastModified`.
 * `If-Range` takes a strong ETag or the exact `Last-Modified` date, as the RFC says.
 */
export function requestedRange(request: Request, size: number, etag: string, lastModified: Date | undefined): RangeVerdict {
  const range = request.headers.get('range');
  if (range === null) return undefined;
  const ifRange = request.headers.get('if-range')?.trim();
  if (ifRange !== undefined && ifRange !== etag) {
    const date = Date.parse(ifRange);
    if (ifRange.startsWith('"') || ifRange.startsWith('W/') || Number.isNaN(date) || lastModified === undefined) return undefined;
    if (Math.floor(date / 1000) !== Math.floor(lastModified.getTime() / 1000)) return undefined;
  }
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(range);
  // Several ranges or another unit: the whole feed, which answers them too.
  if (match === null) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix: the last `last` bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.POSITIVE_INFINITY : Number(last);
  // An end before the start makes the value invalid, and an invalid Range is ignored.
  if (end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
