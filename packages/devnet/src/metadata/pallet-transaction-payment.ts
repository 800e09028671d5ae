import type { CommonTypes } from './common-types.js';
import { indexed, storageHelpers, type PalletDecl, type PalletEnums } from './pallet-decl.js';
import type { TypeBuilder } from './type-builder.js';

/** `pallet_transaction_payment` event enum (`TransactionFeePaid`); the pallet has no calls. */
export function transactionPaymentEnums(b: TypeBuilder, t: CommonTypes): PalletEnums {
  const events = b.variant(
    ['pallet_transaction_payment', 'pallet', 'Event'],
    [
      [
        0,
        'TransactionFeePaid',
        [
          ['who', t.accountId, 'T::AccountId'],
          ['actual_fee', t.u64, 'BalanceOf<T>'],
          ['tip', t.u64, 'BalanceOf<T>'],
        ],
      ],
    ],
    [{ name: 'T', type: null }],
  );
  return { events };
}

/** `TransactionPayment` (index 6): `NextFeeMultiplier`, `StorageVersion`, `OperationalFeeMultiplier`. */
export function transactionPaymentPallet(b: TypeBuilder, t: CommonTypes, enums: PalletEnums): PalletDecl {
  const s = storageHelpers(b);
  const fixedU128 = b.composite(['sp_arithmetic', 'fixed_point', 'FixedU128'], [[null, t.u128, 'u128']]);
  const releases = b.variant(['pallet_transaction_payment', 'Releases'], indexed(['V1Ancient', 'V2']));
  return {
    name: 'TransactionPayment',
    index: 6,
    ...enums,
    storage: [s.plain('NextFeeMultiplier', fixedU128, { fallback: 1_000_000_000_000_000_000n }), s.plain('StorageVersion', releases)],
    constants: [
      {
        name: 'OperationalFeeMultiplier',
        type: t.u8,
        value: 5,
        docs: [' A fee multiplier for `Operational` extrinsics to compute "virtual tip" to boost their', ' `priority`'],
      },
    ],
    docs: [],
  };
}
