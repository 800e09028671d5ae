import { hexToU8a, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';

import { serveAxon } from './axon-rules.js';
import { batchOutcome } from './batch-outcome.js';
import { batchRevealWeights } from './batch-reveal-weights.js';
import type { ChainState } from './chain-state.js';
import { commitTimelocked } from './commit-timelocked.js';
import { commitWeights } from './commit-weights.js';
import type { DevnetCall, DispatchOutcome } from './devnet-call.js';
import { revealWeights } from './reveal-weights.js';
import { setWeights } from './set-weights.js';
import { failed } from './weights-preconditions.js';

/**
 * Dispatches a decoded call against `state` (mutating it only on success), in the chain's check order,
 * returning the events or the module error name.
 *
 * @param state - the state being built for block `now`
 * @param now - the block number being built
 * @param who - signer hex public key
 * @param call - the decoded call
 * @returns the dispatch outcome
 * @example
 * dispatchCall(state, 12n, alice, { kind: 'set_weights', ... });
 */
export function dispatchCall(state: ChainState, now: bigint, who: string, call: DevnetCall): DispatchOutcome {
  switch (call.kind) {
    case 'remark':
      return {
        ok: true,
        events: call.withEvent ? [{ pallet: 'System', name: 'Remarked', fields: [who, u8aToHex(blake2AsU8a(hexToU8a(call.remark), 256))] }] : [],
      };
    case 'serve_axon':
      return serveAxon(state, now, who, call);
    case 'set_weights': {
      const subnet = state.subnets.get(call.netuid);
      if (subnet?.commitRevealEnabled === true) return { ok: false, error: 'CommitRevealEnabled', events: [] };
      return setWeights(state, now, who, call.netuid, call.mecid, call.uids, call.values, call.versionKey);
    }
    case 'commit_weights':
      return commitWeights(state, now, who, call.netuid, call.mecid, call.hash);
    case 'reveal_weights':
      return revealWeights(state, now, who, call.netuid, call.mecid, call.uids, call.values, call.salt, call.versionKey);
    case 'commit_timelocked_weights':
      return commitTimelocked(state, now, who, call);
    case 'batch_set_weights': {
      if (call.netuids.length !== call.weights.length || call.netuids.length !== call.versionKeys.length) return failed('InputLengthsUnequal');
      const items = call.netuids.map((netuid, i) => {
        const pairs = call.weights[i] ?? [];
        const uids = pairs.map((p) => p[0]);
        const values = pairs.map((p) => p[1]);
        const enabled = state.subnets.get(netuid)?.commitRevealEnabled ?? true;
        const outcome = enabled ? failed('CommitRevealEnabled') : setWeights(state, now, who, netuid, 0, uids, values, call.versionKeys[i] ?? 0n);
        return { netuid, outcome };
      });
      return batchOutcome(state, who, call.netuids, items);
    }
    case 'batch_commit_weights': {
      if (call.netuids.length !== call.hashes.length) return failed('InputLengthsUnequal');
      const items = call.netuids.map((netuid, i) => ({ netuid, outcome: commitWeights(state, now, who, netuid, 0, call.hashes[i] ?? '0x') }));
      return batchOutcome(state, who, call.netuids, items);
    }
    case 'batch_reveal_weights':
      return batchRevealWeights(state, now, who, call);
  }
}
