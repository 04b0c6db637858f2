/**
 * The quick path's promise: when it takes a product, the checker takes it too, with no issue,
 * nothing to escape and no line end in a value, and writes the very same values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainProduct } from '../../src/feed/plain-product.js';
import { checkProductFully } from '../../src/feed/rules.js';
import { product } from './arbitraries.js';

describe('the quick path of the writer checks', () => {
  it('takes only what the checker takes unchanged, with no issue, and writes the same', () => {
    let taken = 0;
    fc.assert(
      fc.property(product, (p) => {
        const quick = plainProduct(p);
        if (quick === undefined) return;
        taken++;
        const issues = { errors: [], warnings: [] };
        const stats = { valueLines: 0, special: [] };
        expect(checkProductFully(p, 'write', issues, 1, stats)).toStrictEqual(quick);
        expect(issues).toEqual({ errors: [], warnings: [] });
        expect(stats).toEqual({ valueLines: 0, special: [] });
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: a good share of the products are plain.
    expect(taken).toBeGreaterThan(30);
  });
});
