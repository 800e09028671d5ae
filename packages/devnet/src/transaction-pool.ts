import type { PoolEntry, TxStatus } from './chain-types.js';
import type { ChainStore } from './chain-store.js';
import { bestBlock, nonceOf } from './chain-store.js';

/**
 * The next nonce of a signer counting its pooled transactions (`system_accountNextIndex`): the state nonce,
 * raised past every consecutive nonce in the pool, not counting `except`.
 *
 * @param store - the chain store
 * @param signer - hex public key
 * @param except - a pool entry to leave out
 * @returns the next free nonce
 * @example
 * readyNonce(store, alice); // 3 with nonce 1 in state and nonces 1, 2 pooled
 */
export function readyNonce(store: ChainStore, signer: string, except?: PoolEntry): number {
  let n = nonceOf(bestBlock(store).state, signer);
  const mine = new Set(store.pool.filter((p) => p.signer === signer && p !== except).map((p) => p.nonce));
  while (mine.has(n)) n += 1;
  return n;
}

/** Sends a status to every watcher of a pool entry. */
export function notifyEntry(entry: PoolEntry, status: TxStatus): void {
  for (const w of [...entry.watchers]) w(status);
}

/** Removes an entry from the pool (if there). */
export function removeFromPool(store: ChainStore, entry: PoolEntry): void {
  const i = store.pool.indexOf(entry);
  if (i >= 0) store.pool.splice(i, 1);
  store.poolByHash.delete(entry.hash);
}
