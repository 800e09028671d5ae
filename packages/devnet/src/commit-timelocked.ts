import { hexToU8a, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';

import type { ChainState } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import type { DevnetCall, DispatchOutcome } from './devnet-call.js';
import { currentEpochWithLookahead } from './epoch-rules.js';
import { neuronOf, rateLimitOk, touchLastUpdate } from './weights-preconditions.js';

const MAX_UNREVEALED_COMMITS = 10;
const MAX_CRV3_COMMIT_SIZE_BYTES = 5000;

/**
 * `internal_commit_timelocked_weights` (ab0cb2e52 `subnets/weights.rs:295`, main `:297`): mechanism, commit-reveal on,
 * version, registered, rate limit, at most 10 per hotkey and epoch; stored under `(netuid_index, epoch)`.
 */
export function commitTimelocked(
  state: ChainState,
  now: bigint,
  who: string,
  call: Extract<DevnetCall, { kind: 'commit_timelocked_weights' }>,
): DispatchOutcome {
  const subnet = state.subnets.get(call.netuid);
  if (subnet === undefined || subnet.mechanismCount <= call.mecid) return { ok: false, error: 'MechanismDoesNotExist', events: [] };
  if (!subnet.commitRevealEnabled) return { ok: false, error: 'CommitRevealDisabled', events: [] };
  if (call.version !== state.commitRevealVersion) return { ok: false, error: 'IncorrectCommitRevealVersion', events: [] };
  const neuron = neuronOf(subnet, who);
  if (neuron === undefined) return { ok: false, error: 'HotKeyNotRegisteredInSubNet', events: [] };
  const idx = netuidIndex(call.netuid, call.mecid);
  if (!rateLimitOk(subnet, idx, neuron.uid, now)) return { ok: false, error: 'CommittingWeightsTooFast', events: [] };
  const epoch = currentEpochWithLookahead(subnet, now);
  const key = pairKey(idx, epoch);
  const queue = (subnet.timelockedCommits.get(key) ?? []).slice();
  if (queue.filter((c) => c.who === who).length >= MAX_UNREVEALED_COMMITS) {
    return { ok: false, error: 'TooManyUnrevealedCommits', events: [] };
  }
  const commitBytes = hexToU8a(call.commit);
  if (commitBytes.length > MAX_CRV3_COMMIT_SIZE_BYTES) return { ok: false, error: 'BadRequest', events: [] };
  queue.push({ who, commitBlock: now, commit: call.commit, revealRound: call.revealRound });
  subnet.timelockedCommits.set(key, queue);
  touchLastUpdate(subnet, idx, neuron.uid, now);
  return {
    ok: true,
    events: [
      {
        pallet: 'SubtensorModule',
        name: 'TimelockedWeightsCommitted',
        fields: [who, idx, u8aToHex(blake2AsU8a(commitBytes, 256)), call.revealRound],
      },
    ],
  };
}
