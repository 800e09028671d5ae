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

  /**
   * The largest-remainder split in exact rationals, written here from SPEC C.10: each double is m·2^e exactly,
   * q_i = 65535·w_i / Σw; floors first, then one unit each to the largest remainders (ties: smaller uid).
   */
  function exactSum(entries: readonly { uid: number; weight: number }[]) {
    const view = new DataView(new ArrayBuffer(8));
    const exact = (x: number): { m: bigint; e: number } => {
      view.setFloat64(0, x);
      const bits = view.getBigUint64(0);
      const biased = Number((bits >> 52n) & 0x7ffn);
      const fraction = bits & ((1n << 52n) - 1n);
      return biased === 0 ? { m: fraction, e: -1074 } : { m: fraction | (1n << 52n), e: biased - 1075 };
    };
    const sorted = [...entries].sort((a, b) => a.uid - b.uid);
    const parts = sorted.map((x) => exact(x.weight));
    const low = Math.min(...parts.filter((p) => p.m > 0n).map((p) => p.e));
    const scaled = parts.map((p) => (p.m > 0n ? p.m << BigInt(p.e - low) : 0n));
    const total = scaled.reduce((a, b) => a + b, 0n);
    const floors = scaled.map((x) => (65535n * x) / total);
    const rest = scaled.map((x) => (65535n * x) % total);
    const floorSum = Number(floors.reduce((a, b) => a + b, 0n));
    const rank = sorted.map((_, i) => i).sort((a, b) => (rest[a]! > rest[b]! ? -1 : rest[a]! < rest[b]! ? 1 : sorted[a]!.uid - sorted[b]!.uid));
    const units = rank.slice(0, 65535 - floorSum);
    const values = floors.map((f, i) => Number(f) + (units.includes(i) ? 1 : 0));
    return {
      uids: sorted.filter((_, i) => values[i] !== 0).map((x) => x.uid),
      weights: values.filter((v) => v !== 0),
      floorSum,
      remainderUnits: units.map((i) => sorted[i]!.uid),
      droppedZeros: sorted.filter((x, i) => values[i] === 0 && x.weight > 0).map((x) => x.uid),
    };
  }

  it('property: sum mode gives exactly the largest-remainder split in exact rationals (ties, equal weights, wide ranges)', () => {
    const shared = fc.constantFrom(0.1, 1 / 3, 0.0030714731682990027, 1e-7);
    const weight = fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }),
      shared,
      fc.constant(0),
      fc.double({ min: 1e-300, max: 1e-250, noNaN: true }),
      fc.double({ min: 1e300, max: 1e308, noNaN: true }),
    );
    const entries = fc
      .uniqueArray(fc.record({ uid: fc.integer({ min: 0, max: 300 }), weight }), { selector: (e) => e.uid, minLength: 1, maxLength: 300 })
      .filter((es) => es.some((e) => e.weight > 0));
    // Normalised vectors (what the pipeline hands over) as well as raw ones.
    const normalised = entries.map((es) => {
      const sum = es.reduce((a, e) => a + e.weight, 0);
      return Number.isFinite(sum) ? es.map((e) => ({ uid: e.uid, weight: e.weight / sum })) : es;
    });
    fc.assert(
      fc.property(fc.oneof(entries, normalised), (es) => {
        const r = toU16(es, { mode: 'sum' });
        const want = exactSum(es);
        expect({
          uids: r.uids,
          weights: r.weights,
          floorSum: r.explanation.floorSum,
          remainderUnits: r.explanation.remainderUnits,
          droppedZeros: r.explanation.droppedZeros,
        }).toEqual(want);
      }),
      { numRuns: 400 },
    );
    // Equal weights tie on the remainder: the smaller uids get the units.
    expect(
      toU16(
        [7, 3, 5].map((uid) => ({ uid, weight: 1 / 3 })),
        { mode: 'sum' },
      ).explanation.remainderUnits,
    ).toEqual(exactSum([7, 3, 5].map((uid) => ({ uid, weight: 1 / 3 }))).remainderUnits);
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
