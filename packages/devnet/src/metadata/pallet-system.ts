import type { CommonTypes } from './common-types.js';
import { indexed, storageHelpers, type PalletDecl, type PalletEnums } from './pallet-decl.js';
import type { RuntimeVersionJson } from './runtime-version.js';
import { RUNTIME_VERSION } from './runtime-version.js';
import { SS58_PREFIX } from './constants.js';
import type { TypeBuilder } from './type-builder.js';

/** `frame_system` call, event and error enums (Subtensor's `System`, index 0). */
export function systemEnums(b: TypeBuilder, t: CommonTypes): PalletEnums {
  const calls = b.variant(
    ['frame_system', 'pallet', 'Call'],
    [
      [0, 'remark', [['remark', t.bytes, 'Vec<u8>']], ['Make some on-chain remark.']],
      [7, 'remark_with_event', [['remark', t.bytes, 'Vec<u8>']], ['Make some on-chain remark and emit event.']],
    ],
    [{ name: 'T', type: null }],
  );
  const events = b.variant(
    ['frame_system', 'pallet', 'Event'],
    [
      [0, 'ExtrinsicSuccess', [['dispatch_info', t.dispatchEventInfo, 'DispatchEventInfo']], ['An extrinsic completed successfully.']],
      [
        1,
        'ExtrinsicFailed',
        [
          ['dispatch_error', t.dispatchError, 'DispatchError'],
          ['dispatch_info', t.dispatchEventInfo, 'DispatchEventInfo'],
        ],
        ['An extrinsic failed.'],
      ],
      [2, 'CodeUpdated', [], ['`:code` was updated.']],
      [3, 'NewAccount', [['account', t.accountId, 'T::AccountId']], ['A new account was created.']],
      [4, 'KilledAccount', [['account', t.accountId, 'T::AccountId']], ['An account was reaped.']],
      [
        5,
        'Remarked',
        [
          ['sender', t.accountId, 'T::AccountId'],
          ['hash', t.h256, 'T::Hash'],
        ],
        ['On on-chain remark happened.'],
      ],
      [
        6,
        'UpgradeAuthorized',
        [
          ['code_hash', t.h256, 'T::Hash'],
          ['check_version', t.bool, 'bool'],
        ],
        ['An upgrade was authorized.'],
      ],
      [
        7,
        'RejectedInvalidAuthorizedUpgrade',
        [
          ['code_hash', t.h256, 'T::Hash'],
          ['error', t.dispatchError, 'DispatchError'],
        ],
        ['An invalid authorized upgrade was rejected while trying to apply it.'],
      ],
    ],
    [{ name: 'T', type: null }],
  );
  const errors = b.variant(
    ['frame_system', 'pallet', 'Error'],
    indexed([
      'InvalidSpecName',
      'SpecVersionNeedsToIncrease',
      'FailedToExtractRuntimeVersion',
      'NonDefaultComposite',
      'NonZeroRefCount',
      'CallFiltered',
      'MultiBlockMigrationsOngoing',
      'NothingAuthorized',
      'Unauthorized',
    ]),
    [{ name: 'T', type: null }],
  );
  return { calls, events, errors };
}

/** Finney's `System.BlockWeights` constant (spec 393). */
const BLOCK_WEIGHTS = {
  baseBlock: { refTime: 431_614_000n, proofSize: 0n },
  maxBlock: { refTime: 4_000_000_000_000n, proofSize: 0xffff_ffff_ffff_ffffn },
  perClass: {
    normal: {
      baseExtrinsic: { refTime: 108_157_000n, proofSize: 0n },
      maxExtrinsic: { refTime: 2_599_891_843_000n, proofSize: 0xa666_6666_6666_6666n },
      maxTotal: { refTime: 3_000_000_000_000n, proofSize: 0xbfff_ffff_ffff_ffffn },
      reserved: { refTime: 0n, proofSize: 0n },
    },
    operational: {
      baseExtrinsic: { refTime: 108_157_000n, proofSize: 0n },
      maxExtrinsic: { refTime: 3_599_891_843_000n, proofSize: 0xe666_6666_6666_6666n },
      maxTotal: { refTime: 4_000_000_000_000n, proofSize: 0xffff_ffff_ffff_ffffn },
      reserved: { refTime: 1_000_000_000_000n, proofSize: 0x4000_0000_0000_0000n },
    },
    mandatory: { baseExtrinsic: { refTime: 108_157_000n, proofSize: 0n }, maxExtrinsic: null, maxTotal: null, reserved: null },
  },
};

