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
 * `If-Range` takes the ETag or the `Last-Modified` date as sent; anything else gets the whole feed.
 */
export function requestedRange(request: Request, size: number, etag: string, lastModified: Date | undefined): RangeVerdict {
  const ifRange = request.headers.get('if-range');
  if (ifRange !== null && ifRange !== etag && ifRange !== lastModified?.toUTCString()) return undefined;
  // One range (`a-b`, `a-` or the suffix `-n`); several ranges or another unit do not match.
  const match = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('range') ?? '');
  if (match === null || `${match[1]}${match[2]}` === '') return undefined;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '') return Number(last) === 0 ? 'unsatisfiable' : { start: Math.max(0, size - Number(last)), end: size - 1 };
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  // An end before the start makes the value invalid, and an invalid Range is ignored.
  return end < start ? undefined : { start, end };
}
