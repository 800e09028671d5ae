// Slow reference: the implementation before the performance rewrite (commit 5f1f640), kept verbatim for reference.test.ts; only import paths changed. Do not optimise.
import type { Hotkey } from '@subnet/core';

import { checkArray, checkHotkey, checkInteger, checkNonNegative, checkObject, checkUnit } from '../../checks.js';
import { AGGREGATION_ERROR_CODES, fail } from '../../errors.js';
import type { OutlierBasis, OutlierOptions } from './outliers.js';
import { checkOutlierOptions, detectOutliersUnchecked } from './outliers.js';
import { compareHotkeys, deepFreeze } from './order.js';

/** One validator's score of one miner in one epoch (SPEC C.2). */
export interface Evaluation {
  readonly validatorHotkey: Hotkey;
  readonly minerHotkey: Hotkey;
  /** Epoch number (integer >= 0). */
  readonly epoch: number;
  /** Score in [0, 1], e.g. a pass rate. */
  readonly score: number;
}

/** A validator of the epoch's validator set and its stake. */
export interface ValidatorStake {
  readonly validatorHotkey: Hotkey;
  /** Stake (finite, >= 0; any unit, only ratios matter). */
  readonly stake: number;
}

/** Rules of the stake-weighted aggregation (SPEC C.3, C.4). */
export interface AggregationOptions {
  /** Fewest evaluations that must remain after outlier removal (default 3). */
  readonly minValidators: number;
  /** Smallest share of the validator set's total stake behind the remaining evaluations (default 0.30). */
  readonly minStakeFraction: number;
  /** Outlier rule. */
  readonly outlier: OutlierOptions;
}

/** Why a miner got no score this epoch. */
export type UnscoredReason = 'too_few_validators' | 'no_stake' | 'insufficient_stake';

/** One evaluation that entered the average. */
export interface UsedEvaluation {
  readonly validatorHotkey: Hotkey;
  readonly score: number;
  readonly stake: number;
}

/** One evaluation left out as an outlier. */
export interface ExcludedEvaluation {
  readonly validatorHotkey: Hotkey;
  readonly score: number;
  readonly stake: number;
  /** Its M_i (or z_i). */
  readonly statistic: number;
}

/** Everything about one miner's aggregation. */
export interface MinerAggregation {
  readonly hotkey: Hotkey;
  /** Σ stake·score / Σ stake over the remaining evaluations, or null when unscored. */
  readonly score: number | null;
  /** Null when scored, else why not. */
  readonly reason: UnscoredReason | null;
  /** Evaluations that entered the average, by validator hotkey. */
  readonly evaluationsUsed: readonly UsedEvaluation[];
  /** Evaluations excluded as outliers, by validator hotkey. */
  readonly outliersExcluded: readonly ExcludedEvaluation[];
  /** Validators with zero stake whose evaluations were ignored (they cannot change anything). */
  readonly zeroStakeIgnored: readonly Hotkey[];
  /** What the outlier statistic was based on. */
  readonly outlierBasis: OutlierBasis;
  readonly outlierCentre: number | null;
  readonly outlierSpread: number | null;
  /** Σ stake of the used evaluations. */
  readonly stakeBehind: number;
  /** stakeBehind / total stake of the validator set (0 when that total is 0). */
  readonly stakeFraction: number;
}

/** The result of {@link aggregateEvaluations}. */
export interface AggregationResult {
  /** Scored miners only, sorted by hotkey. */
  readonly scores: readonly { readonly hotkey: Hotkey; readonly score: number }[];
  readonly explanation: {
    /** The epoch of the evaluations (null when there were none). */
    readonly epoch: number | null;
    /** Σ stake of the whole validator set. */
    readonly totalStake: number;
    readonly options: AggregationOptions;
    /** Every evaluated miner, scored or not, sorted by hotkey. */
    readonly miners: readonly MinerAggregation[];
  };
}

interface Entry {
  readonly validator: number;
  readonly index: number;
  readonly score: number;
}

/** Validates aggregation options (internal). */
export function checkAggregationOptions(options: AggregationOptions, path: string): void {
  checkObject(options, path);
  checkInteger(options.minValidators, `${path}.minValidators`, 1);
  checkUnit(options.minStakeFraction, `${path}.minStakeFraction`);
  checkOutlierOptions(options.outlier, `${path}.outlier`);
}

