import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';

import type { BlockRecord } from './chain-types.js';
import type { ChainState } from './chain-state.js';
import type { ChainStore } from './chain-store.js';
import type { StorageMap } from './storage-layout.js';
import { materializeStorage } from './storage-layout.js';

function stateRootOf(storage: StorageMap): string {
  const keys = [...storage.keys()].sort();
  const parts: Uint8Array[] = [compactToU8a(keys.length)];
  for (const k of keys) {
    const kb = hexToU8a(k);
    const vb = hexToU8a(storage.get(k));
    parts.push(compactToU8a(kb.length), kb, compactToU8a(vb.length), vb);
  }
  return u8aToHex(blake2AsU8a(u8aConcat(...parts), 256));
}

function extrinsicsRootOf(extrinsics: readonly string[]): string {
  const parts: Uint8Array[] = [compactToU8a(extrinsics.length)];
  for (const e of extrinsics) parts.push(hexToU8a(e));
  return u8aToHex(blake2AsU8a(u8aConcat(...parts), 256));
}

/**
 * Seals a built state into a block and appends it: storage materialised (with the last 256 block hashes), state
 * root = blake2_256 of the sorted key/value list (no trie), extrinsics root = blake2_256 of the SCALE
 * `Vec<Extrinsic>`, hash = blake2_256 of the SCALE header. Prunes the storage `stateHistory` blocks back.
 *
 * @param store - the chain store
 * @param state - the state after the block
 * @param extrinsics - the block's extrinsics (hex)
 * @param digestLogs - the header's digest logs (encoded `DigestItem`s, hex); none by default
 * @returns the new block
 * @example
 * const genesis = sealBlock(store, cloneState(genesisState), []);
 */
export function sealBlock(store: ChainStore, state: ChainState, extrinsics: readonly string[], digestLogs: readonly string[] = []): BlockRecord {
  const { ctx, hashCache } = store;
  const recent = new Map<number, string>();
  const from = Math.max(0, state.number - 256);
  for (let n = from; n < state.number; n += 1) {
    const h = hashCache.get(n);
    if (h !== undefined) recent.set(n, h);
  }
  const storage = materializeStorage(state, ctx, recent);
  const stateRoot = stateRootOf(storage);
  const extrinsicsRoot = extrinsicsRootOf(extrinsics);
  const header = ctx.registry.createType('Header', {
    parentHash: state.parentHash,
    number: state.number,
    stateRoot,
    extrinsicsRoot,
    digest: { logs: digestLogs.map((log) => ctx.registry.createType('DigestItem', log)) },
  });
  const hash = u8aToHex(blake2AsU8a(header.toU8a(), 256));
  const block: BlockRecord = {
    number: state.number,
    hash,
    parentHash: state.parentHash,
    stateRoot,
    extrinsicsRoot,
    digestLogs,
    extrinsics,
    state,
    storage,
  };
  store.blocks.push(block);
  store.byHash.set(hash, block);
  hashCache.set(state.number, hash);
  const prune = store.blocks[state.number - store.options.stateHistory];
  if (prune !== undefined) prune.storage = null;
  return block;
}
