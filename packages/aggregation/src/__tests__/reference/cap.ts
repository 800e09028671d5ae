/**
 * SPEC C.5 cap in exact rationals (reference only): water-filling. Repeat: R = mass − cap·|capped|,
 * S = Σ of the free weights, every free positive miner with w·R/S > cap becomes capped; until nobody
 * exceeds. Free miners get w·R/S, capped ones cap. When every positive miner is capped (n·cap < mass),
 * they keep cap and the rest burns. The result is rounded to the nearest double only at the end.
 */
import type { RefWeights } from './normalise.js';
import type { Q } from './rational.js';
import { add, cmp, div, fromDouble, int, mul, sub, toDouble, ZERO } from './rational.js';

export interface RefCap {
  readonly weights: RefWeights;
  readonly burn: number;
  readonly capped: readonly string[];
}

export function referenceCap(weights: RefWeights, cap: number): RefCap {
  const w = weights.map((x) => fromDouble(x.weight));
  const c = fromDouble(cap);
  const mass = w.reduce<Q>((s, x) => add(s, x), ZERO);
  const capped = new Set<number>();
  for (;;) {
    const free = w.map((_, i) => i).filter((i) => !capped.has(i));
    const S = free.reduce<Q>((s, i) => add(s, w[i]!), ZERO);
    const R = sub(mass, mul(c, int(capped.size)));
    if (free.every((i) => w[i]!.n === 0n)) break;
    const newly = free.filter((i) => w[i]!.n > 0n && cmp(div(mul(w[i]!, R), S), c) > 0);
    if (newly.length === 0) break;
    for (const i of newly) capped.add(i);
  }
  const free = w.map((_, i) => i).filter((i) => !capped.has(i));
  const S = free.reduce<Q>((s, i) => add(s, w[i]!), ZERO);
  const R = sub(mass, mul(c, int(capped.size)));
  const positiveFree = free.some((i) => w[i]!.n > 0n);
  const out = weights.map((x, i) => ({
    hotkey: x.hotkey,
    weight: capped.has(i) ? cap : w[i]!.n === 0n ? 0 : toDouble(div(mul(w[i]!, R), S)),
  }));
  // Infeasible: every positive miner capped, R is left over.
  const burn = capped.size > 0 && !positiveFree ? toDouble(R.n < 0n ? ZERO : R) : 0;
  return { weights: out, burn, capped: weights.filter((_, i) => capped.has(i)).map((x) => x.hotkey) };
}
