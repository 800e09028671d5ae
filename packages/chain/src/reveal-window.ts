import { legacyEpochFirstBlock, legacyEpochIndex } from './epoch-schedule.js';
import type { EpochState } from './metagraph-snapshot.js';

/** What the reveal window computation needs from the chain at the head. */
export interface EpochInput {
  readonly netuid: number;
  readonly tempo: number;
  /** The head block number the next extrinsic is built on. */
  readonly head: bigint;
  readonly epoch: EpochState;
}

/** `MAX_TEMPO` (Subtensor main `pallets/subtensor/src/lib.rs:1814`). */
const MAX_BLOCKS_SINCE_LAST_STEP = 50_400n;

/** The stateful epoch schedule (README 2.6) as the chain keeps it, plus the epoch index. */
interface Schedule {
  last: bigint;
  pending: bigint;
  sinceStep: bigint;
  index: bigint;
}

function shouldRun(state: Schedule, tempo: bigint, block: bigint): boolean {
  if (tempo === 0n) return false;
  if (state.pending > 0n && block >= state.pending) return true;
  if (state.sinceStep > MAX_BLOCKS_SINCE_LAST_STEP) return true;
  return block - state.last >= tempo;
}

/**
 * Runs block `block`'s epoch step (`run_coinbase`) on `state` and returns the epoch an extrinsic in that
 * block sees afterwards (`current_epoch_with_lookahead`).
 */
function step(state: Schedule, tempo: bigint, block: bigint): bigint {
  // drain_pending raises BlocksSinceLastStep before it asks should_run_epoch (main run_coinbase.rs:363)
  state.sinceStep += 1n;
  if (shouldRun(state, tempo, block)) {
    state.last = block;
    state.pending = 0n;
    state.sinceStep = 0n;
    state.index += 1n;
  }
  return state.index + (shouldRun(state, tempo, block) ? 1n : 0n);
}

/**
 * The epoch an extrinsic executing in block `block` sees (`current_epoch_with_lookahead`, README 2.6),
 * simulating the stateful epoch schedule forward from the head; on runtimes without `SubnetEpochIndex`
 * the legacy formula `(block + netuid + 1) / (tempo + 1)` is used.
 *
 * @param input - netuid, tempo, head and the epoch state at the head
 * @param block - a block after the head
 * @returns the epoch index
 * @example epochAtBlock({ netuid: 1, tempo: 10, head: 5n, epoch }, 6n)
 */
export function epochAtBlock(input: EpochInput, block: bigint): bigint {
  const tempo = BigInt(input.tempo);
  const { subnetEpochIndex, lastEpochBlock, pendingEpochAt, blocksSinceLastStep } = input.epoch;
  if (subnetEpochIndex === null || lastEpochBlock === null) return legacyEpochIndex(input.netuid, input.tempo, block);
  const state: Schedule = { last: lastEpochBlock, pending: pendingEpochAt ?? 0n, sinceStep: blocksSinceLastStep ?? 0n, index: subnetEpochIndex };
  let epoch = state.index + (shouldRun(state, tempo, block) ? 1n : 0n);
  for (let b = input.head + 1n; b <= block; b += 1n) epoch = step(state, tempo, b);
  return epoch;
}

/**
 * Blocks in which a reveal is accepted, as the subnet's epoch state at the head predicts them. On Subtensor main a
 * due epoch slot over the per-block cap `MaxEpochsPerBlock` is deferred a block (`PendingEpochAt = block + 1`,
 * `coinbase/run_coinbase.rs:369-378` at 14bc6f9f9) while extrinsics there already see the next epoch
 * (`current_epoch_with_lookahead`, `subnets/weights.rs:1275-1283`): each deferral from the head on moves the
 * epochs after it, and so both ends of a window not yet closed, one block later, never earlier. Whether a slot is
 * deferred depends on the other subnets due in the same block, which one subnet's state does not show, so
 * `lastBlock` is the earliest the window can close, not a deadline: `revealPending` decides from the chain state
 * at each head (and reports the window seen from there), a deferral already in that state included.
 */
export interface RevealWindow {
  /** The epoch the reveal must happen in (`commit_epoch + RevealPeriodEpochs`). */
  readonly epoch: bigint;
  /** First block (executing extrinsic) inside the window. */
  readonly firstBlock: bigint;
  /** Last block inside the window if no epoch slot of the subnet is deferred from the head on (see above). */
  readonly lastBlock: bigint;
}

/**
 * Predicts the blocks in which the reveal of a commit made in `commitEpoch` is accepted: the chain
 * requires `current_epoch == commit_epoch + RevealPeriodEpochs` exactly (README 2.4). Returns null when
 * the window is already past, or lies beyond `horizon` blocks.
 *
 * @param input - epoch state at the head
 * @param commitEpoch - the commit's epoch (from `WeightCommits`)
 * @param revealPeriodEpochs - `RevealPeriodEpochs[netuid]`
 * @param horizon - how many blocks ahead to look, default 200 000
 * @returns the window, or null
 * @example revealWindow({ netuid: 1, tempo: 10, head: 5n, epoch }, 0n, 1n)
 */
export function revealWindow(input: EpochInput, commitEpoch: bigint, revealPeriodEpochs: bigint, horizon = 200_000): RevealWindow | null {
  const target = commitEpoch + revealPeriodEpochs;
  const tempo = BigInt(input.tempo);
  const { subnetEpochIndex, lastEpochBlock, pendingEpochAt, blocksSinceLastStep } = input.epoch;
  const end = input.head + BigInt(horizon);
  let first: bigint | null = null;
  const close = (b: bigint): RevealWindow | null => (first === null ? null : Object.freeze({ epoch: target, firstBlock: first, lastBlock: b - 1n }));
  if (subnetEpochIndex === null || lastEpochBlock === null) {
    // legacy: epoch(b) = (b + netuid + 1) / (tempo + 1), closed form
    const firstB = legacyEpochFirstBlock(input.netuid, input.tempo, target);
    const lastB = legacyEpochFirstBlock(input.netuid, input.tempo, target + 1n) - 1n;
    const from = firstB > input.head ? firstB : input.head + 1n;
    if (from > lastB || from > end) return null;
    return Object.freeze({ epoch: target, firstBlock: from, lastBlock: lastB });
  }
  const state: Schedule = { last: lastEpochBlock, pending: pendingEpochAt ?? 0n, sinceStep: blocksSinceLastStep ?? 0n, index: subnetEpochIndex };
  for (let b = input.head + 1n; b <= end; b += 1n) {
    const e = step(state, tempo, b);
    if (e > target) return close(b);
    if (e === target && first === null) first = b;
  }
  return null;
}
