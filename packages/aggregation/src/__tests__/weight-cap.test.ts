import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, applyWeightCap } from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const keys = sortedHotkeys(40);
const entries = (ws: readonly number[]) => ws.map((weight, i) => ({ hotkey: keys[i]!, weight }));

/**
 * Slow, obviously correct reference: the water-filled result caps a prefix of the miners sorted by weight
 * (largest first); try every prefix length k and take the first for which the largest uncapped miner,
 * given its proportional share of what is left, fits under the cap. Independent of the rounds.
 */
function referenceCap(ws: readonly number[], cap: number): number[] {
  const mass = ws.reduce((s, w) => s + w, 0);
  const order = ws
    .map((w, i) => ({ w, i }))
    .filter((x) => x.w > 0)
    .sort((x, y) => y.w - x.w);
  const out = ws.map(() => 0);
  for (let k = 0; k <= order.length; k += 1) {
    const rest = order.slice(k);
    const left = mass - k * cap;
    const sum = rest.reduce((s, x) => s + x.w, 0);
    if (rest.length === 0 || (rest[0]!.w / sum) * left <= cap) {
      order.forEach((x, j) => (out[x.i] = j < k ? cap : (x.w / sum) * left));
      return out;
    }
  }
  return out;
}

const weightVector = fc
  .array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 })
  .filter((ws) => ws.some((w) => w > 1e-12))
  .map((ws) => {
    const s = ws.reduce((x, y) => x + y, 0);
    return ws.map((w) => w / s);
  })
  .filter((ws) => ws.reduce((x, y) => x + y, 0) <= 1 + 1e-9);

describe('SPEC C.5 weight cap', () => {
  it('seed C/D default cap 0.50: the excess of a capped miner is redistributed proportionally', () => {
    const r = applyWeightCap(entries([0.7, 0.2, 0.1]), { cap: 0.5 });
    // README formula: (w / S)·R with R = mass − cap·|capped|, S = Σ uncapped, sums in hotkey order
    const R = 0.7 + 0.2 + 0.1 - 0.5;
    const S = 0.2 + 0.1;
    expect(r.weights.map((w) => w.weight)).toEqual([0.5, (0.2 / S) * R, (0.1 / S) * R]);
    expect(r.weights[1]!.weight).toBeCloseTo(1 / 3, 15);
    expect(r.burn).toBe(0);
  });

  it('iterates until no weight exceeds the cap (a single pass would leave 0.45·… above 0.3)', () => {
    // cap 0.3: round 1 caps 0.5 -> others scaled 0.7/0.5 = 1.4: 0.28·1.4 = 0.392 > 0.3, so a second round is needed
    const r = applyWeightCap(entries([0.5, 0.28, 0.12, 0.1]), { cap: 0.3 });
    expect(r.explanation.rounds).toBeGreaterThan(2);
    expect(r.weights[0]!.weight).toBe(0.3);
    expect(r.weights[1]!.weight).toBe(0.3);
    expect(r.weights[2]!.weight).toBeCloseTo(0.12 * (0.4 / 0.22), 15);
    expect(Math.max(...r.weights.map((w) => w.weight))).toBeLessThanOrEqual(0.3);
  });

  it('n·cap < 1: capped miners keep cap each and the remainder goes to the burn uid', () => {
    const r = applyWeightCap(entries([0.9, 0.1]), { cap: 0.3, burnUid: 4 });
    expect(r.weights.map((w) => w.weight)).toEqual([0.3, 0.3]);
    expect(r.burn).toBeCloseTo(0.4, 15);
    expect(r.burnUid).toBe(4);
    expect(r.explanation.infeasible).toBe(true);
  });

  it('decision: zero weights never receive redistribution (n counts positive weights)', () => {
    const r = applyWeightCap(entries([1, 0, 0]), { cap: 0.5 });
    expect(r.weights.map((w) => w.weight)).toEqual([0.5, 0, 0]);
    expect(r.burn).toBe(0.5);
  });

  it('rejects weights summing above 1 and a cap outside (0, 1]', () => {
    expectError(() => applyWeightCap(entries([0.8, 0.8]), { cap: 0.5 }), AGGREGATION_ERROR_CODES.weightsExceedOne, 'weights');
    expectError(() => applyWeightCap(entries([0.5]), { cap: 0 }), AGGREGATION_ERROR_CODES.invalidInput, 'options.cap');
  });

  it('subnormal weights never overflow the redistribution (divide before multiplying)', () => {
    const r = applyWeightCap(entries([1, 5e-323, 1e-322, 3.9e-80]), { cap: 0.3 });
    const out = r.weights.map((w) => w.weight);
    // 1 and 3.9e-80 are capped; the two subnormals share 1 − 0.6 = 0.4 as 1 : 2
    expect(out[0]).toBe(0.3);
    expect(out[3]).toBe(0.3);
    expect(out[1]).toBeCloseTo(0.4 / 3, 12);
    expect(out[2]).toBeCloseTo(0.8 / 3, 12);
    expect(r.burn).toBe(0);
  });

  it('property: after the cap no miner exceeds it, order is unchanged, mass is kept (burn included)', () => {
    fc.assert(
      fc.property(weightVector, fc.double({ min: 0.01, max: 1, noNaN: true }), (ws, cap) => {
        const r = applyWeightCap(entries(ws), { cap });
        const out = r.weights.map((w) => w.weight);
        for (const w of out) expect(w <= cap && Number.isFinite(w)).toBe(true);
        for (let i = 0; i < ws.length; i += 1) {
          for (let j = 0; j < ws.length; j += 1) if (ws[i]! > ws[j]!) expect(out[i]! >= out[j]!).toBe(true);
        }
        const mass = ws.reduce((s, w) => s + w, 0);
        const gap = out.reduce((s, w) => s + w, 0) + r.burn - mass;
        expect(Math.abs(gap)).toBeLessThan(1e-10);
      }),
      { numRuns: 300 },
    );
  });

  it('property: agrees with a slow bisection reference of water-filling', () => {
    fc.assert(
      fc.property(weightVector, fc.double({ min: 0.01, max: 1, noNaN: true }), (ws, cap) => {
        const expected = referenceCap(ws, cap);
        const out = applyWeightCap(entries(ws), { cap }).weights.map((w) => w.weight);
        out.forEach((w, i) => {
          expect(Math.abs(w - expected[i]!)).toBeLessThan(1e-9);
        });
      }),
      { numRuns: 300 },
    );
  });
});
