import type { BlockRecord, ChainListener, ChainOptions, PoolEntry, StateChange, TxStatus } from './chain-types.js';
import type { ChainState } from './chain-state.js';
import type { RuntimeContext } from './runtime-context.js';
import type { TimelockDrop } from './timelock-reveal.js';

/** The chain engine's mutable state, shared by its named operations (`chain.ts` wires them). */
export interface ChainStore {
  readonly ctx: RuntimeContext;
  readonly options: ChainOptions;
  /** Blocks by number (index = number). */
  readonly blocks: BlockRecord[];
  readonly byHash: Map<string, BlockRecord>;
  /** The pool, in arrival order. */
  readonly pool: PoolEntry[];
  readonly poolByHash: Map<string, PoolEntry>;
  /** Watchers waiting for a block hash to be finalized, by block hash and then by transaction hash. */
  readonly finalizeWatch: Map<string, Map<string, Set<(status: TxStatus) => void>>>;
  /**
   * Blocks of branches a reorganisation replaced (`reorganize.ts`), still answered by hash (header, body, state) until
   * finality reaches their number; then forgotten, as a node prunes the displaced branches at finalisation.
   */
  readonly retracted: BlockRecord[];
  readonly listeners: Set<ChainListener>;
  /** Block hashes by number (also of pruned blocks). */
  readonly hashCache: Map<number, string>;
  /** Timelocked commits dropped by the reveal step, oldest first (capped at 10,000). */
  readonly drops: TimelockDrop[];
  pendingChanges: StateChange[];
  /** Changes applied with the next block's extrinsics, after its `on_initialize` (admin calls: `setHyperparameter`). */
  pendingExtrinsicChanges: StateChange[];
  /** Changes applied after the next block's pool extrinsics (an extrinsic included last: `replaceNeuron` with `afterExtrinsics`). */
  pendingFinalChanges: StateChange[];
  finalizedNumber: number;
  /** Reorganisations so far (each branch's blocks carry its number in their digest). */
  reorganizations: number;
  /** Submissions seen so far (the arrival order of pool entries). */
  arrivals: number;
  /** Set once block 0 is sealed. */
  genesisHash: string;
  /** `Timestamp.set`'s call index, looked up once. */
  readonly timestampCallIndex: Uint8Array | undefined;
}

const ZERO_HASH = `0x${'00'.repeat(32)}`;

/** The best (last produced) block. */
export function bestBlock(store: ChainStore): BlockRecord {
  const b = store.blocks[store.blocks.length - 1];
  if (b === undefined) throw new Error('no blocks');
  return b;
}

/** The account nonce of `who` in a state. */
export function nonceOf(state: ChainState, who: string): number {
  return state.nonces.get(who) ?? 0;
}

/** The hash of block `n`, or the zero hash when unknown (as `BlockHash` storage answers). */
export function hashAt(store: ChainStore, n: number): string {
  return store.hashCache.get(n) ?? ZERO_HASH;
}
