/**
 * SPEC C.2 and C.4 read literally (reference only): one score per (validator, miner); zero-stake validators
 * ignored before outliers and the quorum; outliers removed; scored iff >= min_validators remain and their
 * stake is >= min_stake_fraction of the whole validator set's stake; score = Σ stake·score / Σ stake, summed
 * in validator hotkey order.
 */
import { byCodePoint, reject } from './errors.js';
import { referenceOutliers } from './outliers.js';

export interface RefEvaluation {
  readonly validatorHotkey: string;
  readonly minerHotkey: string;
  readonly epoch: number;
  readonly score: number;
}
export interface RefStake {
  readonly validatorHotkey: string;
  readonly stake: number;
}
export interface RefAggregationOptions {
  readonly minValidators: number;
  readonly minStakeFraction: number;
  readonly outlier: { readonly method: 'modified_z' | 'zscore'; readonly threshold: number };
}
export interface RefMiner {
  readonly hotkey: string;
  readonly score: number | null;
  readonly reason: 'too_few_validators' | 'no_stake' | 'insufficient_stake' | null;
  /** Validators whose evaluation entered the average, by hotkey. */
  readonly used: readonly string[];
  /** Validators excluded as outliers, with the statistic. */
  readonly outliers: readonly { readonly validator: string; readonly statistic: number }[];
  readonly zeroStakeIgnored: readonly string[];
  readonly stakeBehind: number;
}

export function referenceAggregate(
  evaluations: readonly RefEvaluation[],
  stakes: readonly RefStake[],
  options: RefAggregationOptions,
  epoch?: number,
): readonly RefMiner[] {
  const stakeOf = new Map<string, number>();
  for (const s of stakes) {
    if (!(Number.isFinite(s.stake) && s.stake >= 0)) reject('AGGREGATION_INVALID_INPUT', 'stake');
    if (stakeOf.has(s.validatorHotkey)) reject('AGGREGATION_DUPLICATE_HOTKEY', 'validator twice');
    stakeOf.set(s.validatorHotkey, s.stake);
  }
  const validators = [...stakeOf.keys()].sort(byCodePoint);
  let totalStake = 0;
  for (const v of validators) totalStake = totalStake + stakeOf.get(v)!;
  if (!Number.isFinite(totalStake)) reject('AGGREGATION_INVALID_INPUT', 'total stake');

  const byMiner = new Map<string, Map<string, number>>();
  let theEpoch = epoch;
  for (const e of evaluations) {
    if (!(e.score >= 0 && e.score <= 1)) reject('AGGREGATION_INVALID_INPUT', 'score');
    if (theEpoch === undefined) theEpoch = e.epoch;
    else if (e.epoch !== theEpoch) reject('AGGREGATION_EPOCH_MISMATCH', 'epoch');
    if (!stakeOf.has(e.validatorHotkey)) reject('AGGREGATION_UNKNOWN_VALIDATOR', 'validator');
    const row = byMiner.get(e.minerHotkey) ?? new Map<string, number>();
    if (row.has(e.validatorHotkey)) reject('AGGREGATION_DUPLICATE_EVALUATION', 'twice');
    row.set(e.validatorHotkey, e.score);
    byMiner.set(e.minerHotkey, row);
  }

  return [...byMiner.keys()].sort(byCodePoint).map((hotkey): RefMiner => {
    const row = byMiner.get(hotkey)!;
    const evaluators = [...row.keys()].sort(byCodePoint);
    const zeroStakeIgnored = evaluators.filter((v) => stakeOf.get(v) === 0);
    const staked = evaluators.filter((v) => stakeOf.get(v)! > 0);
    const outliers = referenceOutliers(
      staked.map((v) => row.get(v)!),
      options.outlier.method,
      options.outlier.threshold,
    );
    const used = staked.filter((_, i) => !outliers.excluded[i]);
    const excluded = staked.flatMap((validator, i) => (outliers.excluded[i] ? [{ validator, statistic: outliers.statistics[i]! }] : []));
    let stakeBehind = 0;
    let weighted = 0;
    for (const v of used) {
      stakeBehind = stakeBehind + stakeOf.get(v)!;
      weighted = weighted + stakeOf.get(v)! * row.get(v)!;
    }
    let reason: RefMiner['reason'] = null;
    if (used.length < options.minValidators) reason = 'too_few_validators';
    else if (!(stakeBehind > 0)) reason = 'no_stake';
    else if (stakeBehind / totalStake < options.minStakeFraction) reason = 'insufficient_stake';
    return { hotkey, score: reason === null ? weighted / stakeBehind : null, reason, used, outliers: excluded, zeroStakeIgnored, stakeBehind };
  });
}
