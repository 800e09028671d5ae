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

/** `Drand` (index 26): `Pulses(round) -> Pulse`, `LastStoredRound`, `OldestStoredRound`. */
export function drandPallet(b: TypeBuilder, t: CommonTypes, enums: PalletEnums): PalletDecl {
  const s = storageHelpers(b);
  const boundedBytes = b.composite(['bounded_collections', 'bounded_vec', 'BoundedVec'], [[null, t.bytes, 'Vec<T>']], [
    { name: 'T', type: t.u8 },
    { name: 'S', type: null },
  ]);
  const pulse = b.composite(['pallet_drand', 'types', 'Pulse'], [
    ['round', t.u64, 'RoundNumber'],
    ['randomness', boundedBytes, 'BoundedVec<u8, ConstU32<32>>'],
    ['signature', boundedBytes, 'BoundedVec<u8, ConstU32<144>>'],
  ]);
  return {
    name: 'Drand',
    index: 26,
    ...enums,
    storage: [
      s.map('Pulses', [['Blake2_128Concat', t.u64]], pulse, { optional: true, docs: [' map round number to pulse'] }),
      s.plain('LastStoredRound', t.u64),
      s.plain('OldestStoredRound', t.u64, { docs: [' oldest stored round'] }),
    ],
    constants: [],
    docs: [],
  };
}
