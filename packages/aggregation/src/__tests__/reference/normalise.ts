/**
 * SPEC C.5 strategies read literally (reference only); miners in hotkey order, sums left to right in that
 * order. All scores 0 (or none): no miner weight, everything to burn.
 */
import { byCodePoint } from './errors.js';

export interface RefScore {
  readonly hotkey: string;
  readonly score: number;
  readonly submittedAt?: number;
}
export type RefStrategy = 'linear' | 'softmax' | 'winner_takes_all' | 'quadratic' | 'ranked';
/** Weights by hotkey (every miner given, 0 included). */
export type RefWeights = readonly { readonly hotkey: string; readonly weight: number }[];

export function referenceNormalise(scores: readonly RefScore[], strategy: RefStrategy, temperature: number): RefWeights {
  const miners = [...scores].sort((a, b) => byCodePoint(a.hotkey, b.hotkey));
  const zeros = miners.map((m) => ({ hotkey: m.hotkey, weight: 0 }));
  if (miners.every((m) => m.score === 0)) return zeros;
  let numerators: number[];
  if (strategy === 'linear') numerators = miners.map((m) => m.score);
  else if (strategy === 'quadratic') numerators = miners.map((m) => m.score * m.score);
  else if (strategy === 'softmax') {
    const max = Math.max(...miners.map((m) => m.score));
    numerators = miners.map((m) => Math.exp((m.score - max) / temperature));
  } else if (strategy === 'winner_takes_all') {
    // Highest score; ties: earlier submission (none = latest), then lower hotkey.
    const ranked = [...miners].sort(
      (a, b) => b.score - a.score || (a.submittedAt ?? Infinity) - (b.submittedAt ?? Infinity) || byCodePoint(a.hotkey, b.hotkey),
    );
    numerators = miners.map((m) => (m === ranked[0] ? 1 : 0));
  } else {
    // Competition ranks among positive scores; points n − r + 1; zero scores get 0.
    const positive = miners.filter((m) => m.score > 0);
    numerators = miners.map((m) => (m.score > 0 ? positive.length - (1 + positive.filter((o) => o.score > m.score).length) + 1 : 0));
  }
  let denominator = 0;
  for (const x of numerators) denominator = denominator + x;
  if (!(denominator > 0)) return zeros;
  return miners.map((m, i) => ({ hotkey: m.hotkey, weight: numerators[i]! / denominator }));
}
