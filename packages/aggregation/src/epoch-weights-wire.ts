import type { Hotkey } from '@subnet/core';

import type { AggregationResult, ExcludedEvaluation, MinerAggregation, MinerTable, UnscoredReason, UsedEvaluation, ValidatorStake } from './aggregate.js';
import type { AllocationResult } from './allocate.js';
import type { BountyResult } from './bounty.js';
import type { DecayOptions, DecayState, DecayStepResult } from './decay.js';
import type { ChallengeExplanation, EpochWeightsResult, MinerBuilder, MinerExplanation } from './epoch-weights.js';
import { epochWeightsUnfrozen, mergeMinerRows } from './epoch-weights.js';
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

// The long lists (one entry per miner) each have their own loop: one object shape per loop, where a shared
// `frozenList` with a converter per call site is a megamorphic call V8 does not inline.

function hotkeyWeights(list: readonly HotkeyWeight[]): readonly Wire<HotkeyWeight>[] {
  const out = new Array<Wire<HotkeyWeight>>(list.length);
  for (let i = 0; i < list.length; i += 1) {
    const w = list[i] as HotkeyWeight;
    out[i] = freeze({ hotkey: w.hotkey, weight: w.weight });
  }
  return freeze(out);
}

type BountyMiner = BountyResult['explanation']['miners'][number];

function bountyMiners(list: readonly BountyMiner[]): readonly Wire<BountyMiner>[] {
  const out = new Array<Wire<BountyMiner>>(list.length);
  for (let i = 0; i < list.length; i += 1) {
    const m = list[i] as BountyMiner;
    out[i] = freeze({ hotkey: m.hotkey, points: m.points, base: m.base, stars: m.stars, w: m.w, penalised: m.penalised });
  }
  return freeze(out);
}

type NormalisedMiner = NormalisationResult['explanation']['miners'][number];

function normalisationMiners(list: readonly NormalisedMiner[]): readonly Wire<NormalisedMiner>[] {
  const out = new Array<Wire<NormalisedMiner>>(list.length);
  for (let i = 0; i < list.length; i += 1) {
    const m = list[i] as NormalisedMiner;
    out[i] = freeze({ hotkey: m.hotkey, score: m.score, numerator: m.numerator, rank: m.rank });
  }
  return freeze(out);
}

type AllocatedMiner = AllocationResult['explanation']['miners'][number];
type Contribution = AllocatedMiner['contributions'][number];

function allocationMiners(list: readonly AllocatedMiner[]): readonly Wire<AllocatedMiner>[] {
  const out = new Array<Wire<AllocatedMiner>>(list.length);
  for (let i = 0; i < list.length; i += 1) {
    const m = list[i] as AllocatedMiner;
    const contributions = new Array<Wire<Contribution>>(m.contributions.length);
    for (let j = 0; j < contributions.length; j += 1) {
      const c = m.contributions[j] as Contribution;
      contributions[j] = freeze({ challenge_id: c.challengeId, weight: c.weight, contribution: c.contribution });
    }
    out[i] = freeze({ hotkey: m.hotkey, contributions: freeze(contributions) });
  }
  return freeze(out);
}

type MappedUid = UidMappingResult['explanation']['uids'][number];

function mappedUids(list: readonly MappedUid[]): readonly Wire<MappedUid>[] {
  const out = new Array<Wire<MappedUid>>(list.length);
  for (let i = 0; i < list.length; i += 1) {
    const u = list[i] as MappedUid;
    out[i] = freeze({ hotkey: u.hotkey, uid: u.uid });
  }
  return freeze(out);
}

type UidWeightEntry = UidMappingResult['weights'][number];

function uidWeights(list: readonly UidWeightEntry[]): readonly Wire<UidWeightEntry>[] {
  const out = new Array<Wire<UidWeightEntry>>(list.length);
  for (let i = 0; i < list.length; i += 1) {
    const w = list[i] as UidWeightEntry;
    out[i] = freeze({ uid: w.uid, weight: w.weight });
  }
  return freeze(out);
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
    miners: bountyMiners(b.miners),
  });
}

function normalisation(n: NormalisationResult['explanation']): Wire<NormalisationResult['explanation']> {
  return freeze({
    strategy: n.strategy,
    temperature: n.temperature,
    all_zero: n.allZero,
    denominator: n.denominator,
    miners: normalisationMiners(n.miners),
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
    weights: hotkeyWeights(c.weights),
  });
}

function allocation(a: AllocationResult['explanation']): Wire<AllocationResult['explanation']> {
  return freeze({
    challenges: frozenList(a.challenges, (c) => freeze({ challenge_id: c.challengeId, alpha: c.alpha, miner_mass: c.minerMass, burned: c.burned })),
    alpha_sum: a.alphaSum,
    unallocated: a.unallocated,
    miners: allocationMiners(a.miners),
  });
}

function mapping(m: UidMappingResult['explanation']): Wire<UidMappingResult['explanation']> {
  return freeze({
    dropped: frozenList(m.dropped, (d) => freeze({ hotkey: d.hotkey, weight: d.weight })),
    kept_mass: m.keptMass,
    renormalised: m.renormalised,
    all_to_burn: m.allToBurn,
    burn_uid: m.burnUid,
    uids: mappedUids(m.uids),
  });
}

/** The per-miner explanation in wire form, made from the stages by the merge `minerExplanations` uses, without its rows. */
const minersWire: MinerBuilder<readonly Wire<MinerExplanation>[]> = (explained, stagesOf, allocated, byHotkey, mappedByUid, u16ByUid) =>
  freeze(
    mergeMinerRows(
      explained,
      stagesOf,
      allocated,
      byHotkey,
      mappedByUid,
      u16ByUid,
      (challenge, s, k, capped, decayed): Wire<MinerExplanation['challenges'][number]> =>
        freeze({
          challenge_id: challenge.id,
          score: s.scores[k] as number | null,
          unscored_reason: s.reasons[k] as UnscoredReason | null,
          normalised: s.normalised[k] as number,
          capped,
          decayed,
          allocated: challenge.alpha * decayed,
        }),
      (hotkey, uid, stages, allocatedWeight, mapped, u16): Wire<MinerExplanation> =>
        freeze({ hotkey, uid, challenges: freeze(stages), allocated: allocatedWeight, mapped, u16 }),
    ),
  );

function explanationWire(e: Explanation, tables: readonly (MinerTable | null)[], miners: readonly Wire<MinerExplanation>[]): Wire<Explanation> {
  const challenges = new Array<Wire<ChallengeExplanation>>(e.challenges.length);
  for (let c = 0; c < challenges.length; c += 1) challenges[c] = challenge(e.challenges[c] as ChallengeExplanation, tables[c] ?? null);
  return freeze({
    epoch: e.epoch,
    config: config(e.config),
    challenges: freeze(challenges),
    allocation: allocation(e.allocation),
    burn: e.burn,
    mapping: mapping(e.mapping),
    uid_weights: uidWeights(e.uidWeights),
    u16: u16(e.u16),
    miners,
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
  const { result, tables, miners } = epochWeightsUnfrozen(input, minersWire);
  return freeze({
    uids: freeze(result.uids.slice()),
    weights: freeze(result.weights.slice()),
    decayStates: frozenList(result.decayStates, (d) =>
      freeze({
        challenge_id: d.challengeId,
        state: d.state === null ? null : freeze({ top_score: d.state.topScore, top_epoch: d.state.topEpoch, top_hotkey: d.state.topHotkey }),
      }),
    ),
    explanation: explanationWire(result.explanation, tables, miners),
  });
}
