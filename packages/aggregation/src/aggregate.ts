import type { Hotkey } from '@subnet/core';

import { checkArray, checkHotkey, checkInteger, checkNonNegative, checkObject, checkUnit } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { OutlierBasis, OutlierOptions } from './outliers.js';
import { checkOutlierOptions, outlierRule, outlierStatistic, reportedStatistic } from './outliers.js';
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
  return aggregateTable(evaluations, stakes, options, expectedEpoch, evaluationsPath, stakesPath).result;
}

/** {@link aggregateUnchecked}, also returning the per-miner table the pipeline reads instead of the explanation (internal). */
export function aggregateTable(
  evaluations: readonly Evaluation[],
  stakes: readonly ValidatorStake[],
  options: AggregationOptions,
  expectedEpoch: number | undefined,
  evaluationsPath: string,
  stakesPath: string,
): { result: AggregationResult; table: MinerTable } {
  const validators = checkStakes(stakes, stakesPath);
  const validatorCount = validators.length;
  const rank = new Map<string, number>();
  const stakeOf = new Float64Array(validatorCount);
  for (let v = 0; v < validatorCount; v += 1) {
    const validator = validators[v] as ValidatorStake;
    rank.set(validator.validatorHotkey, v);
    stakeOf[v] = validator.stake;
  }
  let totalStake = 0;
  for (const v of validators) totalStake += v.stake;
  if (!Number.isFinite(totalStake)) fail(AGGREGATION_ERROR_CODES.invalidInput, 'the total stake must be finite', stakesPath, totalStake);

  checkArray(evaluations, evaluationsPath);
  let epoch: number | null = expectedEpoch ?? null;
  if (expectedEpoch !== undefined) checkInteger(expectedEpoch, 'epoch');
  // One pass: validate, give each miner a dense id (first-seen order) and remember each evaluation's
  // validator rank and miner id in typed arrays; no per-evaluation object is made.
  const n = evaluations.length;
  const validatorOf = new Int32Array(n);
  const minerOf = new Int32Array(n);
  const scoreOf = new Float64Array(n);
  const minerIds = new Map<string, number>();
  const minerKeys: Hotkey[] = [];
  let lastMinerKey = '';
  let lastMiner = 0;
  for (let i = 0; i < n; i += 1) {
    // Hot loop: paths are only built when something is wrong.
    const e = evaluations[i] as Evaluation | null | undefined;
    const validatorHotkey = e?.validatorHotkey;
    const minerHotkey = e?.minerHotkey;
    const evaluationEpoch = e?.epoch;
    const score = e?.score;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof validatorHotkey !== 'string' ||
      validatorHotkey.length === 0 ||
      typeof minerHotkey !== 'string' ||
      minerHotkey.length === 0 ||
      !Number.isSafeInteger(evaluationEpoch) ||
      (evaluationEpoch as number) < 0 ||
      typeof score !== 'number' ||
      !(score >= 0 && score <= 1)
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
      fail(
        AGGREGATION_ERROR_CODES.unknownValidator,
        "the validator is not in the epoch's validator set (stakes)",
        `${evaluationsPath}[${i}].validatorHotkey`,
        validatorHotkey,
      );
    }
    // Evaluations usually come grouped by miner: reuse the previous id before asking the map.
    let miner = minerHotkey === lastMinerKey ? lastMiner : minerIds.get(minerHotkey as string);
    if (miner === undefined) {
      miner = minerKeys.length;
      minerIds.set(minerHotkey as string, miner);
      minerKeys.push(minerHotkey as Hotkey);
    }
    lastMinerKey = minerHotkey as string;
    lastMiner = miner;
    validatorOf[i] = validator;
    minerOf[i] = miner;
    scoreOf[i] = score as number;
  }

  // Miners in hotkey order: position of each dense id.
  const minerCount = minerKeys.length;
  // The default sort compares strings by UTF-16 code units, exactly as compareHotkeys does, without a
  // JavaScript comparator call per comparison (the keys are unique, so the order is total).
  const sortedKeys = minerKeys.slice().sort();
  const position = new Int32Array(minerCount);
  for (let p = 0; p < minerCount; p += 1) position[minerIds.get(sortedKeys[p] as string) as number] = p;
  // Two stable counting sorts (by validator rank, then by miner position): evaluation indices ordered by
  // (miner hotkey, validator hotkey, input index), the order the SPEC sums in. O(n + miners + validators).
  const byValidator = new Int32Array(n);
  const validatorStart = new Int32Array(validatorCount + 1);
  for (let i = 0; i < n; i += 1) {
    const v = (validatorOf[i] as number) + 1;
    validatorStart[v] = (validatorStart[v] as number) + 1;
  }
  for (let v = 0; v < validatorCount; v += 1) validatorStart[v + 1] = (validatorStart[v + 1] as number) + (validatorStart[v] as number);
  for (let i = 0; i < n; i += 1) {
    const v = validatorOf[i] as number;
    byValidator[validatorStart[v] as number] = i;
    validatorStart[v] = (validatorStart[v] as number) + 1;
  }
  const ordered = new Int32Array(n);
  const minerStart = new Int32Array(minerCount + 1);
  for (let i = 0; i < n; i += 1) {
    const p = (position[minerOf[i] as number] as number) + 1;
    minerStart[p] = (minerStart[p] as number) + 1;
  }
  for (let p = 0; p < minerCount; p += 1) minerStart[p + 1] = (minerStart[p + 1] as number) + (minerStart[p] as number);
  const cursor = minerStart.slice(0, minerCount);
  for (let k = 0; k < n; k += 1) {
    const i = byValidator[k] as number;
    const p = position[minerOf[i] as number] as number;
    ordered[cursor[p] as number] = i;
    cursor[p] = (cursor[p] as number) + 1;
  }

  // Scratch buffers for one miner's scores (at most one evaluation per validator once duplicates are out).
  const stakedScores = new Float64Array(validatorCount);
  const sortedScratch = new Float64Array(validatorCount);
  const deviationScratch = new Float64Array(validatorCount);
  // Everything the per-miner explanation is made of, in typed arrays: the explanation objects are built
  // from these when `explanation.miners` is first read (see buildMiners), not one object per evaluation here.
  const table: MinerTable = {
    hotkeys: sortedKeys,
    validators,
    stakeOf,
    scoreOf,
    validatorOf,
    ordered,
    minerStart,
    rowStart: new Int32Array(minerCount + 1),
    rowEvaluation: new Int32Array(n),
    rowExcluded: new Uint8Array(n),
    rowStatistic: new Float64Array(n),
    scores: [],
    reasons: [],
    basis: [],
    centre: new Float64Array(minerCount),
    spread: new Float64Array(minerCount),
    stakeBehind: new Float64Array(minerCount),
    stakeFraction: new Float64Array(minerCount),
  };
  const { rowEvaluation, rowExcluded, rowStatistic } = table;
  let rows = 0;
  const method = options.outlier.method;
  const threshold = options.outlier.threshold;
  const scores: { hotkey: Hotkey; score: number }[] = [];
  for (let p = 0; p < minerCount; p += 1) {
    const miner = sortedKeys[p] as Hotkey;
    const start = minerStart[p] as number;
    const end = minerStart[p + 1] as number;
    for (let k = start + 1; k < end; k += 1) {
      const previous = ordered[k - 1] as number;
      const current = ordered[k] as number;
      if (validatorOf[previous] === validatorOf[current]) {
        const later = Math.max(previous, current);
        fail(
          AGGREGATION_ERROR_CODES.duplicateEvaluation,
          `a second evaluation of miner ${miner} by validator ${validators[validatorOf[current] as number]?.validatorHotkey} in the same epoch (evaluations[${Math.min(previous, current)}] is the first) is rejected, not averaged; a validator's own hotkey never appears among its peers' evaluations (SPEC C.4), so this may be a self-signed peer document that ingest should have rejected`,
          `${evaluationsPath}[${later}]`,
          evaluations[later],
        );
      }
    }
    const first = rows;
    for (let k = start; k < end; k += 1) {
      const i = ordered[k] as number;
      if ((stakeOf[validatorOf[i] as number] as number) > 0) {
        stakedScores[rows - first] = scoreOf[i] as number;
        rowEvaluation[rows] = i;
        rows += 1;
      }
    }
    table.rowStart[p + 1] = rows;
    const rule = outlierRule(stakedScores, rows - first, method, sortedScratch, deviationScratch);
    const decides = rule.basis === 'mad' || rule.basis === 'mean_ad' || rule.basis === 'zscore';
    let used = 0;
    let stakeBehind = 0;
    let weighted = 0;
    for (let r = first; r < rows; r += 1) {
      const i = rowEvaluation[r] as number;
      const stake = stakeOf[validatorOf[i] as number] as number;
      // Float64Arrays keep every double bit for bit (a -0 stays -0).
      const score = scoreOf[i] as number;
      const statistic = decides ? outlierStatistic(rule, score) : 0;
      if (decides && Math.abs(statistic) > threshold) {
        rowExcluded[r] = 1;
        rowStatistic[r] = reportedStatistic(statistic);
      } else {
        used += 1;
        weighted += stake * score;
        stakeBehind += stake;
      }
    }
    const stakeFraction = totalStake > 0 ? stakeBehind / totalStake : 0;
    let reason: UnscoredReason | null = null;
    if (used < options.minValidators) reason = 'too_few_validators';
    else if (!(stakeBehind > 0)) reason = 'no_stake';
    else if (stakeFraction < options.minStakeFraction) reason = 'insufficient_stake';
    const score = reason === null ? weighted / stakeBehind : null;
    if (score !== null) scores.push({ hotkey: miner, score });
    table.scores.push(score);
    table.reasons.push(reason);
    table.basis.push(rule.basis);
    table.centre[p] = rule.centre ?? 0;
    table.spread[p] = rule.spread ?? 0;
    table.stakeBehind[p] = stakeBehind;
    table.stakeFraction[p] = stakeFraction;
  }
  let miners: readonly MinerAggregation[] | null = null;
  return {
    result: {
      scores,
      // Frozen here (so a deep freeze of a containing result stops at it); `miners` is built, deeply frozen,
      // on first read and is the same array on every later read.
      explanation: Object.freeze({
        epoch,
        totalStake,
        options: Object.freeze({
          minValidators: options.minValidators,
          minStakeFraction: options.minStakeFraction,
          outlier: Object.freeze({ ...options.outlier }),
        }),
        get miners(): readonly MinerAggregation[] {
          miners ??= buildMiners(table);
          return miners;
        },
      }),
    },
    table,
  };
}

