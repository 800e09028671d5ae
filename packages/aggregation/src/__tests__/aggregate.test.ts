import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import type { Evaluation, ValidatorStake } from '../aggregate.js';
import { aggregateEvaluations, AGGREGATION_ERROR_CODES } from '../index.js';
import { expectError, sortedHotkeys } from './helpers.js';

type H = ReturnType<typeof sortedHotkeys>[number];
const [v1, v2, v3, v4, v5] = sortedHotkeys(5) as [H, H, H, H, H];
const [m1, m2] = sortedHotkeys(2, 100) as [H, H];
const OPTIONS = { minValidators: 3, minStakeFraction: 0.3, outlier: { method: 'modified_z', threshold: 3.5 } } as const;
const ev = (validatorHotkey: H, minerHotkey: H, score: number, epoch = 7): Evaluation => ({ validatorHotkey, minerHotkey, epoch, score });
const stakes = (...s: number[]): ValidatorStake[] => [v1, v2, v3, v4, v5].slice(0, s.length).map((validatorHotkey, i) => ({ validatorHotkey, stake: s[i]! }));

describe('SPEC C.4 stake-weighted aggregation', () => {
  it('score = Σ stake·score / Σ stake (not a plain average)', () => {
    const r = aggregateEvaluations({ evaluations: [ev(v1, m1, 0.9), ev(v2, m1, 0.6), ev(v3, m1, 0.3)], stakes: stakes(100, 50, 50), options: OPTIONS });
    expect(r.scores).toEqual([{ hotkey: m1, score: (100 * 0.9 + 50 * 0.6 + 50 * 0.3) / 200 }]);
    expect(r.scores[0]!.score).not.toBe((0.9 + 0.6 + 0.3) / 3);
    expect(r.explanation.miners[0]!.stakeFraction).toBe(1);
  });

  it('fewer than min_validators (3) evaluations: unscored, reason too_few_validators', () => {
    const r = aggregateEvaluations({ evaluations: [ev(v1, m1, 0.9), ev(v2, m1, 0.8)], stakes: stakes(1, 1, 1), options: OPTIONS });
    expect(r.scores).toEqual([]);
    expect(r.explanation.miners[0]).toMatchObject({ score: null, reason: 'too_few_validators' });
  });

  it('stake behind the evaluations below 30 % of the whole validator set: unscored, insufficient_stake', () => {
    // three small validators (1 each) out of total 1+1+1+10 = 13 -> 3/13 < 0.3
    const r = aggregateEvaluations({ evaluations: [ev(v1, m1, 0.9), ev(v2, m1, 0.8), ev(v3, m1, 0.85)], stakes: stakes(1, 1, 1, 10), options: OPTIONS });
    expect(r.explanation.miners[0]).toMatchObject({ score: null, reason: 'insufficient_stake', stakeFraction: 3 / 13 });
  });

  it('stake fraction exactly at 0.30 is enough', () => {
    const r = aggregateEvaluations({ evaluations: [ev(v1, m1, 1), ev(v2, m1, 1), ev(v3, m1, 1)], stakes: stakes(1, 1, 1, 7), options: OPTIONS });
    expect(r.explanation.miners[0]!.stakeFraction).toBe(0.3);
    expect(r.scores).toEqual([{ hotkey: m1, score: 1 }]);
  });

  it('outliers are removed before averaging and before the min_validators count', () => {
    const evaluations = [ev(v1, m1, 0.8), ev(v2, m1, 0.81), ev(v3, m1, 0.79), ev(v4, m1, 0.8), ev(v5, m1, 0.0)];
    const r = aggregateEvaluations({ evaluations, stakes: stakes(1, 1, 1, 1, 100), options: OPTIONS });
    const miner = r.explanation.miners[0]!;
    expect(miner.outliersExcluded.map((o) => o.validatorHotkey)).toEqual([v5]);
    expect(miner.evaluationsUsed).toHaveLength(4);
    // the heavy validator's outlier is gone, so only 4/104 of the stake remains -> insufficient
    expect(miner.reason).toBe('insufficient_stake');
  });

  it('a second score from the same validator for the same miner and epoch is rejected, not averaged', () => {
    expectError(
      () => aggregateEvaluations({ evaluations: [ev(v1, m1, 0.9), ev(v2, m1, 0.5), ev(v1, m1, 0.1)], stakes: stakes(1, 1), options: OPTIONS }),
      AGGREGATION_ERROR_CODES.duplicateEvaluation,
      'evaluations[2]',
    );
  });

  it('evaluations from a validator outside the validator set are rejected', () => {
    expectError(
      () => aggregateEvaluations({ evaluations: [ev(v3, m1, 0.9)], stakes: stakes(1, 1), options: OPTIONS }),
      AGGREGATION_ERROR_CODES.unknownValidator,
      'evaluations[0].validatorHotkey',
    );
  });

  it('evaluations of two epochs are rejected', () => {
    expectError(
      () => aggregateEvaluations({ evaluations: [ev(v1, m1, 0.9, 1), ev(v2, m1, 0.9, 2)], stakes: stakes(1, 1), options: OPTIONS }),
      AGGREGATION_ERROR_CODES.epochMismatch,
      'evaluations[1].epoch',
    );
  });

  it('rejects scores outside [0, 1], negative stake and duplicate validators', () => {
    expectError(
      () => aggregateEvaluations({ evaluations: [ev(v1, m1, 1.01)], stakes: stakes(1), options: OPTIONS }),
      AGGREGATION_ERROR_CODES.invalidInput,
      'evaluations[0].score',
    );
    expectError(() => aggregateEvaluations({ evaluations: [], stakes: stakes(-1), options: OPTIONS }), AGGREGATION_ERROR_CODES.invalidInput, 'stakes[0].stake');
    expectError(
      () =>
        aggregateEvaluations({
          evaluations: [],
          stakes: [
            { validatorHotkey: v1, stake: 1 },
            { validatorHotkey: v1, stake: 2 },
          ],
          options: OPTIONS,
        }),
      AGGREGATION_ERROR_CODES.duplicateHotkey,
      'stakes[1].validatorHotkey',
    );
  });

  it('SPEC C.4 zero-stake validators are ignored before outliers and quorum, and listed as ignored', () => {
    // Before outliers: three zero-stake sybils at 0 would drag the median of (0.9, 0.7, 0.8) and make 0.9 an outlier.
    const base = [ev(v1, m1, 0.9), ev(v2, m1, 0.7), ev(v3, m1, 0.8)];
    const sybils = sortedHotkeys(3, 50);
    const withSybils = aggregateEvaluations({
      evaluations: [...base, ...sybils.map((s) => ev(s, m1, 0))],
      stakes: [...stakes(1, 1, 1), ...sybils.map((validatorHotkey) => ({ validatorHotkey, stake: 0 }))],
      options: OPTIONS,
    });
    const alone = aggregateEvaluations({ evaluations: base, stakes: stakes(1, 1, 1), options: OPTIONS });
    expect(withSybils.scores).toEqual(alone.scores);
    expect(withSybils.explanation.miners[0]!.zeroStakeIgnored).toEqual(sybils);
    expect(withSybils.explanation.miners[0]!.outliersExcluded).toEqual([]);
    expect(withSybils.explanation.miners[0]!.outlierCentre).toBe(alone.explanation.miners[0]!.outlierCentre);
    // Before the quorum: two staked evaluations and one zero-stake one are too few.
    const r = aggregateEvaluations({ evaluations: [ev(v1, m2, 0.5), ev(v2, m2, 0.5), ev(v4, m2, 0.5)], stakes: stakes(1, 1, 1, 0), options: OPTIONS });
    expect(r.explanation.miners[0]).toMatchObject({ hotkey: m2, reason: 'too_few_validators', zeroStakeIgnored: [v4] });
    expect(r.explanation.miners[0]!.evaluationsUsed).toHaveLength(2);
  });

  it('decision: zero stake means a stake of exactly 0; any positive stake counts, however small', () => {
    const r = aggregateEvaluations({ evaluations: [ev(v1, m1, 0.5), ev(v2, m1, 0.5), ev(v3, m1, 0.5)], stakes: stakes(1, 1, 5e-324), options: OPTIONS });
    expect(r.explanation.miners[0]!.zeroStakeIgnored).toEqual([]);
    expect(r.explanation.miners[0]!.evaluationsUsed).toHaveLength(3);
  });

  it("SPEC C.4 a validator's own hotkey never appears among its peers' evaluations: a second evaluation under its hotkey (a self-signed peer document) is AGGREGATION_DUPLICATE_EVALUATION", () => {
    // v1's own evaluation of m1, then a "peer" document signed with v1's hotkey that reached the aggregation.
    const own = [ev(v1, m1, 0.2), ev(v2, m1, 0.5), ev(v3, m1, 0.5)];
    let caught: unknown;
    try {
      aggregateEvaluations({ evaluations: [...own, ev(v1, m1, 1)], stakes: stakes(1, 1, 1), options: OPTIONS });
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, AGGREGATION_ERROR_CODES.duplicateEvaluation)).toBe(true);
    expect((caught as Error).message).toContain('self-signed peer document');
    expect((caught as { context: { path: string } }).context.path).toBe('evaluations[3]');
  });

  it('decision: with zero stake behind the evaluations and min_validators met, the miner is unscored (no_stake), never NaN', () => {
    const r = aggregateEvaluations({
      evaluations: [ev(v1, m1, 0.9)],
      stakes: stakes(0),
      options: { ...OPTIONS, minValidators: 1, minStakeFraction: 0 },
    });
    expect(r.explanation.miners[0]).toMatchObject({ score: null, reason: 'too_few_validators' });
    const r2 = aggregateEvaluations({ evaluations: [ev(v1, m1, 0.9)], stakes: stakes(5), options: { ...OPTIONS, minValidators: 1, minStakeFraction: 0 } });
    expect(r2.scores).toEqual([{ hotkey: m1, score: 0.9 }]);
  });

  it('results are frozen', () => {
    const r = aggregateEvaluations({ evaluations: [], stakes: stakes(1), options: OPTIONS });
    expect(Object.isFrozen(r) && Object.isFrozen(r.explanation)).toBe(true);
  });
});
