import type { ChainState, SubnetState, WeightCommit } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import type { DispatchOutcome } from './devnet-call.js';
import { inRevealRange, isCommitExpired } from './epoch-rules.js';
import { setWeights } from './set-weights.js';
import { weightCommitHash } from './weight-commit-hash.js';
import { failed } from './weights-preconditions.js';

/** Pops the expired commits off the front of a queue (`weights.rs:483`), returning the rest and their hashes. */
export function popExpired(subnet: SubnetState, queue: readonly WeightCommit[], now: bigint): { live: WeightCommit[]; expired: string[] } {
  const live = queue.slice();
  const expired: string[] = [];
  while (live.length > 0 && isCommitExpired(subnet, live[0] ?? { commitEpoch: 0n, commitBlock: 0n }, now)) expired.push(live.shift()?.hash ?? '');
  return { live, expired };
}

/**
 * `internal_reveal_weights` (ab0cb2e52 and main `subnets/weights.rs:451`): commit-reveal on (the storage default
 * is on, so an unknown subnet reaches the next check), a queue (`NoWeightsCommitFound`), expired commits popped
 * off the front (`ExpiredWeightCommit` when the hash was one of them), the hash found
 * (`InvalidRevealCommitHashNotMatch`) and in its reveal epoch (`RevealTooEarly`); every commit up to and
 * including it is removed, then `do_set_mechanism_weights` and `WeightsRevealed`.
 */
export function revealWeights(
  state: ChainState,
  now: bigint,
  who: string,
  netuid: number,
  mecid: number,
  uids: readonly number[],
  values: readonly number[],
  salt: readonly number[],
  versionKey: bigint,
): DispatchOutcome {
  const subnet = state.subnets.get(netuid);
  if (subnet?.commitRevealEnabled === false) return failed('CommitRevealDisabled');
  const idx = netuidIndex(netuid, mecid);
  const key = pairKey(idx, who);
  const stored = subnet?.weightCommits.get(key) ?? [];
  if (subnet === undefined || stored.length === 0) return failed('NoWeightsCommitFound');
  const { live, expired } = popExpired(subnet, stored, now);
  const hash = weightCommitHash(who, idx, uids, values, salt, versionKey);
  if (live.length === 0) return failed(expired.includes(hash) ? 'ExpiredWeightCommit' : 'NoWeightsCommitFound');
  const position = live.findIndex((c) => c.hash === hash);
  const match = live[position];
  if (match === undefined) return failed(expired.includes(hash) ? 'ExpiredWeightCommit' : 'InvalidRevealCommitHashNotMatch');
  if (!inRevealRange(subnet, match, now)) return failed('RevealTooEarly');
  const set = setWeights(state, now, who, netuid, mecid, uids, values, versionKey);
  if (!set.ok) return set;
  const rest = live.slice(position + 1);
  if (rest.length === 0) subnet.weightCommits.delete(key);
  else subnet.weightCommits.set(key, rest);
  return { ok: true, events: [...set.events, { pallet: 'SubtensorModule', name: 'WeightsRevealed', fields: [who, idx, hash] }] };
}
