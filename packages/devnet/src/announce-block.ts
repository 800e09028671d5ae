import type { BlockRecord, PoolEntry, TxStatus } from './chain-types.js';
import type { ChainStore } from './chain-store.js';
import { nonceOf } from './chain-store.js';
import { mortalBirth } from './mortal-era.js';
import { notifyEntry, removeFromPool } from './transaction-pool.js';

/**
 * What follows a sealed block: the included and invalid entries leave the pool; the rest is revalidated (stale
 * nonces and expired eras become invalid); watchers hear `inBlock` / `invalid`; listeners hear the new best;
 * finality advances to `number - finalityLag`, telling `finalized` to watchers and listeners in block order.
 *
 * @param store - the chain store
 * @param block - the new best block
 * @param included - the entries it included
 * @param invalid - the entries found invalid while building it (extended here)
 * @example
 * announceBlock(store, block, included, invalid);
 */
export function announceBlock(store: ChainStore, block: BlockRecord, included: readonly PoolEntry[], invalid: PoolEntry[]): void {
  const { finalizeWatch, listeners, options } = store;
  for (const p of [...included, ...invalid]) removeFromPool(store, p);
  // revalidate the rest of the pool: stale nonces and expired eras become invalid
  for (const p of [...store.pool]) {
    const expired = p.mortal !== null && mortalBirth(p.mortal.period, p.mortal.phase, block.number + 1) !== p.birth;
    if (p.nonce < nonceOf(block.state, p.signer) || expired) {
      removeFromPool(store, p);
      invalid.push(p);
    }
  }
  const byTx = finalizeWatch.get(block.hash) ?? new Map<string, Set<(status: TxStatus) => void>>();
  for (const p of included) {
    notifyEntry(p, { inBlock: block.hash });
    byTx.set(p.hash, new Set([...(byTx.get(p.hash) ?? []), ...p.watchers]));
  }
  if (byTx.size > 0) finalizeWatch.set(block.hash, byTx);
  for (const p of invalid) notifyEntry(p, 'invalid');
  for (const l of listeners) l.newBest?.(block);
  const target = Math.max(0, block.number - options.finalityLag);
  while (store.finalizedNumber < target) {
    store.finalizedNumber += 1;
    const fb = store.blocks[store.finalizedNumber];
    if (fb === undefined) break;
    const byTxFinal = finalizeWatch.get(fb.hash);
    finalizeWatch.delete(fb.hash);
    if (byTxFinal !== undefined) for (const watchers of byTxFinal.values()) for (const w of watchers) w({ finalized: fb.hash });
    for (const l of listeners) l.finalized?.(fb);
    pruneRetracted(store, store.finalizedNumber);
  }
}

/**
 * Forgets the replaced blocks at or below a newly finalised number (header, body, state and watchers), as a node
 * prunes the branches that finality displaced: a later request at their hash is answered as for an unknown block.
 */
function pruneRetracted(store: ChainStore, finalized: number): void {
  if (store.retracted.length === 0) return;
  const keep = store.retracted.filter((b) => b.number > finalized);
  for (const b of store.retracted) {
    if (b.number > finalized) continue;
    store.byHash.delete(b.hash);
    store.finalizeWatch.delete(b.hash);
  }
  store.retracted.splice(0, store.retracted.length, ...keep);
}
