/**
 * SPEC C.7 read literally (reference only): w_m = Σ_c α_c·w_{c,m} in challenge-id order; the burn is
 * 1 − Σ_m w_m (Σ in hotkey order, never below 0); Σ α may exceed 1 by at most 1e-9 (decision G.4).
 */
import { byCodePoint, reject } from './errors.js';
import type { RefWeights } from './normalise.js';

export function referenceAllocate(challenges: readonly { readonly id: string; readonly alpha: number; readonly weights: RefWeights }[]): {
  weights: RefWeights;
  burn: number;
} {
  const ordered = [...challenges].sort((a, b) => byCodePoint(a.id, b.id));
  let alphaSum = 0;
  for (const c of ordered) alphaSum = alphaSum + c.alpha;
  if (!(alphaSum <= 1 + 1e-9)) reject('AGGREGATION_ALPHA_SUM_EXCEEDS_ONE', 'alphas');
  const hotkeys = [...new Set(ordered.flatMap((c) => c.weights.filter((w) => w.weight > 0).map((w) => w.hotkey)))].sort(byCodePoint);
  const weights = hotkeys.map((hotkey) => {
    let total = 0;
    for (const c of ordered) {
      const w = c.weights.find((x) => x.hotkey === hotkey);
      if (w !== undefined && w.weight > 0) total = total + c.alpha * w.weight;
    }
    return { hotkey, weight: total };
  });
  let placed = 0;
  for (const w of weights) placed = placed + w.weight;
  return { weights, burn: Math.max(0, 1 - placed) };
}
