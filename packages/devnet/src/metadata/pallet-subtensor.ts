import type { CommonTypes } from './common-types.js';
import { indexed, storageHelpers, type PalletDecl, type PalletEnums } from './pallet-decl.js';
import type { DevnetRuntimeKind } from './runtime-version.js';
import type { FieldDecl, TypeBuilder } from './type-builder.js';

/**
 * Every `pallet_subtensor::Error` variant in declaration order (error index = position), as finney
 * spec 393's metadata has them: opentensor/subtensor 79fcc6b4c `pallets/subtensor/src/macros/errors.rs` (ab0cb2e52,
 * the first commit at spec 393, lacks `PrecisionLoss` and `DisabledTemporarily`).
 *
 * @example
 * SUBTENSOR_ERRORS.indexOf('SettingWeightsTooFast'); // 28 -> DispatchError::Module { index: 7, error: [28, 0, 0, 0] }
 */
export const SUBTENSOR_ERRORS: readonly string[] = Object.freeze([
  'RootNetworkDoesNotExist',
  'InvalidIpType',
  'InvalidIpAddress',
  'InvalidPort',
  'HotKeyNotRegisteredInSubNet',
  'HotKeyAccountNotExists',
  'HotKeyNotRegisteredInNetwork',
  'NonAssociatedColdKey',
  'NotEnoughStake',
  'NotEnoughStakeToWithdraw',
  'NotEnoughStakeToSetWeights',
  'NotEnoughStakeToSetChildkeys',
  'NotEnoughBalanceToStake',
  'BalanceWithdrawalError',
  'ZeroBalanceAfterWithdrawn',
  'NeuronNoValidatorPermit',
  'WeightVecNotEqualSize',
  'DuplicateUids',
  'UidVecContainInvalidOne',
  'WeightVecLengthIsLow',
  'TooManyRegistrationsThisBlock',
  'HotKeyAlreadyRegisteredInSubNet',
  'NewHotKeyIsSameWithOld',
  'InvalidWorkBlock',
  'InvalidDifficulty',
  'InvalidSeal',
  'MaxWeightExceeded',
  'HotKeyAlreadyDelegate',
  'SettingWeightsTooFast',
  'IncorrectWeightVersionKey',
  'ServingRateLimitExceeded',
  'UidsLengthExceedUidsInSubNet',
  'NetworkTxRateLimitExceeded',
  'DelegateTxRateLimitExceeded',
  'HotKeySetTxRateLimitExceeded',
  'StakingRateLimitExceeded',
  'SubNetRegistrationDisabled',
  'TooManyRegistrationsThisInterval',
  'TransactorAccountShouldBeHotKey',
  'FaucetDisabled',
  'NotSubnetOwner',
  'RegistrationNotPermittedOnRootSubnet',
  'StakeTooLowForRoot',
  'AllNetworksInImmunity',
  'NotEnoughBalanceToPaySwapHotKey',
  'NotRootSubnet',
  'CanNotSetRootNetworkWeights',
  'NoNeuronIdAvailable',
  'DelegateTakeTooLow',
  'DelegateTakeTooHigh',
  'NoWeightsCommitFound',
  'InvalidRevealCommitHashNotMatch',
  'CommitRevealEnabled',
  'CommitRevealDisabled',
  'LiquidAlphaDisabled',
  'AlphaHighTooLow',
  'AlphaLowOutOfRange',
  'ColdKeyAlreadyAssociated',
  'NotEnoughBalanceToPaySwapColdKey',
  'InvalidChild',
  'DuplicateChild',
  'ProportionOverflow',
  'TooManyChildren',
  'TxRateLimitExceeded',
  'ColdkeySwapAnnouncementNotFound',
  'ColdkeySwapTooEarly',
  'ColdkeySwapReannouncedTooEarly',
  'AnnouncedColdkeyHashDoesNotMatch',
  'ColdkeySwapAlreadyDisputed',
  'NewColdKeyIsHotkey',
  'InvalidChildkeyTake',
  'TxChildkeyTakeRateLimitExceeded',
  'InvalidIdentity',
  'MechanismDoesNotExist',
  'CannotUnstakeLock',
  'SubnetNotExists',
  'TooManyUnrevealedCommits',
  'ExpiredWeightCommit',
  'RevealTooEarly',
  'InputLengthsUnequal',
  'CommittingWeightsTooFast',
  'AmountTooLow',
  'InsufficientLiquidity',
  'SlippageTooHigh',
  'TransferDisallowed',
  'ActivityCutoffTooLow',
  'CallDisabled',
  'FirstEmissionBlockNumberAlreadySet',
  'NeedWaitingMoreBlocksToStarCall',
  'NotEnoughAlphaOutToRecycle',
  'CannotBurnOrRecycleOnRootSubnet',
  'UnableToRecoverPublicKey',
  'InvalidRecoveredPublicKey',
  'SubtokenDisabled',
  'HotKeySwapOnSubnetIntervalNotPassed',
  'ZeroMaxStakeAmount',
  'SameNetuid',
  'InsufficientBalance',
  'StakingOperationRateLimitExceeded',
  'InvalidLeaseBeneficiary',
  'LeaseCannotEndInThePast',
  'LeaseNetuidNotFound',
  'LeaseDoesNotExist',
  'LeaseHasNoEndBlock',
  'LeaseHasNotEnded',
  'Overflow',
  'BeneficiaryDoesNotOwnHotkey',
  'ExpectedBeneficiaryOrigin',
  'AdminActionProhibitedDuringWeightsWindow',
  'SymbolDoesNotExist',
  'SymbolAlreadyInUse',
  'IncorrectCommitRevealVersion',
  'RevealPeriodTooLarge',
  'RevealPeriodTooSmall',
  'InvalidValue',
  'SubnetLimitReached',
  'CannotAffordLockCost',
  'EvmKeyAssociateRateLimitExceeded',
  'SameAutoStakeHotkeyAlreadySet',
  'UidMapCouldNotBeCleared',
  'TrimmingWouldExceedMaxImmunePercentage',
  'ChildParentInconsistency',
  'InvalidNumRootClaim',
  'InvalidRootClaimThreshold',
  'InvalidSubnetNumber',
  'TooManyUIDsPerMechanism',
  'VotingPowerTrackingNotEnabled',
  'InvalidVotingPowerEmaAlpha',
  'PrecisionLoss',
  'Deprecated',
  'AddStakeBurnRateLimitExceeded',
  'ColdkeySwapAnnounced',
  'ColdkeySwapDisputed',
  'ColdkeySwapClearTooEarly',
  'DisabledTemporarily',
]);

