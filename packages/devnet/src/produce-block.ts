import { announceBlock } from './announce-block.js';
import { applyExtrinsics } from './apply-extrinsics.js';
import { initializeBlock } from './block-initialize.js';
import type { AppliedExtrinsics } from './apply-extrinsics.js';
import type { BlockRecord } from './chain-types.js';
import { cloneState } from './chain-state.js';
import type { ChainStore } from './chain-store.js';
import { bestBlock } from './chain-store.js';
import { dispatchInfo, encodeEventRecord } from './event-record.js';
import { sealBlock } from './seal-block.js';
import { timestampInherent } from './timestamp-inherent.js';

/** A block built and sealed (appended to the store's blocks) but not yet announced. */
export interface BuiltBlock extends AppliedExtrinsics {
  readonly block: BlockRecord;
}

/**
 * Builds the next block on the store's best block: the parent's state with the changes queued for its start
 * (`deferEpochs`), `on_initialize` (timelocked reveals, the epoch step, drand pulses), the timestamp inherent, the
 * changes queued as admin extrinsics of the block (`setHyperparameter`: on chain an admin-utils or sudo call is an
 * extrinsic, applied after `on_initialize`, `frame_executive` `initialize_block` then `apply_extrinsic`), the pool's
 * ready transactions; then seals it. Nothing is announced (`produceBlock` and `reorganize.ts` do that).
 *
 * @param store - the chain store
 * @param options - `pulses: false` leaves out the block's drand pulses (on chain they come by `write_pulse`
 *   extrinsics, which a block author may not include); the next block with pulses publishes every round missed.
 *   `digestLogs`: the header's digest logs (a reorganisation's branch marks its blocks, as another author's would differ)
 * @returns the sealed block and the pool entries it took or found invalid
 * @example
 * const { block, included, invalid } = buildBlock(store, { pulses: true });
 */
export function buildBlock(store: ChainStore, options: { readonly pulses: boolean; readonly digestLogs?: readonly string[] }): BuiltBlock {
  const { ctx, drops } = store;
  const parent = bestBlock(store);
  const state = cloneState(parent.state);
  state.number = parent.number + 1;
  state.parentHash = parent.hash;
  state.timestamp = store.options.genesisTimestamp + BigInt(state.number) * BigInt(store.options.slotDuration);
  state.events = [];
  const now = BigInt(state.number);
  const changes = store.pendingChanges;
  store.pendingChanges = [];
  for (const change of changes) change(state);
  const init = initializeBlock(state, now, options.pulses ? (store.options.beacon ?? null) : null);
  drops.push(...init.drops);
  if (drops.length > 10_000) drops.splice(0, drops.length - 10_000);

  const extrinsics: string[] = [];
  const events: Uint8Array[] = [];
  for (const ev of init.events) {
    const e = encodeEventRecord(ctx, 'init', ev);
    if (e !== undefined) events.push(e);
  }
  const inherent = timestampInherent(ctx, store.timestampCallIndex, state.timestamp);
  if (inherent !== undefined) {
    extrinsics.push(inherent);
    const e = encodeEventRecord(ctx, 0, { pallet: 'System', name: 'ExtrinsicSuccess', fields: [dispatchInfo(true)] });
    if (e !== undefined) events.push(e);
  }
  const admin = store.pendingExtrinsicChanges;
  store.pendingExtrinsicChanges = [];
  for (const change of admin) change(state);
  const { included, invalid } = applyExtrinsics(store, state, now, extrinsics, events);
  const last = store.pendingFinalChanges;
  store.pendingFinalChanges = [];
  for (const change of last) change(state);
  state.events = events;
  const block = sealBlock(store, state, extrinsics, options.digestLogs);
  return { block, included, invalid };
}

/**
 * Produces the next block ({@link buildBlock}, with its drand pulses), then announces it.
 *
 * @param store - the chain store
 * @returns the new best block
 * @example
 * const block = produceBlock(store);
 */
export function produceBlock(store: ChainStore): BlockRecord {
  const { block, included, invalid } = buildBlock(store, { pulses: true });
  announceBlock(store, block, included, [...invalid]);
  return block;
}
