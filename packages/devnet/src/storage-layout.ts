import { compactToU8a, stringToHex, u8aToHex } from '@polkadot/util';

import type { AxonState, ChainState } from './chain-state.js';
import type { RuntimeContext } from './runtime-context.js';

/** A block's storage: hex key -> hex value, as a real node would serve it (absent = never written). */
export type StorageMap = ReadonlyMap<string, string>;

/**
 * Writes the chain state into a key -> value storage map, keyed and encoded exactly as the metadata
 * declares (hashers, SCALE types). Items the metadata does not declare are skipped.
 *
 * @param state - the state after a block
 * @param ctx - the runtime context (metadata)
 * @param blockHashes - hashes of recent blocks, by number (for `System.BlockHash`)
 * @returns the storage map
 * @example
 * const storage = materializeStorage(state, ctx, hashes);
 */
export function materializeStorage(state: ChainState, ctx: RuntimeContext, blockHashes: ReadonlyMap<number, string>): Map<string, string> {
  const out = new Map<string, string>();
  const put = (pallet: string, item: string, keys: readonly unknown[], value: unknown): void => {
    const key = ctx.storageKey(pallet, item, keys);
    if (key === undefined) return;
    out.set(u8aToHex(key), u8aToHex(ctx.encodeStorageValue(pallet, item, value)));
  };
  const putRaw = (pallet: string, item: string, keys: readonly unknown[], value: Uint8Array): void => {
    const key = ctx.storageKey(pallet, item, keys);
    if (key === undefined) return;
    out.set(u8aToHex(key), u8aToHex(value));
  };

  // System
  put('System', 'Number', [], state.number);
  put('System', 'ParentHash', [], state.parentHash);
  for (const [n, h] of blockHashes) put('System', 'BlockHash', [n], h);
  const eventsVec = new Uint8Array(state.events.reduce((a, e) => a + e.length, 0));
  let offset = 0;
  for (const e of state.events) {
    eventsVec.set(e, offset);
    offset += e.length;
  }
  putRaw('System', 'Events', [], concat(compactToU8a(state.events.length), eventsVec));
  put('System', 'EventCount', [], state.events.length);
  for (const [who, nonce] of [...state.nonces].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    put('System', 'Account', [who], {
      nonce,
      consumers: 0,
      providers: 1,
      sufficients: 0,
      data: { free: 0, reserved: 0, frozen: 0, flags: '0x80000000000000000000000000000000' },
    });
  }
  put('Timestamp', 'Now', [], state.timestamp);
  // the runtime as frame_system records it once the runtime has run (spec name and version, G.33)
  put('System', 'LastRuntimeUpgrade', [], { specVersion: state.specVersion, specName: state.specName });

  // SubtensorModule globals
  put('SubtensorModule', 'TotalNetworks', [], state.subnets.size);
  put('SubtensorModule', 'StakeThreshold', [], state.stakeThreshold);
  put('SubtensorModule', 'TaoWeight', [], state.taoWeight);
  put('SubtensorModule', 'CommitRevealWeightsVersion', [], state.commitRevealVersion);
  put('Drand', 'LastStoredRound', [], state.lastStoredRound);
  put('Drand', 'OldestStoredRound', [], state.oldestStoredRound);
  for (const [round, pulse] of state.pulses) {
    put('Drand', 'Pulses', [round], { round, randomness: pulse.randomness, signature: pulse.signature });
  }
  if (state.beaconConfig !== null) {
    const c = state.beaconConfig;
    put('Drand', 'BeaconConfig', [], {
      publicKey: c.publicKey,
      period: c.period,
      genesisTime: c.genesisTime,
      hash: c.hash,
      groupHash: c.groupHash,
      schemeId: stringToHex(c.schemeId),
      metadata: { beaconId: stringToHex(c.beaconId) },
    });
  }

  for (const s of state.subnets.values()) {
    const netuid = s.netuid;
    put('SubtensorModule', 'NetworksAdded', [netuid], true);
    put('SubtensorModule', 'SubnetworkN', [netuid], s.neurons.length);
    put('SubtensorModule', 'Tempo', [netuid], s.tempo);
    put('SubtensorModule', 'WeightsVersionKey', [netuid], s.weightsVersionKey);
    put('SubtensorModule', 'WeightsSetRateLimit', [netuid], s.weightsSetRateLimit);
    put('SubtensorModule', 'MinAllowedWeights', [netuid], s.minAllowedWeights);
    put('SubtensorModule', 'MaxWeightsLimit', [netuid], s.maxWeightsLimit);
    put('SubtensorModule', 'MaxAllowedValidators', [netuid], s.maxAllowedValidators);
    put('SubtensorModule', 'MaxAllowedUids', [netuid], s.maxAllowedUids);
    put('SubtensorModule', 'ImmunityPeriod', [netuid], s.immunityPeriod);
    put('SubtensorModule', 'ActivityCutoff', [netuid], s.activityCutoff);
    put('SubtensorModule', 'Kappa', [netuid], s.kappa);
    put('SubtensorModule', 'CommitRevealWeightsEnabled', [netuid], s.commitRevealEnabled);
    put('SubtensorModule', 'RevealPeriodEpochs', [netuid], s.revealPeriodEpochs);
    put('SubtensorModule', 'MechanismCountCurrent', [netuid], s.mechanismCount);
    put('SubtensorModule', 'LastEpochBlock', [netuid], s.lastEpochBlock);
    put('SubtensorModule', 'PendingEpochAt', [netuid], s.pendingEpochAt);
    put('SubtensorModule', 'SubnetEpochIndex', [netuid], s.subnetEpochIndex);
    put('SubtensorModule', 'BlocksSinceLastStep', [netuid], s.blocksSinceLastStep);
    put('SubtensorModule', 'LastMechansimStepBlock', [netuid], s.lastMechanismStepBlock);
    put('SubtensorModule', 'SubnetOwner', [netuid], s.ownerColdkey);
    if (s.ownerHotkey !== null) put('SubtensorModule', 'SubnetOwnerHotkey', [netuid], s.ownerHotkey);
    put(
      'SubtensorModule',
      'ValidatorPermit',
      [netuid],
      s.neurons.map((n) => n.validatorPermit),
    );
    put(
      'SubtensorModule',
      'Active',
      [netuid],
      s.neurons.map((n) => n.active),
    );
    for (const n of s.neurons) {
      put('SubtensorModule', 'Uids', [netuid, n.hotkey], n.uid);
      put('SubtensorModule', 'Keys', [netuid, n.uid], n.hotkey);
      put('SubtensorModule', 'BlockAtRegistration', [netuid, n.uid], n.blockAtRegistration);
      put('SubtensorModule', 'TotalHotkeyAlpha', [n.hotkey, netuid], n.stake);
      if (n.rootStake > 0n) put('SubtensorModule', 'TotalHotkeyAlpha', [n.hotkey, 0], n.rootStake);
      if (n.axon !== null) put('SubtensorModule', 'Axons', [netuid, n.hotkey], axonValue(n.axon));
      put('SubtensorModule', 'Owner', [n.hotkey], n.coldkey);
    }
    for (const [who, axon] of s.axons) put('SubtensorModule', 'Axons', [netuid, who], axonValue(axon));
    put('SubtensorModule', 'ServingRateLimit', [netuid], s.servingRateLimit);
    for (const [child, list] of s.parentKeys) put('SubtensorModule', 'ParentKeys', [child, netuid], list);
    for (const [parent, list] of s.childKeys) put('SubtensorModule', 'ChildKeys', [parent, netuid], list);
    for (let mecid = 0; mecid < s.mechanismCount; mecid += 1) {
      const idx = mecid * 4096 + netuid;
      const lu = s.lastUpdate.get(idx) ?? [];
      put(
        'SubtensorModule',
        'LastUpdate',
        [idx],
        s.neurons.map((n) => lu[n.uid] ?? 0n),
      );
    }
    for (const [k, pairs] of s.weights) {
      const [idx, uid] = k.split(':').map(Number);
      put('SubtensorModule', 'Weights', [idx, uid], pairs);
    }
    for (const [k, commits] of s.weightCommits) {
      const [idx, who] = k.split(':');
      put(
        'SubtensorModule',
        'WeightCommits',
        [Number(idx), who],
        s.runtime === 'legacy'
          ? commits.map((c) => [c.hash, c.commitBlock, c.firstRevealBlock, c.lastRevealBlock])
          : commits.map((c) => [c.hash, c.commitEpoch, c.commitBlock, 0n]),
      );
    }
    for (const [k, commits] of s.timelockedCommits) {
      const [idx, epoch] = k.split(':');
      put(
        'SubtensorModule',
        'TimelockedWeightCommits',
        [Number(idx), BigInt(epoch ?? '0')],
        commits.map((c) => [c.who, c.commitBlock, c.commit, c.revealRound]),
      );
    }
  }
  return out;
}

function axonValue(a: AxonState): Record<string, unknown> {
  return {
    block: a.block,
    version: a.version,
    ip: a.ip,
    port: a.port,
    ip_type: a.ipType,
    protocol: a.protocol,
    placeholder1: a.placeholder1,
    placeholder2: a.placeholder2,
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
