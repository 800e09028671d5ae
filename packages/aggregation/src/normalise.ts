import type { Hotkey } from '@subnet/core';

import { checkArray, checkHotkey, checkInteger, checkObject, checkOneOf, checkUnit } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { HotkeyWeight } from './order.js';
import { compareHotkeys, deepFreeze } from './order.js';

/** Normalisation strategies of SPEC C.5. */
export type NormalisationStrategy = 'linear' | 'softmax' | 'winner_takes_all' | 'quadratic' | 'ranked';

/** A strategy and its parameter. */
export interface NormalisationOptions {
  readonly strategy: NormalisationStrategy;
  /** Softmax temperature T > 0 (only read by `softmax`; default 1). */
  readonly temperature?: number;
}

/** One miner's score going into normalisation. */
export interface MinerScore {
  readonly hotkey: Hotkey;
  /** Score in [0, 1]. */
  readonly score: number;
  /**
   * When the miner's current submission was made (block number or any increasing integer); only
   * `winner_takes_all` reads it, to break ties (earlier wins). A miner without it counts as latest.
   */
  readonly submittedAt?: number;
}

/** The outcome of {@link normaliseScores}. */
export interface NormalisationResult {
  /** Weight per miner, sorted by hotkey; they sum to 1, or all are 0. */
  readonly weights: readonly HotkeyWeight[];
  /** Share that goes to the burn uid: 1 when every score is 0 (or there are none), else 0. */
  readonly burn: number;
  readonly explanation: {
    readonly strategy: NormalisationStrategy;
    readonly temperature: number | null;
    /**
     * True when every score was 0 (or there were none; or, for quadratic, every s² underflowed to 0):
     * everything goes to the burn uid.
     */
    readonly allZero: boolean;
    /** The denominator (Σ s, Σ exp, Σ s², Σ points); null for winner_takes_all and when all zero. */
    readonly denominator: number | null;
    /** Per miner (by hotkey): its score, the numerator of its weight, and its rank (ranked only). */
    readonly miners: readonly {
      readonly hotkey: Hotkey;
      readonly score: number;
      readonly numerator: number;
      readonly rank: number | null;
    }[];
    /** The winner of winner_takes_all, null otherwise. */
    readonly winner: Hotkey | null;
  };
}

/** A miner as SPEC C.5's `winner_takes_all` tie rule sees it: its hotkey and when it submitted, if it did. */
export interface TieRank {
  readonly hotkey: string;
  /** Its submission (block number, seq or any increasing integer); undefined or null: none, ranked after every miner with one. */
  readonly submittedAt?: number | null;
}

/**
 * Orders miners that share a score as SPEC C.5's `winner_takes_all` ranks them ("ties: earlier submission,
 * then hotkey"): the smaller `submittedAt` first, a miner without one after every miner with one, then the
 * lower hotkey (code-point order). The one comparison behind the winner, the reward-decay top (docs/spec.md
 * G.9) and the bundle's `winner_tie` order.
 *
 * @param a - a miner: `hotkey` a non-empty string, `submittedAt` an integer >= 0, undefined or null
 * @param b - another
 * @returns negative when `a` ranks first, positive when `b` does, 0 for the same hotkey and submission
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` naming `a.hotkey`, `b.submittedAt`, ...
 * @example [{ hotkey: low }, { hotkey: high, submittedAt: 2 }].sort(compareTiedMiners)[0].hotkey // high
 */
export function compareTiedMiners(a: TieRank, b: TieRank): number {
  checkTieRank(a, 'a');
  checkTieRank(b, 'b');
  return compareTiedUnchecked(a, b);
}

function checkTieRank(m: TieRank, path: string): void {
  checkObject(m, path);
  checkHotkey(m.hotkey, `${path}.hotkey`);
  if (m.submittedAt !== undefined && m.submittedAt !== null) checkInteger(m.submittedAt, `${path}.submittedAt`);
}

/** {@link compareTiedMiners} on validated miners (internal). */
export function compareTiedUnchecked(a: TieRank, b: TieRank): number {
  const aAt = a.submittedAt ?? null;
  const bAt = b.submittedAt ?? null;
  if (aAt !== bAt) {
    if (aAt === null) return 1;
    if (bAt === null) return -1;
    return aAt - bAt;
  }
  return compareHotkeys(a.hotkey, b.hotkey);
}

/**
 * The miner SPEC C.5's `winner_takes_all` ranks first among validated scores (internal): the highest score,
 * ties by {@link compareTiedUnchecked}. Null for no scores.
 */
export function rankFirst(scores: readonly MinerScore[]): MinerScore | null {
  let best: MinerScore | null = null;
  for (const s of scores) if (best === null || s.score > best.score || (s.score === best.score && compareTiedUnchecked(s, best) < 0)) best = s;
  return best;
}

/** Validates normalisation options (internal). */
export function checkNormalisationOptions(options: NormalisationOptions, path: string): void {
  checkObject(options, path);
  checkOneOf(options.strategy, ['linear', 'softmax', 'winner_takes_all', 'quadratic', 'ranked'], `${path}.strategy`);
  if (options.temperature !== undefined) {
    const t = options.temperature;
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) {
      fail(AGGREGATION_ERROR_CODES.invalidInput, 'a softmax temperature is a finite number > 0', `${path}.temperature`, t);
    }
  }
}

