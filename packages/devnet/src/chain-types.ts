import type { ChainState } from './chain-state.js';
import type { DevnetCall } from './devnet-call.js';
import type { DevnetBeacon } from './drand-beacon.js';
import type { RuntimeContext } from './runtime-context.js';
import type { StorageMap } from './storage-layout.js';
import type { BranchBlock, ReorganizeOptions } from './reorganize.js';
import type { TimelockDrop } from './timelock-reveal.js';

/** A produced block. */
export interface BlockRecord {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  readonly stateRoot: string;
  readonly extrinsicsRoot: string;
  /** The header's digest logs, each an encoded `DigestItem` as 0x hex (empty but on a reorganisation's branch). */
  readonly digestLogs: readonly string[];
  /** Extrinsics as 0x hex, in block order (the timestamp inherent first). */
  readonly extrinsics: readonly string[];
  /** State after the block. */
  readonly state: ChainState;
  /** Storage after the block; `null` once pruned. */
  storage: StorageMap | null;
}

/** Transaction status as `author_extrinsicUpdate` sends it. */
export type TxStatus =
  | 'future'
  | 'ready'
  | 'dropped'
  | 'invalid'
  | { readonly inBlock: string }
  | { readonly finalized: string }
  | { readonly retracted: string }
  | { readonly usurped: string };

/** A transaction in the pool, with its decoded call and watchers. */
export interface PoolEntry {
  readonly hash: string;
  readonly hex: string;
  readonly signer: string;
  readonly nonce: number;
  readonly call: DevnetCall;
  readonly mortal: { readonly period: number; readonly phase: number } | null;
  readonly birth: number;
  readonly arrival: number;
  readonly watchers: Set<(status: TxStatus) => void>;
  /** Accepted on the wire but never pooled (fault injection). */
  readonly lost: boolean;
}

/** Options of {@link createChain}. */
export interface ChainOptions {
  readonly slotDuration: number;
  readonly genesisTimestamp: bigint;
  readonly finalityLag: number;
  readonly maxBlockExtrinsics: number;
  readonly stateHistory: number;
  /** The devnet's drand beacon (publishes pulses each block), or null. */
  readonly beacon?: DevnetBeacon | null;
}

/** Listener of chain events. */
export interface ChainListener {
  newBest?(block: BlockRecord): void;
  finalized?(block: BlockRecord): void;
}

/** A pending runtime change applied at the start of the next block (like a sudo call). */
export type StateChange = (state: ChainState) => void;

/**
 * When a queued {@link StateChange} applies in the next block: before `on_initialize`, with its extrinsics (before
 * the pool's), or after the pool's extrinsics (`finalize`).
 */
export type StateChangePhase = 'initialize' | 'extrinsics' | 'finalize';

/** The chain engine: blocks, pool, validation, production. */
export interface Chain {
  readonly ctx: RuntimeContext;
  readonly genesisHash: string;
  best(): BlockRecord;
  finalized(): BlockRecord;
  blockByHash(hash: string): BlockRecord | undefined;
  blockByNumber(n: number): BlockRecord | undefined;
  /** Resolves an optional `at` hash to a block; throws an RPC failure for unknown blocks. */
  resolve(at: unknown): BlockRecord;
  storageOf(block: BlockRecord): StorageMap;
  submit(hex: string, watcher?: (status: TxStatus) => void, options?: { lost?: boolean }): string;
  unwatch(hash: string, watcher: (status: TxStatus) => void): void;
  pendingExtrinsics(): string[];
  accountNextIndex(address: string): number;
  produceBlock(): BlockRecord;
  /**
   * Queues a change of the next block's state. `initialize` (default): before its `on_initialize`, as a setting of
   * the block itself (`deferEpochs`). `extrinsics`: after `on_initialize` and the timestamp inherent, before the
   * pool's extrinsics, as an admin or sudo extrinsic included in that block: the block's reveal and epoch steps still
   * see the old value, the next block's see the new one. `finalize`: after the pool's extrinsics, as an extrinsic
   * included last in that block (its extrinsics still see the old value).
   */
  queueChange(change: StateChange, phase?: StateChangePhase): void;
  addListener(listener: ChainListener): () => void;
  /** Number of extrinsics in the pool. */
  poolSize(): number;
  /** Timelocked commits the reveal step dropped silently, oldest first. */
  timelockDrops(): readonly TimelockDrop[];
  /** Replaces the last `depth` (unfinalised) blocks by a branch built on their parent (`reorganize.ts`). */
  reorganize(depth: number, branch: readonly BranchBlock[], options?: ReorganizeOptions): BlockRecord[];
}
