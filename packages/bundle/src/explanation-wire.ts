import type {
  AggregationResult,
  AllocationResult,
  BountyResult,
  ChallengeExplanation,
  EpochWeightsResult,
  HotkeyWeight,
  MinerAggregation,
  MinerExplanation,
  NormalisationResult,
  UidMappingResult,
  WeightCapResult,
} from '@subnet/aggregation';

import { toWire } from './wire.js';

/**
 * The wire form of `@subnet/aggregation`'s epoch explanation, shape by shape (internal): exactly what the
 * generic {@link toWire} gives (the same keys in the same order, snake_case, every object and array
 * frozen), built with one object literal per node instead of a key walk, a key lookup and a dynamic store
 * per property. The explanation of a 256-miner epoch has thousands of nodes; the generic walk was a third
 * of `computeEpoch`. The small, irregular parts (configuration, options, decay, u16) still take
 * {@link toWire}.
 *
 * `Wire<T>` makes each builder's literal match the camelCase type key for key, so a field added to an
 * aggregation result fails the build here until it is converted; `explanation-wire.test.ts` pins the
 * output against {@link toWire} (key order, -0, frozenness) on generated epochs.
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

function aggregation(a: AggregationResult['explanation']): Wire<AggregationResult['explanation']> {
  return freeze({
    epoch: a.epoch,
    total_stake: a.totalStake,
    options: toWire(a.options) as Wire<AggregationResult['explanation']['options']>,
    miners: frozenList(a.miners, minerAggregation),
  });
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

function challenge(c: ChallengeExplanation): Wire<ChallengeExplanation> {
  return freeze({
    id: c.id,
    kind: c.kind,
    alpha: c.alpha,
    aggregation: c.aggregation === null ? null : aggregation(c.aggregation),
    bounty: c.bounty === null ? null : bounty(c.bounty),
    normalisation: c.normalisation === null ? null : normalisation(c.normalisation),
    cap: cap(c.cap),
    decay: toWire(c.decay) as Wire<ChallengeExplanation['decay']>,
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

/**
 * `toWire(explanation)` for the explanation of `computeEpochWeights` (internal).
 *
 * @param e - the explanation
 * @returns its frozen snake_case copy, equal to `toWire(e)` key for key
 */
export function epochExplanationWire(e: Explanation): Wire<Explanation> {
  return freeze({
    epoch: e.epoch,
    config: toWire(e.config) as Wire<Explanation['config']>,
    challenges: frozenList(e.challenges, challenge),
    allocation: allocation(e.allocation),
    burn: e.burn,
    mapping: mapping(e.mapping),
    uid_weights: frozenList(e.uidWeights, (w) => freeze({ uid: w.uid, weight: w.weight })),
    u16: toWire(e.u16) as Wire<Explanation['u16']>,
    miners: frozenList(e.miners, miner),
    validators: frozenList(e.validators, (v) => freeze({ hotkey: v.hotkey, uid: v.uid, stake: v.stake })),
  });
}
