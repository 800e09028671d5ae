import type { ChainConnection } from '@subnet/chain';

/** A validator uid that a registration gave to another hotkey in a block (docs/spec.md G.19). */
export interface UidReplacement {
  /** The validator's uid when its weights were set. */
  readonly uid: number;
  /** The hotkey that holds the uid in the block's state (the registration's). */
  readonly newHotkey: string;
}

type StorageRead = (...args: unknown[]) => Promise<{ toString(): string; toJSON(): unknown; isEmpty?: boolean }>;

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
    const query = (state.query as unknown as Record<string, Record<string, StorageRead | undefined> | undefined>)['subtensorModule'];
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
