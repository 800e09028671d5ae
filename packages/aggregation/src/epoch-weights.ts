import { compareCodePoints } from '@subnet/core';
import type { Hotkey } from '@subnet/core';

import type { AggregationResult, MinerTable, UnscoredReason } from './aggregate.js';
import { aggregateTable, checkAggregationOptions, checkStakes } from './aggregate.js';
import type { AllocationResult } from './allocate.js';
import { allocateUnchecked } from './allocate.js';
import type { BountyResult } from './bounty.js';
import { bountyUnchecked, checkBountyRecords } from './bounty.js';
import { checkArray, checkChallengeId, checkHotkey, checkInteger, checkObject, checkOneOf, checkUid, checkUnit } from './checks.js';
import type { DecayState, DecayStepResult } from './decay.js';
import { checkDecayOptions, checkDecayState, decayUnchecked } from './decay.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { MinerScore, NormalisationOptions, NormalisationResult } from './normalise.js';
import { checkNormalisationOptions, normaliseUnchecked } from './normalise.js';
import type { HotkeyWeight } from './order.js';
import { compareHotkeys, deepFreeze } from './order.js';
import type { ChallengeInput, EpochInput, PipelineConfig } from './schemas.js';
import type { U16Result } from './u16.js';
import { toU16Unchecked } from './u16.js';
import type { UidMappingResult, UidWeight } from './uid-mapping.js';
import { checkMetagraph, mapUnchecked } from './uid-mapping.js';
import type { WeightCapResult } from './weight-cap.js';
import { capUnchecked, checkCap } from './weight-cap.js';

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
  /** Its uid, or null when the metagraph does not list it (then it took no share of any challenge). */
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
    /** The epoch's validator set by hotkey: stake and uid (null when the metagraph does not list it). */
    readonly validators: readonly { readonly hotkey: Hotkey; readonly uid: number | null; readonly stake: number }[];
  };
}

/** One challenge's miners (sorted by hotkey) and their stage values, as aligned lists (internal). */
export interface ChallengeStages {
  readonly hotkeys: readonly Hotkey[];
  readonly scores: readonly (number | null)[];
  readonly reasons: readonly (UnscoredReason | null)[];
  /** 0 for an unscored miner. */
  readonly normalised: readonly number[];
  /** 0 for an unscored miner. */
  readonly capped: readonly number[];
}

/**
 * Aligns normalised and capped weights (the miners that took part, a subsequence by hotkey) with every miner
 * of the challenge; the others get 0.
 */
function alignedStages(
  hotkeys: readonly Hotkey[],
  scores: readonly (number | null)[],
  reasons: readonly (UnscoredReason | null)[],
  normalised: readonly HotkeyWeight[],
  capped: readonly HotkeyWeight[],
): ChallengeStages {
  const count = hotkeys.length;
  const normalisedOut: number[] = new Array<number>(count);
  const cappedOut: number[] = new Array<number>(count);
  let j = 0;
  for (let k = 0; k < count; k += 1) {
    // Normalisation and the cap keep exactly the miners that took part, in the same (hotkey) order.
    const w = normalised[j];
    if (w !== undefined && w.hotkey === hotkeys[k]) {
      normalisedOut[k] = w.weight;
      cappedOut[k] = (capped[j] as HotkeyWeight).weight;
      j += 1;
    } else {
      normalisedOut[k] = 0;
      cappedOut[k] = 0;
    }
  }
  return { hotkeys, scores, reasons, normalised: normalisedOut, capped: cappedOut };
}

/**
 * Every miner of any challenge, by hotkey, with its path through each challenge (in id order): a k-way
 * merge of the challenges' sorted miner lists, each row made by `minerRow` from its stages, each stage by
 * `stageRow` (internal: the camelCase rows below and the wire rows of `epoch-weights-wire.ts` share it).
 */
