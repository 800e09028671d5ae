import type { Hotkey } from '@subnet/core';

import type { MetagraphTables } from './metagraph-index.js';
import type { MinerScore } from './normalise.js';
import type { U16Mode } from './u16.js';
import { roundHalfEvenUnchecked, toU16Unchecked, U16_MAX } from './u16.js';
import type { UidWeight } from './uid-mapping.js';

/** What the fast path returns before the public boundary freezes it (internal). */
export interface FastEmitResult {
  readonly uids: number[];
  readonly weights: number[];
  readonly explanation: {
    readonly strategy: 'linear' | 'quadratic';
    readonly allZero: boolean;
    readonly cap: number;
    readonly capRounds: number;
    readonly capped: Hotkey[];
    readonly infeasible: boolean;
    readonly dropped: Hotkey[];
    readonly burn: number;
    readonly burnUid: number;
    readonly u16Mode: U16Mode;
    readonly maxWeight: number;
  };
}

/**
 * Typed buffers reused from call to call (allocating and collecting typed arrays per call cost more than
 * the arithmetic). Arrays indexed by position in hotkey order (`w`, `uidOf`, `rankAt`, `capped`), by rank
 * (`byRank`, `seen`) and by uid (`table`, `present`, `u16`). Every flag array is left all-zero when a
 * call returns; a call made while another is running (a getter on a score calling back in) gets fresh
 * buffers.
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
  u16: Uint16Array;
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
    u16: new Uint16Array(uids),
  };
}

let shared: Scratch = makeScratch(0, 0, 0);
let busy = false;

function scratchFor(ranks: number, entries: number, uids: number): Scratch {
  if (busy) return makeScratch(ranks, entries, uids);
  if (shared.seen.length < ranks || shared.w.length < entries || shared.present.length < uids) {
    shared = makeScratch(Math.max(ranks, shared.seen.length), Math.max(entries, shared.w.length), Math.max(uids, shared.present.length));
  }
  return shared;
}

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

/**
 * The weight path's arithmetic (normaliseUnchecked → capUnchecked → mapUnchecked → toU16Unchecked, the
 * same operations on the same doubles in the same order) on typed arrays: null (use the stages) unless
 * every score is valid, its hotkey known to the metagraph and unique. Scores are placed by their hotkey's
 * rank in the metagraph (its position in hotkey order), so the sums run in hotkey order without sorting
 * or comparing strings beyond one identity check per hotkey (internal).
 */
export function emitFastPath(
  hotkeys: readonly unknown[],
  values: ArrayLike<unknown>,
  objects: readonly MinerScore[] | null,
  tables: MetagraphTables,
  strategy: 'linear' | 'quadratic',
  cap: number,
  burnUid: number,
  mode: U16Mode,
): FastEmitResult | null {
  const count = hotkeys.length;
  const size = tables.hotkeyAtRank.length;
  const tableSize = Math.max(tables.maxUid, burnUid);
  const scratch = scratchFor(size, count, tableSize + 1);
  const outer = busy;
  busy = true;
  try {
    // Objects first become parallel reads; the loop itself is the same.
    if (objects !== null && !readObjects(objects, scratch, count)) return null;
    const keys = objects === null ? hotkeys : scratch.keys;
    const scores = objects === null ? values : scratch.scores;
    const n = placeByRank(scratch, keys, scores, tables, strategy);
    if (n < 0) return null;
    return weigh(scratch, n, tables, tableSize, strategy, cap, burnUid, mode);
  } finally {
    busy = outer;
  }
}

/**
 * Reads scores into `w` (the numerators s or s²) with their uid and rank, in hotkey order: input order when
 * the ranks increase (the usual case, sorted by hotkey), otherwise placed by rank and read back. Returns
 * the count, or -1 (use the stages) for an invalid score, an unknown hotkey or a duplicate.
 */
function placeByRank(
  scratch: Scratch,
  hotkeys: readonly unknown[],
  values: ArrayLike<unknown>,
  tables: MetagraphTables,
  strategy: 'linear' | 'quadratic',
): number {
  const count = hotkeys.length;
  const { rankOf, hotkeyAtRank, uidAtRank } = tables;
  const size = hotkeyAtRank.length;
  const { w, uidOf, rankAt } = scratch;
  const squared = strategy === 'quadratic';
  let guess = 0;
  let increasing = true;
  let last = -1;
  for (let i = 0; i < count; i += 1) {
    const hotkey = hotkeys[i];
    const score = values[i];
    if (typeof score !== 'number' || !(score >= 0 && score <= 1)) return -1;
    // The next rank before the map (the same string object when the caller's hotkeys came from the
    // metagraph, so one identity check).
    const rank = guess < size && hotkeyAtRank[guess] === hotkey ? guess : typeof hotkey === 'string' ? rankOf.get(hotkey) : undefined;
    if (rank === undefined) return -1;
    guess = rank + 1;
    if (rank <= last) increasing = false;
    last = rank;
    w[i] = squared ? score * score : score;
    rankAt[i] = rank;
    uidOf[i] = uidAtRank[rank] as number;
  }
  if (increasing) return count;
  // Another order: place by rank (a rank seen twice is a duplicate hotkey: the stages report it), then
  // read back in hotkey order.
  const { byRank, seen } = scratch;
  for (let i = 0; i < count; i += 1) {
    const rank = rankAt[i] as number;
    if (seen[rank] === 1) {
      seen.fill(0, 0, size);
      return -1;
    }
    seen[rank] = 1;
    byRank[rank] = w[i] as number;
  }
  let k = 0;
  for (let rank = 0; rank < size; rank += 1) {
    if (seen[rank] === 0) continue;
    seen[rank] = 0;
    w[k] = byRank[rank] as number;
    uidOf[k] = uidAtRank[rank] as number;
    rankAt[k] = rank;
    k += 1;
  }
  return k;
}