/**
 * `pallet_subtensor` enums: the weights calls, the weights / commit-reveal events, every error. The `stateful`
 * kind's `BatchWeightItemFailed` carries the item's netuid before the error (main `macros/events.rs:288`).
 */
export function subtensorEnums(b: TypeBuilder, t: CommonTypes, kind: DevnetRuntimeKind = 'stateful'): PalletEnums {
  const netuid: FieldDecl = ['netuid', t.u16, 'NetUid'];
  const mecid: FieldDecl = ['mecid', t.u8, 'MechId'];
  const versionKey: FieldDecl = ['version_key', t.u64, 'u64'];
  const commitHash: FieldDecl = ['commit_hash', t.h256, 'H256'];
  const vecCompactNetuid = b.sequence(t.compactU16);
  // BoundedVec<u8, ConstU32<MAX_CRV3_COMMIT_SIZE_BYTES>> (5000 bytes): encodes as Vec<u8>.
  const commit: FieldDecl = [
    'commit',
    b.composite(
      ['bounded_collections', 'bounded_vec', 'BoundedVec'],
      [[null, t.bytes, 'Vec<T>']],
      [
        { name: 'T', type: t.u8 },
        { name: 'S', type: null },
      ],
    ),
    'BoundedVec<u8, ConstU32<MAX_CRV3_COMMIT_SIZE_BYTES>>',
  ];
  const vecVecU16 = b.sequence(t.vecU16);
  const reveal: readonly FieldDecl[] = [['uids', t.vecU16, 'Vec<u16>'], ['values', t.vecU16, 'Vec<u16>'], ['salt', t.vecU16, 'Vec<u16>'], versionKey];
  const calls = b.variant(
    ['pallet_subtensor', 'pallet', 'Call'],
    [
      [
        0,
        'set_weights',
        [netuid, ['dests', t.vecU16, 'Vec<u16>'], ['weights', t.vecU16, 'Vec<u16>'], versionKey],
        ['Sets the caller weights for the incentive mechanism.'],
      ],
      [
        4,
        'serve_axon',
        [
          netuid,
          ['version', t.u32, 'u32'],
          ['ip', t.u128, 'u128'],
          ['port', t.u16, 'u16'],
          ['ip_type', t.u8, 'u8'],
          ['protocol', t.u8, 'u8'],
          ['placeholder1', t.u8, 'u8'],
          ['placeholder2', t.u8, 'u8'],
        ],
        ['Serves or updates the axon (ip, port, protocol, version) of the caller hotkey on a subnet.'],
      ],
      [
        80,
        'batch_set_weights',
        [
          ['netuids', vecCompactNetuid, 'Vec<Compact<NetUid>>'],
          ['weights', b.sequence(b.sequence(b.tuple(t.compactU16, t.compactU16))), 'Vec<Vec<(Compact<u16>, Compact<u16>)>>'],
          ['version_keys', b.sequence(t.compactU64), 'Vec<Compact<u64>>'],
        ],
        ['Sets the weights for multiple subnets (mechanism 0), continuing past failed items.'],
      ],
      [96, 'commit_weights', [netuid, commitHash], ["Commits a hash of the caller's weights (commit-reveal v2)."]],
      [97, 'reveal_weights', [netuid, ...reveal], ['Reveals weights committed with `commit_weights`.']],
      [
        98,
        'batch_reveal_weights',
        [
          netuid,
          ['uids_list', vecVecU16, 'Vec<Vec<u16>>'],
          ['values_list', vecVecU16, 'Vec<Vec<u16>>'],
          ['salts_list', vecVecU16, 'Vec<Vec<u16>>'],
          ['version_keys', t.vecU64, 'Vec<u64>'],
        ],
        ['Reveals several commits at once.'],
      ],
      [
        100,
        'batch_commit_weights',
        [
          ['netuids', vecCompactNetuid, 'Vec<Compact<NetUid>>'],
          ['commit_hashes', t.vecH256, 'Vec<H256>'],
        ],
        ['Commits weight hashes for several subnets.'],
      ],
      [
        113,
        'commit_timelocked_weights',
        [netuid, commit, ['reveal_round', t.u64, 'u64'], ['commit_reveal_version', t.u16, 'u16']],
        ['Commits drand-timelocked weights (commit-reveal v3/v4).'],
      ],
      [115, 'commit_mechanism_weights', [netuid, mecid, commitHash], ['Commits a weights hash for one mechanism.']],
      [116, 'reveal_mechanism_weights', [netuid, mecid, ...reveal], ['Reveals mechanism weights committed with `commit_mechanism_weights`.']],
      [
        117,
        'commit_crv3_mechanism_weights',
        [netuid, mecid, commit, ['reveal_round', t.u64, 'u64']],
        ['Commits timelocked mechanism weights (version 4 implied).'],
      ],
      [
        118,
        'commit_timelocked_mechanism_weights',
        [netuid, mecid, commit, ['reveal_round', t.u64, 'u64'], ['commit_reveal_version', t.u16, 'u16']],
        ['Commits drand-timelocked weights for one mechanism.'],
      ],
      [
        119,
        'set_mechanism_weights',
        [netuid, mecid, ['dests', t.vecU16, 'Vec<u16>'], ['weights', t.vecU16, 'Vec<u16>'], versionKey],
        ['Sets the caller weights for one mechanism of a subnet.'],
      ],
    ],
    [{ name: 'T', type: null }],
  );

  const u = (type: number, typeName: string): FieldDecl => [null, type, typeName];
  const events = b.variant(
    ['pallet_subtensor', 'pallet', 'Event'],
    [
      [0, 'NetworkAdded', [u(t.u16, 'NetUid'), u(t.u16, 'u16')], ['a new network is added.']],
      [5, 'WeightsSet', [u(t.u16, 'NetUidStorageIndex'), u(t.u16, 'u16')], ['a caller successfully sets their weights on a subnetwork.']],
      [28, 'AxonServed', [u(t.u16, 'NetUid'), u(t.accountId, 'T::AccountId')], ['the axon server information is added to the network.']],
      [
        6,
        'NeuronRegistered',
        [u(t.u16, 'NetUid'), u(t.u16, 'u16'), u(t.accountId, 'T::AccountId')],
        ['a new neuron account has been registered to the chain.'],
      ],
      [10, 'MaxWeightLimitSet', [u(t.u16, 'NetUid'), u(t.u16, 'u16')], ['max weight limit has been set for a subnetwork.']],
      [19, 'MinAllowedWeightSet', [u(t.u16, 'NetUid'), u(t.u16, 'u16')], ['minimum allowed weight is set for a subnet.']],
      [22, 'WeightsSetRateLimitSet', [u(t.u16, 'NetUid'), u(t.u64, 'u64')], ['weights set rate limit has been set for a subnet.']],
      [32, 'WeightsVersionKeySet', [u(t.u16, 'NetUid'), u(t.u64, 'u64')], ['weights version key is set for a network.']],
      [
        82,
        'CRV3WeightsCommitted',
        [u(t.accountId, 'T::AccountId'), u(t.u16, 'NetUidStorageIndex'), u(t.h256, 'H256')],
        ['CRV3 Weights have been successfully committed.'],
      ],
      [
        83,
        'WeightsCommitted',
        [u(t.accountId, 'T::AccountId'), u(t.u16, 'NetUidStorageIndex'), u(t.h256, 'H256')],
        ['Weights have been successfully committed.'],
      ],
      [
        84,
        'WeightsRevealed',
        [u(t.accountId, 'T::AccountId'), u(t.u16, 'NetUidStorageIndex'), u(t.h256, 'H256')],
        ['Weights have been successfully revealed.'],
      ],
      [
        85,
        'WeightsBatchRevealed',
        [u(t.accountId, 'T::AccountId'), u(t.u16, 'NetUid'), u(t.vecH256, 'Vec<H256>')],
        ['Weights have been successfully batch revealed.'],
      ],
      [
        86,
        'BatchWeightsCompleted',
        [u(vecCompactNetuid, 'Vec<Compact<NetUid>>'), u(t.accountId, 'T::AccountId')],
        ['A batch of weights (or commits) have been force-set.'],
      ],
      [87, 'BatchCompletedWithErrors', [], ['A batch extrinsic completed but with some errors.']],
      [
        88,
        'BatchWeightItemFailed',
        kind === 'stateful' ? [u(t.u16, 'NetUid'), u(t.dispatchError, 'sp_runtime::DispatchError')] : [u(t.dispatchError, 'sp_runtime::DispatchError')],
        ['A weight set among a batch of weights failed.'],
      ],
      [97, 'CRV3WeightsRevealed', [u(t.u16, 'NetUid'), u(t.accountId, 'T::AccountId')], ['CRV3 Weights have been successfully revealed.']],
      [98, 'CommitRevealPeriodsSet', [u(t.u16, 'NetUid'), u(t.u64, 'u64')], ['Commit-Reveal periods has been successfully set.']],
      [99, 'CommitRevealEnabled', [u(t.u16, 'NetUid'), u(t.bool, 'bool')], ['Commit-Reveal has been successfully toggled.']],
      [104, 'CommitRevealVersionSet', [u(t.u16, 'u16')], ['The commit-reveal version has been updated.']],
      [
        105,
        'TimelockedWeightsCommitted',
        [u(t.accountId, 'T::AccountId'), u(t.u16, 'NetUidStorageIndex'), u(t.h256, 'H256'), u(t.u64, 'u64')],
        ['Timelocked weights have been successfully committed.'],
      ],
      [
        106,
        'TimelockedWeightsRevealed',
        [u(t.u16, 'NetUidStorageIndex'), u(t.accountId, 'T::AccountId')],
        ['Timelocked Weights have been successfully revealed.'],
      ],
    ],
    [{ name: 'T', type: null }],
  );
  const errors = b.variant(['pallet_subtensor', 'pallet', 'Error'], indexed(SUBTENSOR_ERRORS), [{ name: 'T', type: null }]);
  return { calls, events, errors };
}

