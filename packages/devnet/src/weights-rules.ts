import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';

import type { ChainState, NeuronState, SubnetState, WeightCommit } from './chain-state.js';
import { netuidIndex, pairKey } from './chain-state.js';
import { stakeWeightOf } from './stake-weight.js';
import type { ServeAxonCall } from './axon-rules.js';
import { serveAxon } from './axon-rules.js';
import { currentEpochWithLookahead, inRevealRange, isCommitExpired, legacyEpochIndex, legacyRevealBlocks } from './epoch-rules.js';

/** A decoded call the devnet's runtime executes. Accounts are 0x hex public keys; u64s are bigints. */
export type DevnetCall =
  | { kind: 'set_weights'; netuid: number; mecid: number; uids: number[]; values: number[]; versionKey: bigint; mechanism: boolean }
  | { kind: 'batch_set_weights'; netuids: number[]; weights: [number, number][][]; versionKeys: bigint[] }
  | { kind: 'commit_weights'; netuid: number; mecid: number; hash: string; mechanism: boolean }
  | { kind: 'batch_commit_weights'; netuids: number[]; hashes: string[] }
  | {
      kind: 'reveal_weights';
      netuid: number;
      mecid: number;
      uids: number[];
      values: number[];
      salt: number[];
      versionKey: bigint;
      mechanism: boolean;
    }
  | {
      kind: 'batch_reveal_weights';
      netuid: number;
      uidsList: number[][];
      valuesList: number[][];
      saltsList: number[][];
      versionKeys: bigint[];
    }
  | {
      kind: 'commit_timelocked_weights';
      netuid: number;
      mecid: number;
      commit: string;
      revealRound: bigint;
      version: number;
      /** `commit_timelocked_mechanism_weights` or `commit_crv3_mechanism_weights` (the legacy pool does not guard them). */
      mechanism: boolean;
    }
  | ServeAxonCall
  | { kind: 'remark'; withEvent: boolean; remark: string };

/** A runtime event to encode: pallet, variant name and positional field values. */
export interface DevnetEvent {
  readonly pallet: string;
  readonly name: string;
  readonly fields: readonly unknown[];
}

/** The outcome of dispatching a call: events on success, or the module error name. */
export type DispatchOutcome =
  { readonly ok: true; readonly events: readonly DevnetEvent[] } | { readonly ok: false; readonly error: string; readonly events: readonly DevnetEvent[] };

/** Pool (`SubtensorTransactionExtension`) custom error codes (chain README 2.3). */
export const CUSTOM_ERROR = Object.freeze({
  StakeAmountTooLow: 1,
  SubnetNotExists: 3,
  RateLimitExceeded: 6,
  InvalidRevealRound: 15,
  CommitNotFound: 16,
  CommitBlockNotInRevealRange: 17,
  InputLengthsUnequal: 18,
  UidNotFound: 19,
  BadRequest: 255,
});

const MAX_UNREVEALED_COMMITS = 10;
const MAX_CRV3_COMMIT_SIZE_BYTES = 5000;

/**
 * `vec_u16_max_upscale_to_u16` in I32F32 fixed point (chain README 2.2 step 13): if the max is above 32768,
 * `round(v * (65535 / max))`, else `round(v * 65535 / max)`; divisions truncate, rounding is half away
 * from zero, results saturate at 65535. All-zero input is returned unchanged.
 *
 * @param values - u16 weight values
 * @returns the upscaled values
 * @example
 * maxUpscaleToU16([1, 2]); // [32768, 65535]
 */
export function maxUpscaleToU16(values: readonly number[]): number[] {
  if (values.length === 0) return [];
  const max = values.reduce((a, b) => (b > a ? b : a), 0);
  if (max === 0) return [...values];
  const one = 1n << 32n;
  const half = 1n << 31n;
  const u16max = 65535n;
  const m = BigInt(max);
  const sat = (fixed: bigint): number => {
    const r = (fixed + half) >> 32n;
    return Number(r > u16max ? u16max : r);
  };
  if (max > 32768) {
    const ratio = (u16max * one) / m; // I32F32 division truncates
    return values.map((v) => sat(BigInt(v) * ratio));
  }
  return values.map((v) => sat((BigInt(v) * u16max * one) / m));
}

