/**
 * SPEC C.6 read literally (reference only). The epoch's best score (ties: lower hotkey) replaces the top
 * iff there is none yet or new >= top + threshold − 1e-9 (absolute) / new >= top·(1 + threshold) − 1e-9
 * (relative). epochs_stale = max(0, epoch − top_epoch − grace); burn = min(ρ·stale, max_burn), or on the
 * exponential curve min(1 − keep, max_burn) with keep multiplied by (1 − ρ) once per stale epoch.
 */
import { byCodePoint, reject } from './errors.js';
import type { RefScore } from './normalise.js';

export interface RefDecayOptions {
  readonly graceEpochs: number;
  readonly rho: number;
  readonly maxBurn: number;
  readonly curve: 'linear' | 'exponential';
  readonly improvementThreshold: number;
  readonly improvementMode: 'absolute' | 'relative';
}
export interface RefDecayState {
  readonly topScore: number;
  readonly topEpoch: number;
  readonly topHotkey: string;
}

export function referenceBurn(stale: number, o: Pick<RefDecayOptions, 'rho' | 'maxBurn' | 'curve'>): number {
  if (o.curve === 'linear') return Math.min(o.rho * stale, o.maxBurn);
  let keep = 1.0;
  for (let i = 0; i < stale && keep !== 0 && 1 - keep < o.maxBurn; i += 1) keep = keep * (1 - o.rho);
  return Math.min(1 - keep, o.maxBurn);
}

export function referenceDecay(
  state: RefDecayState | null,
  epoch: number,
  scores: readonly RefScore[],
  o: RefDecayOptions,
): { state: RefDecayState | null; burn: number } {
  if (state !== null && epoch < state.topEpoch) reject('AGGREGATION_EPOCH_BEFORE_TOP', 'epoch before top');
  const best = [...scores].sort((a, b) => b.score - a.score || byCodePoint(a.hotkey, b.hotkey))[0];
  let next = state;
  if (best !== undefined) {
    const replaces =
      state === null ||
      (o.improvementMode === 'absolute'
        ? best.score >= state.topScore + o.improvementThreshold - 1e-9
        : best.score >= state.topScore * (1 + o.improvementThreshold) - 1e-9);
    if (replaces) next = { topScore: best.score, topEpoch: epoch, topHotkey: best.hotkey };
  }
  if (next === null) return { state: null, burn: 0 };
  return { state: next, burn: referenceBurn(Math.max(0, epoch - next.topEpoch - o.graceEpochs), o) };
}
