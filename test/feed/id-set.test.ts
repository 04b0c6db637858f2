/**
 * The writer's set of ids: it holds exactly the ids added and not removed again (the writer
 * removes the ids of a product it took before checking its texts, then refused), numbered ids
 * and hashed ones alike, through the table's growth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../src/feed/id-set.js';

/** Numbered ids of one prefix (kept as bits), others hashed, and ids that differ only in their last character. */
const id = fc.oneof(
  fc.integer({ min: 0, max: 5000 }).map((n) => `SKU-${n}`),
  fc.integer({ min: 0, max: 300 }).map((n) => `EXT-${n}`),
  fc.constantFrom('SKU-007', 'SKU-0', 'sku-1', 'Παπούτσι-1', '', 'x'),
  fc.string({ maxLength: 6 }),
);
const step = fc.tuple(fc.constantFrom('add', 'add', 'add', 'remove'), id, fc.constantFrom<0 | 1>(0, 1));

describe('IdSet', () => {
  it('holds what was added and not removed, as a Set does', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1000, maxLength: 3000 }), (steps) => {
        const ids = new IdSet();
        const model = new Set<string>();
        for (const [action, value, kind] of steps) {
          const key = `${kind}:${value}`;
          if (action === 'add') {
            expect(ids.add(value, kind)).toBe(!model.has(key));
            model.add(key);
          } else if (model.has(key)) {
            // Only an id that was added is ever removed.
            ids.remove(value, kind);
            model.delete(key);
          }
        }
        for (const [, value, kind] of steps) expect(ids.add(value, kind, false)).toBe(!model.has(`${kind}:${value}`));
      }),
      { numRuns: 60, endOnFailure: true },
    );
  });
});
