/**
 * The optimised pipeline against the implementation it replaced, kept verbatim as a slow reference in
 * `./reference/` (aggregation, outliers, uid mapping, u16, the pipeline itself and the deep freeze):
 * on random inputs both must give deep-equal results (toStrictEqual, so -0 and 0 differ) or the same
 * error (code, path and message). Inputs are drawn to hit the corners: ties, -0, subnormal spreads (the
 * statistic overflows), zero stakes, unscored miners, duplicates, unknown validators, mixed epochs.
 */
import { isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Evaluation, ValidatorStake } from '../aggregate.js';
import type { EpochInput, OutlierOptions, PipelineConfig } from '../index.js';
import { aggregateEvaluations, allocateChallenges, computeEpochWeights, DEFAULT_PIPELINE_CONFIG, detectOutliers, mapHotkeysToUids, toU16 } from '../index.js';
import { sortedHotkeys } from './helpers.js';
import { aggregateEvaluations as referenceAggregate } from './reference/aggregate.js';
import { allocateChallenges as referenceAllocate } from './reference/allocate.js';
import { computeEpochWeights as referencePipeline } from './reference/epoch-weights.js';
import { detectOutliers as referenceOutliers } from './reference/outliers.js';
import { toU16 as referenceToU16 } from './reference/u16.js';
import { mapHotkeysToUids as referenceMap } from './reference/uid-mapping.js';

const V = sortedHotkeys(6);
const M = sortedHotkeys(12, 100);

type Outcome = { ok: unknown } | { error: { code: string; message: string; path: unknown } };

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: run() };
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { error: { code: error.code, message: error.message, path: (error.context as { path?: unknown }).path } };
  }
}

/** Every object and array in the tree is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(deeplyFrozen);
}

/** Every number in the tree that is NaN or ±Infinity. */
function nonFinite(value: unknown): number[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(nonFinite);
}

function expectSame(fast: Outcome, slow: Outcome): void {
  expect(fast).toStrictEqual(slow);
  if ('ok' in fast) expect(deeplyFrozen(fast.ok)).toBe(true);
}

/** Scores with the awkward values drawn often: ties, -0, the smallest subnormal (spreads that overflow). */
const scoreArb = fc.oneof(
  { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 3 },
  { arbitrary: fc.constantFrom(0, -0, 5e-324, 1e-310, 0.5, 0.8, 0.81, 1), weight: 2 },
);
const stakeArb = fc.oneof(fc.constantFrom(0, 0, 1, 100, 5e-324, 1e300), fc.double({ min: 0, max: 1e6, noNaN: true }));
const outlierArb: fc.Arbitrary<OutlierOptions> = fc.oneof(
  fc.constant<OutlierOptions>({ method: 'modified_z', threshold: 3.5 }),
  fc.constant<OutlierOptions>({ method: 'zscore', threshold: 2 }),
  fc.record({ method: fc.constantFrom<'modified_z' | 'zscore'>('modified_z', 'zscore'), threshold: fc.double({ min: 0.1, max: 5, noNaN: true }) }),
);

/** A (validator, miner) grid of optional scores, plus occasional duplicates, strangers and a wrong epoch. */
const evaluationsArb = fc
  .record({
    validators: fc.integer({ min: 1, max: 6 }),
    grid: fc.array(fc.array(fc.option(scoreArb, { nil: undefined, freq: 4 }), { minLength: 6, maxLength: 6 }), { minLength: 0, maxLength: 12 }),
    fault: fc.option(fc.tuple(fc.constantFrom('duplicate', 'stranger', 'epoch', 'score'), fc.nat(), scoreArb), { nil: null, freq: 6 }),
    order: fc.nat(),
  })
  .map(({ validators, grid, fault, order }) => {
    const evaluations: Evaluation[] = [];
    grid.forEach((row, m) => {
      row.forEach((score, v) => {
        if (score !== undefined && v < validators) evaluations.push({ validatorHotkey: V[v]!, minerHotkey: M[m]!, epoch: 7, score });
      });
    });
    if (fault !== null && evaluations.length > 0) {
      const [kind, at, score] = fault;
      const base = evaluations[at % evaluations.length]!;
      if (kind === 'duplicate') evaluations.push({ ...base, score });
      else if (kind === 'stranger') evaluations.push({ ...base, validatorHotkey: V[5]!, score });
      else if (kind === 'score') evaluations.push({ ...base, minerHotkey: M[11]!, score: score + 1.5 });
      else evaluations.push({ ...base, minerHotkey: M[11]!, epoch: 8 });
    }
    // A deterministic rotation, so duplicates and faults are not always last.
    const k = evaluations.length === 0 ? 0 : order % evaluations.length;
    return { validators, evaluations: [...evaluations.slice(k), ...evaluations.slice(0, k)] };
  });

