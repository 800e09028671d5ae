import type { CommonTypes } from './common-types.js';
import { indexed, storageHelpers, type PalletDecl, type PalletEnums } from './pallet-decl.js';
import type { TypeBuilder } from './type-builder.js';

/** `pallet_drand` event and error enums (no calls: the devnet writes pulses itself). */
export function drandEnums(b: TypeBuilder, t: CommonTypes): PalletEnums {
  const events = b.variant(
    ['pallet_drand', 'pallet', 'Event'],
    [
      [0, 'BeaconConfigChanged', [], ['Beacon Configuration has changed.']],
      [1, 'NewPulse', [['rounds', t.vecU64, 'Vec<RoundNumber>']], ['Successfully set a new pulse(s).']],
      [2, 'SetOldestStoredRound', [[null, t.u64, 'u64']], ['Oldest Stored Round has been set.']],
    ],
    [{ name: 'T', type: null }],
  );
  const errors = b.variant(
    ['pallet_drand', 'pallet', 'Error'],
    indexed(['NoneValue', 'StorageOverflow', 'DrandConnectionFailure', 'UnverifiedPulse', 'InvalidRoundNumber', 'PulseVerificationError']),
    [{ name: 'T', type: null }],
  );
  return { events, errors };
}

/** drand quicknet, the default of `Drand.BeaconConfig` on Subtensor (finney's ValueQuery default, byte for byte). */
const QUICKNET_BEACON_CONFIG = {
  publicKey:
    '0x83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesisTime: 1692803367,
  hash: '0x52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  groupHash: '0xf477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e',
  schemeId: '0x626c732d756e636861696e65642d67312d72666339333830', // "bls-unchained-g1-rfc9380"
  metadata: { beaconId: '0x717569636b6e6574' }, // "quicknet"
};

/**
 * `Drand` (index 26): `BeaconConfig` (default quicknet), `Pulses(round) -> Pulse`, `LastStoredRound`,
 * `OldestStoredRound`.
 */
export function drandPallet(b: TypeBuilder, t: CommonTypes, enums: PalletEnums): PalletDecl {
  const s = storageHelpers(b);
  const boundedBytes = b.composite(
    ['bounded_collections', 'bounded_vec', 'BoundedVec'],
    [[null, t.bytes, 'Vec<T>']],
    [
      { name: 'T', type: t.u8 },
      { name: 'S', type: null },
    ],
  );
  const pulse = b.composite(
    ['pallet_drand', 'types', 'Pulse'],
    [
      ['round', t.u64, 'RoundNumber'],
      ['randomness', boundedBytes, 'BoundedVec<u8, ConstU32<32>>'],
      ['signature', boundedBytes, 'BoundedVec<u8, ConstU32<144>>'],
    ],
  );
  const beaconMetadata = b.composite(['pallet_drand', 'types', 'Metadata'], [['beacon_id', boundedBytes, 'BoundedHash']]);
  const beaconConfiguration = b.composite(
    ['pallet_drand', 'types', 'BeaconConfiguration'],
    [
      ['public_key', boundedBytes, 'OpaquePublicKey'],
      ['period', t.u32, 'u32'],
      ['genesis_time', t.u32, 'u32'],
      ['hash', boundedBytes, 'BoundedHash'],
      ['group_hash', boundedBytes, 'BoundedHash'],
      ['scheme_id', boundedBytes, 'BoundedHash'],
      ['metadata', beaconMetadata, 'Metadata'],
    ],
  );
  return {
    name: 'Drand',
    index: 26,
    ...enums,
    storage: [
      s.plain('BeaconConfig', beaconConfiguration, { fallback: QUICKNET_BEACON_CONFIG, docs: [' the drand beacon configuration'] }),
      s.map('Pulses', [['Blake2_128Concat', t.u64]], pulse, { optional: true, docs: [' map round number to pulse'] }),
      s.plain('LastStoredRound', t.u64),
      s.plain('OldestStoredRound', t.u64, { docs: [' oldest stored round'] }),
    ],
    constants: [],
    docs: [],
  };
}
