import type { ApiPromise } from '@polkadot/api';
import { blake2AsHex } from '@polkadot/util-crypto';

import { chainError } from './chain-error.js';
import type { ChainErrorContext } from './chain-error.js';
import type { ChainConnection } from './connection.js';
import { toBig } from './metagraph.js';
import { optionItems } from './storage-at.js';
import type { TimelockedCommitRecord } from './timelock-commit.js';

type Entry = ((...args: unknown[]) => Promise<unknown>) & { entries?: (...args: unknown[]) => Promise<[{ args: unknown[] }, unknown][]> };

/** `api.at(hash)`: the storage view at one block. */
export type ApiAt = Awaited<ReturnType<ApiPromise['at']>>;

/** The block in which the commit left its queue. */
export interface QueueExit {
  readonly at: ApiAt;
  readonly hash: string;
  readonly number: bigint;
}

/** How far the queue of one commit has been followed on one connection. */
interface WalkProgress {
  /** The commit's `TimelockedWeightCommits` epoch key. */
  readonly commitEpoch: bigint;
  /** The first block not yet read. */
  readonly next: bigint;
  /** The hash of block `next - 1` when it was read (the commit block's hash while `next` is the block after it). */
  readonly lastHash: string;
}

/** Commits followed per connection: enough for a validator's backlog; the oldest is forgotten first. */
const MAX_REMEMBERED = 256;

/** What was read, per connection (a closed client's entries go with it). */
const walks = new WeakMap<ChainConnection, Map<string, WalkProgress>>();

/**
 * The storage item `pallet.item` of the runtime at a block.
 *
 * @throws SubnetError `CHAIN_STORAGE_NOT_AVAILABLE`
 */
export function storageEntry(at: ApiAt, pallet: string, item: string): Entry {
  const fn = (at.query as unknown as Record<string, Record<string, Entry | undefined> | undefined>)[pallet]?.[item];
  if (!fn)
    throw chainError('StorageNotAvailable', `the runtime has no ${pallet}.${item}`, { source: 'client', stage: 'confirm', path: 'storage', value: item });
  return fn;
}