const configArb: fc.Arbitrary<PipelineConfig> = fc.record({
  minValidators: fc.integer({ min: 1, max: 4 }),
  minStakeFraction: fc.constantFrom(0, 0.1, 0.3, 0.5, 1),
  outlier: outlierArb,
  normalisation: fc.constantFrom(
    { strategy: 'linear' } as const,
    { strategy: 'softmax', temperature: 0.1 } as const,
    { strategy: 'winner_takes_all' } as const,
    { strategy: 'quadratic' } as const,
    { strategy: 'ranked' } as const,
  ),
  weightCap: fc.constantFrom(0.1, 0.3, 0.5, 1),
  burnUid: fc.constantFrom(0, 3, 10),
  decay: fc.constantFrom(DEFAULT_PIPELINE_CONFIG.decay, { ...DEFAULT_PIPELINE_CONFIG.decay, curve: 'exponential' as const, improvementMode: 'relative' as const }),
  u16Mode: fc.constantFrom<'sum' | 'max'>('sum', 'max'),
});

const epochInputArb: fc.Arbitrary<EpochInput> = fc
  .record({
    config: configArb,
    term: evaluationsArb,
    second: fc.option(evaluationsArb, { nil: null }),
    stakes: fc.array(stakeArb, { minLength: 6, maxLength: 6 }),
    bounty: fc.array(fc.tuple(fc.nat(30), fc.nat(5), fc.nat(6)), { minLength: 0, maxLength: 3 }),
    known: fc.integer({ min: 0, max: 12 }),
    top: fc.option(fc.record({ topScore: scoreArb, topEpoch: fc.integer({ min: 0, max: 7 }) }), { nil: null }),
    submissions: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
  })
  .map(({ config, term, second, stakes, bounty, known, top, submissions }) => {
    const validators = Math.max(term.validators, second?.validators ?? 0);
    const challenges: EpochInput['challenges'][number][] = [
      {
        id: 'term',
        kind: 'evaluations',
        alpha: second === null ? 0.6 : 0.3,
        decay: true,
        evaluations: term.evaluations,
        decayState: top === null ? null : { ...top, topHotkey: M[0]! },
        submissions: M.map((hotkey, i) => ({ hotkey, submittedAt: submissions[i]! })),
      },
      {
        id: 'bounty',
        kind: 'bounty',
        alpha: 0.4,
        decay: false,
        records: bounty.map(([valid, invalid, stars], i) => ({ hotkey: M[11 - i]!, validIssues: valid, invalidIssues: invalid, starredRepos: stars })),
      },
    ];
    if (second !== null) challenges.push({ id: 'a-second', kind: 'evaluations', alpha: 0.3, decay: false, evaluations: second.evaluations, weightCap: 0.2 });
    return {
      config,
      epoch: 7,
      challenges,
      stakes: stakes.slice(0, validators).map((stake, i): ValidatorStake => ({ validatorHotkey: V[i]!, stake })),
      metagraph: M.slice(0, known).map((hotkey, i) => ({ hotkey, uid: (i * 7) % 13 })),
    };
  });

