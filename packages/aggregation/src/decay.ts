import type { Hotkey } from '@subnet/core';

import { checkInteger, checkObject, checkOneOf, checkUnit } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
import type { MinerScore } from './normalise.js';
import { checkMinerScores, rankFirst } from './normalise.js';
import { deepFreeze } from './order.js';

/** Reward-decay rules of one challenge (SPEC C.6). */
export interface DecayOptions {
  /** Epochs after the top score was set before decay starts (default 10). */
  readonly graceEpochs: number;
  /** Burn per stale epoch, ρ (default 0.05). */
  readonly rho: number;
  /** Largest burn (default 0.80). */
  readonly maxBurn: number;
  /** `linear` (default): ρ·stale; `exponential`: 1 − keep, keep multiplied by 1 − ρ per stale epoch. Either is capped at maxBurn. */
  readonly curve: 'linear' | 'exponential';
  /** How much a new score must beat the top by (default 0.02). */
  readonly improvementThreshold: number;
  /** `absolute` (default): new >= top + threshold − 1e-9; `relative`: new >= top·(1 + threshold) − 1e-9. */
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
    /**
     * The best score of this epoch, or null when no miner was scored. Ties go as SPEC C.5's winner_takes_all
     * ranks them (docs/spec.md G.9): the earlier `submittedAt` (a miner with one before a miner without), then
     * the lower hotkey; scores without `submittedAt` leave the lower hotkey.
     */
    readonly candidate: { readonly hotkey: Hotkey; readonly score: number } | null;
    /** new − top (absolute) or (new − top)/top (relative), for reading only (the decision is SPEC C.6's comparison); null without a previous top or candidate, or relative to a top of 0. */
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
  checkExponentialRho(options, path);
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

/**
 * Tolerance of the improvement comparison (SPEC C.6): `new >= top + threshold - 1e-9`.
 *
 * @example 0.82 >= 0.8 + 0.02 - IMPROVEMENT_TOLERANCE // true: 0.80 to 0.82 resets staleness
 */
export const IMPROVEMENT_TOLERANCE = 1e-9;

/**
 * The smallest ρ > 0 the exponential curve takes (docs/spec.md G.4, "The exponential curve's ρ"). Its loop
 * runs until the burn reaches `maxBurn`, at most about 37/ρ multiplications (then `1 - keep` rounds to 1):
 * 370,000 at this bound, a few milliseconds; with ρ = 1e-12 a bundle's configuration and epoch number alone
 * would hold an auditor for days.
 */
export const MIN_EXPONENTIAL_RHO = 1e-4;

/** The exponential curve's ρ is 0 or at least {@link MIN_EXPONENTIAL_RHO} (internal; `rho` already checked as a unit). */
function checkExponentialRho(options: Pick<DecayOptions, 'rho' | 'curve'>, path: string): void {
  if (options.curve === 'exponential' && options.rho > 0 && options.rho < MIN_EXPONENTIAL_RHO) {
    fail(
      AGGREGATION_ERROR_CODES.invalidInput,
      `the exponential curve takes rho = 0 or rho >= ${MIN_EXPONENTIAL_RHO} (it multiplies once per stale epoch, about 37/rho times at most)`,
      `${path}.rho`,
      options.rho,
    );
  }
}

/**
 * `1 - keep` on the exponential curve (SPEC C.6): keep starts at 1.0 and is multiplied by `1 - rho` once per
 * stale epoch, left to right (never a library pow nor squaring, whose last bit differs between runtimes).
 * The loop stops early once `1 - keep >= maxBurn` or `keep = 0` (every later factor only makes the burn
 * larger, and the caller takes `min(1 - keep, maxBurn)`), or once a multiplication leaves keep as it was
 * (ρ = 0, or keep where `1 - rho` no longer changes it: every later one leaves it too), so the result is
 * the same as running every epoch.
 */
function exponentialBurn(epochsStale: number, rho: number, maxBurn: number): number {
  const factor = 1 - rho;
  let keep = 1;
  for (let epoch = 0; epoch < epochsStale; epoch += 1) {
    if (1 - keep >= maxBurn || keep === 0) break;
    const next = keep * factor;
    if (next === keep) break;
    keep = next;
  }
  return 1 - keep;
}

/**
 * The burn for a number of stale epochs (SPEC C.6): `min(rho·stale, maxBurn)` on the linear curve,
 * `min(1 - keep, maxBurn)` on the exponential one, where keep is 1.0 multiplied by `1 - rho` once per stale
 * epoch, left to right (repeated multiplication, never a library pow).
 *
 * @param epochsStale - integer >= 0
 * @param options - rho and maxBurn in [0, 1], curve `linear` or `exponential` (whose rho is 0 or at least
 *   {@link MIN_EXPONENTIAL_RHO})
 * @returns the burn in [0, maxBurn]
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` for a stale count that is not an integer >= 0 or a bad option
 * @example decayBurn(1, { rho: 0.05, maxBurn: 0.8, curve: 'linear' }) // 0.05
 */
export function decayBurn(epochsStale: number, options: Pick<DecayOptions, 'rho' | 'maxBurn' | 'curve'>): number {
  checkInteger(epochsStale, 'epochsStale');
  checkObject(options, 'options');
  checkUnit(options.rho, 'options.rho');
  checkUnit(options.maxBurn, 'options.maxBurn');
  checkOneOf(options.curve, ['linear', 'exponential'], 'options.curve');
  checkExponentialRho(options, 'options');
  return burnUnchecked(epochsStale, options);
}

/** {@link decayBurn} on validated input (internal). */
export function burnUnchecked(epochsStale: number, options: Pick<DecayOptions, 'rho' | 'maxBurn' | 'curve'>): number {
  const raw = options.curve === 'linear' ? options.rho * epochsStale : exponentialBurn(epochsStale, options.rho, options.maxBurn);
  return Math.min(raw, options.maxBurn);
}

/**
 * One epoch of reward decay for one challenge (SPEC C.6). The best score of this epoch replaces the top
 * iff it beats it by at least the improvement threshold (or there was no top yet); that resets staleness.
 * Among miners tied at the best score, the one named (`topHotkey`, the explanation's candidate) is the first
 * by SPEC C.5's winner_takes_all tie rule (docs/spec.md G.9): the earliest `submittedAt` (a miner with one
 * before a miner without), then the lower hotkey; without any `submittedAt`, the lower hotkey.
 * Then `epochs_stale = max(0, epoch − top_epoch − grace)` and the burn follows {@link decayBurn}. Every
 * miner weight of the challenge is then multiplied by `keep = 1 − burn`.
 *
 * @param state - the challenge's state after the previous epoch (null before any score)
 * @param input.epoch - the current epoch (>= the state's topEpoch)
 * @param input.scores - this epoch's scored miners (aggregated scores in [0, 1]; `submittedAt`, an integer
 *   >= 0, only where the challenge ranks by submission: winner_takes_all)
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
export function decayUnchecked(state: DecayState | null, epoch: number, sorted: readonly MinerScore[], options: DecayOptions): DecayStepResult {
  if (state !== null && epoch < state.topEpoch) {
    fail(AGGREGATION_ERROR_CODES.epochBeforeTop, `the top score was set in epoch ${state.topEpoch}, later than this epoch`, 'input.epoch', epoch);
  }
  // docs/spec.md G.9: the miner named for the best score is the one the challenge's ranking names among the
  // miners tied at it (earlier submission, then hotkey; by hotkey alone when no submission is passed).
  const first = rankFirst(sorted);
  const candidate: { hotkey: Hotkey; score: number } | null = first === null ? null : { hotkey: first.hotkey, score: first.score };
  let next = state;
  let improvement: number | null = null;
  let replacedTop = false;
  if (candidate !== null) {
    if (state === null) {
      replacedTop = true;
    } else {
      const top = state.topScore;
      const threshold = options.improvementThreshold;
      // SPEC C.6: "exceeds by at least the threshold" is new >= top + threshold - 1e-9 (absolute) or
      // new >= top·(1 + threshold) - 1e-9 (relative), evaluated left to right in doubles.
      if (options.improvementMode === 'absolute') {
        improvement = candidate.score - top;
        replacedTop = candidate.score >= top + threshold - IMPROVEMENT_TOLERANCE;
      } else {
        replacedTop = candidate.score >= top * (1 + threshold) - IMPROVEMENT_TOLERANCE;
        if (top > 0) {
          // Against a subnormal top the quotient can overflow: reported as Number.MAX_VALUE (finite JSON).
          const relative = (candidate.score - top) / top;
          improvement = relative === Number.POSITIVE_INFINITY ? Number.MAX_VALUE : relative;
        }
      }
    }
    if (replacedTop) next = { topScore: candidate.score, topEpoch: epoch, topHotkey: candidate.hotkey };
  }
  const epochsStale = next === null ? 0 : Math.max(0, epoch - next.topEpoch - options.graceEpochs);
  const burn = next === null ? 0 : burnUnchecked(epochsStale, options);
  return {
    state: next,
    burn,
    keep: 1 - burn,
    explanation: { epoch, candidate, improvement, replacedTop, epochsStale, options: { ...options } },
  };
}