/** The per-miner explanation of an aggregation, as typed arrays (internal). */
export interface MinerTable {
  /** Miners by hotkey; every other per-miner list is aligned with it. */
  readonly hotkeys: readonly Hotkey[];
  readonly scores: (number | null)[];
  readonly reasons: (UnscoredReason | null)[];
  readonly basis: OutlierBasis[];
  /** Centre and spread of the outlier rule (meaningless when the basis is `too_few`). */
  readonly centre: Float64Array;
  readonly spread: Float64Array;
  readonly stakeBehind: Float64Array;
  readonly stakeFraction: Float64Array;
  /** The validator set by hotkey and its stakes. */
  readonly validators: readonly ValidatorStake[];
  readonly stakeOf: Float64Array;
  /** Per evaluation index: its score and its validator's rank. */
  readonly scoreOf: Float64Array;
  readonly validatorOf: Int32Array;
  /** Evaluation indices by (miner, validator); miner p owns ordered[minerStart[p] .. minerStart[p + 1]). */
  readonly ordered: Int32Array;
  readonly minerStart: Int32Array;
  /** Staked evaluations by (miner, validator); miner p owns rows rowStart[p] .. rowStart[p + 1]. */
  readonly rowStart: Int32Array;
  readonly rowEvaluation: Int32Array;
  /** 1 when the row was excluded as an outlier, with its (reported) statistic. */
  readonly rowExcluded: Uint8Array;
  readonly rowStatistic: Float64Array;
}

