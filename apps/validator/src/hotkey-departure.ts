import type { WalletHotkeyAddress } from '@subnet/wallet';

import type { ChainNeuron, ChainView } from './chain-port.js';

/** A hotkey of the validator's wallet that is registered on the subnet (not the one configured). */
export interface RegisteredWalletHotkey {
  /** Its name in the wallet (`wallet.hotkey`). */
  readonly name: string;
  readonly address: string;
  readonly uid: number;
}

/**
 * The other hotkeys of the validator's wallet that hold a uid in `view` (`walletHotkeyAddresses` of `@subnet/wallet`
 * lists the wallet's hotkeys whose addresses read without a password). After `btcli wallet swap-hotkey`, the new
 * hotkey is one of them.
 *
 * @param walletHotkeys - the wallet's hotkeys
 * @param view - the metagraph
 * @param configured - the hotkey name the validator was started with (left out)
 * @returns those registered, by name
 * @example registeredWalletHotkeys(await walletHotkeyAddresses({ name: 'validator' }), view, 'default')
 */
export function registeredWalletHotkeys(
  walletHotkeys: readonly WalletHotkeyAddress[],
  view: Pick<ChainView, 'neurons'>,
  configured: string,
): readonly RegisteredWalletHotkey[] {
  const uids = new Map(view.neurons.map((n) => [n.hotkey, n.uid]));
  return walletHotkeys.flatMap((h) => {
    const uid = h.name === configured ? undefined : uids.get(h.address);
    return uid === undefined ? [] : [{ name: h.name, address: h.address, uid }];
  });
}

/**
 * The sentence that names them: `hotkey "new" of wallet "validator" (5New…) is uid 3 on netuid 1: run with
 * --wallet.hotkey new (wallet.hotkey in the configuration)`; empty when there is none.
 */
export function walletHotkeySentence(found: readonly RegisteredWalletHotkey[], wallet: string, netuid: number): string {
  const first = found[0];
  if (first === undefined) return '';
  const others =
    found.length > 1
      ? ` (and ${found
          .slice(1)
          .map((h) => `"${h.name}" as uid ${h.uid}`)
          .join(', ')})`
      : '';
  return `hotkey "${first.name}" of wallet "${wallet}" (${first.address}) is uid ${first.uid} on netuid ${netuid}${others}: run with --wallet.hotkey ${first.name} (wallet.hotkey in the configuration)`;
}

/** Why this validator's hotkey is no longer in the metagraph: a warning code, its numbers and a sentence. */
export interface HotkeyDeparture {
  /**
   * `HOTKEY_SWAPPED`: the uid is held by another hotkey with the registration the validator's had (Subtensor's
   * `swap_hotkey` moves the neuron with its `BlockAtRegistration`); `HOTKEY_DEREGISTERED`: a registration took the uid,
   * or the uid is gone.
   */
  readonly code: 'HOTKEY_SWAPPED' | 'HOTKEY_DEREGISTERED';
  /** The same cause in a few words, for `/readyz`. */
  readonly cause: string;
  readonly message: string;
  readonly numbers: Readonly<Record<string, number | string>>;
}

/**
 * Says where this validator's uid went when a metagraph read no longer lists its hotkey (docs/spec.md G.21): the
 * validator held `previous` in an earlier read, and `view` gives that uid to another hotkey (or has no such uid).
 * Subtensor's `swap_hotkey` moves a neuron to a new hotkey with its `BlockAtRegistration` (`swap/swap_hotkey.rs:467-480`
 * at 14bc6f9f9); a registration that takes the uid writes its own block there (`replace_neuron`,
 * `subnets/uids.rs:87-89`). So the same registration block means a swap (the operator's own: its coldkey signs
 * `swap_hotkey`), another one a deregistration. A chain access that reads no registration block falls back on the
 * owner: the same coldkey as before is taken for a swap.
 *
 * @param previous - this validator's neuron in the last read that listed its hotkey
 * @param view - the read that does not list it
 * @param netuid - the subnet
 * @param wallet - the validator's wallet and its other hotkeys registered in `view` (absent: a key from a URI)
 * @returns the warning to log once
 * @example const d = hotkeyDeparture(lastSelf, view, 1); logger.warn({ code: d.code, ...d.numbers }, d.message)
 */
export function hotkeyDeparture(
  previous: ChainNeuron,
  view: Pick<ChainView, 'block' | 'neurons'>,
  netuid: number,
  wallet?: { readonly name: string; readonly hotkeys: readonly RegisteredWalletHotkey[] },
): HotkeyDeparture {
  const refused = `The chain refuses this validator's weights (HotKeyNotRegisteredInSubNet) and /readyz answers 503`;
  const base = { hotkey: previous.hotkey, netuid, uid: previous.uid, block: view.block.toString() };
  const holder = view.neurons.find((n) => n.uid === previous.uid);
  if (holder === undefined) {
    const cause = `uid ${previous.uid} is no longer on the subnet (${view.neurons.length} neurons at block ${view.block})`;
    return {
      code: 'HOTKEY_DEREGISTERED',
      cause,
      message: `hotkey ${previous.hotkey} was deregistered from netuid ${netuid}: ${cause}. ${refused}: register it again, or check the wallet and netuid`,
      numbers: { ...base, neurons: view.neurons.length },
    };
  }
  const sameRegistration =
    previous.registeredAt !== undefined && holder.registeredAt !== undefined
      ? previous.registeredAt === holder.registeredAt
      : previous.coldkey !== undefined && previous.coldkey === holder.coldkey;
  const numbers = {
    ...base,
    newHotkey: holder.hotkey,
    ...(holder.registeredAt === undefined ? {} : { registeredAt: holder.registeredAt.toString() }),
    ...(holder.coldkey === undefined ? {} : { coldkey: holder.coldkey }),
  };
  if (sameRegistration) {
    const since = holder.registeredAt === undefined ? `owned by the same coldkey ${holder.coldkey ?? ''}` : `registered since block ${holder.registeredAt}`;
    const cause = `a hotkey swap moved uid ${previous.uid} to ${holder.hotkey} (${since})`;
    return {
      code: 'HOTKEY_SWAPPED',
      cause,
      message:
        `hotkey ${previous.hotkey} no longer holds uid ${previous.uid} on netuid ${netuid}: ${cause}. ${refused}: ` +
        `restart the validator with ${restartWith(holder.hotkey, wallet)}; a timelocked commit still waiting for its reveal is lost (the chain reveals it as its signer)`,
      numbers,
    };
  }
  const by = holder.registeredAt === undefined ? 'by a registration' : `by a registration in block ${holder.registeredAt}`;
  const cause = `uid ${previous.uid} was given to ${holder.hotkey} ${by}`;
  return {
    code: 'HOTKEY_DEREGISTERED',
    cause,
    message: `hotkey ${previous.hotkey} was deregistered from netuid ${netuid}: ${cause}. ${refused}: register it again to set weights`,
    numbers,
  };
}

/** How to start with the uid's new hotkey: its name when the validator's wallet holds it. */
function restartWith(hotkey: string, wallet: { readonly name: string; readonly hotkeys: readonly RegisteredWalletHotkey[] } | undefined): string {
  const own = wallet?.hotkeys.find((h) => h.address === hotkey);
  return own === undefined || wallet === undefined
    ? "the new hotkey's wallet (wallet.hotkey)"
    : `--wallet.hotkey ${own.name} (wallet.hotkey in the configuration: that hotkey of wallet "${wallet.name}")`;
}
