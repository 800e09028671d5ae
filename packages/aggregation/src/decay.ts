import type { Hotkey } from '@subnet/core';

import { checkInteger, checkObject, checkOneOf, checkUnit } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { MinerScore } from './normalise.js';
import { checkMinerScores } from './normalise.js';
import { deepFreeze } from './order.js';

/** Reward-decay rules of one challenge (SPEC C.6). */
export interface DecayOptions {
  /** Epochs after the top score was set before decay starts (default 10). */
  readonly graceEpochs: number;
  /** Burn per stale epoch, ρ (default 0.05). */
  readonly rho: number;
  /** Largest burn (default 0.80). */
  readonly maxBurn: number;
  /** `linear` (default): ρ·stale; `exponential`: 1 − (1 − ρ)^stale. Either is capped at maxBurn. */
  readonly curve: 'linear' | 'exponential';
  /** How much a new score must beat the top by (default 0.02). */
  readonly improvementThreshold: number;
  /** `absolute` (default): new − top >= threshold; `relative`: (new − top) / top >= threshold. */
  readonly improvementMode: 'absolute' | 'relative';
}

/** What a challenge remembers between epochs: its top score and when it was set. */
export interface DecayState {
  readonly topScore: number;
  readonly topEpoch: number;
  /** Who set it (for the explanation). */
  readonly topHotkey: Hotkey;
}

/** The outcome of {@link decayStep}. */
export interface DecayStepResult {
  /** The state to carry to the next epoch (null while no score has ever been seen). */
  readonly state: DecayState | null;
  /** Share of this challenge's miner weight that goes to the burn uid this epoch. */
  readonly burn: number;
  /** 1 − burn: what every miner weight of the challenge is multiplied by. */
  readonly keep: number;
  readonly explanation: {
    readonly epoch: number;
    /** The best score of this epoch (ties: lower hotkey), or null when no miner was scored. */
    readonly candidate: { readonly hotkey: Hotkey; readonly score: number } | null;
    /** new − top (absolute) or (new − top)/top (relative); null without a previous top or candidate, or relative to a top of 0. */
    readonly improvement: number | null;
    /** True when the candidate became the new top (first score ever, or beat the top by the threshold). */
    readonly replacedTop: boolean;
    readonly epochsStale: number;
    readonly options: DecayOptions;
  };
}

/** Validates decay options (internal). */
export function checkDecayOptions(options: DecayOptions, path: string): void {
  checkObject(options, path);
  checkInteger(options.graceEpochs, `${path}.graceEpochs`);
  checkUnit(options.rho, `${path}.rho`);
  checkUnit(options.maxBurn, `${path}.maxBurn`);
  checkOneOf(options.curve, ['linear', 'exponential'], `${path}.curve`);
  const t = options.improvementThreshold;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) {
    fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a finite threshold >= 0', `${path}.improvementThreshold`, t);
  }
  checkOneOf(options.improvementMode, ['absolute', 'relative'], `${path}.improvementMode`);
}

/** Validates a decay state (internal). */
export function checkDecayState(state: DecayState | null, path: string): void {
  if (state === null) return;
  checkObject(state, path);
  checkUnit(state.topScore, `${path}.topScore`);
  checkInteger(state.topEpoch, `${path}.topEpoch`);
  if (typeof state.topHotkey !== 'string' || state.topHotkey.length === 0) {
    fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a hotkey', `${path}.topHotkey`, state.topHotkey);
  }
}

/** x^k for an integer k >= 0 by binary exponentiation (bit by bit from the lowest; deterministic). */
export function powInteger(x: number, k: number): number {
  let result = 1;
  let base = x;
  let e = k;
  while (e > 0) {
    if (e % 2 === 1) result *= base;
    e = Math.floor(e / 2);
    if (e > 0) base *= base;
  }
  return result;
}

/**
 * The burn for a number of stale epochs (SPEC C.6): `min(ρ·stale, maxBurn)` on the linear curve,
 * `min(1 − (1 − ρ)^stale, maxBurn)` on the exponential one.
 *
 * @param epochsStale - integer >= 0
 * @param options - ρ, maxBurn and curve
 * @returns the burn in [0, maxBurn]
 * @example decayBurn(1, DEFAULT_DECAY) // 0.05
 */