export function mergeMinerRows<S, M>(
  explained: readonly ChallengeExplanation[],
  stagesOf: readonly ChallengeStages[],
  allocated: readonly HotkeyWeight[],
  byHotkey: ReadonlyMap<string, number>,
  mappedByUid: Float64Array,
  u16ByUid: Float64Array,
  stageRow: (challenge: ChallengeExplanation, s: ChallengeStages, k: number, capped: number, decayed: number) => S,
  minerRow: (hotkey: Hotkey, uid: number | null, stages: S[], allocated: number, mapped: number, u16: number) => M,
): M[] {
  const heads = new Int32Array(stagesOf.length);
  const miners: M[] = [];
  let a = 0;
  for (;;) {
    let hotkey: Hotkey | undefined;
    for (let c = 0; c < stagesOf.length; c += 1) {
      const h = (stagesOf[c] as ChallengeStages).hotkeys[heads[c] as number];
      if (h !== undefined && (hotkey === undefined || compareHotkeys(h, hotkey) < 0)) hotkey = h;
    }
    if (hotkey === undefined) break;
    const stages: S[] = [];
    for (let c = 0; c < stagesOf.length; c += 1) {
      const s = stagesOf[c] as ChallengeStages;
      const k = heads[c] as number;
      if (s.hotkeys[k] !== hotkey) continue;
      heads[c] = k + 1;
      const challenge = explained[c] as ChallengeExplanation;
      const cappedWeight = s.capped[k] as number;
      const decayed = challenge.decayBurn === 0 ? cappedWeight : cappedWeight * (1 - challenge.decayBurn);
      stages.push(stageRow(challenge, s, k, cappedWeight, decayed));
    }
    // Allocated miners are a subset of these, in the same order.
    while (a < allocated.length && compareHotkeys((allocated[a] as HotkeyWeight).hotkey, hotkey) < 0) a += 1;
    const allocation = allocated[a];
    const uid = byHotkey.get(hotkey) ?? null;
    miners.push(
      minerRow(
        hotkey,
        uid,
        stages,
        allocation !== undefined && allocation.hotkey === hotkey ? allocation.weight : 0,
        uid === null ? 0 : byUid(mappedByUid, uid),
        uid === null ? 0 : byUid(u16ByUid, uid),
      ),
    );
  }
  return miners;
}

/** The per-miner explanation, rows built frozen ({@link mergeMinerRows}). */
function minerExplanations(
  explained: readonly ChallengeExplanation[],
  stagesOf: readonly ChallengeStages[],
  allocated: readonly HotkeyWeight[],
  byHotkey: ReadonlyMap<string, number>,
  mappedByUid: Float64Array,
  u16ByUid: Float64Array,
): MinerExplanation[] {
  return mergeMinerRows(
    explained,
    stagesOf,
    allocated,
    byHotkey,
    mappedByUid,
    u16ByUid,
    (challenge, s, k, capped, decayed): MinerChallengeStages =>
      Object.freeze({
        challengeId: challenge.id,
        score: s.scores[k] as number | null,
        unscoredReason: s.reasons[k] as UnscoredReason | null,
        normalised: s.normalised[k] as number,
        capped,
        decayed,
        allocated: challenge.alpha * decayed,
      }),
    (hotkey, uid, stages, allocatedWeight, mapped, u16): MinerExplanation =>
      Object.freeze({ hotkey, uid, challenges: Object.freeze(stages), allocated: allocatedWeight, mapped, u16 }),
  );
}

/** The value of `uid` in a table indexed by uid (0 past its end: a uid the table does not hold). */
function byUid(table: Float64Array, uid: number): number {
  return uid < table.length ? (table[uid] as number) : 0;
}

/** Builds the per-miner explanation from the stages (internal): {@link minerExplanations} or its wire form. */
export type MinerBuilder<M> = (
  explained: readonly ChallengeExplanation[],
  stagesOf: readonly ChallengeStages[],
  allocated: readonly HotkeyWeight[],
  byHotkey: ReadonlyMap<string, number>,
  mappedByUid: Float64Array,
  u16ByUid: Float64Array,
) => M;

function checkConfig(config: PipelineConfig): void {
  checkObject(config, 'config');
  checkAggregationOptions({ minValidators: config.minValidators, minStakeFraction: config.minStakeFraction, outlier: config.outlier }, 'config');
  checkNormalisationOptions(config.normalisation, 'config.normalisation');
  checkCap(config.weightCap, 'config.weightCap');
  checkUid(config.burnUid, 'config.burnUid');
  checkDecayOptions(config.decay, 'config.decay');
  checkOneOf(config.u16Mode, ['sum', 'max'], 'config.u16Mode');
}

/**
 * Runs the whole aggregation for one epoch (SPEC C): per challenge (sorted by id) aggregate the
 * evaluations (or score the bounty records), leave out hotkeys the metagraph does not list (they keep their
 * score in the explanation and take no share, SPEC C.9), normalise, cap, decay; allocate across challenges by
 * α; map hotkeys to uids; convert to u16. Everything is keyed by hotkey until the uid mapping and sorted by explicit
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
  return deepFreeze(epochWeightsUnfrozen(input).result);
}

/**
 * {@link computeEpochWeights} before its deep freeze (internal), with each challenge's aggregation table
 * (null for bounty), from which the wire form builds the per-miner aggregation without the camelCase rows.
 */
