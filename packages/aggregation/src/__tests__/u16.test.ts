import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, roundHalfEven, toU16 } from '../index.js';
import vectors from './fixtures/sdk-weight-utils.json' with { type: 'json' };
import { expectError } from './helpers.js';

interface ConvertVector {
  readonly uids: number[];
  readonly weights: number[];
  readonly result: [number[], number[]];
}
const convertVectors = Object.entries(vectors as unknown as Record<string, unknown>).filter(([name]) => name.startsWith('convert_')) as [
  string,
  ConvertVector,
][];

describe('SPEC C.10 u16, max mode = Python SDK convert_weights_and_uids_for_emit', () => {
  it('the fixture holds the SDK convert vectors', () => {
    expect(convertVectors.map(([name]) => name).sort()).toEqual(['convert_bankers_rounding_1_6', 'convert_tiny_filtered', 'convert_with_zero']);
  });

  for (const [name, v] of convertVectors) {
    it(`SDK parity: ${name}`, () => {
      const r = toU16({ uids: v.uids, weights: v.weights }, { mode: 'max' });
      expect([r.uids, r.weights]).toEqual(v.result);
    });
  }

  it('round half to even exactly like Python round() on a double', () => {
    expect(roundHalfEven(0.5)).toBe(0);
    expect(roundHalfEven(1.5)).toBe(2);
    expect(roundHalfEven(2.5)).toBe(2);
    expect(roundHalfEven(10922.5)).toBe(10922);
    expect(roundHalfEven(10923.5)).toBe(10924);
    expect(roundHalfEven(2.5000000000000004)).toBe(3);
    expect(roundHalfEven(2.4999999999999996)).toBe(2);
    expect(roundHalfEven(65535)).toBe(65535);
  });

  it('the max weight maps to 65535 and nothing exceeds it', () => {
    const r = toU16(
      [
        { uid: 3, weight: 1e308 },
        { uid: 1, weight: 5e307 },
      ],
      { mode: 'max' },
    );
    expect(r.uids).toEqual([1, 3]);
    expect(r.weights).toEqual([32768, 65535]); // 0.5·65535 = 32767.5 -> even 32768
  });
});

describe('SPEC C.10 u16, sum mode (default) by largest remainder', () => {
  it('sums to exactly 65535; remainders go to the largest fractional parts', () => {
    // thirds: 21845 each exactly
    expect(toU16({ uids: [0, 1, 2], weights: [1, 1, 1] }).weights).toEqual([21845, 21845, 21845]);
    // 0.5/0.5 of 65535 = 32767.5 each: one unit left, tie -> lower uid first
    const r = toU16(
      [
        { uid: 9, weight: 0.5 },
        { uid: 4, weight: 0.5 },
      ],
      { mode: 'sum' },
    );
    expect(r.uids).toEqual([4, 9]);
    expect(r.weights).toEqual([32768, 32767]);
    expect(r.explanation.remainderUnits).toEqual([4]);
  });

  it('a weight vector summing to slightly more than 1 in doubles still gives exactly 65535, never 65536', () => {
    const r = toU16({ uids: [0, 1, 2], weights: [0.1, 0.2, 0.7000000000000001] });
    expect(r.weights.reduce((s, w) => s + w, 0)).toBe(65535);
    expect(Math.max(...r.weights)).toBeLessThanOrEqual(65535);
  });

  it('decision: entries that scale to 0 are dropped in both modes; an all-zero vector gives nothing to set', () => {
    const r = toU16({ uids: [0, 1], weights: [1e-9, 1] });
    expect(r.uids).toEqual([1]);
    expect(r.weights).toEqual([65535]);
    expect(r.explanation.droppedZeros).toEqual([0]);
    expect(toU16({ uids: [0, 1], weights: [0, 0] }).uids).toEqual([]);
    expect(toU16({ uids: [0, 1], weights: [0, 0] }, { mode: 'max' }).explanation.allZero).toBe(true);
  });

  it('rejects negative weights, NaN, duplicate uids, uids above 65535 and length mismatch', () => {
    expectError(() => toU16({ uids: [0], weights: [-1] }), AGGREGATION_ERROR_CODES.invalidInput, 'weights.weights[0]');
    expectError(() => toU16([{ uid: 0, weight: Number.NaN }]), AGGREGATION_ERROR_CODES.invalidInput, 'weights[0].weight');
    expectError(
      () =>
        toU16([
          { uid: 1, weight: 1 },
          { uid: 1, weight: 1 },
        ]),
      AGGREGATION_ERROR_CODES.duplicateUid,
      'weights',
    );
    expectError(() => toU16([{ uid: 65536, weight: 1 }]), AGGREGATION_ERROR_CODES.invalidInput, 'weights[0].uid');
    expectError(() => toU16({ uids: [0, 1], weights: [1] }), AGGREGATION_ERROR_CODES.invalidInput, 'weights.weights.length');
  });

  const vector = fc
    .uniqueArray(fc.record({ uid: fc.integer({ min: 0, max: 65535 }), weight: fc.double({ min: 0, max: 1e300, noNaN: true }) }), {
      selector: (e) => e.uid,
      minLength: 1,
      maxLength: 60,
    })
    .filter((es) => es.some((e) => e.weight > 0));

  it('property: sum mode always sums to exactly 65535, each value an integer in 1..65535, invariant to input order', () => {
    fc.assert(
      fc.property(vector, (entries) => {
        const r = toU16(entries, { mode: 'sum' });
        expect(r.weights.reduce((s, w) => s + w, 0)).toBe(65535);
        for (const w of r.weights) expect(Number.isInteger(w) && w >= 1 && w <= 65535).toBe(true);
        expect(toU16([...entries].reverse(), { mode: 'sum' })).toEqual(r);
      }),
      { numRuns: 300 },
    );
  });

  it('property: sum mode is within one unit of the exact quota 65535·w/Σw', () => {
    fc.assert(
      fc.property(vector, (entries) => {
        const max = Math.max(...entries.map((e) => e.weight));
        const total = entries.reduce((s, e) => s + e.weight / max, 0);
        const r = toU16(entries, { mode: 'sum' });
        const byUid = new Map(r.uids.map((u, i) => [u, r.weights[i]!]));
        for (const e of entries) expect(Math.abs((byUid.get(e.uid) ?? 0) - (65535 * (e.weight / max)) / total)).toBeLessThan(1 + 1e-6);
      }),
      { numRuns: 200 },
    );
  });

  it('property: max mode never exceeds 65535 and gives 65535 to the largest weight', () => {
    fc.assert(
      fc.property(vector, (entries) => {
        const r = toU16(entries, { mode: 'max' });
        expect(Math.max(...r.weights)).toBe(65535);
      }),
      { numRuns: 200 },
    );
  });
});
