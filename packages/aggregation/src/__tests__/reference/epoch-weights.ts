// Slow reference: the implementation before the performance rewrite (commit 5f1f640), kept verbatim for reference.test.ts; only import paths changed. Do not optimise.
import { compareCodePoints } from '@subnet/core';
import type { Hotkey } from '@subnet/core';

import type { AggregationResult, UnscoredReason } from './aggregate.js';
import { aggregateUnchecked, checkAggregationOptions } from './aggregate.js';
import type { AllocationResult } from './allocate.js';
import { allocateUnchecked } from './allocate.js';
import type { BountyResult } from '../../bounty.js';
import { bountyWeights } from '../../bounty.js';
import { checkArray, checkHotkey, checkInteger, checkObject, checkOneOf, checkUid, checkUnit } from '../../checks.js';
import type { DecayState, DecayStepResult } from '../../decay.js';
import { checkDecayOptions, checkDecayState, decayUnchecked } from '../../decay.js';
import { AGGREGATION_ERROR_CODES, fail } from '../../errors.js';
import type { MinerScore, NormalisationOptions, NormalisationResult } from '../../normalise.js';
import { checkNormalisationOptions, normaliseUnchecked } from '../../normalise.js';
import type { HotkeyWeight } from './order.js';
import { compareHotkeys, deepFreeze } from './order.js';
import type { ChallengeInput, EpochInput, PipelineConfig } from '../../schemas.js';
import type { U16Result } from './u16.js';
import { toU16Unchecked } from './u16.js';
import type { UidMappingResult } from './uid-mapping.js';
import { checkMetagraph, mapUnchecked } from './uid-mapping.js';
import type { WeightCapResult } from '../../weight-cap.js';
import { capUnchecked, checkCap } from '../../weight-cap.js';

/** One challenge's stages, as run. */
export interface ChallengeExplanation {
  readonly id: string;
  readonly kind: 'evaluations' | 'bounty';
  readonly alpha: number;
  /** `evaluations` challenges: the aggregation (null for bounty). */
  readonly aggregation: AggregationResult['explanation'] | null;
  /** `bounty` challenges: each hunter's W (null for evaluations). */
  readonly bounty: BountyResult['explanation'] | null;
  /** Normalisation (null for bounty, whose W / Σ W is its normalisation). */
  readonly normalisation: NormalisationResult['explanation'] | null;
  readonly cap: WeightCapResult['explanation'];
  /** Reward decay (null when it does not apply). */
  readonly decay: DecayStepResult['explanation'] | null;
  /** Share of the challenge's miner weight burned by decay (0 without decay). */
  readonly decayBurn: number;
  /** Miner weights within the challenge after every stage, by hotkey. */
  readonly weights: readonly HotkeyWeight[];
}

/** One miner's path through one challenge. */
export interface MinerChallengeStages {
  readonly challengeId: string;
  /** Aggregated score (evaluations) or W (bounty); null when unscored. */
  readonly score: number | null;
  readonly unscoredReason: UnscoredReason | null;
  readonly normalised: number;
  readonly capped: number;
  /** After the decay multiplier. */
  readonly decayed: number;
  /** α·decayed: this challenge's contribution to the final weight. */
  readonly allocated: number;
}

/** One miner's whole path, for auditors. */
export interface MinerExplanation {
  readonly hotkey: Hotkey;
  /** Its uid, or null when the metagraph does not know it (dropped). */
  readonly uid: number | null;
  readonly challenges: readonly MinerChallengeStages[];
  /** Σ of the challenge contributions (before the uid mapping). */
  readonly allocated: number;
  /** The weight of its uid after the mapping (and renormalisation; the burn included when its uid is the burn uid), 0 when dropped. */
  readonly mapped: number;
  /** Its u16 weight (0 when dropped or rounded away). */
  readonly u16: number;
}

/** The outcome of {@link computeEpochWeights}. */
export interface EpochWeightsResult {
  /** Uids to set, ascending. */
  readonly uids: readonly number[];
  /** Their u16 weights. */
  readonly weights: readonly number[];
  /** Decay state per `evaluations` challenge with decay, to carry into the next epoch (by challenge id). */
  readonly decayStates: readonly { readonly challengeId: string; readonly state: DecayState | null }[];
  readonly explanation: {
    readonly epoch: number;
    readonly config: PipelineConfig;
    readonly challenges: readonly ChallengeExplanation[];
    readonly allocation: AllocationResult['explanation'];
    /** The burn before the uid mapping (unallocated + cap + decay + empty challenges). */
    readonly burn: number;
    readonly mapping: UidMappingResult['explanation'];
    /** Weights by uid before u16. */
    readonly uidWeights: UidMappingResult['weights'];
    readonly u16: U16Result['explanation'];
    /** Every miner that appears in any challenge, by hotkey. */
    readonly miners: readonly MinerExplanation[];
  };
}

