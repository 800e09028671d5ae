import type { ApiPromise } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';

import { chainError } from './chain-error.js';
import type { Inclusion } from './submit-extrinsic.js';

/** A `SubtensorModule` call builder as the metadata offers it. */
export type TxFn = (...args: unknown[]) => SubmittableExtrinsic<'promise'>;

/** A chosen call: its camelCase name, builder, and whether it takes a mechanism id. */
export interface PickedCall {
  readonly name: string;
  readonly fn: TxFn;
  readonly withMecid: boolean;
}

/**
 * The `SubtensorModule` call of that (camelCase) name, when the runtime's metadata has it.
 *
 * @param api - the connected api
 * @param name - e.g. `setMechanismWeights`
 * @returns the builder, or undefined
 */
export function txFn(api: ApiPromise, name: string): TxFn | undefined {
  const pallet = (api.tx as unknown as Record<string, Record<string, TxFn | undefined> | undefined>)['subtensorModule'];
  return pallet?.[name];
}

/**
 * The chain's snake_case name of a camelCase call name.
 *
 * @param name - e.g. `setMechanismWeights`
 * @returns e.g. `set_mechanism_weights`
 */
export function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The label of a call in errors, logs and results: `SubtensorModule.set_mechanism_weights`. */
export function callLabel(call: PickedCall): string {
  return `SubtensorModule.${snake(call.name)}`;
}

/**
 * Picks the mechanism-aware call when the runtime has it, else the plain one for mechanism 0.
 *
 * @param api - the connected api
 * @param mecid - the mechanism
 * @param mechanismName - e.g. `setMechanismWeights`
 * @param plainName - e.g. `setWeights`
 * @returns the call
 * @throws SubnetError `CHAIN_CALL_NOT_AVAILABLE` when neither fits
 */
export function pickCall(api: ApiPromise, mecid: number, mechanismName: string, plainName: string): PickedCall {
  const mech = txFn(api, mechanismName);
  if (mech) return { name: mechanismName, fn: mech, withMecid: true };
  const plain = txFn(api, plainName);
  if (plain && mecid === 0) return { name: plainName, fn: plain, withMecid: false };
  throw chainError('CallNotAvailable', `the runtime offers neither SubtensorModule.${snake(mechanismName)} nor (for mecid 0) ${snake(plainName)}`, {
    source: 'client',
    path: 'mecid',
    value: mecid,
  });
}

/**
 * True when the included extrinsic emitted that `SubtensorModule` event with matching data.
 *
 * @param inclusion - the included extrinsic
 * @param method - the event name, e.g. `WeightsSet`
 * @param match - a test of the event's data
 * @returns whether such an event is there
 */
export function hasEvent(inclusion: Inclusion, method: string, match: (data: readonly unknown[]) => boolean): boolean {
  return inclusion.events.some((e) => e.section === 'subtensorModule' && e.method === method && match(e.data));
}

/**
 * True when this client sends the subnet's weights through a timelocked commit: `CommitRevealWeightsVersion >= 3`,
 * or the runtime offers no hash commit call (commit-reveal v2) at all. A choice, not a chain rule: the chain checks
 * the (runtime-wide) version only in a timelocked commit and still accepts a v2 hash commit whatever it is
 * (opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/subnets/weights.rs:323-326`; `internal_commit_weights`,
 * `:61-142`, has no version check); the Python SDK (opentensor/bittensor bb526e6 `bittensor/core/subtensor.py:7505`)
 * commits timelocked whenever commit-reveal is on.
 *
 * @param api - the connected api
 * @param mecid - the mechanism
 * @param version - the subnet's `CommitRevealWeightsVersion` (null when the runtime has none)
 * @returns whether the timelocked path applies
 */
export function requiresTimelock(api: ApiPromise, mecid: number, version: number | null): boolean {
  const hashCallsOffered = txFn(api, 'commitMechanismWeights') !== undefined || (mecid === 0 && txFn(api, 'commitWeights') !== undefined);
  return (version !== null && version >= 3) || !hashCallsOffered;
}
