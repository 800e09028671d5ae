// Slow reference: the implementation before the performance rewrite (commit 5f1f640), kept verbatim for reference.test.ts; only import paths changed. Do not optimise.
import { compareCodePoints } from '@subnet/core';
import type { Hotkey } from '@subnet/core';

import { checkArray, checkObject, checkUid, checkUnit } from '../../checks.js';
import { AGGREGATION_ERROR_CODES, fail } from '../../errors.js';
import type { HotkeyWeight } from './order.js';
import { compareHotkeys, deepFreeze } from './order.js';
import { checkHotkeyWeights, SUM_TOLERANCE } from '../../weight-cap.js';

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
 * @param alphas - α per challenge id; exactly the ids of `perChallengeWeights`
 * @param burnUid - the burn uid (default 0)
 * @returns final miner weights, the burn and each miner's contributions
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_CHALLENGE`,
 *   `AGGREGATION_UNKNOWN_CHALLENGE`, `AGGREGATION_ALPHA_SUM_EXCEEDS_ONE`, `AGGREGATION_WEIGHTS_EXCEED_ONE`
 * @example allocateChallenges([{ challengeId: 'term', weights }], { term: 0.9 }, 0).burn // 0.1 + 0.9·(its burn)
 */
export function allocateChallenges(
  perChallengeWeights: readonly ChallengeWeights[],
  alphas: Readonly<Record<string, number>>,
  burnUid = 0,
): AllocationResult {
  checkArray(perChallengeWeights, 'perChallengeWeights');
  checkObject(alphas, 'alphas');
  checkUid(burnUid, 'burnUid');
  const seen = new Set<string>();
  const challenges: ChallengeWeights[] = perChallengeWeights.map((raw, i) => {
    const c = checkObject(raw, `perChallengeWeights[${i}]`) as unknown as ChallengeWeights;
    const id = c.challengeId;
    if (typeof id !== 'string' || id.length === 0) fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a challenge id', `perChallengeWeights[${i}].challengeId`, id);
    if (seen.has(id)) fail(AGGREGATION_ERROR_CODES.duplicateChallenge, 'a challenge appears twice', `perChallengeWeights[${i}].challengeId`, id);
    seen.add(id);
    if (!Object.prototype.hasOwnProperty.call(alphas, id)) fail(AGGREGATION_ERROR_CODES.unknownChallenge, 'the challenge has no alpha', `alphas.${id}`, undefined);
    return { challengeId: id, weights: checkHotkeyWeights(c.weights, `perChallengeWeights[${i}].weights`) };
  });
  for (const id of Object.keys(alphas)) {
    if (!seen.has(id)) fail(AGGREGATION_ERROR_CODES.unknownChallenge, 'an alpha names no challenge', `alphas.${id}`, alphas[id]);
    checkUnit(alphas[id], `alphas.${id}`);
  }
  return deepFreeze(allocateUnchecked(challenges, alphas, burnUid));
}

/** {@link allocateChallenges} on validated input (internal). */
export function allocateUnchecked(
  challenges: readonly ChallengeWeights[],
  alphas: Readonly<Record<string, number>>,
  burnUid: number,
): AllocationResult {
  const ordered = [...challenges].sort((a, b) => compareCodePoints(a.challengeId, b.challengeId));
  let alphaSum = 0;
  for (const c of ordered) alphaSum += alphas[c.challengeId] as number;
  if (!(alphaSum <= 1 + SUM_TOLERANCE)) fail(AGGREGATION_ERROR_CODES.alphaSumExceedsOne, 'challenge allocations must sum to at most 1', 'alphas', alphaSum);
  const totals = new Map<string, number>();
  const contributions = new Map<string, { challengeId: string; weight: number; contribution: number }[]>();
  const summary: AllocationResult['explanation']['challenges'][number][] = [];
  for (const c of ordered) {
    const alpha = alphas[c.challengeId] as number;
    let minerMass = 0;
    for (const w of c.weights) {
      minerMass += w.weight;
      if (w.weight === 0) continue;
      const contribution = alpha * w.weight;
      totals.set(w.hotkey, (totals.get(w.hotkey) ?? 0) + contribution);
      let list = contributions.get(w.hotkey);
      if (list === undefined) {
        list = [];
        contributions.set(w.hotkey, list);
      }
      list.push({ challengeId: c.challengeId, weight: w.weight, contribution });
    }
    summary.push({ challengeId: c.challengeId, alpha, minerMass, burned: alpha * Math.max(0, 1 - minerMass) });
  }
  const keys = [...totals.keys()].sort(compareHotkeys);
  const weights: HotkeyWeight[] = [];
  let placed = 0;
  for (const k of keys) {
    const weight = totals.get(k) as number;
    placed += weight;
    weights.push({ hotkey: k as Hotkey, weight });
  }
  return {
    weights,
    burn: Math.max(0, 1 - placed),
    burnUid,
    explanation: {
      challenges: summary,
      alphaSum,
      unallocated: Math.max(0, 1 - alphaSum),
      miners: keys.map((k) => ({ hotkey: k as Hotkey, contributions: contributions.get(k) ?? [] })),
    },
  };
}
