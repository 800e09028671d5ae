import type { Hotkey } from '@subnet/core';

import { checkObject, checkOneOf, checkUid } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { MetagraphIndex } from './metagraph-index.js';
import { resolveMetagraph } from './metagraph-index.js';
import type { MetagraphTables } from './metagraph-index.js';
import type { MinerScore, NormalisationOptions, NormalisationStrategy } from './normalise.js';
import { checkMinerScores, checkNormalisationOptions, normaliseUnchecked } from './normalise.js';
import type { U16Mode } from './u16.js';
import { roundHalfEvenUnchecked, toU16Unchecked, U16_MAX } from './u16.js';
import type { Neuron, UidWeight } from './uid-mapping.js';
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
    /** Hotkeys with weight the metagraph does not know, dropped (the rest renormalised). */
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
 * The weight path of one score vector (SPEC C.5, C.9, C.10): normalise, cap by water-filling, map hotkeys to
 * uids, convert to u16. Bit for bit what `normaliseScores` → `applyWeightCap` → `mapHotkeysToUids` (burn =
 * normalisation burn + cap burn) → `toU16` give, in one pass over typed arrays indexed by position and uid
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
    const fast = fastPath(hotkeys, values, objects, tables, strategy, cap, burnUid, mode);
    if (fast !== null) return fast;
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

