/**
 * Subtensor's `replace_neuron` (Subtensor main 14bc6f9f9, `pallets/subtensor/src/subnets/uids.rs:54-106`, with
 * `clear_neuron`, `uids.rs:23-51`): a registration into a full subnet gives the pruned uid to a new hotkey. The
 * devnet models the parts of it the chain state here holds:
 *
 * - `Keys(netuid, uid)` = the new hotkey, `Uids(netuid, new)` = uid (the old hotkey's `Uids` entry goes with it),
 *   `BlockAtRegistration(netuid, uid)` = the block, `Active[uid]` = true (`uids.rs:78-90`);
 * - the old hotkey's `Axons(netuid, old)` is removed (`uids.rs:93`); an axon the new hotkey served on the netuid
 *   while unregistered stays, now as the neuron's;
 * - `clear_neuron` (`uids.rs:23-51`), for every mechanism: `Weights(netuid_index, uid)` (set BY the uid) removed,
 *   every other row's weight FOR the uid set to 0 (the entry stays), `Bonds(netuid_index, uid)` removed (the devnet
 *   keeps no bonds), and on Subtensor main `ValidatorPermit[uid]` = false (`uids.rs:50`; spec 393's `clear_neuron`,
 *   ab0cb2e52 `uids.rs:23-49`, leaves the permit until the next epoch recomputes it);
 * - on Subtensor main only, `LastUpdate[netuid_index][uid]` = the block for every mechanism (`uids.rs:100-105`,
 *   added in d7418eed4); finney spec 393 (ab0cb2e52 `uids.rs:52-97`) leaves the old neuron's `LastUpdate`, so the
 *   new hotkey's first weights wait out the rate limit only from the old neuron's last update;
 * - the stake of the neuron is the new hotkey's own (`TotalHotkeyAlpha(new, netuid)`: 0 for a fresh key here), the
 *   coldkey the one that registered it (`Owner(new)`).
 *
 * The epoch then masks weights a validator set at or before the uid's registration block
 * (`epoch/run_epoch.rs:722-728`, `updated <= registered`): a weight set in a later block goes to the new hotkey.
 */
import { isHex, u8aToHex } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';
import { SubnetError } from '@subnet/core';

import type { SubnetState } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import { DEVNET_ERROR_CODES } from './errors.js';
import { touchLastUpdate } from './weights-preconditions.js';

/** The new holder of a uid: hex public keys (`0x` + 64 hex digits). */
export interface NeuronReplacement {
  readonly uid: number;
  readonly hotkey: string;
  readonly coldkey: string;
}

/**
 * Replaces the neuron at `replacement.uid` in `subnet` as `replace_neuron` does in block `block` (see the file's
 * comment). The caller checked that the uid exists, is not the owner hotkey's and that the hotkey is not registered.
 *
 * @param subnet - the subnet of the state being built (mutated)
 * @param replacement - uid, new hotkey and its coldkey
 * @param block - the block the registration lands in (its `BlockAtRegistration`, and on main its `LastUpdate`)
 * @example
 * replaceNeuronInState(subnet, { uid: 3, hotkey: '0x…', coldkey: '0x…' }, 12n);
 */
export function replaceNeuronInState(subnet: SubnetState, replacement: NeuronReplacement, block: bigint): void {
  const { uid, hotkey, coldkey } = replacement;
  const neuron = subnet.neurons[uid];
  if (neuron === undefined) return;
  const servedWhileUnregistered = subnet.axons.get(hotkey) ?? null;
  subnet.axons.delete(hotkey);
  subnet.neurons[uid] = {
    uid,
    hotkey,
    coldkey,
    stake: 0n,
    rootStake: 0n,
    validatorPermit: subnet.runtime === 'stateful' ? false : neuron.validatorPermit,
    active: true,
    blockAtRegistration: block,
    axon: servedWhileUnregistered,
  };
  for (let mecid = 0; mecid < subnet.mechanismCount; mecid += 1) {
    const idx = netuidIndex(subnet.netuid, mecid);
    subnet.weights.delete(pairKey(idx, uid));
    for (const [key, row] of subnet.weights) {
      if (!key.startsWith(`${String(idx)}:`)) continue;
      subnet.weights.set(
        key,
        row.map(([target, w]) => [target, target === uid ? 0 : w]),
      );
    }
    if (subnet.runtime === 'stateful') touchLastUpdate(subnet, idx, uid, block);
  }
}

