import type { PoolEntry, TxStatus } from './chain-types.js';
import type { ChainStore } from './chain-store.js';
import { notifyEntry, readyNonce } from './transaction-pool.js';
import { validateExtrinsic } from './validate-extrinsic.js';

/**
 * `author_submitExtrinsic`: validates, pools (or, for a `lost` submission, answers without pooling) and tells
 * the watcher `ready` or `future` (a nonce gap) on the next microtask.
 *
 * @param store - the chain store
 * @param hex - the extrinsic
 * @param watcher - status callback
 * @param opts - `lost`: accepted on the wire but never pooled (fault injection)
 * @returns the extrinsic hash
 * @throws RpcFailure with the node's pool error
 * @example
 * submitExtrinsic(store, hex, (s) => console.log(s));
 */
export function submitExtrinsic(store: ChainStore, hex: string, watcher?: (status: TxStatus) => void, opts?: { lost?: boolean }): string {
  const v = validateExtrinsic(store, hex);
  const entry: PoolEntry = { ...v, watchers: new Set(), arrival: store.arrivals, lost: opts?.lost === true };
  store.arrivals += 1;
  if (watcher !== undefined) entry.watchers.add(watcher);
  if (entry.lost) {
    // accepted on the wire, never reaches the pool (a transaction lost in the network)
    queueMicrotask(() => {
      notifyEntry(entry, 'ready');
    });
    return entry.hash;
  }
  store.pool.push(entry);
  store.poolByHash.set(entry.hash, entry);
  const ready = entry.nonce <= readyNonce(store, entry.signer, entry);
  queueMicrotask(() => {
    notifyEntry(entry, ready ? 'ready' : 'future');
  });
  return entry.hash;
}
