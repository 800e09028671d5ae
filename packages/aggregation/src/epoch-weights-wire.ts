import type { Hotkey } from '@subnet/core';

import type { AggregationResult, ExcludedEvaluation, MinerAggregation, MinerTable, UnscoredReason, UsedEvaluation, ValidatorStake } from './aggregate.js';
import type { AllocationResult } from './allocate.js';
import type { BountyResult } from './bounty.js';
import type { DecayOptions, DecayState, DecayStepResult } from './decay.js';
import type { ChallengeExplanation, EpochWeightsResult, MinerExplanation } from './epoch-weights.js';
import { epochWeightsUnfrozen } from './epoch-weights.js';
import type { NormalisationOptions, NormalisationResult } from './normalise.js';
import type { HotkeyWeight } from './order.js';
import type { OutlierBasis } from './outliers.js';
import type { EpochInput, PipelineConfig } from './schemas.js';
import type { U16Result } from './u16.js';
import type { UidMappingResult } from './uid-mapping.js';
import type { WeightCapResult } from './weight-cap.js';

/**
 * The epoch weights in wire form (snake_case keys, every node frozen), shape by shape: one object literal
 * per node instead of a generic key walk, a key lookup and a dynamic store per property (the explanation of
 * a 256-miner epoch has thousands of nodes). `Wire<T>` makes each builder's literal match the camelCase
 * type key for key, so a field added to a result fails the build here until it is converted.
 */

