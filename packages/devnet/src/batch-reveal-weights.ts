import type { ChainState } from './chain-state.js';
import { pairKey } from './chain-state.js';
import type { DevnetCall, DevnetEvent, DispatchOutcome } from './devnet-call.js';
import { inRevealRange } from './epoch-rules.js';
import { popExpired } from './reveal-weights.js';
import { setWeights } from './set-weights.js';
import { weightCommitHash } from './weight-commit-hash.js';
import { failed } from './weights-preconditions.js';

/**
 * `do_batch_reveal_weights` (ab0cb2e52 and main `subnets/weights.rs:605`), atomic: lengths, commit-reveal on,
 * a queue at the plain netuid, expired commits popped; every hash must be live (`ExpiredWeightCommit` /
 * `InvalidRevealCommitHashNotMatch`) and in its reveal epoch (`RevealTooEarly`) before anything is applied;
 * then each revealed commit alone is removed (not the ones before it, unlike `reveal_weights`) and
 * `do_set_weights` runs (its failure fails the call); one `WeightsBatchRevealed(who, netuid, hashes)`.
 */
export function batchRevealWeights(state: ChainState, now: bigint, who: string, call: Extract<DevnetCall, { kind: 'batch_reveal_weights' }>): DispatchOutcome {
  const n = call.uidsList.length;
  if (call.valuesList.length !== n || call.saltsList.length !== n || call.versionKeys.length !== n) return failed('InputLengthsUnequal');
  const subnet = state.subnets.get(call.netuid);
  if (subnet?.commitRevealEnabled === false) return failed('CommitRevealDisabled');
  const key = pairKey(call.netuid, who);
  const stored = subnet?.weightCommits.get(key) ?? [];
  if (subnet === undefined || stored.length === 0) return failed('NoWeightsCommitFound');
  const { live, expired } = popExpired(subnet, stored, now);
  const reveals = call.uidsList.map((uids, i) => {
    const values = call.valuesList[i] ?? [];
    const salt = call.saltsList[i] ?? [];
    const versionKey = call.versionKeys[i] ?? 0n;
    return { uids, values, versionKey, hash: weightCommitHash(who, call.netuid, uids, values, salt, versionKey) };
  });
  for (const r of reveals) {
    const commit = live.find((c) => c.hash === r.hash);
    if (commit === undefined) return failed(expired.includes(r.hash) ? 'ExpiredWeightCommit' : 'InvalidRevealCommitHashNotMatch');
    if (!inRevealRange(subnet, commit, now)) return failed('RevealTooEarly');
  }
  const events: DevnetEvent[] = [];
  const revealed: string[] = [];
  for (const r of reveals) {
    const position = live.findIndex((c) => c.hash === r.hash);
    if (position < 0) return failed(expired.includes(r.hash) ? 'ExpiredWeightCommit' : 'InvalidRevealCommitHashNotMatch');
    live.splice(position, 1);
    const set = setWeights(state, now, who, call.netuid, 0, r.uids, r.values, r.versionKey);
    if (!set.ok) return set;
    events.push(...set.events);
    revealed.push(r.hash);
  }
  if (live.length === 0) subnet.weightCommits.delete(key);
  else subnet.weightCommits.set(key, live);
  events.push({ pallet: 'SubtensorModule', name: 'WeightsBatchRevealed', fields: [who, call.netuid, revealed] });
  return { ok: true, events };
}