/** An account as SS58 text (any prefix) or `0x` + 64 hex digits, as the hex public key; null when it is neither. */
export function accountHex(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value.startsWith('0x')) return isHex(value, 256) ? value.toLowerCase() : null;
  try {
    const key = decodeAddress(value);
    return key.length === 32 ? u8aToHex(key) : null;
  } catch {
    return null;
  }
}

/**
 * Checks a `replaceNeuron` request against the subnet as it stands (the best block) and the replacements already
 * queued for the next block, and returns the replacement with hex keys.
 *
 * @param subnet - the subnet at the best block
 * @param uid - the uid to give to the new hotkey
 * @param hotkey - the new hotkey (SS58 or `0x` hex public key)
 * @param coldkey - its coldkey (SS58 or hex); absent: the hotkey owns itself
 * @param queued - hex hotkeys and uids of replacements queued and not yet applied
 * @returns the replacement
 * @throws SubnetError `DEVNET_INVALID_UID` (`uid`: no neuron has it), `DEVNET_INVALID_REPLACEMENT` (`hotkey` or
 *   `coldkey` not an account, `hotkey` already registered on the subnet or queued, `uid` the subnet owner hotkey's,
 *   which `replace_neuron` never replaces, `uids.rs:67-76`, or already queued for this block)
 * @example
 * const r = checkReplacement(subnet, 3, '5F…', undefined, { hotkeys: new Set(), uids: new Set() });
 */
export function checkReplacement(
  subnet: SubnetState,
  uid: unknown,
  hotkey: unknown,
  coldkey: unknown,
  queued: { readonly hotkeys: ReadonlySet<string>; readonly uids: ReadonlySet<number> },
): NeuronReplacement {
  if (typeof uid !== 'number' || !Number.isInteger(uid) || uid < 0 || uid >= subnet.neurons.length) {
    throw new SubnetError(DEVNET_ERROR_CODES.invalidUid, 'no neuron has this uid', { context: { path: 'uid', value: uid } });
  }
  const refuse = (path: string, value: unknown, why: string): SubnetError =>
    new SubnetError(DEVNET_ERROR_CODES.invalidReplacement, why, { context: { path, value } });
  const hot = accountHex(hotkey);
  if (hot === null) throw refuse('hotkey', hotkey, 'the new hotkey is an SS58 address or a 0x-prefixed 32-byte hex public key');
  const cold = coldkey === undefined ? hot : accountHex(coldkey);
  if (cold === null) throw refuse('coldkey', coldkey, 'the coldkey is an SS58 address or a 0x-prefixed 32-byte hex public key');
  if (subnet.neurons.some((n) => n.hotkey === hot) || queued.hotkeys.has(hot)) {
    throw refuse('hotkey', hotkey, `the hotkey is already registered on netuid ${String(subnet.netuid)} (HotKeyAlreadyRegisteredInSubNet)`);
  }
  if (subnet.ownerHotkey !== null && subnet.neurons[uid]?.hotkey === subnet.ownerHotkey) {
    throw refuse('uid', uid, 'the uid holds the subnet owner hotkey, which replace_neuron never replaces');
  }
  if (queued.uids.has(uid)) throw refuse('uid', uid, 'a replacement of this uid is already queued for the next block');
  return { uid, hotkey: hot, coldkey: cold };
}

/**
 * Reads `replaceNeuron`'s (or `swapHotkey`'s) options: whether the change applies after the block's pool extrinsics.
 *
 * @param options - `{ afterExtrinsics?: boolean }` or undefined
 * @param code - the code of a refusal (`DEVNET_INVALID_SWAP` for `swapHotkey`)
 * @returns `afterExtrinsics` (default false)
 * @throws SubnetError `code` (`options` not an object, `options.afterExtrinsics` not a boolean)
 * @example
 * replacementAfterExtrinsics({ afterExtrinsics: true }); // true
 */
export function replacementAfterExtrinsics(
  options: unknown,
  code: typeof DEVNET_ERROR_CODES.invalidReplacement | typeof DEVNET_ERROR_CODES.invalidSwap = DEVNET_ERROR_CODES.invalidReplacement,
): boolean {
  if (options === undefined || options === null) return false;
  const refuse = (path: string, value: unknown): SubnetError => new SubnetError(code, `${path} is { afterExtrinsics?: boolean }`, { context: { path, value } });
  if (typeof options !== 'object' || Array.isArray(options)) throw refuse('options', options);
  const after = (options as { afterExtrinsics?: unknown }).afterExtrinsics;
  if (after === undefined) return false;
  if (typeof after !== 'boolean') throw refuse('options.afterExtrinsics', after);
  return after;
}
