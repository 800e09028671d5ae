import { runtimeExemptsSubnetOwner } from '@subnet/core';

import type { ChainState, NeuronState, SubnetState } from './chain-state.js';
import type { DispatchOutcome } from './devnet-call.js';
import { stakeWeightOf } from './stake-weight.js';

/** The registered neuron of a hotkey on a subnet, if any. */
export function neuronOf(subnet: SubnetState | undefined, hotkey: string): NeuronState | undefined {
  return subnet?.neurons.find((n) => n.hotkey === hotkey);
}

/**
 * Whether the runtime exempts the subnet owner's hotkey from the stake and permit checks: `runtimeExemptsSubnetOwner` of
 * `@subnet/core` (stateful epochs, or `node-subtensor` spec 397 on) on the state's runtime and spec.
 */
export function ownerExempt(state: Pick<ChainState, 'runtime' | 'specName' | 'specVersion'>): boolean {
  return runtimeExemptsSubnetOwner({ specName: state.specName, specVersion: state.specVersion, statefulEpochs: state.runtime === 'stateful' });
}

/**
 * `check_weights_min_stake`: the stake weight reaches `StakeThreshold`, the owner hotkey exempt where the runtime
 * exempts it ({@link ownerExempt}: stateful epochs, or spec 397 on) while it holds a uid on the subnet (`get_owner_uid`
 * is `Uids(netuid, SubnetOwnerHotkey)`; opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/lib.rs:2752-2763`,
 * `utils/misc.rs:910-915`; e7f05a051 `lib.rs:2520-2531`, spec 397).
 */
export function minStakeOk(state: ChainState, subnet: SubnetState | undefined, hotkey: string): boolean {
  if (subnet === undefined) return 0n >= state.stakeThreshold;
  // owner exemption: from spec 397 (e7f05a051, bringing 69627c0d5), not finney spec 393; an unregistered owner hotkey has no uid to match
  if (ownerExempt(state) && subnet.ownerHotkey === hotkey && neuronOf(subnet, hotkey) !== undefined) return true;
  return stakeWeightOf(state, subnet, hotkey) >= state.stakeThreshold;
}

/** `check_rate_limit`: never set (0) or at least `WeightsSetRateLimit` blocks since `LastUpdate`. */
export function rateLimitOk(subnet: SubnetState, idx: number, uid: number, now: bigint): boolean {
  const last = subnet.lastUpdate.get(idx)?.[uid] ?? 0n;
  if (last === 0n) return true;
  return now - last >= subnet.weightsSetRateLimit;
}

/** Writes `LastUpdate[netuid_index][uid] = now` (the vector grows to the subnet size with zeros). */
export function touchLastUpdate(subnet: SubnetState, idx: number, uid: number, now: bigint): void {
  const n = subnet.neurons.length;
  const vec = subnet.lastUpdate.get(idx) ?? [];
  while (vec.length < n) vec.push(0n);
  vec[uid] = now;
  subnet.lastUpdate.set(idx, vec);
}

/** A failed dispatch with a module error name. */
export const failed = (error: string): DispatchOutcome => ({ ok: false, error, events: [] });