/** A camelCase key in snake_case, as `toWire` writes it (`stakeFraction` -> `stake_fraction`, `totalW` -> `total_w`). */
type SnakeKey<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeKey<T>}` : S;

/** A result type in its wire form. */
export type Wire<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer U)[]
    ? readonly Wire<U>[]
    : { readonly [K in keyof T as K extends string ? SnakeKey<K> : never]: Wire<T[K]> };

type Explanation = EpochWeightsResult['explanation'];

const freeze = Object.freeze;

function frozenList<T, U>(list: readonly T[], convert: (item: T) => U): readonly U[] {
  const out = new Array<U>(list.length);
  for (let i = 0; i < list.length; i += 1) out[i] = convert(list[i] as T);
  return freeze(out);
}

function strings<T extends string>(list: readonly T[]): readonly T[] {
  return freeze(list.slice());
}

function hotkeyWeight(w: HotkeyWeight): Wire<HotkeyWeight> {
  return freeze({ hotkey: w.hotkey, weight: w.weight });
}

function minerAggregation(m: MinerAggregation): Wire<MinerAggregation> {
  return freeze({
    hotkey: m.hotkey,
    score: m.score,
    reason: m.reason,
    evaluations_used: frozenList(m.evaluationsUsed, (e) => freeze({ validator_hotkey: e.validatorHotkey, score: e.score, stake: e.stake })),
    outliers_excluded: frozenList(m.outliersExcluded, (e) =>
      freeze({ validator_hotkey: e.validatorHotkey, score: e.score, stake: e.stake, statistic: e.statistic }),
    ),
    zero_stake_ignored: strings(m.zeroStakeIgnored),
    outlier_basis: m.outlierBasis,
    outlier_centre: m.outlierCentre,
    outlier_spread: m.outlierSpread,
    stake_behind: m.stakeBehind,
    stake_fraction: m.stakeFraction,
  });
}

function aggregation(a: AggregationResult['explanation'], table: MinerTable | null): Wire<AggregationResult['explanation']> {
  const o = a.options;
  return freeze({
    epoch: a.epoch,
    total_stake: a.totalStake,
    options: freeze({
      min_validators: o.minValidators,
      min_stake_fraction: o.minStakeFraction,
      outlier: freeze({ method: o.outlier.method, threshold: o.outlier.threshold }),
    }),
    // From the table when there is one: the camelCase rows are never built.
    miners: table === null ? frozenList(a.miners, minerAggregation) : minersOfTable(table),
  });
}

/** The wire rows of an aggregation table, as {@link minerAggregation} of its camelCase rows gives them. */
function minersOfTable(table: MinerTable): readonly Wire<MinerAggregation>[] {
  const count = table.hotkeys.length;
  const out = new Array<Wire<MinerAggregation>>(count);
  for (let p = 0; p < count; p += 1) {
    const zeroStakeIgnored: string[] = [];
    for (let k = table.minerStart[p] as number; k < (table.minerStart[p + 1] as number); k += 1) {
      const v = table.validatorOf[table.ordered[k] as number] as number;
      if (!((table.stakeOf[v] as number) > 0)) zeroStakeIgnored.push((table.validators[v] as ValidatorStake).validatorHotkey);
    }
    const used: Wire<UsedEvaluation>[] = [];
    const excluded: Wire<ExcludedEvaluation>[] = [];
    for (let r = table.rowStart[p] as number; r < (table.rowStart[p + 1] as number); r += 1) {
      const i = table.rowEvaluation[r] as number;
      const v = table.validators[table.validatorOf[i] as number] as ValidatorStake;
      const score = table.scoreOf[i] as number;
      if (table.rowExcluded[r] === 1)
        excluded.push(freeze({ validator_hotkey: v.validatorHotkey, score, stake: v.stake, statistic: table.rowStatistic[r] as number }));
      else used.push(freeze({ validator_hotkey: v.validatorHotkey, score, stake: v.stake }));
    }
    const basis = table.basis[p] as OutlierBasis;
    out[p] = freeze({
      hotkey: table.hotkeys[p] as Hotkey,
      score: table.scores[p] as number | null,
      reason: table.reasons[p] as UnscoredReason | null,
      evaluations_used: freeze(used),
      outliers_excluded: freeze(excluded),
      zero_stake_ignored: freeze(zeroStakeIgnored) as readonly Hotkey[],
      outlier_basis: basis,
      outlier_centre: basis === 'too_few' ? null : (table.centre[p] as number),
      outlier_spread: basis === 'too_few' ? null : (table.spread[p] as number),
      stake_behind: table.stakeBehind[p] as number,
      stake_fraction: table.stakeFraction[p] as number,
    });
  }
  return freeze(out);
}

function bounty(b: BountyResult['explanation']): Wire<BountyResult['explanation']> {
  return freeze({
    total_w: b.totalW,
    miners: frozenList(b.miners, (m) => freeze({ hotkey: m.hotkey, points: m.points, base: m.base, stars: m.stars, w: m.w, penalised: m.penalised })),
  });
}

function normalisation(n: NormalisationResult['explanation']): Wire<NormalisationResult['explanation']> {
  return freeze({
    strategy: n.strategy,
    temperature: n.temperature,
    all_zero: n.allZero,
    denominator: n.denominator,
    miners: frozenList(n.miners, (m) => freeze({ hotkey: m.hotkey, score: m.score, numerator: m.numerator, rank: m.rank })),
    winner: n.winner,
  });
}

function cap(c: WeightCapResult['explanation']): Wire<WeightCapResult['explanation']> {
  return freeze({
    cap: c.cap,
    mass: c.mass,
    rounds: c.rounds,
    capped: strings(c.capped),
    free_sum: c.freeSum,
    remaining: c.remaining,
    infeasible: c.infeasible,
  });
}

function decay(d: DecayStepResult['explanation']): Wire<DecayStepResult['explanation']> {
  return freeze({
    epoch: d.epoch,
    candidate: d.candidate === null ? null : freeze({ hotkey: d.candidate.hotkey, score: d.candidate.score }),
    improvement: d.improvement,
    replaced_top: d.replacedTop,
    epochs_stale: d.epochsStale,
    options: decayOptions(d.options),
  });
}

function decayOptions(o: DecayOptions): Wire<DecayOptions> {
  return freeze({
    grace_epochs: o.graceEpochs,
    rho: o.rho,
    max_burn: o.maxBurn,
    curve: o.curve,
    improvement_threshold: o.improvementThreshold,
    improvement_mode: o.improvementMode,
  });
}

function normalisationOptions(n: NormalisationOptions): Wire<NormalisationOptions> {
  // An absent temperature stays absent (the generic conversion drops undefined).
  return freeze(n.temperature === undefined ? { strategy: n.strategy } : { strategy: n.strategy, temperature: n.temperature });
}

function config(c: PipelineConfig): Wire<PipelineConfig> {
  return freeze({
    min_validators: c.minValidators,
    min_stake_fraction: c.minStakeFraction,
    outlier: freeze({ method: c.outlier.method, threshold: c.outlier.threshold }),
    normalisation: normalisationOptions(c.normalisation),
    weight_cap: c.weightCap,
    burn_uid: c.burnUid,
    decay: decayOptions(c.decay),
    u16_mode: c.u16Mode,
  });
}

function u16(u: U16Result['explanation']): Wire<U16Result['explanation']> {
  return freeze({
    mode: u.mode,
    max_weight: u.maxWeight,
    floor_sum: u.floorSum,
    remainder_units: u.remainderUnits === null ? null : freeze(u.remainderUnits.slice()),
    dropped_zeros: freeze(u.droppedZeros.slice()),
    all_zero: u.allZero,
  });
}

function challenge(c: ChallengeExplanation, table: MinerTable | null): Wire<ChallengeExplanation> {
  return freeze({
    id: c.id,
    kind: c.kind,
    alpha: c.alpha,
    aggregation: c.aggregation === null ? null : aggregation(c.aggregation, table),
    bounty: c.bounty === null ? null : bounty(c.bounty),
    normalisation: c.normalisation === null ? null : normalisation(c.normalisation),
    cap: cap(c.cap),
    decay: c.decay === null ? null : decay(c.decay),
    decay_burn: c.decayBurn,
    weights: frozenList(c.weights, hotkeyWeight),
  });
}

function allocation(a: AllocationResult['explanation']): Wire<AllocationResult['explanation']> {
  return freeze({
    challenges: frozenList(a.challenges, (c) => freeze({ challenge_id: c.challengeId, alpha: c.alpha, miner_mass: c.minerMass, burned: c.burned })),
    alpha_sum: a.alphaSum,
    unallocated: a.unallocated,
    miners: frozenList(a.miners, (m) =>
      freeze({
        hotkey: m.hotkey,
        contributions: frozenList(m.contributions, (c) => freeze({ challenge_id: c.challengeId, weight: c.weight, contribution: c.contribution })),
      }),
    ),
  });
}

function mapping(m: UidMappingResult['explanation']): Wire<UidMappingResult['explanation']> {
  return freeze({
    dropped: frozenList(m.dropped, (d) => freeze({ hotkey: d.hotkey, weight: d.weight })),
    kept_mass: m.keptMass,
    renormalised: m.renormalised,
    all_to_burn: m.allToBurn,
    burn_uid: m.burnUid,
    uids: frozenList(m.uids, (u) => freeze({ hotkey: u.hotkey, uid: u.uid })),
  });
}

function miner(m: MinerExplanation): Wire<MinerExplanation> {
  return freeze({
    hotkey: m.hotkey,
    uid: m.uid,
    challenges: frozenList(m.challenges, (s) =>
      freeze({
        challenge_id: s.challengeId,
        score: s.score,
        unscored_reason: s.unscoredReason,
        normalised: s.normalised,
        capped: s.capped,
        decayed: s.decayed,
        allocated: s.allocated,
      }),
    ),
    allocated: m.allocated,
    mapped: m.mapped,
    u16: m.u16,
  });
}

function explanationWire(e: Explanation, tables: readonly (MinerTable | null)[]): Wire<Explanation> {
  const challenges = new Array<Wire<ChallengeExplanation>>(e.challenges.length);
  for (let c = 0; c < challenges.length; c += 1) challenges[c] = challenge(e.challenges[c] as ChallengeExplanation, tables[c] ?? null);
  return freeze({
    epoch: e.epoch,
    config: config(e.config),
    challenges: freeze(challenges),
    allocation: allocation(e.allocation),
    burn: e.burn,
    mapping: mapping(e.mapping),
    uid_weights: frozenList(e.uidWeights, (w) => freeze({ uid: w.uid, weight: w.weight })),
    u16: u16(e.u16),
    miners: frozenList(e.miners, miner),
    validators: frozenList(e.validators, (v) => freeze({ hotkey: v.hotkey, uid: v.uid, stake: v.stake })),
  });
}

/** The outcome of {@link computeEpochWeightsWire}. */
export interface EpochWeightsWire {
  /** Uids to set, ascending. */
  readonly uids: readonly number[];
  /** Their u16 weights. */
  readonly weights: readonly number[];
  /** Decay state per `evaluations` challenge with decay, to carry into the next epoch, in wire form. */
  readonly decayStates: readonly { readonly challenge_id: string; readonly state: Wire<DecayState> | null }[];
  /** The explanation of {@link computeEpochWeights} in wire form. */
  readonly explanation: Wire<Explanation>;
}

/**
 * {@link computeEpochWeights} with its decay states and explanation in wire form (snake_case keys, every
 * node frozen), built once: the camelCase explanation is neither frozen nor kept, and the per-miner
 * aggregation rows are made from the aggregation's tables directly. This is what an audit bundle stores
 * (`@subnet/bundle` pins it against its generic conversion of the camelCase result).
 *
 * @param input - typed input, as for {@link computeEpochWeights}
 * @returns the uids and u16 weights, the decay states and the explanation, snake_case and frozen
 * @throws SubnetError with an `AGGREGATION_` code naming the offending path and value, as {@link computeEpochWeights}
 * @example computeEpochWeightsWire(parseEpochInput(wire)).explanation.uid_weights // [{ uid: 0, weight: 0.25 }, ...]
 */
export function computeEpochWeightsWire(input: EpochInput): EpochWeightsWire {
  const { result, tables } = epochWeightsUnfrozen(input);
  return freeze({
    uids: freeze(result.uids.slice()),
    weights: freeze(result.weights.slice()),
    decayStates: frozenList(result.decayStates, (d) =>
      freeze({
        challenge_id: d.challengeId,
        state: d.state === null ? null : freeze({ top_score: d.state.topScore, top_epoch: d.state.topEpoch, top_hotkey: d.state.topHotkey }),
      }),
    ),
    explanation: explanationWire(result.explanation, tables),
  });
}