export function epochWeightsUnfrozen(input: EpochInput): { result: EpochWeightsResult; tables: readonly (MinerTable | null)[] };
/**
 * With `buildMiners`, the per-miner explanation is made by it (returned as `miners`) and `explanation.miners`
 * is left empty (internal: the wire form builds its rows from the stages, not from camelCase rows).
 */
export function epochWeightsUnfrozen<M>(
  input: EpochInput,
  buildMiners: MinerBuilder<M>,
): { result: EpochWeightsResult; tables: readonly (MinerTable | null)[]; miners: M };
export function epochWeightsUnfrozen<M>(
  input: EpochInput,
  buildMiners?: MinerBuilder<M>,
): { result: EpochWeightsResult; tables: readonly (MinerTable | null)[]; miners?: M } {
  checkObject(input, 'input');
  const config = input.config;
  checkConfig(config);
  const epoch = checkInteger(input.epoch, 'epoch');
  checkArray(input.challenges, 'challenges');
  const byHotkey = checkMetagraph(input.metagraph, 'metagraph');
  const validatorSet = checkStakes(input.stakes, 'stakes');

  const indexed = input.challenges.map((raw, i) => {
    const challenge = checkObject(raw, `challenges[${i}]`) as unknown as ChallengeInput;
    checkChallengeId(challenge.id, `challenges[${i}].id`);
    checkOneOf(challenge.kind, ['evaluations', 'bounty'], `challenges[${i}].kind`);
    if (typeof challenge.decay !== 'boolean')
      fail(AGGREGATION_ERROR_CODES.invalidInput, 'the decay flag must be a boolean', `challenges[${i}].decay`, challenge.decay);
    return { challenge, i };
  });
  indexed.sort((a, b) => compareCodePoints(a.challenge.id, b.challenge.id));
  const alphas = new Map<string, number>();
  const explained: ChallengeExplanation[] = [];
  const decayStates: { challengeId: string; state: DecayState | null }[] = [];
  // Per challenge (in id order), its miners by hotkey with their score, normalised and capped weight.
  const stagesOf: ChallengeStages[] = [];
  const tables: (MinerTable | null)[] = [];
  for (let k = 0; k < indexed.length; k += 1) {
    const { challenge: c, i } = indexed[k] as { challenge: ChallengeInput; i: number };
    const path = `challenges[${i}]`;
    if (k > 0 && (indexed[k - 1] as { challenge: ChallengeInput }).challenge.id === c.id) {
      fail(AGGREGATION_ERROR_CODES.duplicateChallenge, 'a challenge appears twice', `${path}.id`, c.id);
    }
    alphas.set(c.id, checkUnit(c.alpha, `${path}.alpha`));
    const cap = c.weightCap === undefined ? config.weightCap : checkCap(c.weightCap, `${path}.weightCap`);
    const stage =
      c.kind === 'bounty' ? bountyChallenge(c, path, cap, config, byHotkey) : evaluationChallenge(c, path, cap, config, epoch, input.stakes, byHotkey);
    stagesOf.push(stage.stages);
    tables.push(stage.table);
    explained.push(stage.explained);
    if (stage.decayState !== undefined) decayStates.push({ challengeId: c.id, state: stage.decayState });
  }

  const allocation = allocateUnchecked(
    explained.map((c) => ({ challengeId: c.id, weights: c.weights })),
    alphas,
    config.burnUid,
  );
  const mapping = mapUnchecked(allocation.weights, allocation.burn, byHotkey, config.burnUid);
  const u16 = toU16Unchecked(mapping.weights, config.u16Mode);

  // By uid (ascending lists: the last is the largest); a uid past the end has neither.
  const mappedByUid = new Float64Array(mapping.weights.length === 0 ? 0 : (mapping.weights[mapping.weights.length - 1] as UidWeight).uid + 1);
  for (const w of mapping.weights) mappedByUid[w.uid] = w.weight;
  const u16ByUid = new Float64Array(u16.uids.length === 0 ? 0 : (u16.uids[u16.uids.length - 1] as number) + 1);
  for (let j = 0; j < u16.uids.length; j += 1) u16ByUid[u16.uids[j] as number] = u16.weights[j] as number;
  const built = buildMiners?.(explained, stagesOf, allocation.weights, byHotkey, mappedByUid, u16ByUid);
  const miners = buildMiners === undefined ? minerExplanations(explained, stagesOf, allocation.weights, byHotkey, mappedByUid, u16ByUid) : [];
  const validators = validatorSet.map((v) => Object.freeze({ hotkey: v.validatorHotkey, uid: byHotkey.get(v.validatorHotkey) ?? null, stake: v.stake }));

  const result: EpochWeightsResult = {
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
      validators,
    },
  };
  return buildMiners === undefined ? { result, tables } : { result, tables, miners: built };
}