/** `System` (index 0): storage, constants. `runtimeEvent` is the outer event enum id. */
export function systemPallet(
  b: TypeBuilder,
  t: CommonTypes,
  enums: PalletEnums,
  runtimeEvent: number,
  version: RuntimeVersionJson = RUNTIME_VERSION,
): PalletDecl {
  const s = storageHelpers(b);
  const accountInfo = b.composite(
    ['frame_system', 'AccountInfo'],
    [
      ['nonce', t.u32, 'Nonce'],
      ['consumers', t.u32, 'RefCount'],
      ['providers', t.u32, 'RefCount'],
      ['sufficients', t.u32, 'RefCount'],
      ['data', t.accountData, 'AccountData'],
    ],
    [
      { name: 'Nonce', type: t.u32 },
      { name: 'AccountData', type: t.accountData },
    ],
  );
  const perClassWeight = b.composite(
    ['frame_support', 'dispatch', 'PerDispatchClass'],
    [
      ['normal', t.weight, 'T'],
      ['operational', t.weight, 'T'],
      ['mandatory', t.weight, 'T'],
    ],
    [{ name: 'T', type: t.weight }],
  );
  const phase = b.variant(
    ['frame_system', 'Phase'],
    [
      [0, 'ApplyExtrinsic', [[null, t.u32, 'u32']]],
      [1, 'Finalization'],
      [2, 'Initialization'],
    ],
  );
  const eventRecord = b.composite(
    ['frame_system', 'EventRecord'],
    [
      ['phase', phase, 'Phase'],
      ['event', runtimeEvent, 'E'],
      ['topics', t.vecH256, 'Vec<T>'],
    ],
    [
      { name: 'E', type: runtimeEvent },
      { name: 'T', type: t.h256 },
    ],
  );
  const lastRuntimeUpgrade = b.composite(
    ['frame_system', 'LastRuntimeUpgradeInfo'],
    [
      ['spec_version', t.compactU32, 'codec::Compact<u32>'],
      ['spec_name', t.cowStr, "Cow<'static, str>"],
    ],
  );
  const optionWeight = b.option(t.weight);
  const weightsPerClass = b.composite(
    ['frame_system', 'limits', 'WeightsPerClass'],
    [
      ['base_extrinsic', t.weight, 'Weight'],
      ['max_extrinsic', optionWeight, 'Option<Weight>'],
      ['max_total', optionWeight, 'Option<Weight>'],
      ['reserved', optionWeight, 'Option<Weight>'],
    ],
  );
  const blockWeights = b.composite(
    ['frame_system', 'limits', 'BlockWeights'],
    [
      ['base_block', t.weight, 'Weight'],
      ['max_block', t.weight, 'Weight'],
      [
        'per_class',
        b.composite(
          ['frame_support', 'dispatch', 'PerDispatchClass'],
          [
            ['normal', weightsPerClass, 'T'],
            ['operational', weightsPerClass, 'T'],
            ['mandatory', weightsPerClass, 'T'],
          ],
          [{ name: 'T', type: weightsPerClass }],
        ),
        'PerDispatchClass<WeightsPerClass>',
      ],
    ],
  );
  const blockLength = b.composite(
    ['frame_system', 'limits', 'BlockLength'],
    [
      [
        'max',
        b.composite(
          ['frame_support', 'dispatch', 'PerDispatchClass'],
          [
            ['normal', t.u32, 'T'],
            ['operational', t.u32, 'T'],
            ['mandatory', t.u32, 'T'],
          ],
          [{ name: 'T', type: t.u32 }],
        ),
        'PerDispatchClass<u32>',
      ],
    ],
  );
  const dbWeight = b.composite(
    ['sp_weights', 'RuntimeDbWeight'],
    [
      ['read', t.u64, 'u64'],
      ['write', t.u64, 'u64'],
    ],
  );
  return {
    name: 'System',
    index: 0,
    ...enums,
    storage: [
      s.map('Account', [['Blake2_128Concat', t.accountId]], accountInfo, {
        fallback: { providers: 0, data: { flags: 1n << 127n } },
        docs: [' The full account information for a particular account ID.'],
      }),
      s.plain('ExtrinsicCount', t.u32, { optional: true, docs: [' Total extrinsics count for the current block.'] }),
      s.plain('BlockWeight', perClassWeight, { docs: [' The current weight for the block.'] }),
      s.plain('AllExtrinsicsLen', t.u32, { optional: true, docs: [' Total length (in bytes) for all extrinsics put together, for the current block.'] }),
      s.map('BlockHash', [['Twox64Concat', t.u32]], t.h256, { docs: [' Map of block numbers to block hashes.'] }),
      s.map('ExtrinsicData', [['Twox64Concat', t.u32]], t.bytes, { docs: [" Extrinsics data for the current block (maps an extrinsic's index to its data)."] }),
      s.plain('Number', t.u32, { docs: [' The current block number being processed. Set by `execute_block`.'] }),
      s.plain('ParentHash', t.h256, { docs: [' Hash of the previous block.'] }),
      s.plain('Digest', t.digest, { docs: [' Digest of the current block, also part of the block header.'] }),
      s.plain('Events', b.sequence(eventRecord), { docs: [' Events deposited for the current block.'] }),
      s.plain('EventCount', t.u32, { docs: [' The number of events in the `Events<T>` list.'] }),
      s.map('EventTopics', [['Blake2_128Concat', t.h256]], b.sequence(b.tuple(t.u32, t.u32)), {
        docs: [' Mapping between a topic (represented by T::Hash) and a vector of indexes of events in the `<Events<T>>` list.'],
      }),
      s.plain('LastRuntimeUpgrade', lastRuntimeUpgrade, {
        optional: true,
        docs: [' Stores the `spec_version` and `spec_name` of when the last runtime upgrade happened.'],
      }),
    ],
    constants: [
      { name: 'BlockWeights', type: blockWeights, value: BLOCK_WEIGHTS, docs: [' Block & extrinsics weights: base values and limits.'] },
      {
        name: 'BlockLength',
        type: blockLength,
        value: { max: { normal: 7_864_320, operational: 10_485_760, mandatory: 10_485_760 } },
        docs: [' The maximum length of a block (in bytes).'],
      },
      { name: 'BlockHashCount', type: t.u32, value: 2400, docs: [' Maximum number of block number to block hash mappings to keep (oldest pruned first).'] },
      {
        name: 'DbWeight',
        type: dbWeight,
        value: { read: 25_000_000n, write: 100_000_000n },
        docs: [' The weight of runtime database operations the runtime can invoke.'],
      },
      { name: 'Version', type: t.runtimeVersion, value: version, docs: [" Get the chain's in-code version."] },
      { name: 'SS58Prefix', type: t.u16, value: SS58_PREFIX, docs: [' The designated SS58 prefix of this chain.'] },
    ],
    docs: [],
  };
}
