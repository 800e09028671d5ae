/** SPEC C.8 read literally (reference only); Σ W in hotkey order. */
import { byCodePoint } from './errors.js';
import type { RefWeights } from './normalise.js';

export interface RefBountyRecord {
  readonly hotkey: string;
  readonly validIssues: number;
  readonly invalidIssues: number;
  readonly starredRepos: number;
}

export function referenceBounty(records: readonly RefBountyRecord[]): RefWeights {
  const hunters = [...records].sort((a, b) => byCodePoint(a.hotkey, b.hotkey));
  const w = hunters.map((r) => {
    if (r.invalidIssues > r.validIssues) return 0;
    const points = 5 * r.validIssues;
    const stars = r.validIssues >= 2 ? Math.min(0.25 * r.starredRepos, 1.25) : 0;
    return Math.min(points / 100, 1) + stars;
  });
  let total = 0;
  for (const x of w) total = total + x;
  return hunters.map((r, i) => ({ hotkey: r.hotkey, weight: total > 0 ? w[i]! / total : 0 }));
}
