import type { ChainConnection } from './connection.js';
import { epochRuntime, legacyEpochIndex, legacyShouldRunEpoch, v2CommitEpoch } from './epoch-schedule.js';
import { toBig } from './metagraph.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { epochAtBlock, revealWindow } from './reveal-window.js';
import type { RevealWindow } from './reveal-window.js';
import { optionItems, subtensorStorage } from './storage-at.js';

/** One commit-reveal v2 commit of a hotkey as `WeightCommits` holds it. */
export interface WeightCommitEntry {
  readonly hash: string;
  /** The commit epoch (field 1 is a block on the legacy runtime, an epoch on the stateful one). */
  readonly epoch: bigint;
}

/**
 * Reads the hotkey's commit-reveal v2 commits at the snapshot's block.
 *
 * @param connection - the connection
 * @param snapshot - the metagraph the commits are read at (its block, storage index and epoch state)
 * @param hotkey - the committing hotkey
 * @returns the commits, oldest first
 * @throws SubnetError `CHAIN_STORAGE_NOT_AVAILABLE`, or a read's code
 */
export async function readWeightCommits(connection: ChainConnection, snapshot: MetagraphSnapshot, hotkey: string): Promise<WeightCommitEntry[]> {
  const fn = subtensorStorage(await connection.request('api.at', (api) => api.at(snapshot.blockHash)), 'WeightCommits', 'read');
  const raw = await connection.request('WeightCommits', () => fn(snapshot.netuidIndex, hotkey));
  return optionItems(raw).map((entry) => {
    const fields = Array.from(entry as Iterable<unknown>);
    // field 1 is the commit block on the legacy runtime, the commit epoch on the stateful one
    return { hash: String(fields[0]), epoch: v2CommitEpoch(snapshot, toBig(fields[1])) };
  });
}

/**
 * The reveal window of a commit made in `commitEpoch`, seen from the snapshot's head.
 *
 * @param snapshot - the metagraph (netuid, tempo, head, epoch state, reveal period)
 * @param commitEpoch - the commit's epoch
 * @returns the window, or null when it cannot be predicted
 */
export function commitRevealWindow(snapshot: MetagraphSnapshot, commitEpoch: bigint): RevealWindow | null {
  return revealWindow(
    { netuid: snapshot.netuid, tempo: snapshot.hyperparameters.tempo, head: snapshot.block, epoch: snapshot.epoch },
    commitEpoch,
    snapshot.hyperparameters.revealPeriodEpochs,
  );
}

/**
 * The epoch under which a timelocked commit executing in the block after the snapshot's head is queued
 * (`TimelockedWeightCommits[(netuid_index, epoch)]`): `current_epoch_with_lookahead` on Subtensor main
 * (`weights.rs:345` at 14bc6f9f9), `get_epoch_index + 1` when the epoch runs in that block on spec 393
 * (`weights.rs:342` at ab0cb2e52), on the plain netuid.
 *
 * @param snapshot - the metagraph (netuid, tempo, head, epoch state)
 * @returns the queue's epoch
 */
export function timelockedCommitEpoch(snapshot: Pick<MetagraphSnapshot, 'netuid' | 'hyperparameters' | 'epoch' | 'block'>): bigint {
  const block = snapshot.block + 1n;
  const { netuid } = snapshot;
  const tempo = snapshot.hyperparameters.tempo;
  if (epochRuntime(snapshot.epoch) === 'stateful') return epochAtBlock({ netuid, tempo, head: snapshot.block, epoch: snapshot.epoch }, block);
  return legacyEpochIndex(netuid, tempo, block) + (legacyShouldRunEpoch(netuid, tempo, block) ? 1n : 0n);
}

/**
 * How many timelocked commits of `hotkey` the queue that a commit in the block after the snapshot's head joins
 * already holds (the chain refuses a hotkey's 11th commit in one queue, `weights.rs:357`).
 *
 * @param connection - the connection
 * @param snapshot - the metagraph the queue is read at
 * @param hotkey - the committing hotkey
 * @returns the number of the hotkey's commits in that queue
 * @throws SubnetError `CHAIN_STORAGE_NOT_AVAILABLE`, or a read's code
 */
export async function readTimelockedCommitCount(connection: ChainConnection, snapshot: MetagraphSnapshot, hotkey: string): Promise<number> {
  const fn = subtensorStorage(await connection.request('api.at', (api) => api.at(snapshot.blockHash)), 'TimelockedWeightCommits', 'read');
  const epoch = timelockedCommitEpoch(snapshot);
  const raw = await connection.request('TimelockedWeightCommits', () => fn(snapshot.netuidIndex, epoch));
  return optionItems(raw).filter((entry) => String(Array.from(entry as Iterable<unknown>)[0]) === hotkey).length;
}
