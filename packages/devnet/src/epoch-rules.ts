/**
 * The epoch arithmetic of the two Subtensor runtimes the devnet runs (chain README "Epochs on the two
 * runtimes"), chosen by `subnet.runtime`:
 *
 * - `legacy` (finney spec 393, opentensor/subtensor ab0cb2e52): `get_epoch_index(b) = (b + netuid + 1) /
 *   (tempo + 1)` (`subnets/weights.rs:1254`), `blocks_until_next_epoch(b) = tempo - (b + netuid + 1) %
 *   (tempo + 1)`, u64::MAX for tempo 0 (`coinbase/run_coinbase.rs:946`); the epoch runs where that is 0
 *   (`run_coinbase.rs:931`). Commit-reveal v2 stores the commit block; reveal and expiry compare
 *   `get_epoch_index(now)` with `get_epoch_index(commit_block) + RevealPeriodEpochs` (`weights.rs:1244`,
 *   `is_commit_expired`); timelocked commits are keyed by `get_epoch_index(now) + (should_run_epoch(now) ? 1 :
 *   0)` (`weights.rs:342`) and revealed while `get_epoch_index(now) - RevealPeriodEpochs` names their key
 *   (`coinbase/reveal_commits.rs:39`).
 * - `stateful` (Subtensor main, 14bc6f9f9): `SubnetEpochIndex` / `LastEpochBlock` / `PendingEpochAt`;
 *   `should_run_epoch` (`run_coinbase.rs:1085`) and `current_epoch_with_lookahead` (`weights.rs:1275`) for
 *   commits, reveals, expiry and the timelocked reveal step.
 */
import type { SubnetState } from './chain-state.js';

/** `MAX_TEMPO` (`pallets/subtensor/src/lib.rs:1814`): `BlocksSinceLastStep` above it forces a stateful epoch. */
const MAX_TEMPO = 50_400n;

/** Legacy `get_epoch_index(netuid, block)`: `(block + netuid + 1) / (tempo + 1)`. */
export function legacyEpochIndex(subnet: SubnetState, block: bigint): bigint {
  return (block + BigInt(subnet.netuid) + 1n) / (BigInt(subnet.tempo) + 1n);
}

/** Legacy `blocks_until_next_epoch`: `tempo - (block + netuid + 1) % (tempo + 1)`, null (u64::MAX) for tempo 0. */
export function legacyBlocksUntilNextEpoch(subnet: SubnetState, block: bigint): bigint | null {
  if (subnet.tempo === 0) return null;
  const tempo = BigInt(subnet.tempo);
  return tempo - ((block + BigInt(subnet.netuid) + 1n) % (tempo + 1n));
}

/** `should_run_epoch(netuid, block)` of the subnet's runtime. */
export function shouldRunEpoch(subnet: SubnetState, block: bigint): boolean {
  if (subnet.runtime === 'legacy') return legacyBlocksUntilNextEpoch(subnet, block) === 0n;
  if (subnet.tempo === 0) return false;
  if (subnet.pendingEpochAt > 0n && block >= subnet.pendingEpochAt) return true;
  if (subnet.blocksSinceLastStep > MAX_TEMPO) return true;
  return block - subnet.lastEpochBlock >= BigInt(subnet.tempo);
}

/**
 * The epoch a timelocked commit in block `now` is stored under: `current_epoch_with_lookahead` (stateful), or
 * `get_epoch_index(now) + (should_run_epoch(now) ? 1 : 0)` (legacy).
 */
export function currentEpochWithLookahead(subnet: SubnetState, now: bigint): bigint {
  if (subnet.runtime === 'legacy') return legacyEpochIndex(subnet, now) + (shouldRunEpoch(subnet, now) ? 1n : 0n);
  return subnet.subnetEpochIndex + (shouldRunEpoch(subnet, now) ? 1n : 0n);
}

/** The epoch the timelocked reveal step of block `now` works in: `get_epoch_index(now)` (legacy) or the look-ahead (stateful). */
export function revealStepEpoch(subnet: SubnetState, now: bigint): bigint {
  return subnet.runtime === 'legacy' ? legacyEpochIndex(subnet, now) : currentEpochWithLookahead(subnet, now);
}

/** The epoch a commit-reveal v2 commit belongs to: of its block (legacy) or the stored epoch (stateful). */
function v2CommitEpoch(subnet: SubnetState, commit: { commitEpoch: bigint; commitBlock: bigint }): bigint {
  return subnet.runtime === 'legacy' ? legacyEpochIndex(subnet, commit.commitBlock) : commit.commitEpoch;
}

/** The epoch a v2 reveal or expiry check in block `now` compares with. */
function v2CurrentEpoch(subnet: SubnetState, now: bigint): bigint {
  return subnet.runtime === 'legacy' ? legacyEpochIndex(subnet, now) : currentEpochWithLookahead(subnet, now);
}