function checkConfig(config: PipelineConfig): void {
  checkObject(config, 'config');
  checkAggregationOptions(
    { minValidators: config.minValidators, minStakeFraction: config.minStakeFraction, outlier: config.outlier },
    'config',
  );
  checkNormalisationOptions(config.normalisation, 'config.normalisation');
  checkCap(config.weightCap, 'config.weightCap');
  checkUid(config.burnUid, 'config.burnUid');
  checkDecayOptions(config.decay, 'config.decay');
  checkOneOf(config.u16Mode, ['sum', 'max'], 'config.u16Mode');
}

/**
 * Runs the whole aggregation for one epoch (SPEC C): per challenge (sorted by id) aggregate the
 * evaluations (or score the bounty records), normalise, cap, decay; allocate across challenges by α; map
 * hotkeys to uids; convert to u16. Everything is keyed by hotkey until the uid mapping and sorted by explicit
 * keys, so the result does not depend on the order of any input list.
 *
 * @param input - typed input (parse wire JSON with `parseEpochInput`): config, epoch, challenges, the epoch's
 *   validator set with stakes, and the metagraph
 * @returns the uids and u16 weights to set, the decay states to keep, and a per-stage, per-miner explanation
 * @throws SubnetError with an `AGGREGATION_` code naming the offending path and value
 * @example
 * const { uids, weights, explanation } = computeEpochWeights({ config: DEFAULT_PIPELINE_CONFIG, epoch: 12,
 *   challenges: [{ id: 'term', kind: 'evaluations', alpha: 1, decay: true, evaluations }], stakes, metagraph });
 */