function vecU16(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  values.forEach((v, i) => {
    out[i * 2] = v & 0xff;
    out[i * 2 + 1] = (v >> 8) & 0xff;
  });
  return u8aConcat(compactToU8a(values.length), out);
}

function u64le(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  let x = v;
  for (let i = 0; i < 8; i += 1) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/**
 * The commit-reveal v2 hash: blake2_256 of SCALE `(who, netuid_index, uids, values, salt, version_key)`
 * (chain README 2.4 / `get_commit_hash`).
 *
 * @param who - hotkey public key (32 bytes or 0x hex)
 * @param netuidIdx - mechanism storage index (`mecid * 4096 + netuid`)
 * @param uids - uids as revealed
 * @param values - values as revealed (not upscaled)
 * @param salt - u16 salt
 * @param versionKey - version key
 * @returns the 0x hash
 * @example
 * weightCommitHash(alice, 1, [0, 1, 2], [65535, 32768, 1], [1, 2, 3, 4, 5, 6, 7, 8], 10002000n);
 */
export function weightCommitHash(
  who: Uint8Array | string,
  netuidIdx: number,
  uids: readonly number[],
  values: readonly number[],
  salt: readonly number[],
  versionKey: bigint,
): string {
  const account = typeof who === 'string' ? hexToU8a(who) : who;
  const data = u8aConcat(account, new Uint8Array([netuidIdx & 0xff, (netuidIdx >> 8) & 0xff]), vecU16(uids), vecU16(values), vecU16(salt), u64le(versionKey));
  return u8aToHex(blake2AsU8a(data, 256));
}

/** The registered neuron of a hotkey on a subnet, if any. */
export function neuronOf(subnet: SubnetState | undefined, hotkey: string): NeuronState | undefined {
  return subnet?.neurons.find((n) => n.hotkey === hotkey);
}

/** `check_weights_min_stake`: the stake weight reaches `StakeThreshold` (owner exempt on the stateful runtime). */
export function minStakeOk(state: ChainState, subnet: SubnetState | undefined, hotkey: string): boolean {
  if (subnet === undefined) return 0n >= state.stakeThreshold;
  // owner exemption: Subtensor main only (69627c0d5, lib.rs:2752), not finney spec 393
  if (subnet.runtime === 'stateful' && subnet.ownerHotkey === hotkey) return true;
  return stakeWeightOf(state, subnet, hotkey) >= state.stakeThreshold;
}

/** `check_rate_limit`: never set (0) or at least `WeightsSetRateLimit` blocks since `LastUpdate`. */
export function rateLimitOk(subnet: SubnetState, idx: number, uid: number, now: bigint): boolean {
  const last = subnet.lastUpdate.get(idx)?.[uid] ?? 0n;
  if (last === 0n) return true;
  return now - last >= subnet.weightsSetRateLimit;
}

/** Error name or `null`: `internal_set_weights` checks 1-14 (chain README 2.2), without writing. */
function checkSetWeights(
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
  const isOwner = subnet.runtime === 'stateful' && subnet.ownerHotkey === who; // main weights.rs:1163, not spec 393
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

function touchLastUpdate(subnet: SubnetState, idx: number, uid: number, now: bigint): void {
  const n = subnet.neurons.length;
  const vec = subnet.lastUpdate.get(idx) ?? [];
  while (vec.length < n) vec.push(0n);
  vec[uid] = now;
  subnet.lastUpdate.set(idx, vec);
}

function commitWeights(state: ChainState, now: bigint, who: string, netuid: number, mecid: number, hash: string): DispatchOutcome {
  const subnet = state.subnets.get(netuid);
  if (subnet === undefined || subnet.mechanismCount <= mecid) return { ok: false, error: 'MechanismDoesNotExist', events: [] };
  if (!subnet.commitRevealEnabled) return { ok: false, error: 'CommitRevealDisabled', events: [] };
  const neuron = neuronOf(subnet, who);
  if (neuron === undefined) return { ok: false, error: 'HotKeyNotRegisteredInSubNet', events: [] };
  const idx = netuidIndex(netuid, mecid);
  if (!rateLimitOk(subnet, idx, neuron.uid, now)) return { ok: false, error: 'CommittingWeightsTooFast', events: [] };
  const commitEpoch = subnet.runtime === 'legacy' ? legacyEpochIndex(subnet, now) : currentEpochWithLookahead(subnet, now);
  const key = pairKey(idx, who);
  const queue = (subnet.weightCommits.get(key) ?? []).slice();
  while (queue.length > 0 && isCommitExpired(subnet, queue[0] ?? { commitEpoch: 0n, commitBlock: 0n }, now)) queue.shift();
  if (queue.length >= MAX_UNREVEALED_COMMITS) return { ok: false, error: 'TooManyUnrevealedCommits', events: [] };
  const [firstRevealBlock, lastRevealBlock] = subnet.runtime === 'legacy' ? legacyRevealBlocks(subnet, now) : [0n, 0n];
  queue.push({ hash, commitEpoch, commitBlock: now, firstRevealBlock, lastRevealBlock });
  subnet.weightCommits.set(key, queue);
  touchLastUpdate(subnet, idx, neuron.uid, now);
  return { ok: true, events: [{ pallet: 'SubtensorModule', name: 'WeightsCommitted', fields: [who, idx, hash] }] };
}

const failed = (error: string): DispatchOutcome => ({ ok: false, error, events: [] });

/** Pops the expired commits off the front of a queue (`weights.rs:483`), returning the rest and their hashes. */
function popExpired(subnet: SubnetState, queue: readonly WeightCommit[], now: bigint): { live: WeightCommit[]; expired: string[] } {
  const live = queue.slice();
  const expired: string[] = [];
  while (live.length > 0 && isCommitExpired(subnet, live[0] ?? { commitEpoch: 0n, commitBlock: 0n }, now)) expired.push(live.shift()?.hash ?? '');
  return { live, expired };
}

/**
 * `internal_reveal_weights` (ab0cb2e52 and main `subnets/weights.rs:451`): commit-reveal on (the storage default
 * is on, so an unknown subnet reaches the next check), a queue (`NoWeightsCommitFound`), expired commits popped
 * off the front (`ExpiredWeightCommit` when the hash was one of them), the hash found
 * (`InvalidRevealCommitHashNotMatch`) and in its reveal epoch (`RevealTooEarly`); every commit up to and
 * including it is removed, then `do_set_mechanism_weights` and `WeightsRevealed`.
 */
function revealWeights(
  state: ChainState,
  now: bigint,
  who: string,
  netuid: number,
  mecid: number,
  uids: readonly number[],
  values: readonly number[],
  salt: readonly number[],
  versionKey: bigint,
): DispatchOutcome {
  const subnet = state.subnets.get(netuid);
  if (subnet?.commitRevealEnabled === false) return failed('CommitRevealDisabled');
  const idx = netuidIndex(netuid, mecid);
  const key = pairKey(idx, who);
  const stored = subnet?.weightCommits.get(key) ?? [];
  if (subnet === undefined || stored.length === 0) return failed('NoWeightsCommitFound');
  const { live, expired } = popExpired(subnet, stored, now);
  const hash = weightCommitHash(who, idx, uids, values, salt, versionKey);
  if (live.length === 0) return failed(expired.includes(hash) ? 'ExpiredWeightCommit' : 'NoWeightsCommitFound');
  const position = live.findIndex((c) => c.hash === hash);
  const match = live[position];
  if (match === undefined) return failed(expired.includes(hash) ? 'ExpiredWeightCommit' : 'InvalidRevealCommitHashNotMatch');
  if (!inRevealRange(subnet, match, now)) return failed('RevealTooEarly');
  const set = setWeights(state, now, who, netuid, mecid, uids, values, versionKey);
  if (!set.ok) return set;
  const rest = live.slice(position + 1);
  if (rest.length === 0) subnet.weightCommits.delete(key);
  else subnet.weightCommits.set(key, rest);
  return { ok: true, events: [...set.events, { pallet: 'SubtensorModule', name: 'WeightsRevealed', fields: [who, idx, hash] }] };
}

/**
 * `do_batch_reveal_weights` (ab0cb2e52 and main `subnets/weights.rs:605`), atomic: lengths, commit-reveal on,
 * a queue at the plain netuid, expired commits popped; every hash must be live (`ExpiredWeightCommit` /
 * `InvalidRevealCommitHashNotMatch`) and in its reveal epoch (`RevealTooEarly`) before anything is applied;
 * then each revealed commit alone is removed (not the ones before it, unlike `reveal_weights`) and
 * `do_set_weights` runs (its failure fails the call); one `WeightsBatchRevealed(who, netuid, hashes)`.
 */
function batchRevealWeights(state: ChainState, now: bigint, who: string, call: Extract<DevnetCall, { kind: 'batch_reveal_weights' }>): DispatchOutcome {
  const n = call.uidsList.length;
  if (call.valuesList.length !== n || call.saltsList.length !== n || call.versionKeys.length !== n) return failed('InputLengthsUnequal');
  const subnet = state.subnets.get(call.netuid);
  if (subnet?.commitRevealEnabled === false) return failed('CommitRevealDisabled');
  const key = pairKey(call.netuid, who);
  const stored = subnet?.weightCommits.get(key) ?? [];
  if (subnet === undefined || stored.length === 0) return failed('NoWeightsCommitFound');
  const { live, expired } = popExpired(subnet, stored, now);
  const reveals = call.uidsList.map((uids, i) => {
    const values = call.valuesList[i] ?? [];
    const salt = call.saltsList[i] ?? [];
    const versionKey = call.versionKeys[i] ?? 0n;
    return { uids, values, versionKey, hash: weightCommitHash(who, call.netuid, uids, values, salt, versionKey) };
  });
  for (const r of reveals) {
    const commit = live.find((c) => c.hash === r.hash);
    if (commit === undefined) return failed(expired.includes(r.hash) ? 'ExpiredWeightCommit' : 'InvalidRevealCommitHashNotMatch');
    if (!inRevealRange(subnet, commit, now)) return failed('RevealTooEarly');
  }
  const events: DevnetEvent[] = [];
  const revealed: string[] = [];
  for (const r of reveals) {
    const position = live.findIndex((c) => c.hash === r.hash);
    if (position < 0) return failed(expired.includes(r.hash) ? 'ExpiredWeightCommit' : 'InvalidRevealCommitHashNotMatch');
    live.splice(position, 1);
    const set = setWeights(state, now, who, call.netuid, 0, r.uids, r.values, r.versionKey);
    if (!set.ok) return set;
    events.push(...set.events);
    revealed.push(r.hash);
  }
  if (live.length === 0) subnet.weightCommits.delete(key);
  else subnet.weightCommits.set(key, live);
  events.push({ pallet: 'SubtensorModule', name: 'WeightsBatchRevealed', fields: [who, call.netuid, revealed] });
  return { ok: true, events };
}

/**
 * The tail of `do_batch_set_weights` / `do_batch_commit_weights` (ab0cb2e52 `subnets/weights.rs:197, 1071`;
 * main `:199, 1071`): the items ran in order (their own events first); then, if any failed,
 * `BatchCompletedWithErrors` once followed by one `BatchWeightItemFailed` per failure (with the item's netuid
 * first on the stateful runtime, main `macros/events.rs:288`); always `BatchWeightsCompleted(netuids, who)`.
 */
function batchOutcome(
  state: ChainState,
  who: string,
  netuids: readonly number[],
  items: readonly { netuid: number; outcome: DispatchOutcome }[],
): DispatchOutcome {
  const events: DevnetEvent[] = items.flatMap((i) => (i.outcome.ok ? i.outcome.events : []));
  const failures = items.filter((i) => !i.outcome.ok);
  if (failures.length > 0) events.push({ pallet: 'SubtensorModule', name: 'BatchCompletedWithErrors', fields: [] });
  for (const f of failures) {
    const error = { moduleError: f.outcome.ok ? '' : f.outcome.error };
    events.push({ pallet: 'SubtensorModule', name: 'BatchWeightItemFailed', fields: state.runtime === 'stateful' ? [f.netuid, error] : [error] });
  }
  events.push({ pallet: 'SubtensorModule', name: 'BatchWeightsCompleted', fields: [netuids, who] });
  return { ok: true, events };
}

function commitTimelocked(state: ChainState, now: bigint, who: string, call: Extract<DevnetCall, { kind: 'commit_timelocked_weights' }>): DispatchOutcome {
  const subnet = state.subnets.get(call.netuid);
  if (subnet === undefined || subnet.mechanismCount <= call.mecid) return { ok: false, error: 'MechanismDoesNotExist', events: [] };
  if (!subnet.commitRevealEnabled) return { ok: false, error: 'CommitRevealDisabled', events: [] };
  if (call.version !== state.commitRevealVersion) return { ok: false, error: 'IncorrectCommitRevealVersion', events: [] };
  const neuron = neuronOf(subnet, who);
  if (neuron === undefined) return { ok: false, error: 'HotKeyNotRegisteredInSubNet', events: [] };
  const idx = netuidIndex(call.netuid, call.mecid);
  if (!rateLimitOk(subnet, idx, neuron.uid, now)) return { ok: false, error: 'CommittingWeightsTooFast', events: [] };
  const epoch = currentEpochWithLookahead(subnet, now);
  const key = pairKey(idx, epoch);
  const queue = (subnet.timelockedCommits.get(key) ?? []).slice();
  if (queue.filter((c) => c.who === who).length >= MAX_UNREVEALED_COMMITS) {
    return { ok: false, error: 'TooManyUnrevealedCommits', events: [] };
  }
  const commitBytes = hexToU8a(call.commit);
  if (commitBytes.length > MAX_CRV3_COMMIT_SIZE_BYTES) return { ok: false, error: 'BadRequest', events: [] };
  queue.push({ who, commitBlock: now, commit: call.commit, revealRound: call.revealRound });
  subnet.timelockedCommits.set(key, queue);
  touchLastUpdate(subnet, idx, neuron.uid, now);
  return {
    ok: true,
    events: [
      {
        pallet: 'SubtensorModule',
        name: 'TimelockedWeightsCommitted',
        fields: [who, idx, u8aToHex(blake2AsU8a(commitBytes, 256)), call.revealRound],
      },
    ],
  };
}

/**
 * Dispatches a decoded call against `state` (mutating it only on success), in the chain's check order,
 * returning the events or the module error name.
 *
 * @param state - the state being built for block `now`
 * @param now - the block number being built
 * @param who - signer hex public key
 * @param call - the decoded call
 * @returns the dispatch outcome
 * @example
 * dispatchCall(state, 12n, alice, { kind: 'set_weights', ... });
 */
export function dispatchCall(state: ChainState, now: bigint, who: string, call: DevnetCall): DispatchOutcome {
  switch (call.kind) {
    case 'remark':
      return {
        ok: true,
        events: call.withEvent ? [{ pallet: 'System', name: 'Remarked', fields: [who, u8aToHex(blake2AsU8a(hexToU8a(call.remark), 256))] }] : [],
      };
    case 'serve_axon':
      return serveAxon(state, now, who, call);
    case 'set_weights': {
      const subnet = state.subnets.get(call.netuid);
      if (subnet?.commitRevealEnabled === true) return { ok: false, error: 'CommitRevealEnabled', events: [] };
      return setWeights(state, now, who, call.netuid, call.mecid, call.uids, call.values, call.versionKey);
    }
    case 'commit_weights':
      return commitWeights(state, now, who, call.netuid, call.mecid, call.hash);
    case 'reveal_weights':
      return revealWeights(state, now, who, call.netuid, call.mecid, call.uids, call.values, call.salt, call.versionKey);
    case 'commit_timelocked_weights':
      return commitTimelocked(state, now, who, call);
    case 'batch_set_weights': {
      if (call.netuids.length !== call.weights.length || call.netuids.length !== call.versionKeys.length) return failed('InputLengthsUnequal');
      const items = call.netuids.map((netuid, i) => {
        const pairs = call.weights[i] ?? [];
        const uids = pairs.map((p) => p[0]);
        const values = pairs.map((p) => p[1]);
        const enabled = state.subnets.get(netuid)?.commitRevealEnabled ?? true;
        const outcome = enabled ? failed('CommitRevealEnabled') : setWeights(state, now, who, netuid, 0, uids, values, call.versionKeys[i] ?? 0n);
        return { netuid, outcome };
      });
      return batchOutcome(state, who, call.netuids, items);
    }
    case 'batch_commit_weights': {
      if (call.netuids.length !== call.hashes.length) return failed('InputLengthsUnequal');
      const items = call.netuids.map((netuid, i) => ({ netuid, outcome: commitWeights(state, now, who, netuid, 0, call.hashes[i] ?? '0x') }));
      return batchOutcome(state, who, call.netuids, items);
    }
    case 'batch_reveal_weights':
      return batchRevealWeights(state, now, who, call);
  }
}