/**
 * Combines many validators' scores into one score per miner (SPEC C.2-C.4). Per miner: evaluations of
 * zero-stake validators are ignored; outliers are removed (only with >= 3 evaluations); the miner is
 * scored iff at least `minValidators` evaluations remain and their stake is at least `minStakeFraction`
 * of the total stake of every validator in `stakes`; score = Σ stake·score / Σ stake, summed in validator
 * hotkey order. A second evaluation by the same validator of the same miner is an error, never averaged.
 *
 * @param input.evaluations - one epoch's evaluations
 * @param input.stakes - the epoch's whole validator set (unique hotkeys)
 * @param input.options - min validators, min stake fraction and outlier rule
 * @param input.epoch - when given, every evaluation must be of this epoch
 * @returns scores of scored miners and, per miner, what was used, excluded and why
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_EVALUATION`,
 *   `AGGREGATION_UNKNOWN_VALIDATOR`, `AGGREGATION_DUPLICATE_HOTKEY`, `AGGREGATION_EPOCH_MISMATCH`
 * @example
 * aggregateEvaluations({ evaluations, stakes, options: { minValidators: 3, minStakeFraction: 0.3,
 *   outlier: { method: 'modified_z', threshold: 3.5 } } }).scores
 */
export function aggregateEvaluations(input: {
  readonly evaluations: readonly Evaluation[];
  readonly stakes: readonly ValidatorStake[];
  readonly options: AggregationOptions;
  readonly epoch?: number;
}): AggregationResult {
  checkObject(input, 'input');
  checkAggregationOptions(input.options, 'options');
  return deepFreeze(aggregateUnchecked(input.evaluations, input.stakes, input.options, input.epoch, 'evaluations', 'stakes'));
}