/** Normalise, cap, place by uid and convert, on the numerators in hotkey order. */
function weigh(
  scratch: Scratch,
  n: number,
  tables: MetagraphTables,
  tableSize: number,
  strategy: 'linear' | 'quadratic',
  cap: number,
  burnUid: number,
  mode: U16Mode,
): FastEmitResult {
  const { w, uidOf, rankAt, capped, table, present } = scratch;
  // Σ numerators in hotkey order (normaliseUnchecked's denominator); all zero (or every square underflowed)
  // → no miner weight, burn 1.
  let denominator = 0;
  let anyPositive = false;
  for (let i = 0; i < n; i += 1) {
    const x = w[i] as number;
    denominator += x;
    if (x !== 0) anyPositive = true;
  }
  const allZero = !anyPositive || !(denominator > 0);
  // Normalisation, the cap's mass and positive count, and the cap's first round (before anything is capped
  // a miner's value is its own weight: above the cap, it is capped), in one loop. The weights go straight
  // into the uid table as if nothing were capped; a capped run rewrites them below.
  let normaliseBurn = 0;
  let mass = 0;
  let free = 0;
  let firstRound = 0;
  let maxWeight = 0;
  if (allZero) {
    normaliseBurn = 1;
    for (let i = 0; i < n; i += 1) {
      capped[i] = 0;
      const uid = uidOf[i] as number;
      table[uid] = 0;
      present[uid] = 1;
    }
  } else {
    for (let i = 0; i < n; i += 1) {
      const x = (w[i] as number) / denominator;
      w[i] = x;
      mass += x;
      let c = 0;
      if (x > 0) {
        free += 1;
        if (x > cap) {
          c = 1;
          firstRound += 1;
        }
      }
      capped[i] = c;
      const uid = uidOf[i] as number;
      // A -0 numerator gives -0: the stages place it as 0.
      table[uid] = x === 0 ? 0 : x;
      present[uid] = 1;
      if (x > maxWeight) maxWeight = x;
    }
  }
  // Water-filling (capUnchecked), round by round in hotkey order; the first round ran above when there
  // was a positive weight (its free sum is the mass, as capUnchecked sums the same values in the same order).
  let cappedCount = 0;
  let rounds = 0;
  let freeSum = mass;
  let remaining = mass;
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
  // Σ of the final weights in hotkey order is both the cap's `placed` and the mapping's kept mass. Without
  // a capped miner the final weights are the normalised ones already in the table, and their sum is the mass.
  let placed = mass;
  const cappedKeys: Hotkey[] = [];
  if (cappedCount > 0) {
    placed = 0;
    maxWeight = 0;
    const hotkeyAtRank = tables.hotkeyAtRank;
    for (let i = 0; i < n; i += 1) {
      const x = w[i] as number;
      let weight: number;
      if (capped[i] === 1) {
        weight = cap;
        cappedKeys.push(hotkeyAtRank[rankAt[i] as number] as Hotkey);
      } else weight = x === 0 ? 0 : (x / freeSum) * remaining;
      placed += weight;
      table[uidOf[i] as number] = weight;
      if (weight > maxWeight) maxWeight = weight;
    }
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
    return { uids: u16.uids as number[], weights: u16.weights as number[], explanation };
  }
  const { uids, weights } = toU16Max(scratch, tableSize, maxWeight);
  return { uids, weights, explanation };
}

/**
 * toU16Unchecked's `max` mode over the uid table, uids ascending: round_half_even((w / max)·65535), zeros
 * dropped. Two passes (convert and count, then fill arrays of the exact length) so no array grows.
 */
function toU16Max(scratch: Scratch, tableSize: number, maxWeight: number): { uids: number[]; weights: number[] } {
  const { table, present, u16 } = scratch;
  let kept = 0;
  if (maxWeight > 0) {
    for (let uid = 0; uid <= tableSize; uid += 1) {
      if (present[uid] === 0) {
        u16[uid] = 0;
        continue;
      }
      present[uid] = 0;
      const value = roundHalfEvenUnchecked(((table[uid] as number) / maxWeight) * U16_MAX);
      u16[uid] = value;
      if (value !== 0) kept += 1;
    }
  } else {
    present.fill(0, 0, tableSize + 1);
  }
  const uids = new Array<number>(kept);
  const weights = new Array<number>(kept);
  if (kept === 0) return { uids, weights };
  let k = 0;
  for (let uid = 0; uid <= tableSize; uid += 1) {
    const value = u16[uid] as number;
    if (value === 0) continue;
    uids[k] = uid;
    weights[k] = value;
    k += 1;
  }
  return { uids, weights };
}
