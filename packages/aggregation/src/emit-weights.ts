import type { Hotkey } from '@subnet/core';

import { checkObject, checkOneOf, checkUid } from './checks.js';
import { emitFastPath } from './emit-fast-path.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { MetagraphIndex } from './metagraph-index.js';
import { resolveMetagraph } from './metagraph-index.js';
import type { MinerScore, NormalisationOptions, NormalisationStrategy } from './normalise.js';
import { checkMinerScores, checkNormalisationOptions, normaliseUnchecked } from './normalise.js';
import type { U16Mode } from './u16.js';
import { toU16Unchecked } from './u16.js';
import type { Neuron } from './uid-mapping.js';
import { mapUnchecked } from './uid-mapping.js';
import { capUnchecked, checkCap } from './weight-cap.js';

/** What {@link computeEmitWeights} takes. */
export interface EmitWeightsInput {
  /**
   * One score per miner in [0, 1] (unique hotkeys): `{ hotkey, score }[]`, or parallel lists `{ hotkeys,
   * values }` (values may be a Float64Array, as a numpy validator holds them). Fastest sorted by hotkey, as
   * aggregation returns them.
   */
  readonly scores: readonly MinerScore[] | ParallelScores;
  /** The metagraph, as neurons or (reused across calls) an {@link indexMetagraph} index. */
  readonly metagraph: MetagraphIndex | readonly Neuron[];
  /** Normalisation (default linear). */
  readonly normalisation?: NormalisationOptions;
  /** The weight cap in (0, 1]. */
  readonly cap: number;
  /** Where the burn goes (default 0). */
  readonly burnUid?: number;
  /** u16 conversion (default `sum`). */
  readonly u16Mode?: U16Mode;
}

/** Scores as two parallel lists: `values[i]` is the score of `hotkeys[i]`. */
export interface ParallelScores {
  readonly hotkeys: readonly Hotkey[];
  readonly values: ArrayLike<number>;
}

/** What {@link computeEmitWeights} returns: the vector to set and why. */
export interface EmitWeightsResult {
  /** Uids with a non-zero u16 weight, ascending. */
  readonly uids: readonly number[];
  /** Their u16 weights. */
  readonly weights: readonly number[];
  readonly explanation: {
    readonly strategy: NormalisationStrategy;
    /** True when every score was 0 (or there were none): everything to the burn uid. */
    readonly allZero: boolean;
    readonly cap: number;
    readonly capRounds: number;
    /** Miners held at the cap, by hotkey. */
    readonly capped: readonly Hotkey[];
    /** True when the positive miners could not absorb the mass at the cap (the rest burned). */
    readonly infeasible: boolean;
    /** Hotkeys the metagraph does not list, left out before normalisation (SPEC C.9), by hotkey. */
    readonly dropped: readonly Hotkey[];
    /** Share sent to the burn uid before the u16 conversion. */
    readonly burn: number;
    readonly burnUid: number;
    readonly u16Mode: U16Mode;
    /** The largest uid weight (the divisor in `max` mode). */
    readonly maxWeight: number;
  };
}

/**
 * The weight path of one score vector (SPEC C.5, C.9, C.10): leave out hotkeys the metagraph does not list,
 * normalise, cap by water-filling, map hotkeys to uids, convert to u16. Bit for bit what `normaliseScores` (of
 * the listed hotkeys' scores) → `applyWeightCap` → `mapHotkeysToUids` (burn = normalisation burn + cap burn)
 * → `toU16` give, in one pass over typed arrays indexed by position and uid
 * and without intermediate objects, when the scores come sorted by hotkey, every hotkey is in the metagraph
 * and the strategy is `linear` or `quadratic`; otherwise through those same stages.
 *
 * @param input - scores, metagraph (neurons or an index from {@link indexMetagraph}), normalisation, cap, burn uid, u16 mode
 * @returns the uids and u16 weights to set, and a short explanation
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_HOTKEY`, `AGGREGATION_DUPLICATE_UID`
 * @example computeEmitWeights({ scores, metagraph: indexMetagraph(neurons), cap: 0.5, u16Mode: 'max' }).weights
 */