/** {@link aggregateEvaluations} with option checks done by the caller (internal). */
export function aggregateUnchecked(
  evaluations: readonly Evaluation[],
  stakes: readonly ValidatorStake[],
  options: AggregationOptions,
  expectedEpoch: number | undefined,
  evaluationsPath: string,
  stakesPath: string,
): AggregationResult {
  const validators = checkStakes(stakes, stakesPath);
  const rank = new Map<string, number>();
  validators.forEach((v, i) => rank.set(v.validatorHotkey, i));
  let totalStake = 0;
  for (const v of validators) totalStake += v.stake;
  if (!Number.isFinite(totalStake)) fail(AGGREGATION_ERROR_CODES.invalidInput, 'the total stake must be finite', stakesPath, totalStake);

  checkArray(evaluations, evaluationsPath);
  let epoch: number | null = expectedEpoch ?? null;
  if (expectedEpoch !== undefined) checkInteger(expectedEpoch, 'epoch');
  const groups = new Map<string, Entry[]>();
  for (let i = 0; i < evaluations.length; i += 1) {
    // Hot loop: paths are only built when something is wrong.
    const e = evaluations[i] as Evaluation | null | undefined;
    const validatorHotkey = e?.validatorHotkey;
    const minerHotkey = e?.minerHotkey;
    const evaluationEpoch = e?.epoch;
    const score = e?.score;
    if (
      typeof e !== 'object' || e === null ||
      typeof validatorHotkey !== 'string' || validatorHotkey.length === 0 ||
      typeof minerHotkey !== 'string' || minerHotkey.length === 0 ||
      !Number.isSafeInteger(evaluationEpoch) || (evaluationEpoch as number) < 0 ||
      typeof score !== 'number' || !(score >= 0 && score <= 1)
    ) {
      const path = `${evaluationsPath}[${i}]`;
      checkObject(e, path);
      checkHotkey(validatorHotkey, `${path}.validatorHotkey`);
      checkHotkey(minerHotkey, `${path}.minerHotkey`);
      checkInteger(evaluationEpoch, `${path}.epoch`);
      checkUnit(score, `${path}.score`);
    }
    if (epoch === null) epoch = evaluationEpoch as number;
    else if (evaluationEpoch !== epoch) {
      fail(AGGREGATION_ERROR_CODES.epochMismatch, `every evaluation must be of epoch ${epoch}`, `${evaluationsPath}[${i}].epoch`, evaluationEpoch);
    }
    const validator = rank.get(validatorHotkey as string);
    if (validator === undefined) {
      fail(AGGREGATION_ERROR_CODES.unknownValidator, 'the validator is not in the epoch\'s validator set (stakes)', `${evaluationsPath}[${i}].validatorHotkey`, validatorHotkey);
    }
    let group = groups.get(minerHotkey as string);
    if (group === undefined) {
      group = [];
      groups.set(minerHotkey as string, group);
    }
    group.push({ validator, index: i, score: score as number });
  }

  const minerKeys = [...groups.keys()].sort(compareHotkeys);
  const scores: { hotkey: Hotkey; score: number }[] = [];
  const miners: MinerAggregation[] = [];
  for (const miner of minerKeys) {
    const group = (groups.get(miner) as Entry[]).sort((a, b) => a.validator - b.validator || a.index - b.index);
    for (let k = 1; k < group.length; k += 1) {
      const previous = group[k - 1] as Entry;
      const current = group[k] as Entry;
      if (previous.validator === current.validator) {
        const later = Math.max(previous.index, current.index);
        fail(
          AGGREGATION_ERROR_CODES.duplicateEvaluation,
          `a second evaluation of miner ${miner} by the same validator in the same epoch (evaluations[${Math.min(previous.index, current.index)}] is the first) is rejected, not averaged`,
          `${evaluationsPath}[${later}]`,
          evaluations[later],
        );
      }
    }
    const zeroStakeIgnored: Hotkey[] = [];
    const staked: Entry[] = [];
    for (const entry of group) {
      const v = validators[entry.validator] as ValidatorStake;
      if (v.stake > 0) staked.push(entry);
      else zeroStakeIgnored.push(v.validatorHotkey);
    }
    const outliers = detectOutliersUnchecked(
      staked.map((entry) => entry.score),
      options.outlier,
    );
    const evaluationsUsed: UsedEvaluation[] = [];
    const outliersExcluded: ExcludedEvaluation[] = [];
    let stakeBehind = 0;
    let weighted = 0;
    staked.forEach((entry, k) => {
      const v = validators[entry.validator] as ValidatorStake;
      if (outliers.excluded[k] === true) {
        outliersExcluded.push(Object.freeze({ validatorHotkey: v.validatorHotkey, score: entry.score, stake: v.stake, statistic: outliers.explanation.statistics[k] as number }));
      } else {
        evaluationsUsed.push(Object.freeze({ validatorHotkey: v.validatorHotkey, score: entry.score, stake: v.stake }));
        weighted += v.stake * entry.score;
        stakeBehind += v.stake;
      }
    });
    const stakeFraction = totalStake > 0 ? stakeBehind / totalStake : 0;
    let reason: UnscoredReason | null = null;
    if (evaluationsUsed.length < options.minValidators) reason = 'too_few_validators';
    else if (!(stakeBehind > 0)) reason = 'no_stake';
    else if (stakeFraction < options.minStakeFraction) reason = 'insufficient_stake';
    const score = reason === null ? weighted / stakeBehind : null;
    if (score !== null) scores.push({ hotkey: miner as Hotkey, score });
    miners.push({
      hotkey: miner as Hotkey,
      score,
      reason,
      evaluationsUsed,
      outliersExcluded,
      zeroStakeIgnored,
      outlierBasis: outliers.explanation.basis,
      outlierCentre: outliers.explanation.centre,
      outlierSpread: outliers.explanation.spread,
      stakeBehind,
      stakeFraction,
    });
  }
  return {
    scores,
    explanation: {
      epoch,
      totalStake,
      options: { minValidators: options.minValidators, minStakeFraction: options.minStakeFraction, outlier: { ...options.outlier } },
      miners,
    },
  };
}

/** Validates the validator set and returns it sorted by hotkey (internal). */
export function checkStakes(stakes: readonly ValidatorStake[], path: string): readonly ValidatorStake[] {
  checkArray(stakes, path);
  const seen = new Set<string>();
  const out: ValidatorStake[] = [];
  for (let i = 0; i < stakes.length; i += 1) {
    const s = checkObject(stakes[i], `${path}[${i}]`) as unknown as ValidatorStake;
    const validatorHotkey = checkHotkey(s.validatorHotkey, `${path}[${i}].validatorHotkey`);
    const stake = checkNonNegative(s.stake, `${path}[${i}].stake`);
    if (seen.has(validatorHotkey)) {
      fail(AGGREGATION_ERROR_CODES.duplicateHotkey, 'a validator appears twice in the validator set', `${path}[${i}].validatorHotkey`, validatorHotkey);
    }
    seen.add(validatorHotkey);
    out.push({ validatorHotkey, stake });
  }
  return out.sort((a, b) => compareHotkeys(a.validatorHotkey, b.validatorHotkey));
}
