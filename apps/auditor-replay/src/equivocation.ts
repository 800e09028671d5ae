import { compareCodePoints } from '@subnet/core';

import type { BundleAudit } from './audit-bundle.js';

/** Two or more different bundles, each validly signed by one validator, for one (netuid, epoch) (SPEC E). */
export interface Equivocation {
  readonly validator_hotkey: string;
  readonly netuid: number;
  readonly epoch: number;
  /** Every distinct digest signed for that (netuid, epoch), ascending, with the sources that carry it. */
  readonly bundles: readonly { readonly digest: string; readonly sources: readonly string[] }[];
}

/**
 * Finds equivocations across the bundles of one run (SPEC E: "two different signed bundles from one
 * validator hotkey for the same (netuid, epoch) are an equivocation"). Only bundles whose signature
 * verifies count: anyone can write an unsigned or badly signed document naming a validator, and that
 * proves nothing against it. The same bundle given twice (same digest) is not an equivocation.
 *
 * @param audits - the audits of the run, in any order
 * @returns the equivocations, ordered by validator, netuid and epoch (empty when none)
 * @example findEquivocations(report.bundles)[0]?.bundles.map((b) => b.digest) // two digests
 */
export function findEquivocations(audits: readonly BundleAudit[]): readonly Equivocation[] {
  const groups = new Map<string, { validator: string; netuid: number; epoch: number; digests: Map<string, string[]> }>();
  for (const a of audits) {
    if (a.checks.signature !== true || a.digest === null || a.validator_hotkey === null || a.netuid === null || a.epoch === null) continue;
    const key = JSON.stringify([a.validator_hotkey, a.netuid, a.epoch]);
    const group = groups.get(key) ?? { validator: a.validator_hotkey, netuid: a.netuid, epoch: a.epoch, digests: new Map<string, string[]>() };
    const sources = group.digests.get(a.digest) ?? [];
    sources.push(a.source);
    group.digests.set(a.digest, sources);
    groups.set(key, group);
  }
  const out: Equivocation[] = [];
  for (const g of groups.values()) {
    if (g.digests.size < 2) continue;
    const bundles = [...g.digests.entries()]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([digest, sources]) => Object.freeze({ digest, sources: Object.freeze([...sources]) }));
    out.push(Object.freeze({ validator_hotkey: g.validator, netuid: g.netuid, epoch: g.epoch, bundles: Object.freeze(bundles) }));
  }
  out.sort((a, b) => compareCodePoints(a.validator_hotkey, b.validator_hotkey) || a.netuid - b.netuid || a.epoch - b.epoch);
  return Object.freeze(out);
}
