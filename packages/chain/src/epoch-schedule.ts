import type { EpochState, MetagraphSnapshot } from './metagraph-snapshot.js';

/**
 * Which epoch arithmetic the connected runtime uses, decided from its storage (never from a version number):
 * `stateful` when the snapshot read `SubnetEpochIndex` and `LastEpochBlock` (Subtensor main), else `legacy`
 * (finney spec 393: `(block + netuid + 1) / (tempo + 1)`). Chain README "Epochs on the two runtimes".
 */
export type EpochRuntime = 'legacy' | 'stateful';

/**
 * The epoch arithmetic of a snapshot's runtime: `stateful` when the metadata has `SubnetEpochIndex` and
 * `LastEpochBlock` (the metagraph read them), else `legacy`.
 *
 * @param epoch - the snapshot's epoch state
 * @returns the runtime's epoch arithmetic
 * @example epochRuntime(snapshot.epoch) // 'legacy' on finney spec 393
 */
export function epochRuntime(epoch: EpochState): EpochRuntime {
  return epoch.subnetEpochIndex !== null && epoch.lastEpochBlock !== null ? 'stateful' : 'legacy';
}

/**
 * Legacy `get_epoch_index(netuid, block)` = `(block + netuid + 1) / (tempo + 1)` with the PLAIN netuid, never the
 * mechanism storage index (opentensor/subtensor ab0cb2e52 `pallets/subtensor/src/subnets/weights.rs:1254`).
 *
 * @param netuid - the subnet id (u16)
 * @param tempo - `Tempo[netuid]`
 * @param block - the block number
 * @returns the legacy epoch index
 * @example legacyEpochIndex(1, 360, 359n) // 1n
 */
export function legacyEpochIndex(netuid: number, tempo: number, block: bigint): bigint {
  return (block + BigInt(netuid) + 1n) / (BigInt(tempo) + 1n);
}

/**
 * The first block of legacy epoch `epoch`, the least `b` with {@link legacyEpochIndex} `= epoch`:
 * `epoch * (tempo + 1) - (netuid + 1)`, or 0 when that is below 0 (the chain starts inside a later epoch). The chain's
 * reveal step first takes a commit's queue there (`coinbase/reveal_commits.rs:39-66` at ab0cb2e52).
 *
 * @param netuid - the subnet id (u16)
 * @param tempo - `Tempo[netuid]`
 * @param epoch - the legacy epoch index
 * @returns the block number
 * @example legacyEpochFirstBlock(1, 360, 1n) // 359n
 */
export function legacyEpochFirstBlock(netuid: number, tempo: number, epoch: bigint): bigint {
  const first = epoch * (BigInt(tempo) + 1n) - (BigInt(netuid) + 1n);
  return first > 0n ? first : 0n;
}

/**
 * Legacy `should_run_epoch(netuid, block)`: `blocks_until_next_epoch = tempo - (block + netuid + 1) % (tempo + 1)`
 * is 0; never for tempo 0 (ab0cb2e52 `pallets/subtensor/src/coinbase/run_coinbase.rs:931`, `:946`).
 *
 * @param netuid - the subnet id
 * @param tempo - `Tempo[netuid]`
 * @param block - the block number
 * @returns whether the subnet's epoch runs in that block
 * @example legacyShouldRunEpoch(1, 360, 358n) // true
 */
export function legacyShouldRunEpoch(netuid: number, tempo: number, block: bigint): boolean {
  if (tempo === 0) return false;
  const t = BigInt(tempo);
  return (block + BigInt(netuid) + 1n) % (t + 1n) === t;
}

/**
 * The commit epoch of a commit-reveal v2 `WeightCommits` entry. Field 1 of the tuple is the commit BLOCK on the
 * legacy runtime (`(hash, commit_block, first_reveal_block, last_reveal_block)`, ab0cb2e52 `weights.rs:120`), whose
 * epoch is `get_epoch_index(commit_block)` with the current tempo; it is the commit EPOCH on the stateful runtime
 * (`(hash, commit_epoch, commit_block, 0)`, Subtensor main 14bc6f9f9 `weights.rs:124`).
 *
 * @param snapshot - the metagraph snapshot (runtime, netuid, tempo)
 * @param field1 - field 1 of the tuple
 * @returns the commit epoch
 * @example v2CommitEpoch(snapshot, 1234n)
 */
export function v2CommitEpoch(snapshot: Pick<MetagraphSnapshot, 'netuid' | 'hyperparameters' | 'epoch'>, field1: bigint): bigint {
  if (epochRuntime(snapshot.epoch) === 'stateful') return field1;
  return legacyEpochIndex(snapshot.netuid, snapshot.hyperparameters.tempo, field1);
}

/** `MAX_TEMPO` (Subtensor main `pallets/subtensor/src/lib.rs:1814`): `BlocksSinceLastStep` above it forces an epoch. */
const MAX_BLOCKS_SINCE_LAST_STEP = 50_400n;

/**
 * The epoch whose timelocked queue the chain's reveal step takes in block `block`, `current_epoch - RevealPeriodEpochs`
 * (saturating), from the state before that block (the reveal step runs first in `on_initialize`, before
 * `run_coinbase`: `coinbase/block_step.rs:19`, `:21` at 14bc6f9f9). The current epoch is
 * `current_epoch_with_lookahead` on the stateful runtime (`coinbase/reveal_commits.rs:43`, `subnets/weights.rs:1275`
 * at 14bc6f9f9: `SubnetEpochIndex + 1` when `should_run_epoch(block)`, `coinbase/run_coinbase.rs:1085`, with
 * `BlocksSinceLastStep` not yet raised) and `get_epoch_index(block)` on the legacy one
 * (`coinbase/reveal_commits.rs:42` at ab0cb2e52). Queues of earlier epochs are deleted in that step unread
 * (`coinbase/reveal_commits.rs:53-58` at 14bc6f9f9, `:52-57` at ab0cb2e52).
 *
 * @param snapshot - the metagraph read at the block BEFORE `block`
 * @param block - the block whose reveal step is asked about
 * @returns the reveal epoch
 * @example revealStepEpoch(parentSnapshot, 1234n) // the epoch whose commits block 1234 reveals
 */
export function revealStepEpoch(snapshot: Pick<MetagraphSnapshot, 'netuid' | 'hyperparameters' | 'epoch'>, block: bigint): bigint {
  const { tempo, revealPeriodEpochs } = snapshot.hyperparameters;
  const { subnetEpochIndex, lastEpochBlock, pendingEpochAt, blocksSinceLastStep } = snapshot.epoch;
  let current: bigint;
  if (subnetEpochIndex === null || lastEpochBlock === null) current = legacyEpochIndex(snapshot.netuid, tempo, block);
  else {
    const runs =
      tempo !== 0 &&
      ((pendingEpochAt !== null && pendingEpochAt > 0n && block >= pendingEpochAt) ||
        (blocksSinceLastStep ?? 0n) > MAX_BLOCKS_SINCE_LAST_STEP ||
        block - lastEpochBlock >= BigInt(tempo));
    current = subnetEpochIndex + (runs ? 1n : 0n);
  }
  return current > revealPeriodEpochs ? current - revealPeriodEpochs : 0n;
}