/**
 * `SubtensorModule` (index 7): the storage items a client reads for a metagraph, a weights preflight and
 * commit-reveal, with finney's hashers and `ValueQuery` defaults. `LastEpochBlock`, `PendingEpochAt` and
 * `SubnetEpochIndex` are not in finney spec 393: the `legacy` kind leaves them out, the `stateful` kind
 * declares them as Subtensor main declares them (`Identity` netuid, `u64`).
 */
export function subtensorPallet(b: TypeBuilder, t: CommonTypes, enums: PalletEnums, kind: DevnetRuntimeKind = 'stateful'): PalletDecl {
  const statefulOnly = new Set(['LastEpochBlock', 'PendingEpochAt', 'SubnetEpochIndex']);
  const s = storageHelpers(b);
  const byNetuid = [['Identity', t.u16]] as const;
  const byNetuidUid = [
    ['Identity', t.u16],
    ['Identity', t.u16],
  ] as const;
  const byHotkeyNetuid = [
    ['Blake2_128Concat', t.accountId],
    ['Identity', t.u16],
  ] as const;
  const vecU16Pairs = b.sequence(b.tuple(t.u16, t.u16));
  const stakeAndAccount = b.sequence(b.tuple(t.u64, t.accountId));
  const boundedCommit = b.composite(
    ['bounded_collections', 'bounded_vec', 'BoundedVec'],
    [[null, t.bytes, 'Vec<T>']],
    [
      { name: 'T', type: t.u8 },
      { name: 'S', type: null },
    ],
  );
  const axonInfo = b.composite(
    ['pallet_subtensor', 'pallet', 'AxonInfo'],
    [
      ['block', t.u64, 'u64'],
      ['version', t.u32, 'u32'],
      ['ip', t.u128, 'u128'],
      ['port', t.u16, 'u16'],
      ['ip_type', t.u8, 'u8'],
      ['protocol', t.u8, 'u8'],
      ['placeholder1', t.u8, 'u8'],
      ['placeholder2', t.u8, 'u8'],
    ],
  );
  return {
    name: 'SubtensorModule',
    index: 7,
    ...enums,
    storage: [
      s.plain('TaoWeight', t.u64, { fallback: 971_718_665_099_567_868n, docs: [' ITEM ( tao_weight )'] }),
      s.map('Owner', [['Blake2_128Concat', t.accountId]], t.accountId, { docs: [' MAP ( hot ) --> cold | Returns the controlling coldkey for a hotkey.'] }),
      s.map('ChildKeys', byHotkeyNetuid, stakeAndAccount, { docs: [' DMAP ( parent, netuid ) --> Vec<(proportion,child)>'] }),
      s.map('ParentKeys', byHotkeyNetuid, stakeAndAccount, { docs: [' DMAP ( child, netuid ) --> Vec<(proportion,parent)>'] }),
      s.map('SubnetTAO', byNetuid, t.u64, { docs: [' MAP ( netuid ) --> tao_in_subnet | Returns the amount of TAO in the subnet.'] }),
      s.map('SubnetAlphaIn', byNetuid, t.u64, { docs: [' MAP ( netuid ) --> alpha_in_pool | Returns the amount of alpha in the pool.'] }),
      s.map('TotalHotkeyAlpha', byHotkeyNetuid, t.u64, { docs: [' DMAP ( hot, netuid ) --> alpha | Returns the total amount of alpha a hotkey owns.'] }),
      s.plain('TotalNetworks', t.u16, { docs: [' ITEM( total_number_of_existing_networks )'] }),
      s.map('Tempo', byNetuid, t.u16, { fallback: 360, docs: [' MAP ( netuid ) --> tempo'] }),
      s.map('LastEpochBlock', byNetuid, t.u64, { docs: [' MAP ( netuid ) --> block at which the last epoch ran (Subtensor main; not in finney spec 393).'] }),
      s.map('PendingEpochAt', byNetuid, t.u64, {
        docs: [' MAP ( netuid ) --> block at which a manually triggered epoch should fire; 0 = none (Subtensor main).'],
      }),
      s.map('SubnetEpochIndex', byNetuid, t.u64, { docs: [' MAP ( netuid ) --> monotonic epoch counter (Subtensor main).'] }),
      s.map('SubnetworkN', byNetuid, t.u16, { docs: [' MAP ( netuid ) --> subnetwork_n (Number of UIDs in the network).'] }),
      s.map('NetworksAdded', byNetuid, t.bool, { docs: [' MAP ( netuid ) --> network_is_added'] }),
      s.map('BlocksSinceLastStep', byNetuid, t.u64, { docs: [' MAP ( netuid ) --> blocks_since_last_step'] }),
      s.map('LastMechansimStepBlock', byNetuid, t.u64, { docs: [' MAP ( netuid ) --> last_mechanism_step_block'] }),
      s.map('SubnetOwner', byNetuid, t.accountId, { docs: [' MAP ( netuid ) --> subnet_owner'] }),
      s.map('SubnetOwnerHotkey', byNetuid, t.accountId, { docs: [' MAP ( netuid ) --> subnet_owner_hotkey'] }),
      s.map('MaxAllowedUids', byNetuid, t.u16, { fallback: 256, docs: [' MAP ( netuid ) --> max_allowed_uids'] }),
      s.map('ImmunityPeriod', byNetuid, t.u16, { fallback: 4096, docs: [' MAP ( netuid ) --> immunity_period'] }),
      s.map('ActivityCutoff', byNetuid, t.u16, { fallback: 5000, docs: [' MAP ( netuid ) --> activity_cutoff'] }),
      s.map('MaxWeightsLimit', byNetuid, t.u16, { fallback: 65_535, docs: [' MAP ( netuid ) --> max_weight_limit (legacy, unenforced)'] }),
      s.map('WeightsVersionKey', byNetuid, t.u64, { docs: [' MAP ( netuid ) --> weights_version_key'] }),
      s.map('MinAllowedWeights', byNetuid, t.u16, { fallback: 1024, docs: [' MAP ( netuid ) --> min_allowed_weights'] }),
      s.map('MaxAllowedValidators', byNetuid, t.u16, { fallback: 128, docs: [' MAP ( netuid ) --> max_allowed_validators'] }),
      s.map('WeightsSetRateLimit', byNetuid, t.u64, { fallback: 100n, docs: [' MAP ( netuid ) --> weights_set_rate_limit'] }),
      s.map('CommitRevealWeightsEnabled', byNetuid, t.bool, { fallback: true, docs: [' MAP ( netuid ) --> commit reveal v2 weights are enabled'] }),
      s.map(
        'Uids',
        [
          ['Identity', t.u16],
          ['Blake2_128Concat', t.accountId],
        ],
        t.u16,
        { optional: true, docs: [' DMAP ( netuid, hotkey ) --> uid'] },
      ),
      s.map('Keys', byNetuidUid, t.accountId, { docs: [' DMAP ( netuid, uid ) --> hotkey'] }),
      s.map('Active', byNetuid, t.vecBool, { docs: [' MAP ( netuid ) --> active'] }),
      s.map('Rank', byNetuid, t.vecU16, { docs: [' MAP ( netuid ) --> rank'] }),
      s.map('Trust', byNetuid, t.vecU16, { docs: [' MAP ( netuid ) --> trust'] }),
      s.map('Consensus', byNetuid, t.vecU16, { docs: [' MAP ( netuid ) --> consensus'] }),
      s.map('Incentive', byNetuid, t.vecU16, { docs: [' MAP ( netuid_index ) --> incentive'] }),
      s.map('Dividends', byNetuid, t.vecU16, { docs: [' MAP ( netuid ) --> dividends'] }),
      s.map('Emission', byNetuid, b.sequence(t.u64), { docs: [' MAP ( netuid ) --> emission'] }),
      s.map('LastUpdate', byNetuid, t.vecU64, { docs: [' MAP ( netuid_index ) --> last_update'] }),
      s.map('ValidatorTrust', byNetuid, t.vecU16, { docs: [' MAP ( netuid ) --> validator_trust'] }),
      s.map('ValidatorPermit', byNetuid, t.vecBool, { docs: [' MAP ( netuid ) --> validator_permit'] }),
      s.map('Weights', byNetuidUid, vecU16Pairs, { docs: [' DMAP ( netuid_index, uid ) --> weights'] }),
      s.map('Bonds', byNetuidUid, vecU16Pairs, { docs: [' DMAP ( netuid_index, uid ) --> bonds'] }),
      s.map('BlockAtRegistration', byNetuidUid, t.u64, { docs: [' DMAP ( netuid, uid ) --> block_at_registration'] }),
      s.plain('StakeThreshold', t.u64, { docs: [' ITEM( weights_min_stake )'] }),
      s.map(
        'WeightCommits',
        [
          ['Twox64Concat', t.u16],
          ['Twox64Concat', t.accountId],
        ],
        b.sequence(b.tuple(t.h256, t.u64, t.u64, t.u64)),
        { optional: true, docs: [' MAP (netuid_index, who) --> VecDeque<(hash, commit_block, first_reveal_block, last_reveal_block)>'] },
      ),
      s.map(
        'TimelockedWeightCommits',
        [
          ['Twox64Concat', t.u16],
          ['Twox64Concat', t.u64],
        ],
        b.sequence(b.tuple(t.accountId, t.u64, boundedCommit, t.u64)),
        { docs: [' MAP (netuid_index, epoch) --> VecDeque<(who, commit_block, ciphertext, reveal_round)>'] },
      ),
      s.map(
        'Axons',
        [
          ['Identity', t.u16],
          ['Blake2_128Concat', t.accountId],
        ],
        axonInfo,
        { optional: true, docs: [' --- MAP ( netuid, hotkey ) --> axon_info'] },
      ),
      s.map('ServingRateLimit', byNetuid, t.u64, { fallback: 50n, docs: [' MAP ( netuid ) --> serving_rate_limit'] }),
      s.map('RevealPeriodEpochs', [['Twox64Concat', t.u16]], t.u64, { fallback: 1n, docs: [' ITEM ( RevealPeriodEpochs )'] }),
      s.plain('CommitRevealWeightsVersion', t.u16, { fallback: 4, docs: [' ITEM ( CommitRevealWeightsVersion )'] }),
      s.map('MechanismCountCurrent', [['Twox64Concat', t.u16]], t.u8, { fallback: 1, docs: [' MAP ( netuid ) --> Current number of subnet mechanisms'] }),
    ].filter((item) => kind === 'stateful' || !statefulOnly.has(item.name)),
    constants: [
      { name: 'InitialMinAllowedWeights', type: t.u16, value: 1024, docs: [' Initial min allowed weights setting.'] },
      { name: 'InitialTempo', type: t.u16, value: 360, docs: [' Initial tempo for subnet validator.'] },
      { name: 'InitialWeightsVersionKey', type: t.u64, value: 0n, docs: [' Initial weights version key.'] },
      { name: 'InitialMaxAllowedValidators', type: t.u16, value: 128, docs: [' Initial maximum allowed validators per network.'] },
    ],
    docs: [],
  };
}
