import type { CommonTypes } from './common-types.js';
import { storageHelpers, type PalletDecl } from './pallet-decl.js';
import type { TypeBuilder } from './type-builder.js';

/** `pallet_timestamp` call enum (`set(now: Compact<u64>)`). */
export function timestampEnums(b: TypeBuilder, t: CommonTypes): { calls: number } {
  const calls = b.variant(
    ['pallet_timestamp', 'pallet', 'Call'],
    [[0, 'set', [['now', t.compactU64, 'T::Moment']], ['Set the current time.']]],
    [{ name: 'T', type: null }],
  );
  return { calls };
}

/** `Timestamp` (index 2): `Now`, `DidUpdate`, `MinimumPeriod` (6000 ms, finney). */
export function timestampPallet(b: TypeBuilder, t: CommonTypes, enums: { calls: number }): PalletDecl {
  const s = storageHelpers(b);
  return {
    name: 'Timestamp',
    index: 2,
    ...enums,
    storage: [
      s.plain('Now', t.u64, { docs: [' The current time for the current block.'] }),
      s.plain('DidUpdate', t.bool, { docs: [' Whether the timestamp has been updated in this block.'] }),
    ],
    constants: [{ name: 'MinimumPeriod', type: t.u64, value: 6000n, docs: [' The minimum period between blocks.'] }],
    docs: [],
  };
}