/** Builds the deeply frozen per-miner explanation from a table (internal). */
function buildMiners(table: MinerTable): readonly MinerAggregation[] {
  const miners: MinerAggregation[] = [];
  for (let p = 0; p < table.hotkeys.length; p += 1) {
    const zeroStakeIgnored: Hotkey[] = [];
    for (let k = table.minerStart[p] as number; k < (table.minerStart[p + 1] as number); k += 1) {
      const v = table.validatorOf[table.ordered[k] as number] as number;
      if (!((table.stakeOf[v] as number) > 0)) zeroStakeIgnored.push((table.validators[v] as ValidatorStake).validatorHotkey);
    }
    const evaluationsUsed: UsedEvaluation[] = [];
    const outliersExcluded: ExcludedEvaluation[] = [];
    for (let r = table.rowStart[p] as number; r < (table.rowStart[p + 1] as number); r += 1) {
      const i = table.rowEvaluation[r] as number;
      const v = table.validators[table.validatorOf[i] as number] as ValidatorStake;
      const score = table.scoreOf[i] as number;
      if (table.rowExcluded[r] === 1) {
        outliersExcluded.push(Object.freeze({ validatorHotkey: v.validatorHotkey, score, stake: v.stake, statistic: table.rowStatistic[r] as number }));
      } else evaluationsUsed.push(Object.freeze({ validatorHotkey: v.validatorHotkey, score, stake: v.stake }));
    }
    const basis = table.basis[p] as OutlierBasis;
    miners.push(
      Object.freeze({
        hotkey: table.hotkeys[p] as Hotkey,
        score: table.scores[p] as number | null,
        reason: table.reasons[p] as UnscoredReason | null,
        evaluationsUsed: Object.freeze(evaluationsUsed),
        outliersExcluded: Object.freeze(outliersExcluded),
        zeroStakeIgnored: Object.freeze(zeroStakeIgnored),
        outlierBasis: basis,
        outlierCentre: basis === 'too_few' ? null : (table.centre[p] as number),
        outlierSpread: basis === 'too_few' ? null : (table.spread[p] as number),
        stakeBehind: table.stakeBehind[p] as number,
        stakeFraction: table.stakeFraction[p] as number,
      }),
    );
  }
  return Object.freeze(miners);
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
