/**
 * Production against the independent oracle of `./reference/` (written from docs/spec.md section C, sharing
 * no code with `src/`): on random inputs that hit the corners (ties, -0, subnormal spreads, zero stakes,
 * unscored miners, duplicates, unknown validators, mixed epochs), both give the same result or the same
 * error code. Where the spec fixes the double arithmetic (sums in key order, formulas as written) the
 * comparison is exact (Object.is, so -0 and 0 differ); the water-filling cap is exact rationals in the
 * reference, so capped weights agree within 1e-12 and, downstream of a cap that bound, u16 values within 1.
 */
import { isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Evaluation, ValidatorStake } from '../aggregate.js';
import type { EpochInput, OutlierOptions, PipelineConfig } from '../index.js';
import {
  aggregateEvaluations,
  allocateChallenges,
  applyWeightCap,
  computeEpochWeights,
  decayStep,
  DEFAULT_PIPELINE_CONFIG,
  detectOutliers,
  mapHotkeysToUids,
  MIN_EXPONENTIAL_RHO,
  normaliseScores,
  toU16,
} from '../index.js';
import { sortedHotkeys } from './helpers.js';
import { referenceAggregate } from './reference/aggregate.js';
import type { RefMiner } from './reference/aggregate.js';
import { referenceAllocate } from './reference/allocate.js';
import { referenceCap } from './reference/cap.js';
import { referenceDecay } from './reference/decay.js';
import { referenceEpoch } from './reference/epoch.js';
import { Rejected } from './reference/errors.js';
import { referenceNormalise } from './reference/normalise.js';
import { referenceOutliers } from './reference/outliers.js';
import { referenceU16 } from './reference/u16.js';
import { referenceMap } from './reference/uid-mapping.js';

const V = sortedHotkeys(6);
const M = sortedHotkeys(12, 100);

type Outcome<T> = { ok: T } | { code: string };

function production<T>(run: () => T): Outcome<T> {
  try {
    return { ok: run() };
  } catch (error) {
    if (!isSubnetError(error)) throw error;
    return { code: error.code };
  }
}

function reference<T>(run: () => T): Outcome<T> {
  try {
    return { ok: run() };
  } catch (error) {
    if (!(error instanceof Rejected)) throw error;
    return { code: error.code };
  }
}

/** Both rejected with the same code, or both computed (then `same` compares the results). */
function agree<A, B>(fast: Outcome<A>, slow: Outcome<B>, same: (a: A, b: B) => void): void {
  if ('code' in fast || 'code' in slow) {
    expect('code' in fast ? fast.code : 'computed').toBe('code' in slow ? slow.code : 'computed');
    return;
  }
  same(fast.ok, slow.ok);
}

/** Production reports ±Infinity statistics as ±Number.MAX_VALUE (finite JSON). */
const reported = (m: number): number => (m === Infinity ? Number.MAX_VALUE : m === -Infinity ? -Number.MAX_VALUE : m);

function projectMiners(miners: readonly RefMiner[]): unknown {
  return miners.map((m) => ({ ...m, outliers: m.outliers.map((o) => ({ validator: o.validator, statistic: reported(o.statistic) })) }));
}

type AggregationExplanation = ReturnType<typeof aggregateEvaluations>['explanation'];
function projectProduction(explanation: AggregationExplanation): unknown {
  return explanation.miners.map((m) => ({
    hotkey: m.hotkey,
    score: m.score,
    reason: m.reason,
    used: m.evaluationsUsed.map((e) => e.validatorHotkey),
    outliers: m.outliersExcluded.map((e) => ({ validator: e.validatorHotkey, statistic: e.statistic })),
    zeroStakeIgnored: m.zeroStakeIgnored,
    stakeBehind: m.stakeBehind,
  }));
}

