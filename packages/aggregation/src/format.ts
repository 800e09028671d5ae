import type { Hotkey } from '@subnet/core';

import type { MinerAggregation } from './aggregate.js';
import { checkArray, checkObject } from './checks.js';
import type { EpochWeightsResult } from './epoch-weights.js';

function fixed(x: number | null): string {
  return x === null ? '-' : x.toFixed(6);
}

/** A statistic for reading: one decimal, or three significant digits when it is huge (±Number.MAX_VALUE). */
function statistic(x: number): string {
  return Math.abs(x) < 1e6 ? x.toFixed(1) : x.toPrecision(3);
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

/**
 * One sentence saying why a miner is unscored in a challenge, or which evaluations a scored miner lost
 * (SPEC C.3, C.4): "unscored (too few validators): 2 of 3 evaluations remained (3 needed): uid 5 was an
 * outlier, M = -14.2". Null when every evaluation was used.
 */
export function minerSentence(
  miner: MinerAggregation,
  minValidators: number,
  minStakeFraction: number,
  validatorLabel: (hotkey: Hotkey) => string,
): string | null {
  const used = miner.evaluationsUsed.length;
  const total = used + miner.outliersExcluded.length + miner.zeroStakeIgnored.length;
  const letter = miner.outlierBasis === 'zscore' ? 'z' : 'M';
  const lost = [
    ...miner.outliersExcluded.map((o) => `${validatorLabel(o.validatorHotkey)} was an outlier, ${letter} = ${statistic(o.statistic)}`),
    ...miner.zeroStakeIgnored.map((h) => `${validatorLabel(h)} has zero stake and was ignored`),
  ];
  const detail = lost.length === 0 ? '' : `: ${lost.join('; ')}`;
  switch (miner.reason) {
    case 'too_few_validators':
      return `unscored (too few validators): ${used} of ${total} evaluations remained (${minValidators} needed)${detail}`;
    case 'no_stake':
      return `unscored (no stake): no stake behind the ${used} remaining of ${total} evaluations${detail}`;
    case 'insufficient_stake':
      return `unscored (insufficient stake): the ${used} remaining of ${total} evaluations carry ${percent(miner.stakeFraction)} of the validator set's stake (${percent(minStakeFraction)} needed)${detail}`;
    default:
      return lost.length === 0 ? null : `scored on ${used} of ${total} evaluations${detail}`;
  }
}

/**
 * Renders the per-miner, per-stage explanation of {@link computeEpochWeights} as a plain-text table an
 * auditor can print: one line per miner and challenge (score, normalised, capped, decayed, allocated), a
 * line saying why when the miner is unscored or lost evaluations (outliers with their statistic, zero-stake
 * validators ignored, the stake share) or is missing from the epoch's metagraph, then the miner's uid, final weight and u16 value, then the burn.
 * Validators are named by uid when the metagraph lists them, else by hotkey.
 *
 * @param result - what computeEpochWeights returned
 * @returns text lines joined by newlines
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` when `result` is not a computeEpochWeights result
 * @example console.log(formatEpochExplanation(computeEpochWeights(input)))
 * // ... "  why: unscored (too few validators): 2 of 3 evaluations remained (3 needed): uid 5 was an outlier, M = -14.2"
 */
export function formatEpochExplanation(result: EpochWeightsResult): string {
  checkObject(result, 'result');
  checkArray(result.uids, 'result.uids');
  const e = checkObject(result.explanation, 'result.explanation') as unknown as EpochWeightsResult['explanation'];
  checkObject(e.config, 'result.explanation.config');
  checkObject(e.u16, 'result.explanation.u16');
  checkObject(e.allocation, 'result.explanation.allocation');
  checkArray(e.challenges, 'result.explanation.challenges');
  checkArray(e.miners, 'result.explanation.miners');
  // Results of versions before 0.2 have no validator list: validators are then named by hotkey.
  const validators = (e as { validators?: unknown }).validators === undefined ? [] : checkArray(e.validators, 'result.explanation.validators');
  const uidOf = new Map<string, number | null>();
  for (const v of validators as EpochWeightsResult['explanation']['validators']) uidOf.set(v.hotkey, v.uid);
  const label = (hotkey: Hotkey): string => {
    const uid = uidOf.get(hotkey);
    return uid === undefined || uid === null ? `validator ${hotkey}` : `uid ${uid}`;
  };
  // Per challenge id, its aggregation rows by miner hotkey (evaluation challenges only).
  const rows = new Map<string, Map<string, MinerAggregation>>();
  for (const c of e.challenges) {
    if (c.aggregation === null) continue;
    const byMiner = new Map<string, MinerAggregation>();
    for (const m of c.aggregation.miners) byMiner.set(m.hotkey, m);
    rows.set(c.id, byMiner);
  }
  const lines: string[] = [`epoch ${e.epoch}: ${result.uids.length} uids, burn uid ${e.config.burnUid}, u16 mode ${e.u16.mode}`];
  for (const c of e.challenges) {
    const decay = c.decay === null ? 'no decay' : `decay burn ${fixed(c.decayBurn)} (stale ${c.decay.epochsStale})`;
    lines.push(`challenge ${c.id} (${c.kind}) alpha ${fixed(c.alpha)} cap ${fixed(c.cap.cap)} capped ${c.cap.capped.length} ${decay}`);
  }
  lines.push('miner | uid | challenge | score | normalised | capped | decayed | allocated | reason');
  for (const m of e.miners) {
    for (const s of m.challenges) {
      lines.push(
        [
          m.hotkey,
          m.uid ?? 'unknown',
          s.challengeId,
          fixed(s.score),
          fixed(s.normalised),
          fixed(s.capped),
          fixed(s.decayed),
          fixed(s.allocated),
          s.unscoredReason ?? '',
        ].join(' | '),
      );
      const row = rows.get(s.challengeId)?.get(m.hotkey);
      const why = row === undefined ? null : minerSentence(row, e.config.minValidators, e.config.minStakeFraction, label);
      if (why !== null) lines.push(`  why (${s.challengeId}): ${why}`);
      if (m.uid === null && s.score !== null) {
        lines.push(`  why (${s.challengeId}): ${m.hotkey} is not in the epoch's metagraph: it takes no share of the challenge`);
      }
    }
    lines.push(`${m.hotkey} total ${fixed(m.allocated)} -> uid ${m.uid ?? 'dropped'} weight ${fixed(m.mapped)} u16 ${m.u16}`);
  }
  lines.push(`burn ${fixed(e.burn)} (unallocated ${fixed(e.allocation.unallocated)}) to uid ${e.config.burnUid}`);
  return lines.join('\n');
}
