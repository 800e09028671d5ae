import { compareCodePoints, formatPath } from '@subnet/core';
import type { Hotkey } from '@subnet/core';

import { checkArray, checkChallengeId, checkObject, checkUid, checkUnit } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { HotkeyWeight } from './order.js';
import { compareHotkeys, deepFreeze } from './order.js';
import { checkHotkeyWeights, SUM_TOLERANCE } from './weight-cap.js';

/** One challenge's miner weights (after cap and decay; they sum to at most 1, the rest is its burn). */
export interface ChallengeWeights {
  readonly challengeId: string;
  readonly weights: readonly HotkeyWeight[];
}

/** The outcome of {@link allocateChallenges}. */
export interface AllocationResult {
  /** Final miner weights Σ_c α_c·w_{c,m}, by hotkey. */
  readonly weights: readonly HotkeyWeight[];
  /** 1 − Σ miner weights: unallocated share plus every challenge's own burn (never below 0). */
  readonly burn: number;
  readonly burnUid: number;
  readonly explanation: {
    /** Per challenge (by id): α, the miner mass within it, and α·(1 − mass) burned through it. */
    readonly challenges: readonly {
      readonly challengeId: string;
      readonly alpha: number;
      readonly minerMass: number;
      readonly burned: number;
    }[];
    readonly alphaSum: number;
    /** 1 − Σ α, the share no challenge claims (SPEC C.7). */
    readonly unallocated: number;
    /** Per miner (by hotkey), its contribution α_c·w_{c,m} from each challenge it has weight in. */
    readonly miners: readonly {
      readonly hotkey: Hotkey;
      readonly contributions: readonly { readonly challengeId: string; readonly weight: number; readonly contribution: number }[];
    }[];
  };
}

/**
 * Combines challenges (SPEC C.7): the final weight of a miner is Σ_c α_c·w_{c,miner}, summed in challenge-id
 * order; 1 − Σ α_c, together with every challenge's own burn, goes to the burn uid. α_c >= 0 and
 * Σ α_c <= 1 (within 1e-9 for decimal fractions that do not add up exactly in doubles).
 *
 * @param perChallengeWeights - each challenge's miner weights (unique ids)
 * @param alphas - α per challenge id (a Map, or a plain object read by its own keys only, so `__proto__` is an
 *   ordinary id); exactly the ids of `perChallengeWeights`
 * @param burnUid - the burn uid (default 0)
 * @returns final miner weights, the burn and each miner's contributions
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_CHALLENGE`,
 *   `AGGREGATION_UNKNOWN_CHALLENGE`, `AGGREGATION_ALPHA_SUM_EXCEEDS_ONE`, `AGGREGATION_WEIGHTS_EXCEED_ONE`
 * @example allocateChallenges([{ challengeId: 'term', weights }], { term: 0.9 }, 0).burn // 0.1 + 0.9·(its burn)
 */
export function allocateChallenges(
  perChallengeWeights: readonly ChallengeWeights[],
  alphas: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  burnUid = 0,
): AllocationResult {
  checkArray(perChallengeWeights, 'perChallengeWeights');
  const alphaOf = alphaMap(alphas);
  checkUid(burnUid, 'burnUid');
  const seen = new Set<string>();
  const challenges: ChallengeWeights[] = perChallengeWeights.map((raw, i) => {
    const c = checkObject(raw, `perChallengeWeights[${i}]`) as unknown as ChallengeWeights;
    const id = checkChallengeId(c.challengeId, `perChallengeWeights[${i}].challengeId`);
    if (seen.has(id)) fail(AGGREGATION_ERROR_CODES.duplicateChallenge, 'a challenge appears twice', `perChallengeWeights[${i}].challengeId`, id);
    seen.add(id);
    if (!alphaOf.has(id)) fail(AGGREGATION_ERROR_CODES.unknownChallenge, 'the challenge has no alpha', formatPath([id], 'alphas'), undefined);
    return { challengeId: id, weights: checkHotkeyWeights(c.weights, `perChallengeWeights[${i}].weights`) };
  });
  for (const [id, alpha] of alphaOf) {
    if (!seen.has(id)) fail(AGGREGATION_ERROR_CODES.unknownChallenge, 'an alpha names no challenge', formatPath([id], 'alphas'), alpha);
    checkUnit(alpha, formatPath([id], 'alphas'));
  }
  return deepFreeze(allocateUnchecked(challenges, alphaOf, burnUid));
}