/** Through the stage functions (any strategy, any order, unknown hotkeys). */
function stagedPath(
  sorted: readonly MinerScore[],
  byHotkey: ReadonlyMap<string, number>,
  normalisation: NormalisationOptions,
  cap: number,
  burnUid: number,
  mode: U16Mode,
): EmitWeightsResult {
  const normalised = normaliseUnchecked(sorted, normalisation);
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
    dropped: mapped.explanation.dropped.map((d) => d.hotkey),
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

/**
 * Typed buffers reused from call to call (allocating and collecting eight typed arrays per call cost more
 * than the arithmetic). Every flag array is left all-zero when a call returns; a call made while another
 * is running (a getter on a score calling back in) gets fresh buffers.
 */
interface Scratch {
  /** `{ hotkey, score }[]` input read into parallel lists. */
  keys: unknown[];
  scores: Float64Array;
  byRank: Float64Array;
  seen: Uint8Array;
  w: Float64Array;
  uidOf: Int32Array;
  rankAt: Int32Array;
  capped: Uint8Array;
  table: Float64Array;
  present: Uint8Array;
}

function makeScratch(ranks: number, entries: number, uids: number): Scratch {
  return {
    keys: new Array<unknown>(entries),
    scores: new Float64Array(entries),
    byRank: new Float64Array(ranks),
    seen: new Uint8Array(ranks),
    w: new Float64Array(entries),
    uidOf: new Int32Array(entries),
    rankAt: new Int32Array(entries),
    capped: new Uint8Array(entries),
    table: new Float64Array(uids),
    present: new Uint8Array(uids),
  };
}

let shared: Scratch = makeScratch(0, 0, 0);
let busy = false;

/** Reads `{ hotkey, score }` objects into the scratch lists; false (use the stages) on anything unusual. */
function readObjects(objects: readonly MinerScore[], scratch: Scratch, count: number): boolean {
  const keys = scratch.keys;
  const scores = scratch.scores;
  keys.length = count;
  for (let i = 0; i < count; i += 1) {
    const s = objects[i] as MinerScore | null | undefined;
    const score = s?.score;
    if (typeof score !== 'number' || (s as MinerScore).submittedAt !== undefined) return false;
    keys[i] = (s as MinerScore).hotkey;
    scores[i] = score;
  }
  return true;
}

function scratchFor(ranks: number, entries: number, uids: number): Scratch {
  if (busy) return makeScratch(ranks, entries, uids);
  if (shared.seen.length < ranks || shared.w.length < entries || shared.present.length < uids) {
    shared = makeScratch(Math.max(ranks, shared.seen.length), Math.max(entries, shared.w.length), Math.max(uids, shared.present.length));
  }
  return shared;
}

/**
 * The same arithmetic as the stages, on typed arrays: null (use the stages) unless every score is valid,
 * its hotkey known to the metagraph and unique. Scores are placed by their hotkey's rank in the metagraph
 * (its position in hotkey order), so the sums run in hotkey order without sorting or comparing strings.
 */
function fastPath(
  hotkeys: readonly unknown[],
  values: ArrayLike<unknown>,
  objects: readonly MinerScore[] | null,
  tables: MetagraphTables,
  strategy: 'linear' | 'quadratic',
  cap: number,
  burnUid: number,
  mode: U16Mode,
): EmitWeightsResult | null {
  const count = hotkeys.length;
  const size = tables.hotkeyAtRank.length;
  const tableSize = Math.max(tables.maxUid, burnUid);
  const scratch = scratchFor(size, count, tableSize + 1);
  const outer = busy;
  busy = true;
  try {
    // Objects first become parallel reads; the loop itself is the same.
    if (objects !== null && !readObjects(objects, scratch, count)) return null;
    return fastPathWith(
      scratch,
      objects === null ? hotkeys : scratch.keys,
      objects === null ? values : scratch.scores,
      tables,
      tableSize,
      strategy,
      cap,
      burnUid,
      mode,
    );
  } finally {
    busy = outer;
  }
}

function fastPathWith(
  scratch: Scratch,
  hotkeys: readonly unknown[],
  values: ArrayLike<unknown>,
  tables: MetagraphTables,
  tableSize: number,
  strategy: 'linear' | 'quadratic',
  cap: number,
  burnUid: number,
  mode: U16Mode,
): EmitWeightsResult | null {
  const count = hotkeys.length;
  const size = tables.hotkeyAtRank.length;
  const rankOf = tables.rankOf;
  const hotkeyAtRank = tables.hotkeyAtRank;
  const { byRank, seen, w, uidOf, rankAt, capped, table, present } = scratch;
  const uidAtRank = tables.uidAtRank;
  let guess = 0;
  let allZero = true;
  // Input order while the ranks increase (the usual case: sorted by hotkey, so already in the order the
  // sums run); the numerators' Σ (normaliseUnchecked's, in hotkey order) on the way.
  let increasing = true;
  let last = -1;
  let denominator = 0;
  for (let i = 0; i < count; i += 1) {
    const hotkey = hotkeys[i];
    const score = values[i];
    if (typeof hotkey !== 'string' || typeof score !== 'number' || !(score >= 0 && score <= 1)) return null;
    // Try the next rank before the map.
    const rank = guess < size && hotkeyAtRank[guess] === hotkey ? guess : rankOf.get(hotkey);
    if (rank === undefined) return null;
    guess = rank + 1;
    if (rank <= last) increasing = false;
    last = rank;
    const x = strategy === 'linear' ? score : score * score;
    w[i] = x;
    denominator += x;
    rankAt[i] = rank;
    uidOf[i] = uidAtRank[rank] as number;
    if (score !== 0) allZero = false;
  }
  const n = count;
  if (!increasing) {
    // Another order: place by rank (a rank seen twice is a duplicate hotkey: the stages report it), then
    // read back in hotkey order, summing again in that order.
    for (let i = 0; i < n; i += 1) {
      const rank = rankAt[i] as number;
      if (seen[rank] === 1) {
        seen.fill(0, 0, size);
        return null;
      }
      seen[rank] = 1;
      byRank[rank] = w[i] as number;
    }
    denominator = 0;
    let k = 0;
    for (let rank = 0; rank < size; rank += 1) {
      if (seen[rank] === 0) continue;
      seen[rank] = 0;
      const x = byRank[rank] as number;
      w[k] = x;
      denominator += x;
      uidOf[k] = uidAtRank[rank] as number;
      rankAt[k] = rank;
      k += 1;
    }
  }
  // Normalisation: numerator / Σ; all zero (or every square underflowed) → no miner weight, burn 1. Then
  // the cap's mass and count of positive weights, from the same loop (same values, same order).
  // The cap's first round needs no sums (before anything is capped a miner's value is its own weight), so
  // it runs in this loop too: a positive weight above the cap is capped.
  let normaliseBurn = 0;
  let mass = 0;
  let free = 0;
  let firstRound = 0;
  if (allZero || !(denominator > 0)) {
    allZero = true;
    w.fill(0, 0, n);
    capped.fill(0, 0, n);
    normaliseBurn = 1;
  } else {
    for (let i = 0; i < n; i += 1) {
      const x = (w[i] as number) / denominator;
      w[i] = x;
      mass += x;
      if (x > 0) {
        free += 1;
        if (x > cap) {
          capped[i] = 1;
          firstRound += 1;
          continue;
        }
      }
      capped[i] = 0;
    }
  }
  // Water-filling (capUnchecked), round by round in hotkey order: the first round's free sum is the mass
  // and its remaining mass the mass; it ran above when there was a positive weight.
  let cappedCount = 0;
  let rounds = 0;
  let freeSum = mass;
  let remaining = mass - cap * 0;
  if (free > 0 && mass > 0) {
    rounds = 1;
    cappedCount = firstRound;
    free -= firstRound;
  }
  while (cappedCount > 0) {
    freeSum = 0;
    for (let i = 0; i < n; i += 1) if (capped[i] === 0) freeSum += w[i] as number;
    remaining = mass - cap * cappedCount;
    if (free === 0 || !(freeSum > 0)) break;
    rounds += 1;
    let newly = 0;
    for (let i = 0; i < n; i += 1) {
      const x = w[i] as number;
      if (capped[i] === 0 && x > 0 && (x / freeSum) * remaining > cap) {
        capped[i] = 1;
        newly += 1;
      }
    }
    if (newly === 0) break;
    cappedCount += newly;
    free -= newly;
  }
  // Final weights, straight into the uid table (mapUnchecked with every hotkey known: no renormalisation).
  // Σ of the final weights in hotkey order is both the cap's `placed` and the mapping's kept mass.
  let placed = 0;
  let maxWeight = 0;
  const cappedKeys: Hotkey[] = [];
  for (let i = 0; i < n; i += 1) {
    const x = w[i] as number;
    const weight = capped[i] === 1 ? cap : x === 0 ? 0 : cappedCount === 0 ? x : (x / freeSum) * remaining;
    if (capped[i] === 1) cappedKeys.push(hotkeyAtRank[rankAt[i] as number] as Hotkey);
    placed += weight;
    const uid = uidOf[i] as number;
    table[uid] = weight;
    present[uid] = 1;
    if (weight > maxWeight) maxWeight = weight;
  }
  const infeasible = cappedCount > 0 && free === 0;
  const capBurn = infeasible ? Math.max(0, mass - placed) : 0;
  const burn = normaliseBurn + capBurn;
  const keptMass = placed + burn;
  if (!(keptMass > 0)) {
    // Nothing to place: the burn uid gets everything (and the miners' zero entries are dropped below).
    table.fill(0, 0, tableSize + 1);
    present.fill(0, 0, tableSize + 1);
    table[burnUid] = 1;
    present[burnUid] = 1;
    maxWeight = 1;
  } else if (burn > 0) {
    table[burnUid] = (present[burnUid] === 1 ? (table[burnUid] as number) : 0) + burn;
    present[burnUid] = 1;
    const withBurn = table[burnUid];
    if (withBurn > maxWeight) maxWeight = withBurn;
  }
  // u16 (toU16Unchecked) over uids ascending.
  const explanation = {
    strategy,
    allZero,
    cap,
    capRounds: rounds,
    capped: cappedKeys,
    infeasible,
    dropped: [] as Hotkey[],
    burn,
    burnUid,
    u16Mode: mode,
    maxWeight,
  };
  if (mode === 'sum') {
    const entries: UidWeight[] = [];
    for (let uid = 0; uid <= tableSize; uid += 1) {
      if (present[uid] !== 1) continue;
      present[uid] = 0;
      entries.push({ uid, weight: table[uid] as number });
    }
    const u16 = toU16Unchecked(entries, 'sum');
    return result(u16.uids, u16.weights, explanation);
  }
  const uids: number[] = [];
  const u16Values: number[] = [];
  for (let uid = 0; uid <= tableSize; uid += 1) {
    if (present[uid] !== 1) continue;
    present[uid] = 0;
    if (!(maxWeight > 0)) continue;
    const value = roundHalfEvenUnchecked(((table[uid] as number) / maxWeight) * U16_MAX);
    if (value !== 0) {
      uids.push(uid);
      u16Values.push(value);
    }
  }
  return result(uids, u16Values, explanation);
}
