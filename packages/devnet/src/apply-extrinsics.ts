import type { PoolEntry } from './chain-types.js';
import type { ChainState } from './chain-state.js';
import { cloneState } from './chain-state.js';
import type { ChainStore } from './chain-store.js';
import { nonceOf } from './chain-store.js';
import { dispatchCall } from './dispatch-call.js';
import { dispatchInfo, encodeEventRecord } from './event-record.js';
import { mortalBirth } from './mortal-era.js';
import { poolGuard } from './pool-guard.js';

/** Which pool entries a block took, and which it found invalid. */
export interface AppliedExtrinsics {
  readonly included: PoolEntry[];
  readonly invalid: PoolEntry[];
}

/**
 * Fills a block from the pool: ready transactions per signer in nonce order, across signers by arrival, up to
 * `maxBlockExtrinsics`. Each is checked again before dispatch (its era still the one signed, then the runtime's
 * pool guard against the block's state; a failure makes it invalid), then dispatched: success appends its events
 * and `ExtrinsicSuccess`, failure `ExtrinsicFailed` with the module error (a failed batch leaves the subnets as
 * they were).
 *
 * @param store - the chain store (its pool is read, not changed)
 * @param state - the state being built (mutated: nonces, dispatch effects)
 * @param now - the block number
 * @param extrinsics - the block's extrinsics so far (appended to)
 * @param events - the block's encoded event records so far (appended to)
 * @returns the included and invalid entries
 * @example
 * const { included, invalid } = applyExtrinsics(store, state, 12n, extrinsics, events);
 */
export function applyExtrinsics(store: ChainStore, state: ChainState, now: bigint, extrinsics: string[], events: Uint8Array[]): AppliedExtrinsics {
  const { ctx, options } = store;
  const included: PoolEntry[] = [];
  const invalid: PoolEntry[] = [];
  const bySigner = new Map<string, PoolEntry[]>();
  for (const p of store.pool) {
    const list = bySigner.get(p.signer) ?? [];
    list.push(p);
    bySigner.set(p.signer, list);
  }
  for (const list of bySigner.values()) list.sort((a, b) => a.nonce - b.nonce);
  const heads = new Map<string, number>();
  for (;;) {
    if (extrinsics.length >= options.maxBlockExtrinsics) break;
    let pick: PoolEntry | undefined;
    for (const [signer, list] of bySigner) {
      const i = heads.get(signer) ?? 0;
      const cand = list[i];
      if (cand === undefined) continue;
      if (cand.nonce !== nonceOf(state, signer)) continue;
      if (pick === undefined || cand.arrival < pick.arrival) pick = cand;
    }
    if (pick === undefined) break;
    heads.set(pick.signer, (heads.get(pick.signer) ?? 0) + 1);
    // pre-dispatch: era still the one signed, then the Subtensor guards against the block's state
    if (pick.mortal !== null && mortalBirth(pick.mortal.period, pick.mortal.phase, state.number) !== pick.birth) {
      invalid.push(pick);
      continue;
    }
    if (poolGuard(state, now, pick.signer, pick.call) !== null) {
      invalid.push(pick);
      continue;
    }
    const index = extrinsics.length;
    extrinsics.push(pick.hex);
    state.nonces.set(pick.signer, pick.nonce + 1);
    const isBatch = pick.call.kind.startsWith('batch_');
    const snapshot = isBatch ? cloneState(state) : null;
    const outcome = dispatchCall(state, now, pick.signer, pick.call);
    if (!outcome.ok && snapshot !== null) {
      state.subnets = snapshot.subnets;
    }
    if (outcome.ok) {
      for (const ev of outcome.events) {
        const e = encodeEventRecord(ctx, index, ev);
        if (e !== undefined) events.push(e);
      }
      const e = encodeEventRecord(ctx, index, { pallet: 'System', name: 'ExtrinsicSuccess', fields: [dispatchInfo(false)] });
      if (e !== undefined) events.push(e);
    } else {
      const { index: pallet, error } = ctx.moduleError('SubtensorModule', outcome.error);
      const e = encodeEventRecord(ctx, index, {
        pallet: 'System',
        name: 'ExtrinsicFailed',
        fields: [{ Module: { index: pallet, error: [error, 0, 0, 0] } }, dispatchInfo(false)],
      });
      if (e !== undefined) events.push(e);
    }
    included.push(pick);
  }
  return { included, invalid };
}