/** One challenge's share of {@link epochWeightsUnfrozen}: its stages, explanation, table (null for bounty) and, when it decays, its new decay state. */
interface ChallengeStage {
  readonly stages: ChallengeStages;
  readonly table: MinerTable | null;
  readonly explained: ChallengeExplanation;
  readonly decayState: DecayState | null | undefined;
}

/*
 * The two kinds of challenge are stepped in functions of their own, not in the loop of epochWeightsUnfrozen:
 * that loop runs once per epoch, and with both bodies inside it V8 compiled one function of 2.6 KB of bytecode
 * with everything it calls inlined, 120-250 ms a time, again after each deoptimisation anywhere inside it.
 */

function bountyChallenge(c: ChallengeInput, path: string, cap: number, config: PipelineConfig, byHotkey: ReadonlyMap<string, number>): ChallengeStage {
  if (c.decay) fail(AGGREGATION_ERROR_CODES.invalidInput, 'reward decay applies to evaluation challenges only', `${path}.decay`, c.decay);
  // Hunters the metagraph does not list keep their W in the explanation and take no share (SPEC C.9).
  const bounty = bountyUnchecked(checkBountyRecords(c.records ?? [], `${path}.records`), byHotkey);
  const capped = capUnchecked(bounty.weights, cap, config.burnUid);
  const miners = bounty.explanation.miners;
  return {
    stages: alignedStages(
      miners.map((m) => m.hotkey),
      miners.map((m) => m.w),
      miners.map(() => null),
      bounty.weights,
      capped.weights,
    ),
    table: null,
    explained: {
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
    },
    decayState: undefined,
  };
}

function evaluationChallenge(
  c: ChallengeInput,
  path: string,
  cap: number,
  config: PipelineConfig,
  epoch: number,
  stakes: EpochInput['stakes'],
  byHotkey: ReadonlyMap<string, number>,
): ChallengeStage {
  const normalisation: NormalisationOptions = c.normalisation ?? config.normalisation;
  if (c.normalisation !== undefined) checkNormalisationOptions(c.normalisation, `${path}.normalisation`);
  const { result: aggregation, table } = aggregateTable(
    c.evaluations ?? [],
    stakes,
    { minValidators: config.minValidators, minStakeFraction: config.minStakeFraction, outlier: config.outlier },
    epoch,
    `${path}.evaluations`,
    'stakes',
  );
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
  // A scored miner the metagraph does not list keeps its score in the explanation and takes no part in
  // normalisation, the cap or decay (SPEC C.9): its share stays with the challenge's registered miners.
  // Only winner_takes_all ranks by submission (SPEC C.5); decay names its top as the challenge ranks
  // (docs/spec.md G.9), so other strategies pass none and keep the lower hotkey.
  const ranksBySubmission = normalisation.strategy === 'winner_takes_all';
  const minerScores: MinerScore[] = [];
  for (const s of aggregation.scores) {
    if (!byHotkey.has(s.hotkey)) continue;
    const at = ranksBySubmission ? submittedAt.get(s.hotkey) : undefined;
    minerScores.push(at === undefined ? { hotkey: s.hotkey, score: s.score } : { hotkey: s.hotkey, score: s.score, submittedAt: at });
  }
  const normalised = normaliseUnchecked(minerScores, normalisation);
  const capped = capUnchecked(normalised.weights, cap, config.burnUid);
  const stages = alignedStages(table.hotkeys, table.scores, table.reasons, normalised.weights, capped.weights);
  let decay: DecayStepResult | null = null;
  if (c.decay) {
    const previous = c.decayState ?? null;
    checkDecayState(previous, `${path}.decayState`);
    decay = decayUnchecked(previous, epoch, minerScores, config.decay);
  }
  const keep = decay === null ? 1 : decay.keep;
  const weights = keep === 1 ? capped.weights : capped.weights.map((w) => ({ hotkey: w.hotkey, weight: w.weight * keep }));
  return {
    stages,
    table,
    explained: {
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
    },
    decayState: decay === null ? undefined : decay.state,
  };
}
