import { Metadata, TypeRegistry } from '@polkadot/types';
import type { GenericEvent, Vec } from '@polkadot/types';
import type { EventRecord } from '@polkadot/types/interfaces';
import { Keyring } from '@polkadot/keyring';
import { u8aConcat, u8aToHex, u8aToU8a } from '@polkadot/util';
import { blake2AsHex, blake2AsU8a, cryptoWaitReady, decodeAddress, xxhashAsU8a } from '@polkadot/util-crypto';
import { isSubnetError } from '@subnet/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildMetadata,
  createDevnetRegistry,
  encodeEvent,
  encodeEventRecords,
  encodeMetadataAtVersion,
  encodeMetadataVersions,
  METADATA_VERSION,
  moduleError,
  PALLET_INDEX,
  RUNTIME_VERSION,
  STATEFUL_RUNTIME_VERSION,
  SIGNED_EXTENSION_IDENTIFIERS,
  SS58_PREFIX,
  storageKey,
  storagePrefix,
  SUBTENSOR_CALL_INDEX,
  SUBTENSOR_ERRORS,
} from '../metadata/index.js';

let alice: string;
/** One registry shared by the read-only tests (building one costs ~0.3 s). */
let dev: ReturnType<typeof createDevnetRegistry>;
beforeAll(async () => {
  await cryptoWaitReady();
  dev = createDevnetRegistry();
  alice = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Alice').address;
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('buildMetadata', () => {
  it('is RuntimeMetadataPrefixed: "meta" magic then version 15', () => {
    const bytes = buildMetadata();
    expect(u8aToHex(bytes.subarray(0, 5))).toBe('0x6d6574610f');
    expect(METADATA_VERSION).toBe(15);
  });

  it('decodes with @polkadot/types Metadata and re-encodes to the same bytes', () => {
    const bytes = buildMetadata();
    const metadata = new Metadata(new TypeRegistry(), bytes);
    expect(metadata.version).toBe(15);
    expect(u8aToHex(metadata.toU8a())).toBe(u8aToHex(bytes));
  });

  it('is deterministic and hands out copies (mutating one result does not change the next)', () => {
    const a = buildMetadata();
    const b = buildMetadata();
    expect(u8aToHex(a)).toBe(u8aToHex(b));
    a[0] = 0;
    expect(buildMetadata()[0]).toBe(0x6d);
  });

  it('declares the pallets at Subtensor’s construct_runtime indices (README 2.1: SubtensorModule = 7)', () => {
    const { metadata } = dev;
    const indices = Object.fromEntries(metadata.asLatest.pallets.map((p) => [p.name.toString(), p.index.toNumber()]));
    expect(indices).toEqual({ System: 0, Timestamp: 2, Balances: 5, TransactionPayment: 6, SubtensorModule: 7, Drand: 26 });
    expect(PALLET_INDEX).toEqual(indices);
  });

  it('declares every weights call with README 2.1’s call index and argument types', () => {
    const { registry, metadata } = dev;
    const subtensor = metadata.asLatest.pallets.find((p) => p.name.toString() === 'SubtensorModule')!;
    const calls = registry.lookup.getSiType(subtensor.calls.unwrap().type).def.asVariant.variants;
    const declared = Object.fromEntries(
      calls.map((v) => [
        `${v.index.toNumber()} ${v.name.toString()}`,
        v.fields.map((f) => `${f.name.toString()}: ${registry.lookup.getTypeDef(f.type).type}`).join(', '),
      ]),
    );
    // README 2.1 (BoundedVec<u8, 5000> encodes as Bytes; NetUid = u16, MechId = u8).
    expect(declared).toMatchObject({
      '0 set_weights': 'netuid: u16, dests: Vec<u16>, weights: Vec<u16>, version_key: u64',
      '119 set_mechanism_weights': 'netuid: u16, mecid: u8, dests: Vec<u16>, weights: Vec<u16>, version_key: u64',
      '80 batch_set_weights': 'netuids: Vec<Compact<u16>>, weights: Vec<Vec<(Compact<u16>,Compact<u16>)>>, version_keys: Vec<Compact<u64>>',
      '96 commit_weights': 'netuid: u16, commit_hash: H256',
      '115 commit_mechanism_weights': 'netuid: u16, mecid: u8, commit_hash: H256',
      '100 batch_commit_weights': 'netuids: Vec<Compact<u16>>, commit_hashes: Vec<H256>',
      '97 reveal_weights': 'netuid: u16, uids: Vec<u16>, values: Vec<u16>, salt: Vec<u16>, version_key: u64',
      '116 reveal_mechanism_weights': 'netuid: u16, mecid: u8, uids: Vec<u16>, values: Vec<u16>, salt: Vec<u16>, version_key: u64',
      '98 batch_reveal_weights': 'netuid: u16, uids_list: Vec<Vec<u16>>, values_list: Vec<Vec<u16>>, salts_list: Vec<Vec<u16>>, version_keys: Vec<u64>',
      '113 commit_timelocked_weights': 'netuid: u16, commit: Bytes, reveal_round: u64, commit_reveal_version: u16',
      '118 commit_timelocked_mechanism_weights': 'netuid: u16, mecid: u8, commit: Bytes, reveal_round: u64, commit_reveal_version: u16',
      '117 commit_crv3_mechanism_weights': 'netuid: u16, mecid: u8, commit: Bytes, reveal_round: u64',
    });
    expect(Object.fromEntries(calls.map((v) => [v.name.toString(), v.index.toNumber()]))).toEqual(SUBTENSOR_CALL_INDEX);
    expect(calls.some((v) => v.index.toNumber() === 99)).toBe(false); // commit_crv3_weights was removed
  });

  it('encodes set_weights(1, [0, 1], [65535, 1], 5) as 0x0700 ‖ SCALE args', () => {
    const { registry } = dev;
    const call = registry.createType('Call', { callIndex: [7, 0], args: { netuid: 1, dests: [0, 1], weights: [65535, 1], version_key: 5 } });
    expect(call.toHex()).toBe('0x0700' + '0100' + '08' + '0000' + '0100' + '08' + 'ffff' + '0100' + '0500000000000000');
  });

  it('declares the transaction extensions of README 2.8 in order, extrinsic version 4', () => {
    const { metadata } = dev;
    const v15 = metadata.asV15.extrinsic;
    expect(v15.version.toNumber()).toBe(4);
    expect(v15.signedExtensions.map((e) => e.identifier.toString())).toEqual([
      'CheckNonZeroSender',
      'CheckSpecVersion',
      'CheckTxVersion',
      'CheckGenesis',
      'CheckMortality',
      'CheckNonce',
      'CheckWeight',
      'ChargeTransactionPayment',
      'SudoTransactionExtension',
      'CheckShieldedTxValidity',
      'SubtensorTransactionExtension',
      'DrandPriority',
      'CheckMetadataHash',
    ]);
    expect(SIGNED_EXTENSION_IDENTIFIERS).toEqual(v15.signedExtensions.map((e) => e.identifier.toString()));
  });

  it('declares every weights error of README 2.2 among SubtensorModule’s errors, index = position', () => {
    const { registry, metadata } = dev;
    const subtensor = metadata.asLatest.pallets.find((p) => p.name.toString() === 'SubtensorModule')!;
    const errors = registry.lookup.getSiType(subtensor.errors.unwrap().type).def.asVariant.variants;
    expect(errors.map((v) => v.name.toString())).toEqual(SUBTENSOR_ERRORS);
    errors.forEach((v, i) => {
      expect(v.index.toNumber()).toBe(i);
    });
    for (const name of [
      'HotKeyNotRegisteredInSubNet',
      'NotEnoughStakeToSetWeights',
      'NeuronNoValidatorPermit',
      'WeightVecNotEqualSize',
      'DuplicateUids',
      'UidVecContainInvalidOne',
      'WeightVecLengthIsLow',
      'MaxWeightExceeded',
      'SettingWeightsTooFast',
      'IncorrectWeightVersionKey',
      'UidsLengthExceedUidsInSubNet',
      'CanNotSetRootNetworkWeights',
      'NoWeightsCommitFound',
      'InvalidRevealCommitHashNotMatch',
      'CommitRevealEnabled',
      'CommitRevealDisabled',
      'MechanismDoesNotExist',
      'TooManyUnrevealedCommits',
      'ExpiredWeightCommit',
      'RevealTooEarly',
      'InputLengthsUnequal',
      'CommittingWeightsTooFast',
      'IncorrectCommitRevealVersion',
      'RevealPeriodTooLarge',
      'RevealPeriodTooSmall',
      'TooManyUIDsPerMechanism',
    ]) {
      expect(SUBTENSOR_ERRORS, name).toContain(name);
    }
    // Spot values from finney spec 393.
    expect(SUBTENSOR_ERRORS.indexOf('SettingWeightsTooFast')).toBe(28);
    expect(SUBTENSOR_ERRORS.indexOf('NotEnoughStakeToSetWeights')).toBe(10);
    expect(SUBTENSOR_ERRORS.length).toBe(135);
  });
});

describe('RUNTIME_VERSION', () => {
  it('is finney’s identity at spec 393 with transaction version 1', () => {
    expect(RUNTIME_VERSION).toMatchObject({
      specName: 'node-subtensor',
      implName: 'node-subtensor',
      authoringVersion: 1,
      specVersion: 393,
      implVersion: 1,
      transactionVersion: 1,
      systemVersion: 1,
      stateVersion: 1,
    });
    expect(Object.isFrozen(RUNTIME_VERSION)).toBe(true);
  });

  it('lists blake2_64(name) and version for exactly the runtime APIs the metadata declares, in order', () => {
    const { metadata } = dev;
    const names = metadata.asV15.apis.map((a) => a.name.toString());
    expect(names).toEqual(['Core', 'Metadata', 'TaggedTransactionQueue', 'AccountNonceApi', 'SubnetInfoRuntimeApi']);
    expect(RUNTIME_VERSION.apis.map(([hash]) => hash)).toEqual(names.map((n) => blake2AsHex(n, 64)));
    expect(RUNTIME_VERSION.apis.map(([, v]) => v)).toEqual([5, 2, 3, 1, 2]);
  });

  it('equals the System.Version constant of its runtime (stateful 425, legacy 393)', () => {
    const { registry, metadata } = dev;
    const system = metadata.asLatest.pallets.find((p) => p.name.toString() === 'System')!;
    const version = system.constants.find((c) => c.name.toString() === 'Version')!;
    const decoded = registry.createType(registry.createLookupType(version.type), version.value).toJSON() as Record<string, unknown>;
    const { stateVersion: _s, ...rest } = STATEFUL_RUNTIME_VERSION;
    expect(decoded).toEqual({ ...rest, apis: rest.apis.map(([h, v]) => [h, v]) });
    const legacy = createDevnetRegistry('legacy');
    const legacySystem = legacy.metadata.asLatest.pallets.find((p) => p.name.toString() === 'System')!;
    const legacyVersion = legacySystem.constants.find((c) => c.name.toString() === 'Version')!;
    const legacyDecoded = legacy.registry.createType(legacy.registry.createLookupType(legacyVersion.type), legacyVersion.value).toJSON() as Record<
      string,
      unknown
    >;
    expect(legacyDecoded['specVersion']).toBe(RUNTIME_VERSION.specVersion);
  });

  it('matches the SS58Prefix constant (42)', () => {
    const { registry, metadata } = dev;
    const system = metadata.asLatest.pallets.find((p) => p.name.toString() === 'System')!;
    const ss58 = system.constants.find((c) => c.name.toString() === 'SS58Prefix')!;
    expect(registry.createType('u16', ss58.value).toNumber()).toBe(42);
    expect(SS58_PREFIX).toBe(42);
  });
});

describe('storageKey / storagePrefix', () => {
  it('hashes SubtensorModule.Weights(netuidIndex, uid) with Identity, Identity', () => {
    const { registry } = dev;
    const expected = u8aConcat(xxhashAsU8a('SubtensorModule', 128), xxhashAsU8a('Weights', 128), new Uint8Array([0x01, 0x10]), new Uint8Array([0x03, 0x00]));
    expect(u8aToHex(storageKey(registry, 'SubtensorModule', 'Weights', [4097, 3]))).toBe(u8aToHex(expected));
  });

  it('hashes SubtensorModule.Uids(netuid, hotkey) with Identity, Blake2_128Concat', () => {
    const { registry } = dev;
    const pk = decodeAddress(alice);
    const expected = u8aConcat(xxhashAsU8a('SubtensorModule', 128), xxhashAsU8a('Uids', 128), new Uint8Array([0x01, 0x00]), blake2AsU8a(pk, 128), pk);
    expect(u8aToHex(storageKey(registry, 'SubtensorModule', 'Uids', [1, alice]))).toBe(u8aToHex(expected));
  });

  it('hashes a plain item with no keys (System.Number)', () => {
    const { registry } = dev;
    expect(u8aToHex(storageKey(registry, 'System', 'Number'))).toBe(u8aToHex(u8aConcat(xxhashAsU8a('System', 128), xxhashAsU8a('Number', 128))));
  });

  it('gives the 32-byte item prefix every key starts with', () => {
    const { registry } = dev;
    const prefix = storagePrefix(registry, 'SubtensorModule', 'LastUpdate');
    expect(prefix.length).toBe(32);
    expect(u8aToHex(storageKey(registry, 'SubtensorModule', 'LastUpdate', [1]).subarray(0, 32))).toBe(u8aToHex(prefix));
  });

  it('rejects an unknown item with DEVNET_UNKNOWN_STORAGE naming it', () => {
    const { registry } = dev;
    const error = catchError(() => storageKey(registry, 'SubtensorModule', 'Nope', [1]));
    expect(isSubnetError(error, 'DEVNET_UNKNOWN_STORAGE')).toBe(true);
    expect(String(error)).toContain('SubtensorModule.Nope');
    expect(
      isSubnetError(
        catchError(() => storagePrefix(registry, 'Nope', 'Weights')),
        'DEVNET_UNKNOWN_STORAGE',
      ),
    ).toBe(true);
  });

  it('rejects a wrong number of keys with DEVNET_BAD_STORAGE_KEY', () => {
    const { registry } = dev;
    expect(
      isSubnetError(
        catchError(() => storageKey(registry, 'SubtensorModule', 'Weights', [1])),
        'DEVNET_BAD_STORAGE_KEY',
      ),
    ).toBe(true);
  });
});

describe('events', () => {
  it('encodes SubtensorModule.WeightsSet(netuidIndex, uid) as [7, 5] ‖ u16 ‖ u16 and @polkadot/types reads it back', () => {
    const { registry } = dev;
    const bytes = encodeEvent(registry, 'SubtensorModule', 'WeightsSet', [4097, 3]);
    expect(u8aToHex(bytes)).toBe('0x070501100300');
    const event = registry.createType<GenericEvent>('Event', bytes);
    expect([event.section, event.method]).toEqual(['subtensorModule', 'WeightsSet']);
  });

  it('builds a DispatchError::Module for an error name with the metadata indices', () => {
    const { registry } = dev;
    expect(moduleError(registry, 'SubtensorModule', 'SettingWeightsTooFast')).toEqual({ Module: { index: 7, error: new Uint8Array([28, 0, 0, 0]) } });
  });

  it('encodes System.Events records that @polkadot/types decodes, ExtrinsicFailed carrying the module error', () => {
    const { registry } = dev;
    const info = { weight: { refTime: 1000, proofSize: 0 }, class: 'Normal', paysFee: 'No' };
    const failed = encodeEvent(registry, 'System', 'ExtrinsicFailed', [moduleError(registry, 'SubtensorModule', 'IncorrectWeightVersionKey'), info]);
    const ok = encodeEvent(registry, 'System', 'ExtrinsicSuccess', [info]);
    const bytes = encodeEventRecords([
      { phase: 'Initialization', event: ok },
      { phase: { applyExtrinsic: 1 }, event: failed, topics: [`0x${'ab'.repeat(32)}`] },
      { phase: 'Finalization', event: ok },
    ]);
    const records = registry.createType<Vec<EventRecord>>('Vec<EventRecord>', bytes);
    expect(records.length).toBe(3);
    expect(records.map((r) => r.phase.type)).toEqual(['Initialization', 'ApplyExtrinsic', 'Finalization']);
    expect(records[1]!.phase.asApplyExtrinsic.toNumber()).toBe(1);
    expect(records[1]!.topics.map((t) => t.toHex())).toEqual([`0x${'ab'.repeat(32)}`]);
    const error = registry.findMetaError(records[1]!.event.data[0]!.toU8a().subarray(1));
    expect([error.section, error.name, error.index]).toEqual(['subtensorModule', 'IncorrectWeightVersionKey', 29]);
    expect(u8aToHex(u8aToU8a(records.toU8a()))).toBe(u8aToHex(bytes));
  });

  it('rejects unknown pallets, events and errors, and a wrong field count', () => {
    const { registry } = dev;
    expect(
      isSubnetError(
        catchError(() => encodeEvent(registry, 'Nope', 'WeightsSet', [])),
        'DEVNET_UNKNOWN_PALLET',
      ),
    ).toBe(true);
    expect(
      isSubnetError(
        catchError(() => encodeEvent(registry, 'SubtensorModule', 'Nope', [])),
        'DEVNET_UNKNOWN_EVENT',
      ),
    ).toBe(true);
    expect(
      isSubnetError(
        catchError(() => moduleError(registry, 'SubtensorModule', 'Nope')),
        'DEVNET_UNKNOWN_ERROR',
      ),
    ).toBe(true);
    expect(
      isSubnetError(
        catchError(() => moduleError(registry, 'Timestamp', 'Nope')),
        'DEVNET_UNKNOWN_ERROR',
      ),
    ).toBe(true);
    expect(
      isSubnetError(
        catchError(() => encodeEvent(registry, 'SubtensorModule', 'WeightsSet', [1])),
        'DEVNET_BAD_EVENT_ARGS',
      ),
    ).toBe(true);
  });

  it('rejects a phase index that is not a u32 and a topic that is not 32 bytes', () => {
    expect(
      isSubnetError(
        catchError(() => encodeEventRecords([{ phase: { applyExtrinsic: -1 }, event: new Uint8Array([0, 2]) }])),
        'DEVNET_BAD_EVENT_RECORD',
      ),
    ).toBe(true);
    expect(
      isSubnetError(
        catchError(() => encodeEventRecords([{ phase: 'Finalization', event: new Uint8Array([0, 2]), topics: ['0x01'] }])),
        'DEVNET_BAD_EVENT_RECORD',
      ),
    ).toBe(true);
  });
});

describe('Metadata runtime API answers', () => {
  it('metadata_versions is Vec<u32> [15]', () => {
    expect(u8aToHex(encodeMetadataVersions())).toBe('0x040f000000');
  });

  it('metadata_at_version(15) is Some(metadata); any other version is None', () => {
    const registry = new TypeRegistry();
    const some = registry.createType('Option<OpaqueMetadata>', encodeMetadataAtVersion(15));
    expect(some.isSome).toBe(true);
    expect(u8aToHex(some.unwrap().toU8a(true))).toBe(u8aToHex(buildMetadata()));
    expect(u8aToHex(encodeMetadataAtVersion(14))).toBe('0x00');
    expect(u8aToHex(encodeMetadataAtVersion(16))).toBe('0x00');
  });
});
