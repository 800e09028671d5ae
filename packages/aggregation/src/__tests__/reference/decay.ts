/**
 * SPEC C.6 read literally (reference only). The epoch's best score replaces the top
 * iff there is none yet or new >= top + threshold − 1e-9 (absolute) / new >= top·(1 + threshold) − 1e-9
 * (relative). epochs_stale = max(0, epoch − top_epoch − grace); burn = min(ρ·stale, max_burn), or on the
 * exponential curve min(1 − keep, max_burn) with keep multiplied by (1 − ρ) once per stale epoch.
 * docs/spec.md G.9: the miner a new top names is the one the challenge ranks first among those tied at the
 * best score: the earlier submission (a miner with one before a miner without), then the lower hotkey; the
 * caller passes submissions only where the challenge ranks by them (winner_takes_all).
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
): { state: RefDecayState | null; burn: number; candidate: string | undefined } {
  if (state !== null && epoch < state.topEpoch) reject('AGGREGATION_EPOCH_BEFORE_TOP', 'epoch before top');
  const hasSubmission = (s: RefScore): boolean => s.submittedAt !== undefined;
  const best = [...scores].sort((a, b) => {
    if (a.score !== b.score) return a.score > b.score ? -1 : 1;
    if (hasSubmission(a) !== hasSubmission(b)) return hasSubmission(a) ? -1 : 1;
    if (hasSubmission(a) && a.submittedAt !== b.submittedAt) return a.submittedAt! < b.submittedAt! ? -1 : 1;
    return byCodePoint(a.hotkey, b.hotkey);
  })[0];
  let next = state;
  if (best !== undefined) {
    const replaces =
      state === null ||
      (o.improvementMode === 'absolute'
        ? best.score >= state.topScore + o.improvementThreshold - 1e-9
        : best.score >= state.topScore * (1 + o.improvementThreshold) - 1e-9);
    if (replaces) next = { topScore: best.score, topEpoch: epoch, topHotkey: best.hotkey };
  }
  if (next === null) return { state: null, burn: 0, candidate: best?.hotkey };
  return { state: next, burn: referenceBurn(Math.max(0, epoch - next.topEpoch - o.graceEpochs), o), candidate: best?.hotkey };
}