export function decayBurn(epochsStale: number, options: Pick<DecayOptions, 'rho' | 'maxBurn' | 'curve'>): number {
  checkInteger(epochsStale, 'epochsStale');
  const raw = options.curve === 'linear' ? options.rho * epochsStale : 1 - powInteger(1 - options.rho, epochsStale);
  return Math.min(raw, options.maxBurn);
}

/**
 * One epoch of reward decay for one challenge (SPEC C.6). The best score of this epoch replaces the top
 * iff it beats it by at least the improvement threshold (or there was no top yet); that resets staleness.
 * Then `epochs_stale = max(0, epoch − top_epoch − grace)` and the burn follows {@link decayBurn}. Every
 * miner weight of the challenge is then multiplied by `keep = 1 − burn`.
 *
 * @param state - the challenge's state after the previous epoch (null before any score)
 * @param input.epoch - the current epoch (>= the state's topEpoch)
 * @param input.scores - this epoch's scored miners (aggregated scores in [0, 1])
 * @param input.options - decay rules
 * @returns the new state and the burn it implies
 * @throws SubnetError `AGGREGATION_INVALID_INPUT`, `AGGREGATION_DUPLICATE_HOTKEY`, `AGGREGATION_EPOCH_BEFORE_TOP`
 * @example decayStep({ topScore: 0.8, topEpoch: 0, topHotkey: a }, { epoch: 11, scores: [], options }).burn // 0.05
 */
export function decayStep(
  state: DecayState | null,
  input: { readonly epoch: number; readonly scores: readonly MinerScore[]; readonly options: DecayOptions },
): DecayStepResult {
  checkDecayState(state, 'state');
  checkObject(input, 'input');
  checkInteger(input.epoch, 'input.epoch');
  checkDecayOptions(input.options, 'input.options');
  return deepFreeze(decayUnchecked(state, input.epoch, checkMinerScores(input.scores, 'input.scores'), input.options));
}

/** {@link decayStep} on validated input, scores sorted by hotkey (internal). */
export function decayUnchecked(
  state: DecayState | null,
  epoch: number,
  sorted: readonly MinerScore[],
  options: DecayOptions,
): DecayStepResult {
  if (state !== null && epoch < state.topEpoch) {
    fail(AGGREGATION_ERROR_CODES.epochBeforeTop, `the top score was set in epoch ${state.topEpoch}, later than this epoch`, 'input.epoch', epoch);
  }
  let candidate: { hotkey: Hotkey; score: number } | null = null;
  for (const s of sorted) if (candidate === null || s.score > candidate.score) candidate = { hotkey: s.hotkey, score: s.score };
  let next = state;
  let improvement: number | null = null;
  let replacedTop = false;
  if (candidate !== null) {
    if (state === null) {
      replacedTop = true;
    } else {
      if (options.improvementMode === 'absolute') {
        improvement = candidate.score - state.topScore;
        replacedTop = improvement >= options.improvementThreshold && candidate.score > state.topScore;
      } else if (state.topScore > 0) {
        // Against a subnormal top the quotient can overflow: the decision uses it as is (Infinity is beyond
        // any threshold, as the exact value is), the explanation reports Number.MAX_VALUE (finite JSON).
        const relative = (candidate.score - state.topScore) / state.topScore;
        replacedTop = relative >= options.improvementThreshold && candidate.score > state.topScore;
        improvement = relative === Number.POSITIVE_INFINITY ? Number.MAX_VALUE : relative;
      } else {
        // Relative to a top of 0 any gain is infinitely large: a positive score replaces it.
        replacedTop = candidate.score > 0;
      }
    }
    if (replacedTop) next = { topScore: candidate.score, topEpoch: epoch, topHotkey: candidate.hotkey };
  }
  const epochsStale = next === null ? 0 : Math.max(0, epoch - next.topEpoch - options.graceEpochs);
  const burn = next === null ? 0 : decayBurn(epochsStale, options);
  return {
    state: next,
    burn,
    keep: 1 - burn,
    explanation: { epoch, candidate, improvement, replacedTop, epochsStale, options: { ...options } },
  };
}
