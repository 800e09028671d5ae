import { chainError } from './chain-error.js';
import type { ChainConnection } from './connection.js';
import { v2CommitEpoch } from './epoch-schedule.js';
import { toBig } from './metagraph.js';
import type { MetagraphSnapshot } from './metagraph-snapshot.js';
import { revealWindow } from './reveal-window.js';
import type { RevealWindow } from './reveal-window.js';

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
  const at = await connection.request('api.at', (api) => api.at(snapshot.blockHash));
  const fn = (at.query as unknown as Record<string, Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined> | undefined>)['subtensorModule']?.[
    'weightCommits'
  ];
  if (!fn)
    throw chainError('StorageNotAvailable', 'the runtime has no SubtensorModule.WeightCommits', {
      source: 'client',
      stage: 'read',
      path: 'storage',
      value: 'WeightCommits',
    });
  const raw = await connection.request('WeightCommits', () => fn(snapshot.netuidIndex, hotkey));
  const option = raw as { isSome?: boolean; unwrap?: () => unknown };
  const list = option.isSome === false ? [] : Array.from((option.unwrap ? option.unwrap() : raw) as Iterable<Iterable<unknown>>);
  return list.map((entry) => {
    const fields = Array.from(entry);
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
