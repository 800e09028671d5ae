import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { sortSmall } from '../small-sort.js';

describe('sortSmall gives the order of Array.prototype.sort', () => {
  it('on lists of up to 40 items with ties (stable: equal items keep their order)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.integer({ min: 0, max: 5 }), at: fc.nat() }), { maxLength: 40 }), (items) => {
        const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
        const native = [...items].sort(byKey);
        const mine = [...items];
        expect(sortSmall(mine, byKey)).toBe(mine);
        expect(mine).toEqual(native);
      }),
      { numRuns: 500 },
    );
  });

  it('on strings by code units', () => {
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { maxLength: 20 }), (items) => {
        expect(sortSmall([...items], compare)).toEqual([...items].sort(compare));
      }),
    );
  });
});