/**
 * The alphas as a Map. A plain object is read through its own enumerable keys only (`Object.keys`,
 * `Object.hasOwn` semantics), so `__proto__` or `constructor` are ordinary challenge ids, never a prototype read.
 */
function alphaMap(alphas: unknown): Map<string, unknown> {
  if (alphas instanceof Map) {
    const out = new Map<string, unknown>();
    for (const [id, alpha] of alphas as Map<unknown, unknown>) out.set(checkChallengeId(id, 'alphas (a key)'), alpha);
    return out;
  }
  const record = checkObject(alphas, 'alphas');
  const out = new Map<string, unknown>();
  for (const id of Object.keys(record)) out.set(id, Object.getOwnPropertyDescriptor(record, id)?.value);
  return out;
}

/** The list itself when sorted by hotkey (the usual case, checked in one pass), else a sorted copy. */
function sortedByHotkey(list: readonly HotkeyWeight[]): readonly HotkeyWeight[] {
  for (let i = 1; i < list.length; i += 1) {
    if (compareHotkeys((list[i - 1] as HotkeyWeight).hotkey, (list[i] as HotkeyWeight).hotkey) >= 0) {
      return [...list].sort((a, b) => compareHotkeys(a.hotkey, b.hotkey));
    }
  }
  return list;
}

/** {@link allocateChallenges} on validated input (unique hotkeys within each challenge; internal). */
export function allocateUnchecked(challenges: readonly ChallengeWeights[], alphas: ReadonlyMap<string, unknown>, burnUid: number): AllocationResult {
  const ordered = [...challenges].sort((a, b) => compareCodePoints(a.challengeId, b.challengeId));
  let alphaSum = 0;
  for (const c of ordered) alphaSum += alphas.get(c.challengeId) as number;
  if (!(alphaSum <= 1 + SUM_TOLERANCE)) fail(AGGREGATION_ERROR_CODES.alphaSumExceedsOne, 'challenge allocations must sum to at most 1', 'alphas', alphaSum);
  const summary: AllocationResult['explanation']['challenges'][number][] = [];
  const lists: (readonly HotkeyWeight[])[] = [];
  for (const c of ordered) {
    const alpha = alphas.get(c.challengeId) as number;
    let minerMass = 0;
    for (const w of c.weights) minerMass += w.weight;
    summary.push({ challengeId: c.challengeId, alpha, minerMass, burned: alpha * Math.max(0, 1 - minerMass) });
    lists.push(sortedByHotkey(c.weights));
  }
  // A k-way merge of the challenges' hotkey-sorted lists: each miner's total is summed in challenge-id order
  // (0 + α_1·w_1 + α_2·w_2 ...), miners come out in hotkey order, no map keyed by hotkey is needed.
  const heads = lists.map(() => 0);
  const weights: HotkeyWeight[] = [];
  const miners: { hotkey: Hotkey; contributions: { challengeId: string; weight: number; contribution: number }[] }[] = [];
  let placed = 0;
  for (;;) {
    let hotkey: Hotkey | undefined;
    for (let c = 0; c < lists.length; c += 1) {
      const list = lists[c] as readonly HotkeyWeight[];
      let k = heads[c] as number;
      while (k < list.length && (list[k] as HotkeyWeight).weight === 0) k += 1;
      heads[c] = k;
      const h = list[k]?.hotkey;
      if (h !== undefined && (hotkey === undefined || compareHotkeys(h, hotkey) < 0)) hotkey = h;
    }
    if (hotkey === undefined) break;
    let total = 0;
    const contributions: { challengeId: string; weight: number; contribution: number }[] = [];
    for (let c = 0; c < lists.length; c += 1) {
      const list = lists[c] as readonly HotkeyWeight[];
      const k = heads[c] as number;
      const w = list[k];
      if (w === undefined || w.hotkey !== hotkey) continue;
      heads[c] = k + 1;
      const challengeId = (ordered[c] as ChallengeWeights).challengeId;
      const contribution = (alphas.get(challengeId) as number) * w.weight;
      total = total + contribution;
      contributions.push({ challengeId, weight: w.weight, contribution });
    }
    placed += total;
    weights.push({ hotkey, weight: total });
    miners.push({ hotkey, contributions });
  }
  return {
    weights,
    burn: Math.max(0, 1 - placed),
    burnUid,
    explanation: {
      challenges: summary,
      alphaSum,
      unallocated: Math.max(0, 1 - alphaSum),
      miners,
    },
  };
}