/** Validates miner scores and returns them sorted by hotkey (internal). */
export function checkMinerScores(scores: readonly MinerScore[], path: string): readonly MinerScore[] {
  checkArray(scores, path);
  const out: MinerScore[] = [];
  for (let i = 0; i < scores.length; i += 1) {
    const s = checkObject(scores[i], `${path}[${i}]`) as unknown as MinerScore;
    const hotkey = checkHotkey(s.hotkey, `${path}[${i}].hotkey`);
    const score = checkUnit(s.score, `${path}[${i}].score`);
    if (s.submittedAt !== undefined) checkInteger(s.submittedAt, `${path}[${i}].submittedAt`);
    out.push(s.submittedAt === undefined ? { hotkey, score } : { hotkey, score, submittedAt: s.submittedAt });
  }
  out.sort((a, b) => compareHotkeys(a.hotkey, b.hotkey));
  for (let i = 1; i < out.length; i += 1) {
    if ((out[i] as MinerScore).hotkey === (out[i - 1] as MinerScore).hotkey) {
      fail(AGGREGATION_ERROR_CODES.duplicateHotkey, 'a miner appears twice', path, (out[i] as MinerScore).hotkey);
    }
  }
  return out;
}

/**
 * Turns scores into weights that sum to 1 (SPEC C.5). `linear`: s_i / Σ s. `softmax`:
 * exp((s_i − max)/T) / Σ exp((s_j − max)/T). `winner_takes_all`: 1 to the highest score (ties: earlier
 * `submittedAt`, then lower hotkey). `quadratic`: s_i² / Σ s². `ranked`: among miners with score > 0,
 * rank r_i = 1 + #miners with a strictly higher score, points p_i = n − r_i + 1 (n = number of miners with
 * score > 0), weight p_i / Σ p; a score of 0 gets 0. Sums run in hotkey order. When every score is 0 (or
 * there are none), no miner gets weight and `burn` is 1.
 *
 * @param scores - one entry per miner (unique hotkeys, scores in [0, 1])
 * @param options - the strategy and, for softmax, the temperature (default 1)
 * @returns weights by hotkey, the burn share and the explanation
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_HOTKEY`
 * @example normaliseScores([{ hotkey: a, score: 0.6 }, { hotkey: b, score: 0.2 }], { strategy: 'linear' })
 * // weights 0.75 and 0.25
 */
export function normaliseScores(scores: readonly MinerScore[], options: NormalisationOptions): NormalisationResult {
  checkNormalisationOptions(options, 'options');
  return deepFreeze(normaliseUnchecked(checkMinerScores(scores, 'scores'), options));
}

/** {@link normaliseScores} on validated scores sorted by hotkey (internal). */
export function normaliseUnchecked(sorted: readonly MinerScore[], options: NormalisationOptions): NormalisationResult {
  const strategy = options.strategy;
  const temperature = strategy === 'softmax' ? (options.temperature ?? 1) : null;
  const burnAll = (): NormalisationResult => ({
    weights: sorted.map((s) => ({ hotkey: s.hotkey, weight: 0 })),
    burn: 1,
    explanation: {
      strategy,
      temperature,
      allZero: true,
      denominator: null,
      miners: sorted.map((s) => ({ hotkey: s.hotkey, score: s.score, numerator: 0, rank: null })),
      winner: null,
    },
  });
  if (sorted.every((s) => s.score === 0)) return burnAll();
  let numerators: number[];
  let ranks: (number | null)[] = sorted.map(() => null);
  let winner: Hotkey | null = null;
  switch (strategy) {
    case 'linear':
      numerators = sorted.map((s) => s.score);
      break;
    case 'quadratic':
      numerators = sorted.map((s) => s.score * s.score);
      break;
    case 'softmax': {
      let max = 0;
      for (const s of sorted) if (s.score > max) max = s.score;
      const t = temperature as number;
      numerators = sorted.map((s) => Math.exp((s.score - max) / t));
      break;
    }
    case 'winner_takes_all': {
      const best = rankFirst(sorted) as MinerScore;
      winner = best.hotkey;
      numerators = sorted.map((s) => (s.hotkey === best.hotkey ? 1 : 0));
      break;
    }
    case 'ranked': {
      const positive = sorted
        .filter((s) => s.score > 0)
        .map((s) => s.score)
        .sort((a, b) => b - a);
      const n = positive.length;
      // higher(x) = number of positive scores strictly greater than x (binary search on descending list).
      const higher = (x: number): number => {
        let lo = 0;
        let hi = n;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if ((positive[mid] as number) > x) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      };
      ranks = sorted.map((s) => (s.score > 0 ? 1 + higher(s.score) : null));
      numerators = ranks.map((r) => (r === null ? 0 : n - r + 1));
      break;
    }
  }
  let denominator = 0;
  for (const x of numerators) denominator += x;
  // Only quadratic can get here: every s² underflowed to 0. Nothing is left to share.
  if (!(denominator > 0)) return burnAll();
  const weights = sorted.map((s, i) => ({ hotkey: s.hotkey, weight: (numerators[i] as number) / denominator }));
  return {
    weights,
    burn: 0,
    explanation: {
      strategy,
      temperature,
      allZero: false,
      denominator: strategy === 'winner_takes_all' ? null : denominator,
      miners: sorted.map((s, i) => ({ hotkey: s.hotkey, score: s.score, numerator: numerators[i] as number, rank: ranks[i] ?? null })),
      winner,
    },
  };
}
