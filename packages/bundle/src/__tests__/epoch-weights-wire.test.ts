import { computeEpochWeights, computeEpochWeightsWire, DEFAULT_PIPELINE_CONFIG } from '@subnet/aggregation';
import type { ChallengeInput, EpochInput, PipelineConfig } from '@subnet/aggregation';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { toWire } from '../wire.js';

/**
 * The same value in the strictest sense: the same keys in the same order, leaves equal by `Object.is`
 * (so -0 is not 0), arrays of the same length, and each object frozen exactly when the other is.
 */
function expectIdentical(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected !== 'object' || expected === null) {
    if (!Object.is(actual, expected)) throw new Error(`${path}: ${String(actual)} is not ${String(expected)}`);
    return;
  }
  if (typeof actual !== 'object' || actual === null) throw new Error(`${path}: expected an object, got ${String(actual)}`);
  if (Array.isArray(expected) !== Array.isArray(actual)) throw new Error(`${path}: array and non-array`);
  if (Object.isFrozen(actual) !== Object.isFrozen(expected)) throw new Error(`${path}: frozen differs`);
  const ka = Object.keys(actual);
  const ke = Object.keys(expected);
  if (ka.join('\u0000') !== ke.join('\u0000')) throw new Error(`${path}: keys ${ka.join(',')} are not ${ke.join(',')}`);
  for (const key of ke) expectIdentical((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`);
}

const validators = ['v0', 'v1', 'v2', 'v3', 'v4'];
const miners = Array.from({ length: 12 }, (_, i) => `m${String(i).padStart(2, '0')}`);

/** A score with the values that matter for the explanation: 0, -0, 1, ties and spreads. */
const score = fc.oneof(fc.constantFrom(0, -0, 1, 0.5, 0.25), fc.double({ min: 0, max: 1, noNaN: true }));

const evaluations = fc.array(fc.tuple(fc.constantFrom(...validators), fc.constantFrom(...miners), score), { maxLength: 50 }).map((list) => {
  const seen = new Set<string>();
  return list
    .filter(([v, m]) => !seen.has(`${v}/${m}`) && seen.add(`${v}/${m}`))
    .map(([validatorHotkey, minerHotkey, s]) => ({ validatorHotkey, minerHotkey, epoch: 9, score: s }));
});

const normalisation = fc.oneof(
  fc.constantFrom('linear', 'winner_takes_all', 'quadratic', 'ranked').map((strategy) => ({ strategy }) as const),
  fc.double({ min: 0.05, max: 4, noNaN: true }).map((temperature) => ({ strategy: 'softmax' as const, temperature })),
);

const evaluationChallenge = (id: string): fc.Arbitrary<ChallengeInput> =>
  fc
    .record({
      id: fc.constant(id),
      kind: fc.constant('evaluations' as const),
      alpha: fc.constantFrom(0, 0.2, 0.5),
      decay: fc.boolean(),
      weightCap: fc.option(fc.constantFrom(0.05, 0.2, 1), { nil: undefined }),
      normalisation: fc.option(normalisation, { nil: undefined }),
      evaluations,
      decayState: fc.option(fc.record({ topScore: score, topEpoch: fc.integer({ min: 0, max: 9 }), topHotkey: fc.constantFrom(...miners) }), { nil: null }),
    })
    .map((c) => {
      const out: Record<string, unknown> = { id: c.id, kind: c.kind, alpha: c.alpha, decay: c.decay, evaluations: c.evaluations, decayState: c.decayState };
      if (c.weightCap !== undefined) out.weightCap = c.weightCap;
      if (c.normalisation !== undefined) out.normalisation = c.normalisation;
      return out as unknown as ChallengeInput;
    });

const bountyChallenge: fc.Arbitrary<ChallengeInput> = fc
  .record({
    alpha: fc.constantFrom(0, 0.3),
    records: fc.uniqueArray(
      fc.record({
        hotkey: fc.constantFrom(...miners),
        validIssues: fc.integer({ min: 0, max: 30 }),
        invalidIssues: fc.integer({ min: 0, max: 10 }),
        starredRepos: fc.integer({ min: 0, max: 8 }),
      }),
      { selector: (r) => r.hotkey, maxLength: 8 },
    ),
  })
  .map(({ alpha, records }) => ({ id: 'bounty', kind: 'bounty', alpha, decay: false, records }) as unknown as ChallengeInput);

const config: fc.Arbitrary<PipelineConfig> = fc
  .record({
    minValidators: fc.integer({ min: 1, max: 3 }),
    minStakeFraction: fc.constantFrom(0, 0.3, 0.9),
    outlier: fc.oneof(
      fc.constant({ method: 'modified_z' as const, threshold: 3.5 }),
      fc.constant({ method: 'modified_z' as const, threshold: 0.5 }),
      fc.constant({ method: 'zscore' as const, threshold: 1 }),
    ),
    weightCap: fc.constantFrom(0.1, 0.5, 1),
    burnUid: fc.constantFrom(0, 3),
    u16Mode: fc.constantFrom('sum' as const, 'max' as const),
  })
  .map((c) => ({ ...DEFAULT_PIPELINE_CONFIG, ...c }));

const epochInput: fc.Arbitrary<EpochInput> = fc
  .record({
    config,
    challenges: fc.tuple(evaluationChallenge('a'), fc.option(evaluationChallenge('term'), { nil: undefined }), fc.option(bountyChallenge, { nil: undefined })),
    stakes: fc.tuple(...validators.map(() => fc.constantFrom(0, 1, 5, 2e12))),
    // Some miners and validators are missing from the metagraph (dropped, uid null).
    metagraph: fc.subarray([...validators, ...miners], { minLength: 0 }),
  })
  .map(
    ({ config: c, challenges, stakes, metagraph }) =>
      ({
        config: c,
        epoch: 9,
        challenges: challenges.filter((x): x is ChallengeInput => x !== undefined),
        stakes: validators.map((validatorHotkey, i) => ({ validatorHotkey, stake: stakes[i] as number })),
        metagraph: metagraph.map((hotkey, i) => ({ hotkey, uid: i + 1 })),
      }) as unknown as EpochInput,
  );

/**
 * `computeEpochWeightsWire` of `@subnet/aggregation` builds the wire form a bundle stores shape by shape;
 * the bundle's own definition of that form is `toWire` of the camelCase result. They must agree exactly.
 */
describe('computeEpochWeightsWire is toWire of computeEpochWeights', () => {
  it('gives exactly what toWire gives (keys and their order, -0, frozen nodes) on generated epochs', () => {
    let ran = 0;
    fc.assert(
      fc.property(epochInput, (input) => {
        let result;
        try {
          result = computeEpochWeights(input);
        } catch (error) {
          // Alphas above 1 in total and the like: both refuse, with the same code.
          expect(() => computeEpochWeightsWire(input)).toThrow(error);
          return;
        }
        ran += 1;
        const wire = computeEpochWeightsWire(input);
        expectIdentical(wire.explanation, toWire(result.explanation));
        expectIdentical(wire.decayStates, toWire(result.decayStates.map((d) => ({ challenge_id: d.challengeId, state: d.state }))));
        expect(wire.uids).toStrictEqual(result.uids);
        expect(wire.weights).toStrictEqual(result.weights);
      }),
      { numRuns: 400 },
    );
    expect(ran).toBeGreaterThan(200);
  });

  it('keeps a -0 score and names every stage of a fixed epoch with outliers, zero stake and a miner missing from the metagraph', () => {
    const input: EpochInput = {
      config: { ...DEFAULT_PIPELINE_CONFIG, minValidators: 1, minStakeFraction: 0 },
      epoch: 4,
      challenges: [
        {
          id: 'a',
          kind: 'evaluations',
          alpha: 1,
          decay: true,
          evaluations: [
            ...(['v0', 'v1', 'v2', 'v3'] as const).map((v, i) => ({
              validatorHotkey: v,
              minerHotkey: 'm1',
              epoch: 4,
              score: [0.8, 0.5, 0.81, 0.79][i] as number,
            })),
            { validatorHotkey: 'v4', minerHotkey: 'm1', epoch: 4, score: 0.01 },
            { validatorHotkey: 'v0', minerHotkey: 'm2', epoch: 4, score: -0 },
            { validatorHotkey: 'v2', minerHotkey: 'm3', epoch: 4, score: 0.3 },
          ],
        } as unknown as ChallengeInput,
      ],
      stakes: ['v0', 'v1', 'v2', 'v3', 'v4'].map((v, i) => ({ validatorHotkey: v, stake: i === 1 ? 0 : 1 })),
      metagraph: [
        { hotkey: 'm1', uid: 1 },
        { hotkey: 'm2', uid: 2 },
      ],
    } as unknown as EpochInput;
    const explanation = computeEpochWeights(input).explanation;
    const wire = computeEpochWeightsWire(input).explanation as unknown as {
      challenges: { aggregation: { miners: { evaluations_used: { score: number }[]; outliers_excluded: unknown[]; zero_stake_ignored: string[] }[] } }[];
      mapping: { dropped: { hotkey: string }[] };
      miners: { hotkey: string; uid: number | null; challenges: { score: number | null; normalised: number }[] }[];
    };
    expectIdentical(wire, toWire(explanation));
    const [m1, m2, m3] = wire.challenges[0]!.aggregation.miners;
    expect(m1!.outliers_excluded).toHaveLength(1);
    expect(m1!.zero_stake_ignored).toEqual(['v1']);
    expect(Object.is(m2!.evaluations_used[0]!.score, -0)).toBe(true);
    expect(m3!.zero_stake_ignored).toEqual([]);
    // m3 is scored but not in the metagraph: it takes no share of the challenge (SPEC C.9), so the mapping
    // has nothing to drop.
    expect(wire.miners.find((m) => m.hotkey === 'm3')).toMatchObject({ uid: null, challenges: [{ score: 0.3, normalised: 0 }] });
    expect(wire.mapping.dropped).toEqual([]);
  });
});
