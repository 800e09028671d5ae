import type { EpochWeightsResult } from './epoch-weights.js';

function fixed(x: number | null): string {
  return x === null ? '-' : x.toFixed(6);
}

/**
 * Renders the per-miner, per-stage explanation of {@link computeEpochWeights} as a plain-text table an
 * auditor can print: one line per miner and challenge (score, normalised, capped, decayed, allocated), then
 * the miner's uid, final weight and u16 value, then the burn.
 *
 * @param result - what computeEpochWeights returned
 * @returns text lines joined by newlines
 * @example console.log(formatEpochExplanation(computeEpochWeights(input)))
 */
export function formatEpochExplanation(result: EpochWeightsResult): string {
  const e = result.explanation;
  const lines: string[] = [`epoch ${e.epoch}: ${result.uids.length} uids, burn uid ${e.config.burnUid}, u16 mode ${e.u16.mode}`];
  for (const c of e.challenges) {
    const decay = c.decay === null ? 'no decay' : `decay burn ${fixed(c.decayBurn)} (stale ${c.decay.epochsStale})`;
    lines.push(`challenge ${c.id} (${c.kind}) alpha ${fixed(c.alpha)} cap ${fixed(c.cap.cap)} capped ${c.cap.capped.length} ${decay}`);
  }
  lines.push('miner | uid | challenge | score | normalised | capped | decayed | allocated | reason');
  for (const m of e.miners) {
    for (const s of m.challenges) {
      lines.push(
        [m.hotkey, m.uid ?? 'unknown', s.challengeId, fixed(s.score), fixed(s.normalised), fixed(s.capped), fixed(s.decayed), fixed(s.allocated), s.unscoredReason ?? ''].join(' | '),
      );
    }
    lines.push(`${m.hotkey} total ${fixed(m.allocated)} -> uid ${m.uid ?? 'dropped'} weight ${fixed(m.mapped)} u16 ${m.u16}`);
  }
  lines.push(`burn ${fixed(e.burn)} (unallocated ${fixed(e.allocation.unallocated)}) to uid ${e.config.burnUid}`);
  return lines.join('\n');
}