export function computeEpochWeights(input: EpochInput): EpochWeightsResult {
  checkObject(input, 'input');
  const config = input.config;
  checkConfig(config);
  const epoch = checkInteger(input.epoch, 'epoch');
  checkArray(input.challenges, 'challenges');
  const byHotkey = checkMetagraph(input.metagraph, 'metagraph');

  const indexed = input.challenges.map((raw, i) => ({ challenge: checkObject(raw, `challenges[${i}]`) as unknown as ChallengeInput, i }));
  indexed.sort((a, b) => compareCodePoints(a.challenge.id, b.challenge.id));
  const alphas: Record<string, number> = {};
  const explained: ChallengeExplanation[] = [];
  const decayStates: { challengeId: string; state: DecayState | null }[] = [];
  const scoreOf = new Map<string, Map<string, { score: number | null; reason: UnscoredReason | null }>>();
  const normalisedOf = new Map<string, ReadonlyMap<string, number>>();
  const cappedOf = new Map<string, ReadonlyMap<string, number>>();
  for (let k = 0; k < indexed.length; k += 1) {
    const { challenge: c, i } = indexed[k] as { challenge: ChallengeInput; i: number };
    const path = `challenges[${i}]`;
    if (typeof c.id !== 'string' || c.id.length === 0) fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a challenge id', `${path}.id`, c.id);
    if (k > 0 && (indexed[k - 1] as { challenge: ChallengeInput }).challenge.id === c.id) {
      fail(AGGREGATION_ERROR_CODES.duplicateChallenge, 'a challenge appears twice', `${path}.id`, c.id);
    }
    alphas[c.id] = checkUnit(c.alpha, `${path}.alpha`);
    const cap = c.weightCap === undefined ? config.weightCap : checkCap(c.weightCap, `${path}.weightCap`);
    const scores = new Map<string, { score: number | null; reason: UnscoredReason | null }>();
    scoreOf.set(c.id, scores);
    if (c.kind === 'bounty') {
      if (c.decay) fail(AGGREGATION_ERROR_CODES.invalidInput, 'reward decay applies to evaluation challenges only', `${path}.decay`, c.decay);
      const bounty = bountyWeights(c.records ?? []);
      for (const m of bounty.explanation.miners) scores.set(m.hotkey, { score: m.w, reason: null });
      normalisedOf.set(c.id, new Map(bounty.weights.map((w) => [w.hotkey, w.weight])));
      const capped = capUnchecked(bounty.weights, cap, config.burnUid);
      cappedOf.set(c.id, new Map(capped.weights.map((w) => [w.hotkey, w.weight])));
      explained.push({
        id: c.id,
        kind: 'bounty',
        alpha: c.alpha,
        aggregation: null,
        bounty: bounty.explanation,
        normalisation: null,
        cap: capped.explanation,
        decay: null,
        decayBurn: 0,
        weights: capped.weights,
      });
      continue;
    }
    checkOneOf(c.kind, ['evaluations', 'bounty'], `${path}.kind`);
    const normalisation: NormalisationOptions = c.normalisation ?? config.normalisation;
    if (c.normalisation !== undefined) checkNormalisationOptions(c.normalisation, `${path}.normalisation`);
    const aggregation = aggregateUnchecked(
      c.evaluations ?? [],
      input.stakes,
      { minValidators: config.minValidators, minStakeFraction: config.minStakeFraction, outlier: config.outlier },
      epoch,
      `${path}.evaluations`,
      'stakes',
    );
    for (const m of aggregation.explanation.miners) scores.set(m.hotkey, { score: m.score, reason: m.reason });
    const submittedAt = new Map<string, number>();
    if (c.submissions !== undefined) {
      checkArray(c.submissions, `${path}.submissions`);
      c.submissions.forEach((s, j) => {
        checkObject(s, `${path}.submissions[${j}]`);
        checkHotkey(s.hotkey, `${path}.submissions[${j}].hotkey`);
        if (submittedAt.has(s.hotkey)) fail(AGGREGATION_ERROR_CODES.duplicateHotkey, 'a miner has two submissions', `${path}.submissions[${j}].hotkey`, s.hotkey);
        submittedAt.set(s.hotkey, checkInteger(s.submittedAt, `${path}.submissions[${j}].submittedAt`));
      });
    }
    const minerScores: MinerScore[] = aggregation.scores.map((s) => {
      const at = submittedAt.get(s.hotkey);
      return at === undefined ? { hotkey: s.hotkey, score: s.score } : { hotkey: s.hotkey, score: s.score, submittedAt: at };
    });
    const normalised = normaliseUnchecked(minerScores, normalisation);
    normalisedOf.set(c.id, new Map(normalised.weights.map((w) => [w.hotkey, w.weight])));
    const capped = capUnchecked(normalised.weights, cap, config.burnUid);
    cappedOf.set(c.id, new Map(capped.weights.map((w) => [w.hotkey, w.weight])));
    let decay: DecayStepResult | null = null;
    if (c.decay) {
      const previous = c.decayState ?? null;
      checkDecayState(previous, `${path}.decayState`);
      decay = decayUnchecked(previous, epoch, minerScores, config.decay);
      decayStates.push({ challengeId: c.id, state: decay.state });
    }
    const keep = decay === null ? 1 : decay.keep;
    const weights = keep === 1 ? capped.weights : capped.weights.map((w) => ({ hotkey: w.hotkey, weight: w.weight * keep }));
    explained.push({
      id: c.id,
      kind: 'evaluations',
      alpha: c.alpha,
      aggregation: aggregation.explanation,
      bounty: null,
      normalisation: normalised.explanation,
      cap: capped.explanation,
      decay: decay === null ? null : decay.explanation,
      decayBurn: decay === null ? 0 : decay.burn,
      weights,
    });
  }

  const allocation = allocateUnchecked(
    explained.map((c) => ({ challengeId: c.id, weights: c.weights })),
    alphas,
    config.burnUid,
  );
  const mapping = mapUnchecked(allocation.weights, allocation.burn, byHotkey, config.burnUid);
  const u16 = toU16Unchecked(mapping.weights, config.u16Mode);

  const mappedByUid = new Map(mapping.weights.map((w) => [w.uid, w.weight]));
  const u16ByUid = new Map<number, number>();
  u16.uids.forEach((uid, j) => u16ByUid.set(uid, u16.weights[j] as number));
  const allocatedOf = new Map<string, number>(allocation.weights.map((w) => [w.hotkey, w.weight]));
  const everyone = new Set<string>();
  for (const scores of scoreOf.values()) for (const h of scores.keys()) everyone.add(h);
  const miners: MinerExplanation[] = [...everyone].sort(compareHotkeys).map((hotkey) => {
    const uid = byHotkey.get(hotkey) ?? null;
    const stages: MinerChallengeStages[] = [];
    for (const c of explained) {
      const s = scoreOf.get(c.id)?.get(hotkey);
      if (s === undefined) continue;
      const cappedWeight = cappedOf.get(c.id)?.get(hotkey) ?? 0;
      const decayed = c.decayBurn === 0 ? cappedWeight : cappedWeight * (1 - c.decayBurn);
      stages.push({
        challengeId: c.id,
        score: s.score,
        unscoredReason: s.reason,
        normalised: normalisedOf.get(c.id)?.get(hotkey) ?? 0,
        capped: cappedWeight,
        decayed,
        allocated: c.alpha * decayed,
      });
    }
    return {
      hotkey: hotkey as Hotkey,
      uid,
      challenges: stages,
      allocated: allocatedOf.get(hotkey) ?? 0,
      mapped: uid === null ? 0 : (mappedByUid.get(uid) ?? 0),
      u16: uid === null ? 0 : (u16ByUid.get(uid) ?? 0),
    };
  });

  return deepFreeze({
    uids: u16.uids,
    weights: u16.weights,
    decayStates,
    explanation: {
      epoch,
      config: { ...config, outlier: { ...config.outlier }, normalisation: { ...config.normalisation }, decay: { ...config.decay } },
      challenges: explained,
      allocation: allocation.explanation,
      burn: allocation.burn,
      mapping: mapping.explanation,
      uidWeights: mapping.weights,
      u16: u16.explanation,
      miners,
    },
  });
}
