import type { ChainState } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import type { DispatchOutcome } from './devnet-call.js';
import { maxUpscaleToU16 } from './max-upscale.js';
import { minStakeOk, neuronOf, ownerExempt, rateLimitOk, touchLastUpdate } from './weights-preconditions.js';

/** Error name or `null`: `internal_set_weights` checks 1-14 (chain README 2.2), without writing. */
export function checkSetWeights(
  state: ChainState,
  now: bigint,
  who: string,
  netuid: number,
  mecid: number,
  uids: readonly number[],
  values: readonly number[],
  versionKey: bigint,
): string | null {
  if (netuid === 0) return 'CanNotSetRootNetworkWeights';
  if (uids.length !== values.length) return 'WeightVecNotEqualSize';
  const subnet = state.subnets.get(netuid);
  if (subnet === undefined || subnet.mechanismCount <= mecid) return 'MechanismDoesNotExist';
  const n = subnet.neurons.length;
  if (uids.length > n) return 'UidsLengthExceedUidsInSubNet';
  const neuron = neuronOf(subnet, who);
  if (neuron === undefined) return 'HotKeyNotRegisteredInSubNet';
  if (!minStakeOk(state, subnet, who)) return 'NotEnoughStakeToSetWeights';
  if (subnet.weightsVersionKey !== 0n && versionKey < subnet.weightsVersionKey) return 'IncorrectWeightVersionKey';
  const idx = netuidIndex(netuid, mecid);
  if (!subnet.commitRevealEnabled && !rateLimitOk(subnet, idx, neuron.uid, now)) return 'SettingWeightsTooFast';
  const selfWeight = uids.length === 1 && uids[0] === neuron.uid;
  const isOwner = ownerExempt(state) && subnet.ownerHotkey === who; // weights.rs:1165 at e7f05a051 (spec 397), :1163 at 14bc6f9f9
  if (!selfWeight && !isOwner && !neuron.validatorPermit) return 'NeuronNoValidatorPermit';
  if (new Set(uids).size !== uids.length) return 'DuplicateUids';
  if (uids.some((u) => u >= n)) return 'UidVecContainInvalidOne';
  if (!selfWeight && uids.length < Math.min(n, subnet.minAllowedWeights)) return 'WeightVecLengthIsLow';
  return null;
}

/**
 * `do_set_mechanism_weights`: every check of `internal_set_weights` (chain README 2.2), then the upscaled
 * `Weights` write (and `LastUpdate` when commit-reveal is off) and `WeightsSet`. Used by `set_*` dispatch and
 * by the timelocked reveal step.
 *
 * @returns the dispatch outcome
 * @example
 * setWeights(state, 12n, who, 1, 0, [0, 1], [1, 2], 0n);
 */
export function setWeights(
  state: ChainState,
  now: bigint,
  who: string,
  netuid: number,
  mecid: number,
  uids: readonly number[],
  values: readonly number[],
  versionKey: bigint,
): DispatchOutcome {
  const error = checkSetWeights(state, now, who, netuid, mecid, uids, values, versionKey);
  if (error !== null) return { ok: false, error, events: [] };
  const subnet = state.subnets.get(netuid);
  const neuron = neuronOf(subnet, who);
  if (subnet === undefined || neuron === undefined) return { ok: false, error: 'HotKeyNotRegisteredInSubNet', events: [] };
  const idx = netuidIndex(netuid, mecid);
  const upscaled = maxUpscaleToU16(values);
  subnet.weights.set(
    pairKey(idx, neuron.uid),
    uids.map((u, i) => [u, upscaled[i] ?? 0]),
  );
  if (!subnet.commitRevealEnabled) touchLastUpdate(subnet, idx, neuron.uid, now);
  return { ok: true, events: [{ pallet: 'SubtensorModule', name: 'WeightsSet', fields: [idx, neuron.uid] }] };
}
