import type { ChainState, WeightCommit } from './chain-state.js';
import { serveAxonPoolGuard } from './axon-rules.js';
import { inRevealRange } from './epoch-rules.js';
import { CUSTOM_ERROR } from './custom-error.js';
import type { DevnetCall } from './devnet-call.js';
import { weightCommitHash } from './weight-commit-hash.js';
import { minStakeOk } from './weights-preconditions.js';

/** `find_commit_block_via_hash` (ab0cb2e52 `subnets/weights.rs:1329`): the first commit with this hash in any queue. */
function findCommitViaHash(state: ChainState, hash: string): WeightCommit | undefined {
  for (const subnet of state.subnets.values()) {
    for (const queue of subnet.weightCommits.values()) {
      const found = queue.find((c) => c.hash === hash);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The reveal part of the spec 393 guard (`extensions/subtensor.rs:125` and `:155`): each hash (at the plain
 * netuid index) must be stored somewhere (else `CommitNotFound`, 16: a wrong salt lands here), and every commit
 * block must be in the reveal range of the call's netuid (else `CommitBlockNotInRevealRange`, 17: too early
 * and expired both land here).
 */
function checkReveals(
  state: ChainState,
  now: bigint,
  who: string,
  netuid: number,
  reveals: readonly { uids: readonly number[]; values: readonly number[]; salt: readonly number[]; versionKey: bigint }[],
): number | null {
  const found = reveals.map((r) => findCommitViaHash(state, weightCommitHash(who, netuid, r.uids, r.values, r.salt, r.versionKey)));
  if (found.some((c) => c === undefined)) return CUSTOM_ERROR.CommitNotFound;
  const subnet = state.subnets.get(netuid);
  if (subnet === undefined || !found.every((c) => c !== undefined && inRevealRange(subnet, c, now))) return CUSTOM_ERROR.CommitBlockNotInRevealRange;
  return null;
}

/**
 * The pool guard of finney spec 393 (opentensor/subtensor ab0cb2e52, `SubtensorTransactionExtension::validate`,
 * `extensions/subtensor.rs:102`). Only the plain calls are guarded: `commit_weights` and `set_weights` by the
 * minimum stake (1) alone (no rate limit, no uid lookup: those fail in dispatch); `reveal_weights` and
 * `batch_reveal_weights` by stake, then (batch) lengths 18, then commit found 16 and reveal range 17;
 * `commit_timelocked_weights` by stake, then reveal round 15; `serve_axon` by `validate_serve_axon`. The
 * `*_mechanism_*`, `commit_crv3_mechanism_weights`, `batch_set_weights` and `batch_commit_weights` calls pass.
 *
 * @param state - the state of the best block
 * @param now - the block number the transaction would be included at (best + 1)
 * @param who - the signer's hex public key
 * @param call - the decoded call
 * @returns the `InvalidTransaction::Custom` code, or `null` when the call passes
 * @example
 * legacyPoolGuard(state, 11n, alice, call); // 16 for a reveal whose hash was never committed
 */
export function legacyPoolGuard(state: ChainState, now: bigint, who: string, call: DevnetCall): number | null {
  const stake = (netuid: number): boolean => minStakeOk(state, state.subnets.get(netuid), who);
  switch (call.kind) {
    case 'serve_axon':
      return serveAxonPoolGuard(state, now, who, call);
    case 'commit_weights':
    case 'set_weights':
      return call.mechanism || stake(call.netuid) ? null : CUSTOM_ERROR.StakeAmountTooLow;
    case 'reveal_weights':
      if (call.mechanism) return null;
      if (!stake(call.netuid)) return CUSTOM_ERROR.StakeAmountTooLow;
      return checkReveals(state, now, who, call.netuid, [call]);
    case 'batch_reveal_weights': {
      if (!stake(call.netuid)) return CUSTOM_ERROR.StakeAmountTooLow;
      const n = call.uidsList.length;
      if (call.valuesList.length !== n || call.saltsList.length !== n || call.versionKeys.length !== n) return CUSTOM_ERROR.InputLengthsUnequal;
      return checkReveals(
        state,
        now,
        who,
        call.netuid,
        call.uidsList.map((uids, i) => ({ uids, values: call.valuesList[i] ?? [], salt: call.saltsList[i] ?? [], versionKey: call.versionKeys[i] ?? 0n })),
      );
    }
    case 'commit_timelocked_weights':
      if (call.mechanism) return null;
      if (!stake(call.netuid)) return CUSTOM_ERROR.StakeAmountTooLow;
      return call.revealRound < state.lastStoredRound ? CUSTOM_ERROR.InvalidRevealRound : null;
    default:
      return null;
  }
}