describe('the optimised pipeline agrees bit for bit with the reference implementation', () => {
  it('detectOutliers: same exclusions, statistics and explanation', () => {
    fc.assert(
      fc.property(fc.array(scoreArb, { maxLength: 9 }), outlierArb, (scores, options) => {
        expectSame(outcome(() => detectOutliers(scores, options)), outcome(() => referenceOutliers(scores, options)));
      }),
      { numRuns: 400 },
    );
  });

  it('aggregateEvaluations: same scores and explanation, or the same error', () => {
    fc.assert(
      fc.property(evaluationsArb, fc.array(stakeArb, { minLength: 6, maxLength: 6 }), configArb, ({ validators, evaluations }, stakes, config) => {
        const input = {
          evaluations,
          stakes: stakes.slice(0, validators).map((stake, i) => ({ validatorHotkey: V[i]!, stake })),
          options: { minValidators: config.minValidators, minStakeFraction: config.minStakeFraction, outlier: config.outlier },
        };
        expectSame(outcome(() => aggregateEvaluations(input)), outcome(() => referenceAggregate(input)));
      }),
      { numRuns: 300 },
    );
  });

  it('computeEpochWeights: same uids, u16 weights, decay states and explanation (all finite), or the same error', () => {
    fc.assert(
      fc.property(epochInputArb, (input) => {
        const fast = outcome(() => computeEpochWeights(input));
        expectSame(fast, outcome(() => referencePipeline(input)));
        // Awkward inputs (subnormal tops and spreads) must not leak ±Infinity into the explanation either.
        if ('ok' in fast) expect(nonFinite(fast.ok)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('allocateChallenges, mapHotkeysToUids and toU16: same results, or the same error', () => {
    const weightsArb = fc.array(fc.tuple(fc.nat(11), fc.oneof(scoreArb, fc.constant(0))), { maxLength: 12 }).map((pairs) => {
      const seen = new Set<number>();
      const unique = pairs.filter(([m]) => {
        if (seen.has(m)) return false;
        seen.add(m);
        return true;
      });
      const total = unique.reduce((sum, [, w]) => sum + w, 0);
      return unique.map(([m, w]) => ({ hotkey: M[m]!, weight: total > 1 ? w / total : w }));
    });
    fc.assert(
      fc.property(
        fc.array(weightsArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(0, 0.1, 0.25, 1 / 3, 0.5), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom(0, 5, 65535),
        fc.constantFrom<'sum' | 'max'>('sum', 'max'),
        (lists, alphaList, known, burnUid, mode) => {
          const challenges = lists.map((weights, i) => ({ challengeId: `c${2 - i}`, weights }));
          const alphas = Object.fromEntries(challenges.map((c, i) => [c.challengeId, alphaList[i]!]));
          expectSame(outcome(() => allocateChallenges(challenges, alphas, burnUid)), outcome(() => referenceAllocate(challenges, alphas, burnUid)));
          const weights = lists[0]!;
          const burn = Math.max(0, 1 - weights.reduce((sum, w) => sum + w.weight, 0));
          const metagraph = M.slice(0, known).map((hotkey, i) => ({ hotkey, uid: (i * 5) % 12 }));
          const input = { weights, burn, metagraph, burnUid };
          const mapped = outcome(() => mapHotkeysToUids(input));
          expectSame(mapped, outcome(() => referenceMap(input)));
          if ('ok' in mapped) {
            const vector = (mapped.ok as { weights: { uid: number; weight: number }[] }).weights;
            expectSame(outcome(() => toU16(vector, { mode })), outcome(() => referenceToU16(vector, { mode })));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('decision: the per-miner aggregation explanation is built when first read', () => {
  it('is the same deeply frozen array on every read, equal to the eagerly built reference', () => {
    const evaluations: Evaluation[] = [0.8, 0.81, 0.79, 0.8, 0.1].map((score, v) => ({ validatorHotkey: V[v]!, minerHotkey: M[0]!, epoch: 7, score }));
    const input = {
      evaluations,
      stakes: V.slice(0, 6).map((validatorHotkey, i) => ({ validatorHotkey, stake: i === 5 ? 0 : 100 })),
      options: { minValidators: 3, minStakeFraction: 0.3, outlier: { method: 'modified_z', threshold: 3.5 } as const },
    };
    const r = aggregateEvaluations(input);
    const first = r.explanation.miners;
    expect(r.explanation.miners).toBe(first);
    expect(deeplyFrozen(r)).toBe(true);
    expect(first[0]!.outliersExcluded.map((e) => e.score)).toEqual([0.1]);
    expect(first[0]!.evaluationsUsed.map((e) => e.score)).toEqual([0.8, 0.81, 0.79, 0.8]);
    expect(JSON.parse(JSON.stringify(r))).toEqual(JSON.parse(JSON.stringify(referenceAggregate(input))));
  });
});
