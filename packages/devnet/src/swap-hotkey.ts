/**
 * Subtensor's `swap_hotkey` on the devnet's subnet (Subtensor main 14bc6f9f9,
 * `pallets/subtensor/src/swap/swap_hotkey.rs`: `do_swap_hotkey`, `:33-228`, and
 * `perform_hotkey_swap_on_one_subnet`, `:451-717`). A coldkey moves its registered hotkey's neuron to a new hotkey; the uid stays. The devnet models the
 * parts of it the chain state here holds:
 *
 * - `Uids(netuid, old)` removed, `Uids(netuid, new)` = uid, `Keys(netuid, uid)` = new (`:467-480`);
 *   `BlockAtRegistration`, `Weights` (set by the uid and for it, keyed by uid), `LastUpdate` and the validator permit
 *   stay with the uid;
 * - `Axons(netuid, old)` moves to the new hotkey when the old one served (`:493-499`); otherwise an axon the new
 *   hotkey served on the netuid while unregistered stays, now as the neuron's;
 * - v2 `WeightCommits(netuid_index, old)` move to the new hotkey for every mechanism (`:501-512`); timelocked commits
 *   are queued by epoch with their signer inside and are not moved;
 * - the stake (`TotalHotkeyAlpha`) goes with the neuron (a swap that does not keep it on the old hotkey, `:627-673`), so do the
 *   subnet's parent/child key links (`parent_child_swap_hotkey`) and `SubnetOwnerHotkey` (`:586-593`).
 */
import { SubnetError } from '@subnet/core';

import type { SubnetState } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import { DEVNET_ERROR_CODES } from './errors.js';
import { accountHex } from './replace-neuron.js';

/** A hotkey swap: the uid, its hotkey and the new one (hex public keys). */
export interface HotkeySwap {
  readonly uid: number;
  readonly hotkey: string;
  readonly newHotkey: string;
}

/**
 * Checks a `swapHotkey` request against the subnet as it stands (the best block) and the registrations and swaps
 * already queued for the next block, and returns the swap with hex keys.
 *
 * @param subnet - the subnet at the best block
 * @param hotkey - the registered hotkey to swap (SS58 or `0x` hex public key)
 * @param newHotkey - the hotkey that takes its neuron
 * @param queued - hex hotkeys and uids of changes queued and not yet applied
 * @returns the swap
 * @throws SubnetError `DEVNET_INVALID_SWAP` (`hotkey` no account or not registered on the subnet, `newHotkey` no
 *   account, the same as `hotkey` (`NewHotKeyIsSameWithOld`, `:61`) or already registered or queued
 *   (`HotKeyAlreadyRegisteredInSubNet`, `:77-86`), or the uid already queued for the next block)
 * @example
 * const swap = checkSwap(subnet, '5F…', '5G…', { hotkeys: new Set(), uids: new Set() });
 */
export function checkSwap(
  subnet: SubnetState,
  hotkey: unknown,
  newHotkey: unknown,
  queued: { readonly hotkeys: ReadonlySet<string>; readonly uids: ReadonlySet<number> },
): HotkeySwap {
  const refuse = (path: string, value: unknown, why: string): SubnetError => new SubnetError(DEVNET_ERROR_CODES.invalidSwap, why, { context: { path, value } });
  const old = accountHex(hotkey);
  if (old === null) throw refuse('hotkey', hotkey, 'the hotkey is an SS58 address or a 0x-prefixed 32-byte hex public key');
  const neuron = subnet.neurons.find((n) => n.hotkey === old);
  if (neuron === undefined) throw refuse('hotkey', hotkey, `the hotkey is not registered on netuid ${String(subnet.netuid)}`);
  const next = accountHex(newHotkey);
  if (next === null) throw refuse('newHotkey', newHotkey, 'the new hotkey is an SS58 address or a 0x-prefixed 32-byte hex public key');
  if (next === old) throw refuse('newHotkey', newHotkey, 'the new hotkey is the old one (NewHotKeyIsSameWithOld)');
  if (subnet.neurons.some((n) => n.hotkey === next) || queued.hotkeys.has(next)) {
    throw refuse('newHotkey', newHotkey, `the new hotkey is already registered on netuid ${String(subnet.netuid)} (HotKeyAlreadyRegisteredInSubNet)`);
  }
  if (queued.uids.has(neuron.uid)) throw refuse('hotkey', hotkey, `a change of its uid ${String(neuron.uid)} is already queued for the next block`);
  return { uid: neuron.uid, hotkey: old, newHotkey: next };
}

const renamed = (links: [bigint, string][], from: string, to: string): [bigint, string][] => links.map(([p, k]) => [p, k === from ? to : k]);

/** Moves a map entry keyed by `from` to `to` (replacing what `to` had), renaming the hotkey inside every entry. */
function moveLinks(map: Map<string, [bigint, string][]>, from: string, to: string): void {
  const own = map.get(from);
  map.delete(from);
  for (const [key, links] of map) map.set(key, renamed(links, from, to));
  if (own !== undefined) map.set(to, renamed(own, from, to));
}

/**
 * Applies a swap to `subnet` as `swap_hotkey` does (see the file's comment). The caller checked it with
 * {@link checkSwap} against the best block; a swap whose hotkey no longer holds the uid is skipped.
 *
 * @param subnet - the subnet of the state being built (mutated)
 * @param swap - the uid, its hotkey and the new one
 * @example
 * swapHotkeyInState(subnet, { uid: 3, hotkey: '0x…', newHotkey: '0x…' });
 */
export function swapHotkeyInState(subnet: SubnetState, swap: HotkeySwap): void {
  const neuron = subnet.neurons[swap.uid];
  if (neuron?.hotkey !== swap.hotkey) return;
  const servedWhileUnregistered = subnet.axons.get(swap.newHotkey) ?? null;
  subnet.axons.delete(swap.newHotkey);
  subnet.neurons[swap.uid] = { ...neuron, hotkey: swap.newHotkey, axon: neuron.axon ?? servedWhileUnregistered };
  for (let mecid = 0; mecid < subnet.mechanismCount; mecid += 1) {
    const idx = netuidIndex(subnet.netuid, mecid);
    const commits = subnet.weightCommits.get(pairKey(idx, swap.hotkey));
    if (commits === undefined) continue;
    subnet.weightCommits.delete(pairKey(idx, swap.hotkey));
    subnet.weightCommits.set(pairKey(idx, swap.newHotkey), commits);
  }
  moveLinks(subnet.parentKeys, swap.hotkey, swap.newHotkey);
  moveLinks(subnet.childKeys, swap.hotkey, swap.newHotkey);
  if (subnet.ownerHotkey === swap.hotkey) subnet.ownerHotkey = swap.newHotkey;
}