export function computeEmitWeights(input: EmitWeightsInput): EmitWeightsResult {
  checkObject(input, 'input');
  const cap = checkCap(input.cap, 'input.cap');
  const burnUid = input.burnUid === undefined ? 0 : checkUid(input.burnUid, 'input.burnUid');
  const mode: U16Mode = input.u16Mode ?? 'sum';
  checkOneOf(mode, ['sum', 'max'], 'input.u16Mode');
  const normalisation: NormalisationOptions = input.normalisation ?? { strategy: 'linear' };
  checkNormalisationOptions(normalisation, 'input.normalisation');
  const tables = resolveMetagraph(input.metagraph, 'input.metagraph');
  const { hotkeys, values, objects } = scoreLists(input.scores);
  const strategy = normalisation.strategy;
  if (strategy === 'linear' || strategy === 'quadratic') {
    const fast = emitFastPath(hotkeys, values, objects, tables, strategy, cap, burnUid, mode);
    if (fast !== null) return result(fast.uids, fast.weights, fast.explanation);
  }
  const list: readonly MinerScore[] =
    objects ?? Array.from({ length: hotkeys.length }, (_, i) => ({ hotkey: hotkeys[i] as Hotkey, score: values[i] as number }));
  return stagedPath(checkMinerScores(list, 'input.scores'), tables.byHotkey, normalisation, cap, burnUid, mode);
}

/** The scores as parallel lists (objects: the original list when given as `{ hotkey, score }[]`). */
function scoreLists(scores: unknown): { hotkeys: readonly unknown[]; values: ArrayLike<unknown>; objects: readonly MinerScore[] | null } {
  if (Array.isArray(scores)) return { hotkeys: scores, values: scores, objects: scores as readonly MinerScore[] };
  const pair = checkObject(scores, 'input.scores') as { hotkeys?: unknown; values?: unknown };
  const hotkeys = pair.hotkeys;
  const values = pair.values;
  if (!Array.isArray(hotkeys)) fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected an array of hotkeys', 'input.scores.hotkeys', hotkeys);
  if (!(Array.isArray(values) || values instanceof Float64Array)) {
    fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected an array or a Float64Array of scores', 'input.scores.values', values);
  }
  if ((values as ArrayLike<unknown>).length !== hotkeys.length) {
    fail(
      AGGREGATION_ERROR_CODES.invalidInput,
      `hotkeys and values differ in length (${hotkeys.length} hotkeys)`,
      'input.scores.values.length',
      (values as ArrayLike<unknown>).length,
    );
  }
  return { hotkeys, values: values as ArrayLike<unknown>, objects: null };
}

/**
 * Through the stage functions (any strategy, any order, unknown hotkeys). Hotkeys the metagraph does not list
 * are left out before normalisation, so they neither take a share nor lift a registered miner above the cap
 * when the rest is renormalised (SPEC C.9); the mapping then finds nothing to drop.
 */
function stagedPath(
  sorted: readonly MinerScore[],
  byHotkey: ReadonlyMap<string, number>,
  normalisation: NormalisationOptions,
  cap: number,
  burnUid: number,
  mode: U16Mode,
): EmitWeightsResult {
  const registered: MinerScore[] = [];
  const dropped: Hotkey[] = [];
  for (const s of sorted) {
    if (byHotkey.has(s.hotkey)) registered.push(s);
    else dropped.push(s.hotkey);
  }
  const normalised = normaliseUnchecked(registered, normalisation);
  const capped = capUnchecked(normalised.weights, cap, burnUid);
  const burn = normalised.burn + capped.burn;
  const mapped = mapUnchecked(capped.weights, burn, byHotkey, burnUid);
  const u16 = toU16Unchecked(mapped.weights, mode);
  return result(u16.uids, u16.weights, {
    strategy: normalisation.strategy,
    allZero: normalised.explanation.allZero,
    cap,
    capRounds: capped.explanation.rounds,
    capped: capped.explanation.capped,
    infeasible: capped.explanation.infeasible,
    dropped,
    burn,
    burnUid,
    u16Mode: mode,
    maxWeight: u16.explanation.maxWeight,
  });
}

function result(uids: readonly number[], weights: readonly number[], explanation: EmitWeightsResult['explanation']): EmitWeightsResult {
  return Object.freeze({
    uids: Object.freeze(uids),
    weights: Object.freeze(weights),
    explanation: Object.freeze({ ...explanation, capped: Object.freeze(explanation.capped), dropped: Object.freeze(explanation.dropped) }),
  });
}
