/**
 * SPEC C.10 read literally (reference only). `sum`: quotas 65535·w_i/Σw in exact rationals, floors, then
 * one unit each to the largest remainders (ties: lower uid). `max`: round_half_even(w / max · 65535) on
 * doubles, the half compared exactly. Zeros are dropped; an all-zero vector gives nothing.
 */
import type { Q } from './rational.js';
import { add, cmp, div, floor, frac, fromDouble, int, mul, ZERO } from './rational.js';

export function referenceU16(byUid: ReadonlyMap<number, number>, mode: 'sum' | 'max'): { uids: number[]; weights: number[] } {
  const uids = [...byUid.keys()].sort((a, b) => a - b);
  const w = uids.map((u) => byUid.get(u)!);
  let values: bigint[];
  if (w.every((x) => x === 0)) return { uids: [], weights: [] };
  if (mode === 'max') {
    const max = Math.max(...w);
    values = w.map((x) => {
      const q = fromDouble((x / max) * 65535);
      const f = cmp(frac(q), { n: 1n, d: 2n });
      const down = floor(q);
      return f > 0 || (f === 0 && down % 2n === 1n) ? down + 1n : down;
    });
  } else {
    const exact = w.map(fromDouble);
    const total = exact.reduce<Q>((s, x) => add(s, x), ZERO);
    const quotas = exact.map((x) => div(mul(int(65535), x), total));
    values = quotas.map(floor);
    const left = 65535n - values.reduce((s, x) => s + x, 0n);
    const order = uids.map((_, i) => i).sort((a, b) => cmp(frac(quotas[b]!), frac(quotas[a]!)) || uids[a]! - uids[b]!);
    for (let k = 0; k < Number(left); k += 1) values[order[k]!]! += 1n;
  }
  const out = { uids: [] as number[], weights: [] as number[] };
  uids.forEach((u, i) => {
    if (values[i]! > 0n) {
      out.uids.push(u);
      out.weights.push(Number(values[i]));
    }
  });
  return out;
}
