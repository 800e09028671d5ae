import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { computeConsensus, parseSssa } from '../index.js';
import { compareKeys, keyPrefix } from '../key-order.js';
import { finding, members, sssa } from './helpers.js';

const hexDigit = fc.constantFrom(...'0123456789abcdef'.split(''));
const hex = (length: number) => fc.array(hexDigit, { minLength: length, maxLength: length }).map((d) => d.join(''));

/** Keys of 64 lowercase hex digits, many sharing long prefixes (so the string comparison after the number decides). */
const keys = fc
  .tuple(fc.array(hex(64), { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(3), fc.integer({ min: 0, max: 64 }), hex(64)), { maxLength: 30 }))
  .map(([bases, variants]) => [...bases, ...variants.map(([b, keep, tail]) => ((bases[b % bases.length] ?? '') + tail).slice(0, keep) + tail.slice(keep))]);

describe('canonical key order by number prefix, then text', () => {
  it('keyPrefix is the first eight hex digits as a number', () => {
    expect(keyPrefix('00000000' + 'f'.repeat(56))).toBe(0);
    expect(keyPrefix('ffffffff' + '0'.repeat(56))).toBe(0xffffffff);
    expect(keyPrefix('0a1b2c3d' + '9'.repeat(56))).toBe(0x0a1b2c3d);
  });

  it('sorts keys exactly as Array.prototype.sort sorts the strings (shared prefixes, duplicates)', () => {
    fc.assert(
      fc.property(keys, (list) => {
        const byNumber = [...list].sort((a, b) => compareKeys(keyPrefix(a), a, keyPrefix(b), b));
        expect(byNumber).toEqual([...list].sort());
        for (const a of list) for (const b of list) expect(Math.sign(compareKeys(keyPrefix(a), a, keyPrefix(b), b))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a group's agreed finding keys in key order, however many", () => {
  it('lists 10, 33 and 400 agreed findings in string order, raw and parsed alike (insertion sort up to 32, the native sort past it)', () => {
    for (const count of [10, 33, 400]) {
      const findings = Array.from({ length: count }, (_, i) => finding(`category-${i % 7}`, `src/file-${i}.py#L${i + 1}-L${i + 2}`));
      const docs = [0, 1, 2].map(() => sssa({ findings }));
      const raw = computeConsensus({ taskId: 't', members: members(docs) });
      const parsed = computeConsensus({ taskId: 't', members: members(docs.map((doc) => parseSssa(doc))) });
      const keys = raw.group?.findingKeys ?? [];
      expect(keys.length).toBe(count);
      expect(keys).toEqual([...keys].sort());
      expect(parsed.group?.findingKeys).toEqual(keys);
      expect(raw.group?.findings.map((f) => f.key)).toEqual(keys);
    }
  });
});
