import type { Hotkey } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { NormalisationStrategy } from '../index.js';
import { AGGREGATION_ERROR_CODES, applyWeightCap, computeEmitWeights, indexMetagraph, mapHotkeysToUids, normaliseScores, toU16 } from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

const H = sortedHotkeys(40);

/**
 * The weight path as the public stages compose it (the definition computeEmitWeights must match bit for bit):
 * hotkeys the metagraph does not list are left out first (SPEC C.9), so the mapping finds nothing to drop.
 */
function staged(
  scores: readonly { hotkey: Hotkey; score: number }[],
  metagraph: readonly { hotkey: Hotkey; uid: number }[],
  strategy: NormalisationStrategy,
  cap: number,
  burnUid: number,
  mode: 'sum' | 'max',
) {
  const registered = new Set(metagraph.map((n) => n.hotkey));
  const normalised = normaliseScores(
    scores.filter((s) => registered.has(s.hotkey)),
    { strategy, temperature: 1 },
  );
  const capped = applyWeightCap(normalised.weights, { cap, burnUid });
  const mapped = mapHotkeysToUids({ weights: capped.weights, burn: normalised.burn + capped.burn, metagraph, burnUid });
  return toU16(mapped.weights, { mode });
}

const scoreArb = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, -0, 5e-324, 0.5, 1));