/** Every object and array in the tree is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(deeplyFrozen);
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12;

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
  decay: fc.constantFrom(DEFAULT_PIPELINE_CONFIG.decay, {
    ...DEFAULT_PIPELINE_CONFIG.decay,
    curve: 'exponential' as const,
    improvementMode: 'relative' as const,
  }),
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

describe('production agrees with the independent reference written from the spec', () => {
  it('SPEC C.3 outliers: same exclusions and statistics, bit for bit', () => {
    fc.assert(
      fc.property(fc.array(scoreArb, { maxLength: 9 }), outlierArb, (scores, options) => {
        const fast = detectOutliers(scores, options);
        const slow = referenceOutliers(scores, options.method, options.threshold);
        expect(fast.excluded).toEqual(slow.excluded);
        expect(fast.explanation.basis).toBe(slow.basis);
        expect(fast.explanation.statistics).toStrictEqual(slow.statistics.map((m) => (m === null ? null : reported(m))));
      }),
      { numRuns: 400 },
    );
  });

  it('SPEC C.2, C.4 aggregation: same scores, reasons, used, excluded and ignored validators, or the same error code', () => {
    fc.assert(
      fc.property(evaluationsArb, fc.array(stakeArb, { minLength: 6, maxLength: 6 }), configArb, ({ validators, evaluations }, stakes, config) => {
        const input = {
          evaluations,
          stakes: stakes.slice(0, validators).map((stake, i) => ({ validatorHotkey: V[i]!, stake })),
          options: { minValidators: config.minValidators, minStakeFraction: config.minStakeFraction, outlier: config.outlier },
        };
        agree(
          production(() => aggregateEvaluations(input)),
          reference(() => referenceAggregate(input.evaluations, input.stakes, input.options)),
          (fast, slow) => {
            expect(projectProduction(fast.explanation)).toStrictEqual(projectMiners(slow));
          },
        );
      }),
      { numRuns: 300 },
    );
  });

  it('SPEC C.5 normalisation: same weights, bit for bit', () => {
    const strategies = ['linear', 'softmax', 'winner_takes_all', 'quadratic', 'ranked'] as const;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(scoreArb, fc.option(fc.nat(3), { nil: undefined })), { maxLength: 12 }),
        fc.constantFrom(...strategies),
        fc.constantFrom(0.1, 1, 3),
        (rows, strategy, temperature) => {
          const scores = rows.map(([score, submittedAt], i) => (submittedAt === undefined ? { hotkey: M[i]!, score } : { hotkey: M[i]!, score, submittedAt }));
          const fast = normaliseScores(scores, { strategy, temperature });
          expect(fast.weights).toStrictEqual(referenceNormalise(scores, strategy, temperature));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("SPEC C.5 cap: production's doubles within 1e-12 of the exact water-filling, same burn, order never inverted", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(scoreArb, fc.constant(0)), { maxLength: 12 }), fc.constantFrom(0.05, 0.1, 0.15, 0.3, 0.5, 1), (raw, cap) => {
        const total = raw.reduce((s, x) => s + x, 0);
        const weights = raw.map((x, i) => ({ hotkey: M[i]!, weight: total > 1 ? x / total : x }));
        if (weights.reduce((s, w) => s + w.weight, 0) > 1 + 1e-9) return;
        const fast = applyWeightCap(weights, { cap });
        const slow = referenceCap(weights, cap);
        fast.weights.forEach((w, i) => {
          expect(w.hotkey).toBe(slow.weights[i]!.hotkey);
          expect(close(w.weight, slow.weights[i]!.weight), `${w.weight} vs ${slow.weights[i]!.weight}`).toBe(true);
          expect(w.weight).toBeLessThanOrEqual(cap);
        });
        expect(close(fast.burn, slow.burn)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('SPEC C.6 decay: same state and burn, bit for bit', () => {
    const decayArb = fc
      .record({
        graceEpochs: fc.nat(12),
        rho: fc.oneof(fc.constantFrom(0, 0.05, 0.3, 1), fc.double({ min: 0, max: 1, noNaN: true })),
        maxBurn: fc.constantFrom(0, 0.5, 0.8, 1),
        curve: fc.constantFrom<'linear' | 'exponential'>('linear', 'exponential'),
        improvementThreshold: fc.constantFrom(0, 0.02, 0.1),
        improvementMode: fc.constantFrom<'absolute' | 'relative'>('absolute', 'relative'),
      })
      // Valid options only: the exponential curve takes ρ = 0 or ρ >= 1e-4 (docs/spec.md G.4).
      .filter((o) => o.curve === 'linear' || o.rho === 0 || o.rho >= MIN_EXPONENTIAL_RHO);
    fc.assert(
      fc.property(
        fc.option(fc.record({ topScore: scoreArb, topEpoch: fc.nat(40) }), { nil: null }),
        fc.nat(60),
        // scoreArb repeats a few scores and submissions are 0-3, so ties at the best score (docs/spec.md G.9) are common.
        fc.array(fc.tuple(scoreArb, fc.option(fc.nat(3), { nil: undefined })), { maxLength: 5 }),
        decayArb,
        (top, epoch, raw, options) => {
          const state = top === null ? null : { ...top, topHotkey: M[0]! };
          const scores = raw.map(([score, submittedAt], i) =>
            submittedAt === undefined ? { hotkey: M[i + 1]!, score } : { hotkey: M[i + 1]!, score, submittedAt },
          );
          agree(
            production(() => decayStep(state, { epoch, scores, options })),
            reference(() => referenceDecay(state, epoch, scores, options)),
            (fast, slow) => {
              expect(fast.state).toStrictEqual(slow.state);
              expect(fast.explanation.candidate?.hotkey).toBe(slow.candidate);
              expect(fast.burn).toBe(slow.burn);
            },
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('SPEC C.7, C.9, C.10 allocation, uid mapping and u16: same results bit for bit, or the same error code', () => {
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
          const alphas = new Map(challenges.map((c, i) => [c.challengeId, alphaList[i]!] as const));
          agree(
            production(() => allocateChallenges(challenges, alphas, burnUid)),
            reference(() => referenceAllocate(challenges.map((c) => ({ id: c.challengeId, alpha: alphas.get(c.challengeId)!, weights: c.weights })))),
            (fast, slow) => {
              expect(fast.weights).toStrictEqual(slow.weights);
              expect(fast.burn).toBe(slow.burn);
            },
          );
          const weights = lists[0]!;
          const burn = Math.max(0, 1 - weights.reduce((sum, w) => sum + w.weight, 0));
          const metagraph = M.slice(0, known).map((hotkey, i) => ({ hotkey, uid: (i * 5) % 12 }));
          const mapped = mapHotkeysToUids({ weights, burn, metagraph, burnUid });
          const slowMapped = referenceMap(weights, burn, metagraph, burnUid);
          expect(mapped.weights.filter((w) => w.weight !== 0)).toStrictEqual(
            [...slowMapped]
              .filter(([, w]) => w !== 0)
              .sort((a, b) => a[0] - b[0])
              .map(([uid, weight]) => ({ uid, weight })),
          );
          const u16 = toU16(mapped.weights, { mode });
          expect({ uids: u16.uids, weights: u16.weights }).toStrictEqual(referenceU16(new Map(mapped.weights.map((w) => [w.uid, w.weight])), mode));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('SPEC C end to end: same aggregation, decay states and u16 vector (exact unless a cap bound, then within one unit), or the same error code', () => {
    fc.assert(
      fc.property(epochInputArb, (input) => {
        agree(
          production(() => computeEpochWeights(input)),
          reference(() => referenceEpoch(input)),
          (fast, slow) => {
            for (const c of fast.explanation.challenges) {
              if (c.aggregation !== null) expect(projectProduction(c.aggregation)).toStrictEqual(projectMiners(slow.aggregations.get(c.id)!));
            }
            expect(fast.decayStates).toStrictEqual(slow.decayStates);
            const slowUid = [...slow.uidWeights].filter(([, w]) => w !== 0).sort((a, b) => a[0] - b[0]);
            const fastUid = fast.explanation.uidWeights.filter((w) => w.weight !== 0).map((w) => [w.uid, w.weight] as const);
            if (!slow.capBound) {
              expect(fastUid).toStrictEqual(slowUid);
              expect({ uids: fast.uids, weights: fast.weights }).toStrictEqual({ uids: slow.uids, weights: slow.weights });
            } else {
              expect(fastUid.map(([u]) => u)).toEqual(slowUid.map(([u]) => u));
              fastUid.forEach(([, w], i) => {
                expect(close(w, slowUid[i]![1])).toBe(true);
              });
              const a = new Map(fast.uids.map((u, i) => [u, fast.weights[i]!]));
              const b = new Map(slow.uids.map((u, i) => [u, slow.weights[i]!]));
              for (const u of new Set([...a.keys(), ...b.keys()])) expect(Math.abs((a.get(u) ?? 0) - (b.get(u) ?? 0))).toBeLessThanOrEqual(1);
            }
          },
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('docs/spec.md G.9 against the reference: the decay top among miners tied at the best score', () => {
  /** M[0] and M[1] tie at 0.9 from the same three validators; M[1] submitted earlier. */
  function tie(strategy: 'winner_takes_all' | 'linear', withSubmissions: boolean): EpochInput {
    const scores = [0.9, 0.9, 0.4];
    return {
      config: { ...DEFAULT_PIPELINE_CONFIG, normalisation: { strategy }, weightCap: 1 },
      epoch: 5,
      challenges: [
        {
          id: 'term',
          kind: 'evaluations',
          alpha: 1,
          decay: true,
          evaluations: scores.flatMap((score, i) => V.slice(0, 3).map((v) => ({ validatorHotkey: v, minerHotkey: M[i]!, epoch: 5, score }))),
          decayState: { topScore: 0.5, topEpoch: 0, topHotkey: M[5]! },
          ...(withSubmissions
            ? {
                submissions: [
                  { hotkey: M[0]!, submittedAt: 9 },
                  { hotkey: M[1]!, submittedAt: 4 },
                  { hotkey: M[2]!, submittedAt: 1 },
                ],
              }
            : {}),
        },
      ],
      stakes: V.slice(0, 3).map((validatorHotkey) => ({ validatorHotkey, stake: 10 })),
      metagraph: M.slice(0, 3).map((hotkey, i) => ({ hotkey, uid: i + 1 })),
    };
  }

  it('both name the earlier submitter under winner_takes_all, and the lowest hotkey without submissions or under linear', () => {
    for (const [strategy, withSubmissions, named] of [
      ['winner_takes_all', true, M[1]],
      ['winner_takes_all', false, M[0]],
      ['linear', true, M[0]],
    ] as const) {
      const input = tie(strategy, withSubmissions);
      const fast = computeEpochWeights(input);
      const slow = referenceEpoch(input);
      expect(fast.decayStates).toStrictEqual(slow.decayStates);
      expect(slow.decayStates).toStrictEqual([{ challengeId: 'term', state: { topScore: 0.9, topEpoch: 5, topHotkey: named } }]);
      expect({ uids: fast.uids, weights: fast.weights }).toStrictEqual({ uids: slow.uids, weights: slow.weights });
    }
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
    expect(projectProduction(r.explanation)).toStrictEqual(projectMiners(referenceAggregate(input.evaluations, input.stakes, input.options)));
  });
});
