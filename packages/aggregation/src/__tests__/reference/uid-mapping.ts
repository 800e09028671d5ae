/**
 * SPEC C.9 read literally (reference only): unknown hotkeys are dropped and what remains (known miners and
 * the burn) is divided by its sum (hotkey order, then the burn); nothing left → the burn uid gets 1. The burn
 * is added to the burn uid's entry (after the miner's weight when the burn uid is a miner's uid).
 */
import { byCodePoint } from './errors.js';
import type { RefWeights } from './normalise.js';

export function referenceMap(
  weights: RefWeights,
  burn: number,
  metagraph: readonly { readonly hotkey: string; readonly uid: number }[],
  burnUid: number,
): Map<number, number> {
  const uidOf = new Map(metagraph.map((n) => [n.hotkey, n.uid] as const));
  const sorted = [...weights].sort((a, b) => byCodePoint(a.hotkey, b.hotkey));
  const kept = sorted.filter((w) => uidOf.has(w.hotkey));
  const dropped = sorted.some((w) => !uidOf.has(w.hotkey) && w.weight > 0);
  let keptMass = 0;
  for (const w of kept) keptMass = keptMass + w.weight;
  keptMass = keptMass + burn;
  const out = new Map<number, number>();
  if (!(keptMass > 0)) return out.set(burnUid, 1);
  const scale = (x: number): number => (dropped ? x / keptMass : x);
  for (const w of kept) out.set(uidOf.get(w.hotkey)!, scale(w.weight));
  const burnShare = scale(burn);
  if (burnShare > 0) out.set(burnUid, (out.get(burnUid) ?? 0) + burnShare);
  return out;
}
