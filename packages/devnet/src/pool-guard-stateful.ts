import type { ChainState } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import { serveAxonPoolGuard } from './axon-rules.js';
import { inRevealRange } from './epoch-rules.js';
import { CUSTOM_ERROR } from './custom-error.js';
import type { DevnetCall } from './devnet-call.js';
import { weightCommitHash } from './weight-commit-hash.js';
import { minStakeOk, neuronOf, rateLimitOk } from './weights-preconditions.js';

type Call<K extends DevnetCall['kind']> = Extract<DevnetCall, { kind: K }>;

/** `CheckWeights::check_input_lengths` (main `guards/check_weights.rs:47`). */
function inputLengthsMatch(call: DevnetCall): boolean {
  switch (call.kind) {
    case 'batch_commit_weights':
      return call.netuids.length === call.hashes.length;
    case 'batch_reveal_weights': {
      const n = call.uidsList.length;
      return call.valuesList.length === n && call.saltsList.length === n && call.versionKeys.length === n;
    }
    case 'batch_set_weights':
      return call.netuids.length === call.weights.length && call.netuids.length === call.versionKeys.length;
    default:
      return true;
  }
}

/** `CheckWeights::check_min_stake` (`check_weights.rs:87`): every netuid the call names. */
function minStakeHolds(state: ChainState, who: string, call: DevnetCall): boolean {
  switch (call.kind) {
    case 'batch_commit_weights':
    case 'batch_set_weights':
      return call.netuids.every((n) => minStakeOk(state, state.subnets.get(n), who));
    case 'remark':
    case 'serve_axon':
      return true;
    default:
      return minStakeOk(state, state.subnets.get(call.netuid), who);
  }
}

/**
 * `CheckWeights::check_reveal` (`check_weights.rs:120`): the signer's queue at the storage index must hold the
 * hash (else `NoWeightsCommitFound`, 16: a wrong salt lands here), and `is_reveal_block_range` must hold for
 * its commit epoch (else `RevealTooEarly`, 17: a reveal too early and one of an expired commit both land here).
 */
function checkReveal(
  state: ChainState,
  now: bigint,
  who: string,
  netuid: number,
  idx: number,
  reveals: readonly { uids: readonly number[]; values: readonly number[]; salt: readonly number[]; versionKey: bigint }[],
): number | null {
  const subnet = state.subnets.get(netuid);
  const commits = subnet?.weightCommits.get(pairKey(idx, who)) ?? [];
  if (subnet === undefined || commits.length === 0) return CUSTOM_ERROR.CommitNotFound;
  for (const r of reveals) {
    const hash = weightCommitHash(who, idx, r.uids, r.values, r.salt, r.versionKey);
    const commit = commits.find((c) => c.hash === hash);
    if (commit === undefined) return CUSTOM_ERROR.CommitNotFound;
    if (!inRevealRange(subnet, commit, now)) return CUSTOM_ERROR.CommitBlockNotInRevealRange;
  }
  return null;
}

/** `CheckWeights::check_commit_reveal` (`check_weights.rs:180`). */
function checkCommitReveal(state: ChainState, now: bigint, who: string, call: DevnetCall): number | null {
  switch (call.kind) {
    case 'reveal_weights':
      return checkReveal(state, now, who, call.netuid, netuidIndex(call.netuid, call.mecid), [call]);
    case 'batch_reveal_weights':
      return checkReveal(
        state,
        now,
        who,
        call.netuid,
        call.netuid,
        call.uidsList.map((uids, i) => ({ uids, values: call.valuesList[i] ?? [], salt: call.saltsList[i] ?? [], versionKey: call.versionKeys[i] ?? 0n })),
      );
    case 'commit_timelocked_weights':
      return call.revealRound < state.lastStoredRound ? CUSTOM_ERROR.InvalidRevealRound : null;
    default:
      return null;
  }
}

/**
 * `CheckRateLimits::check_weights_rate_limit` (main `guards/check_rate_limits.rs:31`): a hotkey with no uid
 * on the subnet passes (dispatch reports `HotKeyNotRegisteredInSubNet`); else the rate limit, per storage index.
 */
function checkRateLimit(state: ChainState, now: bigint, who: string, call: Call<'commit_weights'> | Call<'set_weights'>): number | null {
  const subnet = state.subnets.get(call.netuid);
  const uid = neuronOf(subnet, who)?.uid;
  if (subnet === undefined || uid === undefined) return null;
  return rateLimitOk(subnet, netuidIndex(call.netuid, call.mecid), uid, now) ? null : CUSTOM_ERROR.RateLimitExceeded;
}

/**
 * The pool guards of Subtensor main (opentensor/subtensor 14bc6f9f9, `extensions/subtensor.rs:78`):
 * `CheckWeights` (input lengths 18, minimum stake 1, reveal commit 16 / 17, timelocked reveal round 15), then
 * `CheckRateLimits` (6 for `commit_*`, and for `set_*` only while commit-reveal is off), then
 * `CheckServingEndpoints` for `serve_axon`. Errors map to `Custom error: N` by `extensions/subtensor.rs:27`.
 *
 * @param state - the state of the best block
 * @param now - the block number the transaction would be included at (best + 1)
 * @param who - the signer's hex public key
 * @param call - the decoded call
 * @returns the `InvalidTransaction::Custom` code, or `null` when the call passes
 * @example
 * statefulPoolGuard(state, 11n, alice, call); // 6 when rate limited
 */
export function statefulPoolGuard(state: ChainState, now: bigint, who: string, call: DevnetCall): number | null {
  if (call.kind === 'remark') return null;
  if (call.kind === 'serve_axon') return serveAxonPoolGuard(state, now, who, call);
  if (!inputLengthsMatch(call)) return CUSTOM_ERROR.InputLengthsUnequal;
  if (!minStakeHolds(state, who, call)) return CUSTOM_ERROR.StakeAmountTooLow;
  const reveal = checkCommitReveal(state, now, who, call);
  if (reveal !== null) return reveal;
  if (call.kind === 'commit_weights') return checkRateLimit(state, now, who, call);
  if (call.kind === 'set_weights' && state.subnets.get(call.netuid)?.commitRevealEnabled !== true) return checkRateLimit(state, now, who, call);
  return null;
}
