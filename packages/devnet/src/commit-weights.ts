import type { ChainState } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import type { DispatchOutcome } from './devnet-call.js';
import { currentEpochWithLookahead, isCommitExpired, legacyEpochIndex, legacyRevealBlocks } from './epoch-rules.js';
import { neuronOf, rateLimitOk, touchLastUpdate } from './weights-preconditions.js';

const MAX_UNREVEALED_COMMITS = 10;

/**
 * `internal_commit_weights` (ab0cb2e52 and main `subnets/weights.rs:61`): mechanism exists, commit-reveal on,
 * registered, rate limit (`CommittingWeightsTooFast`), expired commits popped, at most 10 unrevealed; stores the
 * commit tuple of the runtime, sets `LastUpdate` and emits `WeightsCommitted`.
 */
export function commitWeights(state: ChainState, now: bigint, who: string, netuid: number, mecid: number, hash: string): DispatchOutcome {
  const subnet = state.subnets.get(netuid);
  if (subnet === undefined || subnet.mechanismCount <= mecid) return { ok: false, error: 'MechanismDoesNotExist', events: [] };
  if (!subnet.commitRevealEnabled) return { ok: false, error: 'CommitRevealDisabled', events: [] };
  const neuron = neuronOf(subnet, who);
  if (neuron === undefined) return { ok: false, error: 'HotKeyNotRegisteredInSubNet', events: [] };
  const idx = netuidIndex(netuid, mecid);
  if (!rateLimitOk(subnet, idx, neuron.uid, now)) return { ok: false, error: 'CommittingWeightsTooFast', events: [] };
  const commitEpoch = subnet.runtime === 'legacy' ? legacyEpochIndex(subnet, now) : currentEpochWithLookahead(subnet, now);
  const key = pairKey(idx, who);
  const queue = (subnet.weightCommits.get(key) ?? []).slice();
  while (queue.length > 0 && isCommitExpired(subnet, queue[0] ?? { commitEpoch: 0n, commitBlock: 0n }, now)) queue.shift();
  if (queue.length >= MAX_UNREVEALED_COMMITS) return { ok: false, error: 'TooManyUnrevealedCommits', events: [] };
  const [firstRevealBlock, lastRevealBlock] = subnet.runtime === 'legacy' ? legacyRevealBlocks(subnet, now) : [0n, 0n];
  queue.push({ hash, commitEpoch, commitBlock: now, firstRevealBlock, lastRevealBlock });
  subnet.weightCommits.set(key, queue);
  touchLastUpdate(subnet, idx, neuron.uid, now);
  return { ok: true, events: [{ pallet: 'SubtensorModule', name: 'WeightsCommitted', fields: [who, idx, hash] }] };
}
