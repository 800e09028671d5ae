import type { Hotkey } from '@subnet/core';

import { checkArray, checkHotkey, checkInteger, checkObject } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { HotkeyWeight } from './order.js';
import { compareHotkeys, deepFreeze } from './order.js';

/** One bounty hunter's record for the epoch (SPEC C.8). */
export interface BountyRecord {
  readonly hotkey: Hotkey;
  /** Issues accepted as valid (integer >= 0). */
  readonly validIssues: number;
  /** Issues rejected as invalid (integer >= 0). */
  readonly invalidIssues: number;
  /** Starred repositories (integer >= 0). */
  readonly starredRepos: number;
}

/** Points per valid issue (SPEC C.8). */
export const POINTS_PER_VALID_ISSUE = 5;
/** Points for the full base weight of 1. */
export const POINTS_FOR_FULL_WEIGHT = 100;
/**
 * The most valid issues a bounty record may count: `POINTS_PER_VALID_ISSUE` times it is at most 2^53 - 1, so a
 * record's `points` is an exact integer, which canonical JSON writes as a number (docs/spec.md G.38).
 */
export const MAX_VALID_ISSUES = Math.floor(Number.MAX_SAFE_INTEGER / POINTS_PER_VALID_ISSUE);
/** The refusal of a valid-issue count above {@link MAX_VALID_ISSUES}, in the schemas' words. */
export const MAX_VALID_ISSUES_MESSAGE = `at most ${MAX_VALID_ISSUES} valid issues, so that ${POINTS_PER_VALID_ISSUE} points an issue stay at most 2^53 - 1`;
/** Star bonus per starred repository. */
export const STAR_BONUS_PER_REPO = 0.25;
/** Largest star bonus. */
export const STAR_BONUS_MAX = 1.25;
/** Fewest valid issues for the star bonus to count. */
export const STAR_BONUS_MIN_VALID_ISSUES = 2;

/** Why a hunter's W is what it is. */
export interface BountyMinerExplanation {
  readonly hotkey: Hotkey;
  readonly points: number;
  /** min(points / 100, 1). */
  readonly base: number;
  /** min(0.25·starred, 1.25) when valid >= 2, else 0. */
  readonly stars: number;
  /** base + stars, or 0 under the penalty. */
  readonly w: number;
  /** True when invalid > valid: W = 0. */
  readonly penalised: boolean;
}

/** The outcome of {@link bountyWeights}. */
export interface BountyResult {
  /** W / Σ W per counted hunter, by hotkey (all 0 when Σ W = 0). */
  readonly weights: readonly HotkeyWeight[];
  /** 1 when Σ W = 0 (everything to the burn uid), else 0. */
  readonly burn: number;
  /** totalW: Σ W over the counted hunters; miners: every hunter with its W. */
  readonly explanation: { readonly totalW: number; readonly miners: readonly BountyMinerExplanation[] };
}

/**
 * Weights of the bounty challenge (SPEC C.8): points = 5·valid; W = min(points/100, 1) + W_stars with
 * W_stars = min(0.25·starred, 1.25) counted only with >= 2 valid issues; invalid > valid gives W = 0;
 * weight = W / Σ W (Σ in hotkey order). When Σ W = 0 everything goes to the burn uid.
 *
 * @param records - one per hunter (unique hotkeys, non-negative integer counts)
 * @returns weights by hotkey, the burn and each hunter's W
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_HOTKEY`
 * @example bountyWeights([{ hotkey: a, validIssues: 20, invalidIssues: 0, starredRepos: 0 }]).weights[0].weight // 1
 */
export function bountyWeights(records: readonly BountyRecord[]): BountyResult {
  return deepFreeze(bountyUnchecked(checkBountyRecords(records, 'records')));
}

/** Validates bounty records and returns them sorted by hotkey (internal). */
export function checkBountyRecords(records: readonly BountyRecord[], path: string): BountyRecord[] {
  checkArray(records, path);
  const checked: BountyRecord[] = records.map((raw, i) => {
    const r = checkObject(raw, `${path}[${i}]`) as unknown as BountyRecord;
    return {
      hotkey: checkHotkey(r.hotkey, `${path}[${i}].hotkey`),
      validIssues: checkInteger(r.validIssues, `${path}[${i}].validIssues`, 0, MAX_VALID_ISSUES),
      invalidIssues: checkInteger(r.invalidIssues, `${path}[${i}].invalidIssues`),
      starredRepos: checkInteger(r.starredRepos, `${path}[${i}].starredRepos`),
    };
  });
  checked.sort((a, b) => compareHotkeys(a.hotkey, b.hotkey));
  for (let i = 1; i < checked.length; i += 1) {
    if ((checked[i] as BountyRecord).hotkey === (checked[i - 1] as BountyRecord).hotkey) {
      fail(AGGREGATION_ERROR_CODES.duplicateHotkey, 'a hunter appears twice', path, (checked[i] as BountyRecord).hotkey);
    }
  }
  return checked;
}

/**
 * {@link bountyWeights} on validated records sorted by hotkey (internal). With `registered` (the epoch's
 * metagraph by hotkey), a hunter it does not list keeps its W in the explanation but takes no part in Σ W
 * and gets no weight entry (SPEC C.9).
 */
export function bountyUnchecked(sorted: readonly BountyRecord[], registered?: ReadonlyMap<string, number>): BountyResult {
  const miners: BountyMinerExplanation[] = sorted.map((r) => {
    const points = POINTS_PER_VALID_ISSUE * r.validIssues;
    const base = Math.min(points / POINTS_FOR_FULL_WEIGHT, 1);
    const stars = r.validIssues >= STAR_BONUS_MIN_VALID_ISSUES ? Math.min(STAR_BONUS_PER_REPO * r.starredRepos, STAR_BONUS_MAX) : 0;
    const penalised = r.invalidIssues > r.validIssues;
    return { hotkey: r.hotkey, points, base, stars, w: penalised ? 0 : base + stars, penalised };
  });
  const counted = registered === undefined ? miners : miners.filter((m) => registered.has(m.hotkey));
  let totalW = 0;
  for (const m of counted) totalW += m.w;
  const weights = counted.map((m) => ({ hotkey: m.hotkey, weight: totalW > 0 ? m.w / totalW : 0 }));
  return { weights, burn: totalW > 0 ? 0 : 1, explanation: { totalW, miners } };
}