/** `is_commit_expired`: the current epoch is past `commit epoch + RevealPeriodEpochs`. */
export function isCommitExpired(subnet: SubnetState, commit: { commitEpoch: bigint; commitBlock: bigint }, now: bigint): boolean {
  return v2CurrentEpoch(subnet, now) > v2CommitEpoch(subnet, commit) + subnet.revealPeriodEpochs;
}

/** `is_reveal_block_range`: the current epoch is exactly `commit epoch + RevealPeriodEpochs`. */
export function inRevealRange(subnet: SubnetState, commit: { commitEpoch: bigint; commitBlock: bigint }, now: bigint): boolean {
  return v2CurrentEpoch(subnet, now) === v2CommitEpoch(subnet, commit) + subnet.revealPeriodEpochs;
}

/** Legacy `get_reveal_blocks(netuid, commit_block)`: first and last block of the reveal epoch (`weights.rs:1272`). */
export function legacyRevealBlocks(subnet: SubnetState, commitBlock: bigint): [bigint, bigint] {
  const tempo = BigInt(subnet.tempo);
  const revealEpoch = legacyEpochIndex(subnet, commitBlock) + subnet.revealPeriodEpochs;
  const product = revealEpoch * (tempo + 1n);
  const offset = BigInt(subnet.netuid) + 1n;
  const first = product > offset ? product - offset : 0n;
  return [first, first + tempo];
}

/** `get_next_epoch_start_block`: `min(LastEpochBlock + tempo, PendingEpochAt if > 0)` (stateful), the legacy slot, `null` for tempo 0. */
export function nextEpochStartBlock(subnet: SubnetState, now = 0n): bigint | null {
  if (subnet.tempo === 0) return null;
  if (subnet.runtime === 'legacy') {
    const until = legacyBlocksUntilNextEpoch(subnet, now);
    return until === null ? null : now + until;
  }
  const byTempo = subnet.lastEpochBlock + BigInt(subnet.tempo);
  if (subnet.pendingEpochAt > 0n && subnet.pendingEpochAt < byTempo) return subnet.pendingEpochAt;
  return byTempo;
}

/**
 * `epochs_deferred_this_block` (Subtensor main 14bc6f9f9 `coinbase/run_coinbase.rs:326`): the subnets whose epoch is
 * due in `block` but over the per-block cap `MaxEpochsPerBlock` (`lib.rs:2161`; 2 on finney's production build,
 * `runtime/src/lib.rs:1042`). The devnet runs one subnet, so the cap is emulated: a stateful subnet with
 * `epochDeferrals > 0` is over it whenever its epoch is due (as if that many lower netuids were due with it). The
 * legacy runtime (ab0cb2e52) has no cap.
 *
 * @param subnets - the subnets of the state being built (before the block's reveal and epoch steps)
 * @param block - the block number
 * @returns the netuids deferred in this block
 * @example
 * const deferred = epochsDeferredThisBlock(state.subnets.values(), 12n);
 */
export function epochsDeferredThisBlock(subnets: Iterable<SubnetState>, block: bigint): ReadonlySet<number> {
  const deferred = new Set<number>();
  for (const subnet of subnets) {
    if (subnet.runtime === 'stateful' && subnet.epochDeferrals > 0 && shouldRunEpoch(subnet, block)) deferred.add(subnet.netuid);
  }
  return deferred;
}

/**
 * The epoch part of `run_coinbase` in `on_initialize` before any extrinsic, for every subnet: first
 * `BlocksSinceLastStep += 1`, then, when `should_run_epoch` holds (with the counter already raised, as
 * `drain_pending` does, `run_coinbase.rs:363`), either the per-block cap defers it (`deferred`: `PendingEpochAt =
 * block + 1` and nothing else, `run_coinbase.rs:369-378`; no `EpochDeferred` event, which the devnet's metadata does
 * not declare) or `BlocksSinceLastStep = 0`, `LastMechansimStepBlock = block` and, on the stateful runtime,
 * `LastEpochBlock = block`, `PendingEpochAt = 0`, `SubnetEpochIndex += 1` (`run_coinbase.rs:426`). No Yuma consensus
 * or emission runs.
 *
 * @param subnets - the subnets of the state being built
 * @param block - the block number
 * @param deferred - the netuids over the per-block cap in this block ({@link epochsDeferredThisBlock})
 * @example
 * epochStep(state.subnets.values(), 12n);
 */
export function epochStep(subnets: Iterable<SubnetState>, block: bigint, deferred: ReadonlySet<number> = new Set()): void {
  for (const subnet of subnets) {
    subnet.blocksSinceLastStep += 1n;
    if (!shouldRunEpoch(subnet, block)) continue;
    if (deferred.has(subnet.netuid)) {
      subnet.pendingEpochAt = block + 1n;
      subnet.epochDeferrals -= 1;
      continue;
    }
    subnet.blocksSinceLastStep = 0n;
    subnet.lastMechanismStepBlock = block;
    if (subnet.runtime === 'stateful') {
      subnet.lastEpochBlock = block;
      subnet.pendingEpochAt = 0n;
      subnet.subnetEpochIndex += 1n;
    }
  }
}
