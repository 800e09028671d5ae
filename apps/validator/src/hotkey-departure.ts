import type { ChainNeuron, ChainView } from './chain-port.js';

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
 * @returns the warning to log once
 * @example const d = hotkeyDeparture(lastSelf, view, 1); logger.warn({ code: d.code, ...d.numbers }, d.message)
 */
export function hotkeyDeparture(previous: ChainNeuron, view: Pick<ChainView, 'block' | 'neurons'>, netuid: number): HotkeyDeparture {
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
        `restart the validator with the new hotkey's wallet (wallet.hotkey); a timelocked commit still waiting for its reveal is lost (the chain reveals it as its signer)`,
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
