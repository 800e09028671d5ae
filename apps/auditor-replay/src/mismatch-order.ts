import type { Mismatch } from './audit-bundle.js';

/**
 * The pipeline order of the places a value can sit in a bundle (SPEC E: the result of `computeEpoch`):
 * the configuration as used, each challenge's own scores (details before the scores derived from them),
 * the window state, then `@subnet/aggregation`'s stages in the order they run (aggregation across
 * validators or bounty W, normalisation, cap, decay, the challenge's weights, allocation, burn, uid mapping,
 * uid weights, u16 conversion, the per-miner summary), the carried decay states and the final u16 vector.
 * Each entry is a regular expression over the mismatch's exact path and its rank.
 */
const PIPELINE_ORDER: readonly (readonly [RegExp, number])[] = [
  [/^digest$/, 0],
  [/^signature$/, 1],
  [/^bundle\.result\.epoch\b/, 2],
  [/^bundle\.result\.config\b/, 3],
  [/^bundle\.result\.aggregation\.config\b/, 4],
  [/^bundle\.result\.aggregation\.epoch\b/, 4],
  [/^bundle\.result\.challenges\[\d+\]\.(id|kind)\b/, 5],
  [/^bundle\.result\.challenges\[\d+\]\.details\b/, 6],
  [/^bundle\.result\.challenges\[\d+\]\.own_scores\b/, 7],
  [/^bundle\.result\.challenges\b/, 7],
  [/^bundle\.result\.window_state\b/, 8],
  [/^bundle\.result\.aggregation\.challenges\[\d+\]\.(id|kind|alpha)\b/, 9],
  [/^bundle\.result\.aggregation\.challenges\[\d+\]\.(aggregation|bounty)\b/, 10],
  [/^bundle\.result\.aggregation\.challenges\[\d+\]\.normalisation\b/, 11],
  [/^bundle\.result\.aggregation\.challenges\[\d+\]\.cap\b/, 12],
  [/^bundle\.result\.aggregation\.challenges\[\d+\]\.(decay|decay_burn)\b/, 13],
  [/^bundle\.result\.aggregation\.challenges\b/, 14],
  [/^bundle\.result\.aggregation\.allocation\b/, 15],
  [/^bundle\.result\.aggregation\.burn\b/, 16],
  [/^bundle\.result\.aggregation\.mapping\b/, 17],
  [/^bundle\.result\.aggregation\.uid_weights\b/, 18],
  [/^bundle\.result\.aggregation\.u16\b/, 19],
  [/^bundle\.result\.aggregation\b/, 20],
  [/^bundle\.result\.decay_states\b/, 21],
  [/^bundle\.result\.u16\b/, 22],
];

/** Rank of chain comparisons: after everything the bundle itself holds. */
const CHAIN_RANK = 23;

/**
 * Where a mismatch sits in the pipeline: a smaller rank is computed earlier, so a difference there can
 * cause differences at larger ranks but not the reverse.
 *
 * @param m - a mismatch
 * @returns its rank (0 digest, 1 signature, 3 configuration, ... 22 the u16 vector, 23 chain)
 * @example pipelineRank({ path: 'bundle.result.u16.weights[1]', ... }) // 22
 */
export function pipelineRank(m: Pick<Mismatch, 'path' | 'stage'>): number {
  if (m.stage.startsWith('chain.')) return CHAIN_RANK;
  for (const [pattern, rank] of PIPELINE_ORDER) if (pattern.test(m.path)) return rank;
  return CHAIN_RANK - 1;
}

/**
 * Sorts mismatches into pipeline order (stable within one stage, so the diff's order is kept there): the
 * digest and signature checks, then the earliest differing value (the root cause) and every value
 * downstream of it, the chain last.
 *
 * @param mismatches - in any order
 * @returns a new frozen array in pipeline order
 * @example orderMismatches(audit.mismatches)[0].stage // 'digest'
 */
export function orderMismatches(mismatches: readonly Mismatch[]): readonly Mismatch[] {
  return Object.freeze(
    mismatches
      .map((m, i) => ({ m, i, rank: pipelineRank(m) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.m),
  );
}