describe('computeEmitWeights (normalise, cap, map, u16 in one pass)', () => {
  it('equals normaliseScores → applyWeightCap → mapHotkeysToUids → toU16 bit for bit, in any input order, with an index or neurons, objects or parallel lists', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(39), scoreArb), { maxLength: 30 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom<NormalisationStrategy>('linear', 'quadratic', 'softmax', 'ranked'),
        fc.constantFrom(0.02, 0.05, 0.1, 0.3, 0.5, 1),
        fc.constantFrom(0, 3, 100),
        fc.constantFrom<'sum' | 'max'>('sum', 'max'),
        fc.boolean(),
        (rows, known, strategy, cap, burnUid, mode, shuffle) => {
          const seen = new Set<number>();
          const scores = rows
            .filter(([m]) => {
              if (seen.has(m)) return false;
              seen.add(m);
              return true;
            })
            .map(([m, score]) => ({ hotkey: H[m]!, score }));
          scores.sort((a, b) => (a.hotkey < b.hotkey ? -1 : 1));
          if (shuffle) scores.reverse();
          // Uids scattered; the first `known` hotkeys are registered.
          const metagraph = H.slice(0, known).map((hotkey, i) => ({ hotkey, uid: (i * 17) % 41 }));
          const expected = staged(scores, metagraph, strategy, cap, burnUid, mode);
          const parallel = { hotkeys: scores.map((s) => s.hotkey), values: Float64Array.from(scores, (s) => s.score) };
          for (const [graph, given] of [
            [metagraph, scores],
            [indexMetagraph(metagraph), scores],
            [indexMetagraph(metagraph), parallel],
          ] as const) {
            const r = computeEmitWeights({ scores: given, metagraph: graph, normalisation: { strategy, temperature: 1 }, cap, burnUid, u16Mode: mode });
            expect({ uids: r.uids, weights: r.weights }).toStrictEqual({ uids: expected.uids, weights: expected.weights });
            expect(Object.isFrozen(r) && Object.isFrozen(r.uids) && Object.isFrozen(r.explanation)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('equals the stages bit for bit at subnet sizes (up to 2,000 miners, scattered uids, caps near 1/n), calls of different sizes one after another', () => {
    const many = sortedHotkeys(2000, 1000);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(0.5, 1, 1.5, 4, 1e9),
        fc.constantFrom<NormalisationStrategy>('linear', 'quadratic'),
        fc.constantFrom<'sum' | 'max'>('max', 'sum'),
        fc.constantFrom(0, 7, 4095),
        (n, seed, capTimesN, strategy, mode, burnUid) => {
          let state = seed;
          const next = (): number => {
            state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
            return state / 2 ** 32;
          };
          // Every fifth score 0, a few exactly 1, the rest spread (some miners far above the others).
          const scores = many.slice(0, n).map((hotkey, i) => ({ hotkey, score: i % 5 === 0 ? 0 : i % 97 === 0 ? 1 : next() ** 3 }));
          // Uids scattered over 0..4092 (4093 is prime, so i·37 mod 4093 is unique for i < 4093).
          const metagraph = many.slice(0, n).map((hotkey, i) => ({ hotkey, uid: (i * 37) % 4093 }));
          const cap = Math.min(1, capTimesN / n);
          const expected = staged(scores, metagraph, strategy, cap, burnUid, mode);
          const parallel = { hotkeys: scores.map((s) => s.hotkey), values: Float64Array.from(scores, (s) => s.score) };
          const r = computeEmitWeights({ scores: parallel, metagraph: indexMetagraph(metagraph), normalisation: { strategy }, cap, burnUid, u16Mode: mode });
          expect({ uids: r.uids, weights: r.weights }).toStrictEqual({ uids: expected.uids, weights: expected.weights });
          // The doubles before the u16 conversion, through what the explanation shows of them.
          const normalised = normaliseScores(scores, { strategy });
          const capped = applyWeightCap(normalised.weights, { cap, burnUid });
          expect(r.explanation).toMatchObject({
            maxWeight: expected.explanation.maxWeight,
            burn: normalised.burn + capped.burn,
            capRounds: capped.explanation.rounds,
            capped: capped.explanation.capped,
            infeasible: capped.explanation.infeasible,
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('explains the cap and the burn, and reuses one index across calls', () => {
    const metagraph = indexMetagraph(H.slice(0, 3).map((hotkey, uid) => ({ hotkey, uid: uid + 1 })));
    const r = computeEmitWeights({ scores: [{ hotkey: H[0]!, score: 0.9 }], metagraph, cap: 0.5, u16Mode: 'max' });
    expect(r.uids).toEqual([0, 1]);
    expect(r.weights).toEqual([65535, 65535]);
    expect(r.explanation).toMatchObject({ capped: [H[0]], infeasible: true, burn: 0.5, burnUid: 0 });
    const again = computeEmitWeights({
      scores: [
        { hotkey: H[1]!, score: 0.2 },
        { hotkey: H[2]!, score: 0.2 },
      ],
      metagraph,
      cap: 0.5,
      u16Mode: 'sum',
    });
    expect(again.uids).toEqual([2, 3]);
    expect(again.weights.reduce((s, w) => s + w, 0)).toBe(65535);
  });

  it('leaves out a hotkey the metagraph does not list before normalising, so the cap holds and the explanation names it (SPEC C.9)', () => {
    const metagraph = indexMetagraph(H.slice(0, 3).map((hotkey, uid) => ({ hotkey, uid: uid + 1 })));
    const r = computeEmitWeights({
      scores: [
        { hotkey: H[0]!, score: 0.9 },
        { hotkey: H[1]!, score: 0.05 },
        { hotkey: H[2]!, score: 0.05 },
        { hotkey: H[9]!, score: 0.9 },
        { hotkey: H[8]!, score: 0 },
      ],
      metagraph,
      cap: 0.5,
      u16Mode: 'sum',
    });
    // Normalised over the three registered hotkeys and capped: 0.5 / 0.25 / 0.25 (not 0.9, as when the
    // unregistered 0.9 was dropped after the cap and the rest renormalised).
    expect(r.uids).toEqual([1, 2, 3]);
    expect(r.weights).toEqual([32767, 16384, 16384]);
    expect(r.explanation).toMatchObject({ capped: [H[0]], dropped: [H[8], H[9]], maxWeight: 0.5 });
  });

  it('rejects a duplicate hotkey, a bad score, a bad cap and a forged index with coded errors', () => {
    const metagraph = indexMetagraph(H.slice(0, 3).map((hotkey, uid) => ({ hotkey, uid })));
    expectError(
      () =>
        computeEmitWeights({
          scores: [
            { hotkey: H[0]!, score: 0.5 },
            { hotkey: H[0]!, score: 0.5 },
          ],
          metagraph,
          cap: 0.5,
        }),
      AGGREGATION_ERROR_CODES.duplicateHotkey,
    );
    expectError(
      () => computeEmitWeights({ scores: [{ hotkey: H[0]!, score: Number.NaN }], metagraph, cap: 0.5 }),
      AGGREGATION_ERROR_CODES.invalidInput,
      'input.scores[0].score',
    );
    expectError(() => computeEmitWeights({ scores: [], metagraph, cap: 0 }), AGGREGATION_ERROR_CODES.invalidInput, 'input.cap');
    expectError(
      () => computeEmitWeights({ scores: [], metagraph: { kind: 'metagraph-index', size: 0, maxUid: -1 }, cap: 0.5 }),
      AGGREGATION_ERROR_CODES.invalidInput,
      'input.metagraph',
    );
    // A rejected call leaves nothing behind: the next one is exact.
    const ok = computeEmitWeights({
      scores: [
        { hotkey: H[1]!, score: 0.5 },
        { hotkey: H[2]!, score: 0.5 },
      ],
      metagraph,
      cap: 1,
      u16Mode: 'max',
    });
    expect(ok.uids).toEqual([1, 2]);
  });
});
