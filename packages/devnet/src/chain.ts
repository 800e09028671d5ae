import { u8aToHex } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';

import type { Chain, ChainOptions } from './chain-types.js';
import type { ChainState } from './chain-state.js';
import { cloneState } from './chain-state.js';
import type { ChainStore } from './chain-store.js';
import { bestBlock } from './chain-store.js';
import { produceBlock } from './produce-block.js';
import { reorganizeChain } from './reorganize.js';
import { RpcFailure } from './rpc-errors.js';
import type { RuntimeContext } from './runtime-context.js';
import { sealBlock } from './seal-block.js';
import { submitExtrinsic } from './submit-extrinsic.js';
import { readyNonce } from './transaction-pool.js';

export type { BlockRecord, Chain, ChainListener, ChainOptions, StateChange, StateChangePhase, TxStatus } from './chain-types.js';

/**
 * Creates the chain engine from a genesis state. Block hash = blake2_256 of the SCALE header; the state root
 * is blake2_256 of the sorted key/value list (no trie); the extrinsics root is blake2_256 of the SCALE
 * `Vec<Extrinsic>`.
 *
 * @param ctx - runtime context
 * @param genesis - state of block 0
 * @param options - timing and limits
 * @returns the chain
 * @example
 * const chain = createChain(ctx, genesisState, { slotDuration: 12000, ... });
 */
export function createChain(ctx: RuntimeContext, genesis: ChainState, options: ChainOptions): Chain {
  const store: ChainStore = {
    ctx,
    options,
    blocks: [],
    byHash: new Map(),
    pool: [],
    poolByHash: new Map(),
    finalizeWatch: new Map(),
    retracted: [],
    listeners: new Set(),
    hashCache: new Map(),
    drops: [],
    pendingChanges: [],
    pendingExtrinsicChanges: [],
    pendingFinalChanges: [],
    finalizedNumber: 0,
    reorganizations: 0,
    arrivals: 0,
    genesisHash: '',
    timestampCallIndex: ctx.callIndex('Timestamp', 'set'),
  };
  const genesisBlock = sealBlock(store, cloneState(genesis), []);
  const genesisHash = genesisBlock.hash;
  store.genesisHash = genesisHash;

  return {
    ctx,
    genesisHash,
    best: () => bestBlock(store),
    finalized: () => store.blocks[store.finalizedNumber] ?? genesisBlock,
    blockByHash: (hash) => store.byHash.get(hash.toLowerCase()),
    blockByNumber: (n) => store.blocks[n],
    resolve(at) {
      if (at === undefined || at === null) return bestBlock(store);
      if (typeof at !== 'string') throw new RpcFailure({ code: -32602, message: 'Invalid params', data: 'block hash must be a hex string' });
      const b = store.byHash.get(at.toLowerCase());
      if (b === undefined) throw new RpcFailure({ code: 4001, message: `Unknown block ${at}` });
      return b;
    },
    storageOf(block) {
      if (block.storage === null) throw new RpcFailure({ code: 4003, message: `State already discarded for ${block.hash}` });
      return block.storage;
    },
    submit: (hex, watcher, opts) => submitExtrinsic(store, hex, watcher, opts),
    unwatch(hash, watcher) {
      store.poolByHash.get(hash)?.watchers.delete(watcher);
      for (const byTx of store.finalizeWatch.values()) for (const set of byTx.values()) set.delete(watcher);
    },
    pendingExtrinsics: () => store.pool.map((p) => p.hex),
    accountNextIndex(address) {
      let who: string;
      try {
        who = u8aToHex(decodeAddress(address));
      } catch {
        throw new RpcFailure({ code: -32602, message: 'Invalid params', data: `invalid address ${address}` });
      }
      return readyNonce(store, who);
    },
    produceBlock: () => produceBlock(store),
    queueChange(change, phase = 'initialize') {
      (phase === 'extrinsics' ? store.pendingExtrinsicChanges : phase === 'finalize' ? store.pendingFinalChanges : store.pendingChanges).push(change);
    },
    addListener(listener) {
      store.listeners.add(listener);
      return () => store.listeners.delete(listener);
    },
    poolSize: () => store.pool.length,
    timelockDrops: () => [...store.drops],
    reorganize: (depth, branch, options) => reorganizeChain(store, depth, branch, options),
  };
}