function isOurs(item: unknown, record: TimelockedCommitRecord): boolean {
  const fields = Array.from(item as Iterable<{ toString(): string; toU8a(bare?: boolean): Uint8Array }>);
  const [who, , commit] = fields;
  if (who === undefined || commit === undefined) return false;
  return who.toString() === record.hotkey && blake2AsHex(commit.toU8a(true), 256) === record.commitHash;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

function walkKey(record: TimelockedCommitRecord): string {
  return `${record.commitBlockHash}/${record.netuidIndex}/${record.hotkey}/${record.commitHash}`;
}

function remember(connection: ChainConnection, key: string, progress: WalkProgress): void {
  let map = walks.get(connection);
  if (map === undefined) {
    map = new Map();
    walks.set(connection, map);
  }
  map.delete(key);
  map.set(key, progress);
  while (map.size > MAX_REMEMBERED) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/**
 * Reads block `n` of the best chain: its hash and storage view.
 *
 * @param connection - the chain connection
 * @param n - the block number
 * @returns the view and hash
 */
export async function blockAt(connection: ChainConnection, n: bigint): Promise<{ at: ApiAt; hash: string }> {
  const hash = (await connection.request('chain_getBlockHash', (api) => api.rpc.chain.getBlockHash(n))).toHex();
  return { at: await connection.request('api.at', (api) => api.at(hash)), hash };
}

/** Whether the commit is in the queue of `epoch` at the storage view `at`. */
async function inQueue(connection: ChainConnection, at: ApiAt, record: TimelockedCommitRecord, epoch: bigint): Promise<boolean> {
  const queue = await connection.request('TimelockedWeightCommits', () =>
    storageEntry(at, 'subtensorModule', 'timelockedWeightCommits')(record.netuidIndex, epoch),
  );
  return optionItems(queue).some((item) => isOurs(item, record));
}

/**
 * The epoch the chain filed a timelocked commit under (its `TimelockedWeightCommits` key), read at the commit block:
 * first the predicted epoch's queue alone (where a commit that landed as predicted is), else every queue of its
 * mechanism (a commit that waited in the pool across an epoch boundary is filed under a later epoch).
 *
 * @param connection - the chain connection
 * @param record - the commit record
 * @param base - the error context
 * @returns the commit's epoch
 * @throws SubnetError `CHAIN_WEIGHTS_NOT_CONFIRMED` (in no queue at the commit block), `CHAIN_STORAGE_NOT_AVAILABLE`
 * @example const epoch = await commitEpochOf(connection, record, { source: 'client', stage: 'confirm' });
 */
export async function commitEpochOf(connection: ChainConnection, record: TimelockedCommitRecord, base: Partial<ChainErrorContext>): Promise<bigint> {
  const commitAt = await connection.request('api.at', (api) => api.at(record.commitBlockHash));
  const predicted = record.prediction?.commitEpoch;
  if (predicted !== undefined && (await inQueue(connection, commitAt, record, predicted))) return predicted;
  const listEntries = storageEntry(commitAt, 'subtensorModule', 'timelockedWeightCommits').entries;
  if (!listEntries)
    throw chainError('StorageNotAvailable', 'cannot list SubtensorModule.TimelockedWeightCommits', {
      ...base,
      path: 'storage',
      value: 'TimelockedWeightCommits',
    });
  const all = await connection.request('TimelockedWeightCommits.entries', () => listEntries(record.netuidIndex));
  let commitEpoch: bigint | null = null;
  for (const [key, value] of all) {
    if (optionItems(value).some((item) => isOurs(item, record))) commitEpoch = toBig(key.args[1]);
  }
  if (commitEpoch === null) {
    throw chainError('WeightsNotConfirmed', `the commit ${record.commitHash} is in no TimelockedWeightCommits queue at its block ${record.commitBlock}`, base);
  }
  return commitEpoch;
}

/**
 * Follows a timelocked commit's epoch queue (`TimelockedWeightCommits[(netuid_index, epoch)]`) block by block from
 * the commit block until the commit leaves it. Incremental: what one check read is remembered per connection, so the
 * next check of the same commit reads only blocks produced since (plus one block hash, to notice a reorganisation,
 * after which the walk starts again at the commit block). The outcome is the one a walk from the commit block would
 * give on the current best chain.
 *
 * @param connection - the chain connection
 * @param record - the (checked) commit record
 * @param options - deadline (epoch ms), poll interval, the timeout for the message, and the error context base
 * @returns the commit's epoch and the block in which it left the queue
 * @throws SubnetError `CHAIN_WEIGHTS_NOT_CONFIRMED` (in no queue at the commit block), `CHAIN_TIMELOCK_REVEAL_TIMEOUT`,
 *   `CHAIN_STORAGE_NOT_AVAILABLE`
 * @example const { commitEpoch, exit } = await followCommitQueue(conn, record, { deadline, pollMs: 1000, timeoutMs, base });
 */
export async function followCommitQueue(
  connection: ChainConnection,
  record: TimelockedCommitRecord,
  options: { readonly deadline: number; readonly pollMs: number; readonly timeoutMs: number; readonly base: Partial<ChainErrorContext> },
): Promise<{ commitEpoch: bigint; exit: QueueExit }> {
  const key = walkKey(record);
  const first = record.commitBlock + 1n;
  let progress = walks.get(connection)?.get(key);
  if (progress !== undefined && progress.next > first) {
    const readUpTo = progress.next - 1n;
    const hash = (await connection.request('chain_getBlockHash', (api) => api.rpc.chain.getBlockHash(readUpTo))).toHex();
    if (hash !== progress.lastHash) progress = { commitEpoch: progress.commitEpoch, next: first, lastHash: record.commitBlockHash };
  }
  if (progress === undefined) progress = { commitEpoch: await commitEpochOf(connection, record, options.base), next: first, lastHash: record.commitBlockHash };
  // Each check walks with its own cursor and stores it only when it got further than what is stored, so two checks
  // of one commit running at once never skip a block; a reset after a reorganisation is stored as it is.
  remember(connection, key, progress);
  let walk: WalkProgress = progress;
  const advance = (next: bigint, lastHash: string): void => {
    walk = { commitEpoch: walk.commitEpoch, next, lastHash };
    const stored = walks.get(connection)?.get(key);
    if (stored === undefined || stored.next < next) remember(connection, key, walk);
  };
  const present = (at: ApiAt): Promise<boolean> => inQueue(connection, at, record, walk.commitEpoch);
  for (;;) {
    const head = (await connection.request('chain_getHeader', (api) => api.rpc.chain.getHeader())).number.toBigInt();
    while (walk.next <= head) {
      const block = await blockAt(connection, walk.next);
      if (!(await present(block.at))) return { commitEpoch: walk.commitEpoch, exit: { ...block, number: walk.next } };
      advance(walk.next + 1n, block.hash);
    }
    if (Date.now() > options.deadline) {
      throw chainError('TimelockRevealTimeout', `the commit is still waiting for its reveal at block ${walk.next - 1n} after ${options.timeoutMs} ms`, {
        ...options.base,
        path: 'block',
        value: walk.next - 1n,
        commitEpoch: walk.commitEpoch,
        predictedRevealBlock: record.prediction?.revealBlock,
      });
    }
    await sleep(options.pollMs);
  }
}
