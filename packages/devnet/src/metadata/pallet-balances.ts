import type { CommonTypes } from './common-types.js';
import { indexed, storageHelpers, type PalletDecl, type PalletEnums } from './pallet-decl.js';
import type { TypeBuilder } from './type-builder.js';

const PARAMS_T_I = [
  { name: 'T', type: null },
  { name: 'I', type: null },
] as const;

/** `pallet_balances` enums: the two transfer calls, all events, all errors (real indices). */
export function balancesEnums(b: TypeBuilder, t: CommonTypes): PalletEnums {
  const calls = b.variant(
    ['pallet_balances', 'pallet', 'Call'],
    [
      [
        0,
        'transfer_allow_death',
        [
          ['dest', t.multiAddress, 'AccountIdLookupOf<T>'],
          ['value', t.compactU64, 'T::Balance'],
        ],
      ],
      [
        3,
        'transfer_keep_alive',
        [
          ['dest', t.multiAddress, 'AccountIdLookupOf<T>'],
          ['value', t.compactU64, 'T::Balance'],
        ],
      ],
    ],
    PARAMS_T_I,
  );
  const who = (field: string): [string, number, string] => [field, t.accountId, 'T::AccountId'];
  const amount = (field = 'amount'): [string, number, string] => [field, t.u64, 'T::Balance'];
  const status = b.variant(['frame_support', 'traits', 'tokens', 'misc', 'BalanceStatus'], indexed(['Free', 'Reserved']));
  const events = b.variant(
    ['pallet_balances', 'pallet', 'Event'],
    [
      [0, 'Endowed', [who('account'), amount('free_balance')]],
      [1, 'DustLost', [who('account'), amount()]],
      [2, 'Transfer', [who('from'), who('to'), amount()]],
      [3, 'BalanceSet', [who('who'), amount('free')]],
      [4, 'Reserved', [who('who'), amount()]],
      [5, 'Unreserved', [who('who'), amount()]],
      [6, 'ReserveRepatriated', [who('from'), who('to'), amount(), ['destination_status', status, 'Status']]],
      [7, 'Deposit', [who('who'), amount()]],
      [8, 'Withdraw', [who('who'), amount()]],
      [9, 'Slashed', [who('who'), amount()]],
      [10, 'Minted', [who('who'), amount()]],
      [11, 'Burned', [who('who'), amount()]],
      [12, 'Suspended', [who('who'), amount()]],
      [13, 'Restored', [who('who'), amount()]],
      [14, 'Upgraded', [who('who')]],
      [15, 'Issued', [amount()]],
      [16, 'Rescinded', [amount()]],
      [17, 'Locked', [who('who'), amount()]],
      [18, 'Unlocked', [who('who'), amount()]],
      [19, 'Frozen', [who('who'), amount()]],
      [20, 'Thawed', [who('who'), amount()]],
      [21, 'TotalIssuanceForced', [amount('old'), amount('new')]],
    ],
    PARAMS_T_I,
  );
  const errors = b.variant(
    ['pallet_balances', 'pallet', 'Error'],
    indexed([
      'VestingBalance',
      'LiquidityRestrictions',
      'InsufficientBalance',
      'ExistentialDeposit',
      'Expendability',
      'ExistingVestingSchedule',
      'DeadAccount',
      'TooManyReserves',
      'TooManyHolds',
      'TooManyFreezes',
      'IssuanceDeactivated',
      'DeltaZero',
    ]),
    PARAMS_T_I,
  );
  return { calls, events, errors };
}

/** `Balances` (index 5): `TotalIssuance`, `Account`, `ExistentialDeposit` (500 rao, finney). */
export function balancesPallet(b: TypeBuilder, t: CommonTypes, enums: PalletEnums): PalletDecl {
  const s = storageHelpers(b);
  return {
    name: 'Balances',
    index: 5,
    ...enums,
    storage: [
      s.plain('TotalIssuance', t.u64, { docs: [' The total units issued in the system.'] }),
      s.plain('InactiveIssuance', t.u64, { docs: [' The total units of outstanding deactivated balance in the system.'] }),
      s.map('Account', [['Blake2_128Concat', t.accountId]], t.accountData, {
        fallback: { flags: 1n << 127n },
        docs: [' The Balances pallet example of storing the balance of an account.'],
      }),
    ],
    constants: [
      { name: 'ExistentialDeposit', type: t.u64, value: 500n, docs: [' The minimum amount required to keep an account open.'] },
      { name: 'MaxLocks', type: t.u32, value: 50, docs: [' The maximum number of locks that should exist on an account.'] },
      { name: 'MaxReserves', type: t.u32, value: 50, docs: [' The maximum number of named reserves that can exist on an account.'] },
      { name: 'MaxFreezes', type: t.u32, value: 50, docs: [' The maximum number of individual freeze locks that can exist on an account at any time.'] },
    ],
    docs: [],
  };
}
