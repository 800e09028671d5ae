import type { ChainConnection } from '@subnet/chain';
import type { SubnetError } from '@subnet/core';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';

/** A validator uid that a registration gave to another hotkey in a block (docs/spec.md G.19). */
export interface UidReplacement {
  /** The validator's uid when its weights were set. */
  readonly uid: number;
  /** The hotkey that holds the uid in the block's state (the registration's). */
  readonly newHotkey: string;
}

type StorageRead = (...args: unknown[]) => Promise<{ toString(): string; toJSON(): unknown; isEmpty?: boolean }>;

/** The Subtensor pallet's storage items of a state (`api.at(hash).query`), by name; undefined on a runtime without it. */
function subtensorStorage(query: unknown): Record<string, StorageRead | undefined> | undefined {
  return (query as Record<string, Record<string, StorageRead | undefined> | undefined>)['subtensorModule'];
}

/**
 * Whether the validator's uid was taken by a registration in block `block` (`blockHash`): in the state after that
 * block `Keys(netuid, uid)` is another hotkey and `BlockAtRegistration(netuid, uid)` is that block. That is what
 * Subtensor's `replace_neuron` writes (`subnets/uids.rs:78-90` at 14bc6f9f9, called by a registration into a full
 * subnet, `subnets/registration.rs`), and it removes the weights the uid set (`clear_neuron`, `uids.rs:33`), so
 * weights the chain set for the validator earlier in that block are gone from the block's state.
 *
 * @param connection - the chain connection
 * @param at - netuid, the validator's uid when it set the weights, and its hotkey
 * @param block - the block number
 * @param blockHash - its hash
 * @returns the uid and its new holder, or null (the uid is still the hotkey's, or changed hands otherwise)
 * @throws the read's `CHAIN_*` error when the node cannot answer
 * @example const replaced = await uidReplacedIn(connection, { netuid: 1, uid: 0, hotkey }, 57n, '0x…')
 */
export async function uidReplacedIn(
  connection: ChainConnection,
  at: { readonly netuid: number; readonly uid: number; readonly hotkey: string },
  block: bigint,
  blockHash: string,
): Promise<UidReplacement | null> {
  return connection.request('uid replaced', async (api) => {
    const state = await api.at(blockHash);
    const query = subtensorStorage(state.query);
    const keys = query?.['keys'];
    const registeredAt = query?.['blockAtRegistration'];
    if (keys === undefined || registeredAt === undefined) return null;
    const holder = await keys(at.netuid, at.uid);
    if (holder.isEmpty === true) return null;
    const newHotkey = holder.toString();
    if (newHotkey === at.hotkey) return null;
    const registered = String((await registeredAt(at.netuid, at.uid)).toJSON());
    return registered === block.toString() ? { uid: at.uid, newHotkey } : null;
  });
}

/**
 * The validator's own direct `set_weights` that landed in block B and whose uid a registration then took in B
 * (docs/spec.md G.19): `@subnet/chain` saw `WeightsSet` but read no weights back (`CHAIN_WEIGHTS_NOT_CONFIRMED` with
 * `storedWeights`), the hotkey held uid U at B - 1, and in B's state U is another hotkey's, registered at B. Returns the
 * `VALIDATOR_UID_REPLACED` error to record instead (its words lead with the cause), or undefined for anything else.
 *
 * @param connection - the chain connection
 * @param at - netuid and the validator hotkey
 * @param error - what `setWeights` threw
 * @returns the error to record, or undefined (record `error` as it is)
 * @throws the read's `CHAIN_*` error when the node cannot answer
 * @example const replaced = await setThenReplaced(connection, { netuid: 1, hotkey }, error)
 */
export async function setThenReplaced(
  connection: ChainConnection,
  at: { readonly netuid: number; readonly hotkey: string },
  error: SubnetError,
): Promise<SubnetError | undefined> {
  const { blockNumber, blockHash, extrinsicHash, storedWeights } = error.context as Record<string, unknown>;
  if (typeof blockNumber !== 'bigint' || blockNumber === 0n || typeof blockHash !== 'string' || storedWeights === undefined) return undefined;
  const uid = await connection.request('uid before the block', async (api) => {
    const parent = await api.at(await api.rpc.chain.getBlockHash(blockNumber - 1n));
    const uids = subtensorStorage(parent.query)?.['uids'];
    return uids === undefined ? null : (await uids(at.netuid, at.hotkey)).toJSON();
  });
  if (typeof uid !== 'number') return undefined;
  const replaced = await uidReplacedIn(connection, { netuid: at.netuid, uid, hotkey: at.hotkey }, blockNumber, blockHash);
  if (replaced === null) return undefined;
  return appError(
    VALIDATOR_ERROR_CODES.uidReplaced,
    `uid ${uid} was given to ${replaced.newHotkey} by a registration in block ${blockNumber}: this validator was deregistered there. ` +
      `Its set_weights landed in that block (extrinsic ${String(extrinsicHash)}), and the registration removed the weights with the uid; register again to set weights`,
    { path: 'uid', value: uid, block: blockNumber, blockHash, newHotkey: replaced.newHotkey, extrinsicHash },
    error,
  );
}
