/**
 * Issue 15 item 9 (and issue 20 item 6): the chain's codes are append-only. This list is written out by hand
 * from the published table: a code may be added to CHAIN_ERROR_CODES after these, but a value that changes or
 * disappears fails here, because validators branch on these strings.
 */
import type { SubnetError } from '@subnet/core';
import { isSubnetError } from '@subnet/core';
import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { describe, expect, expectTypeOf, it } from 'vitest';

import { chainError, mapPoolError } from '../chain-error.js';
import { CHAIN_ERROR_CODES, CHAIN_ERRORS, chainErrorCode } from '../error-codes.js';
import type { ChainErrorContext } from '../error-codes.js';
import type { TimelockMissReason } from '../timelock-reveal.js';
import { requestError } from '../request-error.js';

const PUBLISHED = {
  canNotSetRootNetworkWeights: 'CHAIN_CAN_NOT_SET_ROOT_NETWORK_WEIGHTS',
  weightVecNotEqualSize: 'CHAIN_WEIGHT_VEC_NOT_EQUAL_SIZE',
  mechanismDoesNotExist: 'CHAIN_MECHANISM_DOES_NOT_EXIST',
  uidsLengthExceedUidsInSubNet: 'CHAIN_UIDS_LENGTH_EXCEED_UIDS_IN_SUB_NET',
  hotKeyNotRegisteredInSubNet: 'CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET',
  notEnoughStakeToSetWeights: 'CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS',
  incorrectWeightVersionKey: 'CHAIN_INCORRECT_WEIGHT_VERSION_KEY',
  settingWeightsTooFast: 'CHAIN_SETTING_WEIGHTS_TOO_FAST',
  neuronNoValidatorPermit: 'CHAIN_NEURON_NO_VALIDATOR_PERMIT',
  duplicateUids: 'CHAIN_DUPLICATE_UIDS',
  uidVecContainInvalidOne: 'CHAIN_UID_VEC_CONTAIN_INVALID_ONE',
  weightVecLengthIsLow: 'CHAIN_WEIGHT_VEC_LENGTH_IS_LOW',
  maxWeightExceeded: 'CHAIN_MAX_WEIGHT_EXCEEDED',
  noWeightsCommitFound: 'CHAIN_NO_WEIGHTS_COMMIT_FOUND',
  invalidRevealCommitHashNotMatch: 'CHAIN_INVALID_REVEAL_COMMIT_HASH_NOT_MATCH',
  commitRevealEnabled: 'CHAIN_COMMIT_REVEAL_ENABLED',
  commitRevealDisabled: 'CHAIN_COMMIT_REVEAL_DISABLED',
  tooManyUnrevealedCommits: 'CHAIN_TOO_MANY_UNREVEALED_COMMITS',
  expiredWeightCommit: 'CHAIN_EXPIRED_WEIGHT_COMMIT',
  revealTooEarly: 'CHAIN_REVEAL_TOO_EARLY',
  inputLengthsUnequal: 'CHAIN_INPUT_LENGTHS_UNEQUAL',
  committingWeightsTooFast: 'CHAIN_COMMITTING_WEIGHTS_TOO_FAST',
  incorrectCommitRevealVersion: 'CHAIN_INCORRECT_COMMIT_REVEAL_VERSION',
  invalidRevealRound: 'CHAIN_INVALID_REVEAL_ROUND',
  revealPeriodTooLarge: 'CHAIN_REVEAL_PERIOD_TOO_LARGE',
  revealPeriodTooSmall: 'CHAIN_REVEAL_PERIOD_TOO_SMALL',
  tooManyUIDsPerMechanism: 'CHAIN_TOO_MANY_UIDS_PER_MECHANISM',
  dynamicTempoBlockedByCommitReveal: 'CHAIN_DYNAMIC_TEMPO_BLOCKED_BY_COMMIT_REVEAL',
  coldkeyInSwapSchedule: 'CHAIN_COLDKEY_IN_SWAP_SCHEDULE',
  stakeAmountTooLow: 'CHAIN_STAKE_AMOUNT_TOO_LOW',
  balanceTooLow: 'CHAIN_BALANCE_TOO_LOW',
  subnetNotExists: 'CHAIN_SUBNET_NOT_EXISTS',
  hotkeyAccountDoesntExist: 'CHAIN_HOTKEY_ACCOUNT_DOESNT_EXIST',
  notEnoughStakeToWithdraw: 'CHAIN_NOT_ENOUGH_STAKE_TO_WITHDRAW',
  rateLimitExceeded: 'CHAIN_RATE_LIMIT_EXCEEDED',
  insufficientLiquidity: 'CHAIN_INSUFFICIENT_LIQUIDITY',
  slippageTooHigh: 'CHAIN_SLIPPAGE_TOO_HIGH',
  transferDisallowed: 'CHAIN_TRANSFER_DISALLOWED',
  hotKeyNotRegisteredInNetwork: 'CHAIN_HOT_KEY_NOT_REGISTERED_IN_NETWORK',
  invalidIpAddress: 'CHAIN_INVALID_IP_ADDRESS',
  servingRateLimitExceeded: 'CHAIN_SERVING_RATE_LIMIT_EXCEEDED',
  invalidPort: 'CHAIN_INVALID_PORT',
  zeroMaxAmount: 'CHAIN_ZERO_MAX_AMOUNT',
  commitNotFound: 'CHAIN_COMMIT_NOT_FOUND',
  commitBlockNotInRevealRange: 'CHAIN_COMMIT_BLOCK_NOT_IN_REVEAL_RANGE',
  uidNotFound: 'CHAIN_UID_NOT_FOUND',
  evmKeyAssociateRateLimitExceeded: 'CHAIN_EVM_KEY_ASSOCIATE_RATE_LIMIT_EXCEEDED',
  coldkeySwapDisputed: 'CHAIN_COLDKEY_SWAP_DISPUTED',
  invalidRealAccount: 'CHAIN_INVALID_REAL_ACCOUNT',
  failedShieldedTxParsing: 'CHAIN_FAILED_SHIELDED_TX_PARSING',
  invalidShieldedTxPubKeyHash: 'CHAIN_INVALID_SHIELDED_TX_PUB_KEY_HASH',
  nonAssociatedColdKey: 'CHAIN_NON_ASSOCIATED_COLD_KEY',
  delegateTakeTooLow: 'CHAIN_DELEGATE_TAKE_TOO_LOW',
  delegateTakeTooHigh: 'CHAIN_DELEGATE_TAKE_TOO_HIGH',
  badRequest: 'CHAIN_BAD_REQUEST',
  stale: 'CHAIN_STALE',
  future: 'CHAIN_FUTURE',
  ancientBirthBlock: 'CHAIN_ANCIENT_BIRTH_BLOCK',
  tooLowPriority: 'CHAIN_TOO_LOW_PRIORITY',
  temporarilyBanned: 'CHAIN_TEMPORARILY_BANNED',
  alreadyImported: 'CHAIN_ALREADY_IMPORTED',
  badProof: 'CHAIN_BAD_PROOF',
  exhaustsResources: 'CHAIN_EXHAUSTS_RESOURCES',
  payment: 'CHAIN_PAYMENT',
  invalidTransaction: 'CHAIN_INVALID_TRANSACTION',
  invalidInput: 'CHAIN_INVALID_INPUT',
  keyFileNotFound: 'CHAIN_KEY_FILE_NOT_FOUND',
  insecureKeyFile: 'CHAIN_INSECURE_KEY_FILE',
  keyFileEncrypted: 'CHAIN_KEY_FILE_ENCRYPTED',
  invalidKeyFile: 'CHAIN_INVALID_KEY_FILE',
  invalidKey: 'CHAIN_INVALID_KEY',
  keyMismatch: 'CHAIN_KEY_MISMATCH',
  connectionFailed: 'CHAIN_CONNECTION_FAILED',
  requestTimeout: 'CHAIN_REQUEST_TIMEOUT',
  headStale: 'CHAIN_HEAD_STALE',
  clientClosed: 'CHAIN_CLIENT_CLOSED',
  callNotAvailable: 'CHAIN_CALL_NOT_AVAILABLE',
  storageNotAvailable: 'CHAIN_STORAGE_NOT_AVAILABLE',
  timelockRequired: 'CHAIN_TIMELOCK_REQUIRED',
  unknownHotkey: 'CHAIN_UNKNOWN_HOTKEY',
  emptyWeights: 'CHAIN_EMPTY_WEIGHTS',
  inclusionTimeout: 'CHAIN_INCLUSION_TIMEOUT',
  extrinsicDropped: 'CHAIN_EXTRINSIC_DROPPED',
  weightsNotConfirmed: 'CHAIN_WEIGHTS_NOT_CONFIRMED',
  unknownModuleError: 'CHAIN_UNKNOWN_MODULE_ERROR',
  noPendingCommit: 'CHAIN_NO_PENDING_COMMIT',
  revealWindowMissed: 'CHAIN_REVEAL_WINDOW_MISSED',
  timelockBeaconUnknown: 'CHAIN_TIMELOCK_BEACON_UNKNOWN',
  timelockBeaconMismatch: 'CHAIN_TIMELOCK_BEACON_MISMATCH',
  timelockCommitTooLarge: 'CHAIN_TIMELOCK_COMMIT_TOO_LARGE',
  timelockNoRevealEpoch: 'CHAIN_TIMELOCK_NO_REVEAL_EPOCH',
  timelockRevealMissing: 'CHAIN_TIMELOCK_REVEAL_MISSING',
  timelockRevealTimeout: 'CHAIN_TIMELOCK_REVEAL_TIMEOUT',
  connectionLost: 'CHAIN_CONNECTION_LOST',
  nodeRejected: 'CHAIN_NODE_REJECTED',
  requestFailed: 'CHAIN_REQUEST_FAILED',
  rootNetworkDoesNotExist: 'CHAIN_ROOT_NETWORK_DOES_NOT_EXIST',
  invalidIpType: 'CHAIN_INVALID_IP_TYPE',
  hotKeyAccountNotExists: 'CHAIN_HOT_KEY_ACCOUNT_NOT_EXISTS',
  notEnoughStake: 'CHAIN_NOT_ENOUGH_STAKE',
  notEnoughStakeToSetChildkeys: 'CHAIN_NOT_ENOUGH_STAKE_TO_SET_CHILDKEYS',
  notEnoughBalanceToStake: 'CHAIN_NOT_ENOUGH_BALANCE_TO_STAKE',
  balanceWithdrawalError: 'CHAIN_BALANCE_WITHDRAWAL_ERROR',
  zeroBalanceAfterWithdrawn: 'CHAIN_ZERO_BALANCE_AFTER_WITHDRAWN',
  tooManyRegistrationsThisBlock: 'CHAIN_TOO_MANY_REGISTRATIONS_THIS_BLOCK',
  hotKeyAlreadyRegisteredInSubNet: 'CHAIN_HOT_KEY_ALREADY_REGISTERED_IN_SUB_NET',
  newHotKeyIsSameWithOld: 'CHAIN_NEW_HOT_KEY_IS_SAME_WITH_OLD',
  invalidWorkBlock: 'CHAIN_INVALID_WORK_BLOCK',
  invalidDifficulty: 'CHAIN_INVALID_DIFFICULTY',
  invalidSeal: 'CHAIN_INVALID_SEAL',
  hotKeyAlreadyDelegate: 'CHAIN_HOT_KEY_ALREADY_DELEGATE',
  networkTxRateLimitExceeded: 'CHAIN_NETWORK_TX_RATE_LIMIT_EXCEEDED',
  delegateTxRateLimitExceeded: 'CHAIN_DELEGATE_TX_RATE_LIMIT_EXCEEDED',
  hotKeySetTxRateLimitExceeded: 'CHAIN_HOT_KEY_SET_TX_RATE_LIMIT_EXCEEDED',
  stakingRateLimitExceeded: 'CHAIN_STAKING_RATE_LIMIT_EXCEEDED',
  subNetRegistrationDisabled: 'CHAIN_SUB_NET_REGISTRATION_DISABLED',
  tooManyRegistrationsThisInterval: 'CHAIN_TOO_MANY_REGISTRATIONS_THIS_INTERVAL',
  transactorAccountShouldBeHotKey: 'CHAIN_TRANSACTOR_ACCOUNT_SHOULD_BE_HOT_KEY',
  faucetDisabled: 'CHAIN_FAUCET_DISABLED',
  notSubnetOwner: 'CHAIN_NOT_SUBNET_OWNER',
  registrationNotPermittedOnRootSubnet: 'CHAIN_REGISTRATION_NOT_PERMITTED_ON_ROOT_SUBNET',
  stakeTooLowForRoot: 'CHAIN_STAKE_TOO_LOW_FOR_ROOT',
  allNetworksInImmunity: 'CHAIN_ALL_NETWORKS_IN_IMMUNITY',
  notEnoughBalanceToPaySwapHotKey: 'CHAIN_NOT_ENOUGH_BALANCE_TO_PAY_SWAP_HOT_KEY',
  notRootSubnet: 'CHAIN_NOT_ROOT_SUBNET',
  noNeuronIdAvailable: 'CHAIN_NO_NEURON_ID_AVAILABLE',
  liquidAlphaDisabled: 'CHAIN_LIQUID_ALPHA_DISABLED',
  alphaHighTooLow: 'CHAIN_ALPHA_HIGH_TOO_LOW',
  alphaLowOutOfRange: 'CHAIN_ALPHA_LOW_OUT_OF_RANGE',
  coldKeyAlreadyAssociated: 'CHAIN_COLD_KEY_ALREADY_ASSOCIATED',
  notEnoughBalanceToPaySwapColdKey: 'CHAIN_NOT_ENOUGH_BALANCE_TO_PAY_SWAP_COLD_KEY',
  invalidChild: 'CHAIN_INVALID_CHILD',
  duplicateChild: 'CHAIN_DUPLICATE_CHILD',
  proportionOverflow: 'CHAIN_PROPORTION_OVERFLOW',
  tooManyChildren: 'CHAIN_TOO_MANY_CHILDREN',
  txRateLimitExceeded: 'CHAIN_TX_RATE_LIMIT_EXCEEDED',
  coldkeySwapAnnouncementNotFound: 'CHAIN_COLDKEY_SWAP_ANNOUNCEMENT_NOT_FOUND',
  coldkeySwapTooEarly: 'CHAIN_COLDKEY_SWAP_TOO_EARLY',
  coldkeySwapReannouncedTooEarly: 'CHAIN_COLDKEY_SWAP_REANNOUNCED_TOO_EARLY',
  announcedColdkeyHashDoesNotMatch: 'CHAIN_ANNOUNCED_COLDKEY_HASH_DOES_NOT_MATCH',
  coldkeySwapAlreadyDisputed: 'CHAIN_COLDKEY_SWAP_ALREADY_DISPUTED',
  newColdKeyIsHotkey: 'CHAIN_NEW_COLD_KEY_IS_HOTKEY',
  invalidChildkeyTake: 'CHAIN_INVALID_CHILDKEY_TAKE',
  txChildkeyTakeRateLimitExceeded: 'CHAIN_TX_CHILDKEY_TAKE_RATE_LIMIT_EXCEEDED',
  invalidIdentity: 'CHAIN_INVALID_IDENTITY',
  cannotUnstakeLock: 'CHAIN_CANNOT_UNSTAKE_LOCK',
  amountTooLow: 'CHAIN_AMOUNT_TOO_LOW',
  activityCutoffTooLow: 'CHAIN_ACTIVITY_CUTOFF_TOO_LOW',
  callDisabled: 'CHAIN_CALL_DISABLED',
  firstEmissionBlockNumberAlreadySet: 'CHAIN_FIRST_EMISSION_BLOCK_NUMBER_ALREADY_SET',
  needWaitingMoreBlocksToStarCall: 'CHAIN_NEED_WAITING_MORE_BLOCKS_TO_STAR_CALL',
  notEnoughAlphaOutToRecycle: 'CHAIN_NOT_ENOUGH_ALPHA_OUT_TO_RECYCLE',
  cannotBurnOrRecycleOnRootSubnet: 'CHAIN_CANNOT_BURN_OR_RECYCLE_ON_ROOT_SUBNET',
  unableToRecoverPublicKey: 'CHAIN_UNABLE_TO_RECOVER_PUBLIC_KEY',
  invalidRecoveredPublicKey: 'CHAIN_INVALID_RECOVERED_PUBLIC_KEY',
  subtokenDisabled: 'CHAIN_SUBTOKEN_DISABLED',
  hotKeySwapOnSubnetIntervalNotPassed: 'CHAIN_HOT_KEY_SWAP_ON_SUBNET_INTERVAL_NOT_PASSED',
  zeroMaxStakeAmount: 'CHAIN_ZERO_MAX_STAKE_AMOUNT',
  sameNetuid: 'CHAIN_SAME_NETUID',
  insufficientBalance: 'CHAIN_INSUFFICIENT_BALANCE',
  stakingOperationRateLimitExceeded: 'CHAIN_STAKING_OPERATION_RATE_LIMIT_EXCEEDED',
  invalidLeaseBeneficiary: 'CHAIN_INVALID_LEASE_BENEFICIARY',
  leaseCannotEndInThePast: 'CHAIN_LEASE_CANNOT_END_IN_THE_PAST',
  leaseNetuidNotFound: 'CHAIN_LEASE_NETUID_NOT_FOUND',
  leaseDoesNotExist: 'CHAIN_LEASE_DOES_NOT_EXIST',
  leaseHasNoEndBlock: 'CHAIN_LEASE_HAS_NO_END_BLOCK',
  leaseHasNotEnded: 'CHAIN_LEASE_HAS_NOT_ENDED',
  overflow: 'CHAIN_OVERFLOW',
  beneficiaryDoesNotOwnHotkey: 'CHAIN_BENEFICIARY_DOES_NOT_OWN_HOTKEY',
  expectedBeneficiaryOrigin: 'CHAIN_EXPECTED_BENEFICIARY_ORIGIN',
  adminActionProhibitedDuringWeightsWindow: 'CHAIN_ADMIN_ACTION_PROHIBITED_DURING_WEIGHTS_WINDOW',
  symbolDoesNotExist: 'CHAIN_SYMBOL_DOES_NOT_EXIST',
  symbolAlreadyInUse: 'CHAIN_SYMBOL_ALREADY_IN_USE',
  invalidValue: 'CHAIN_INVALID_VALUE',
  subnetLimitReached: 'CHAIN_SUBNET_LIMIT_REACHED',
  cannotAffordLockCost: 'CHAIN_CANNOT_AFFORD_LOCK_COST',
  sameAutoStakeHotkeyAlreadySet: 'CHAIN_SAME_AUTO_STAKE_HOTKEY_ALREADY_SET',
  uidMapCouldNotBeCleared: 'CHAIN_UID_MAP_COULD_NOT_BE_CLEARED',
  trimmingWouldExceedMaxImmunePercentage: 'CHAIN_TRIMMING_WOULD_EXCEED_MAX_IMMUNE_PERCENTAGE',
  childParentInconsistency: 'CHAIN_CHILD_PARENT_INCONSISTENCY',
  invalidNumRootClaim: 'CHAIN_INVALID_NUM_ROOT_CLAIM',
  invalidRootClaimThreshold: 'CHAIN_INVALID_ROOT_CLAIM_THRESHOLD',
  invalidSubnetNumber: 'CHAIN_INVALID_SUBNET_NUMBER',
  votingPowerTrackingNotEnabled: 'CHAIN_VOTING_POWER_TRACKING_NOT_ENABLED',
  invalidVotingPowerEmaAlpha: 'CHAIN_INVALID_VOTING_POWER_EMA_ALPHA',
  precisionLoss: 'CHAIN_PRECISION_LOSS',
  deprecated: 'CHAIN_DEPRECATED',
  addStakeBurnRateLimitExceeded: 'CHAIN_ADD_STAKE_BURN_RATE_LIMIT_EXCEEDED',
  coldkeySwapAnnounced: 'CHAIN_COLDKEY_SWAP_ANNOUNCED',
  coldkeySwapClearTooEarly: 'CHAIN_COLDKEY_SWAP_CLEAR_TOO_EARLY',
  disabledTemporarily: 'CHAIN_DISABLED_TEMPORARILY',
  newHotKeyNotCleanForRootSwap: 'CHAIN_NEW_HOT_KEY_NOT_CLEAN_FOR_ROOT_SWAP',
  stakeUnavailable: 'CHAIN_STAKE_UNAVAILABLE',
  registrationPriceLimitExceeded: 'CHAIN_REGISTRATION_PRICE_LIMIT_EXCEEDED',
  lockHotkeyMismatch: 'CHAIN_LOCK_HOTKEY_MISMATCH',
  insufficientStakeForLock: 'CHAIN_INSUFFICIENT_STAKE_FOR_LOCK',
  noExistingLock: 'CHAIN_NO_EXISTING_LOCK',
  activeLockExists: 'CHAIN_ACTIVE_LOCK_EXISTS',
  cannotUseSystemAccount: 'CHAIN_CANNOT_USE_SYSTEM_ACCOUNT',
  unlockAmountTooHigh: 'CHAIN_UNLOCK_AMOUNT_TOO_HIGH',
  tempoOutOfBounds: 'CHAIN_TEMPO_OUT_OF_BOUNDS',
  activityCutoffFactorMilliOutOfBounds: 'CHAIN_ACTIVITY_CUTOFF_FACTOR_MILLI_OUT_OF_BOUNDS',
  epochTriggerAlreadyPending: 'CHAIN_EPOCH_TRIGGER_ALREADY_PENDING',
  autoEpochAlreadyImminent: 'CHAIN_AUTO_EPOCH_ALREADY_IMMINENT',
  accountRejectsLockedAlpha: 'CHAIN_ACCOUNT_REJECTS_LOCKED_ALPHA',
  commitStoreLocked: 'CHAIN_COMMIT_STORE_LOCKED',
};

describe('CHAIN_ERROR_CODES', () => {
  it('codes are append-only: every published chain code keeps its name and value', () => {
    expect(Object.keys(PUBLISHED)).toHaveLength(206);
    expectPublishedCodes(CHAIN_ERROR_CODES, PUBLISHED); // new codes may follow the published ones, never replace them
  });

  it('is exactly the table: every code of CHAIN_ERRORS is a constant, keyed by its chain name, and no constant is missing from the table', () => {
    expect(new Set(Object.values(CHAIN_ERROR_CODES))).toEqual(new Set(CHAIN_ERRORS.keys()));
    for (const info of CHAIN_ERRORS.values()) {
      const key = `${info.chainName.charAt(0).toLowerCase()}${info.chainName.slice(1)}`;
      expect([key, CHAIN_ERROR_CODES[key as keyof typeof CHAIN_ERROR_CODES]]).toEqual([key, info.code]);
      expect(chainErrorCode(info.chainName)).toBe(info.code);
    }
  });

  it("isSubnetError(e, CODE) narrows e.context to that code's context", () => {
    const rejected: unknown = requestError(new Error('1002: Verification Error: Runtime error: Execution failed'), {
      label: 'author_submitExtrinsic',
      stage: 'submit',
      timeoutMs: 1,
      endpoints: [],
    });
    expect(isSubnetError(rejected, CHAIN_ERROR_CODES.nodeRejected)).toBe(true);
    if (!isSubnetError(rejected, CHAIN_ERROR_CODES.nodeRejected)) return;
    expectTypeOf(rejected.code).toEqualTypeOf<'CHAIN_NODE_REJECTED'>();
    expectTypeOf(rejected.context.rpcCode).toEqualTypeOf<number>();
    expectTypeOf(rejected.context.rpcMessage).toEqualTypeOf<string>();
    expectTypeOf(rejected.context.label).toEqualTypeOf<string>();
    expect([rejected.context.rpcCode, rejected.context.rpcMessage]).toEqual([1002, '1002: Verification Error: Runtime error: Execution failed']);

    const pool: unknown = mapPoolError(new Error('1010: Invalid Transaction: Custom error: 6'));
    if (!isSubnetError(pool, CHAIN_ERROR_CODES.rateLimitExceeded)) throw new Error('not narrowed');
    expectTypeOf(pool.context.customError).toEqualTypeOf<number>();
    expectTypeOf(pool.context.moduleErrors).toEqualTypeOf<readonly string[]>();
    expect(pool.context.customError).toBe(6);

    const stale: unknown = mapPoolError(new Error('1010: Invalid Transaction: Transaction is outdated'));
    if (!isSubnetError(stale, CHAIN_ERROR_CODES.stale)) throw new Error('not narrowed');
    expectTypeOf(stale.context.rpcMessage).toEqualTypeOf<string>();
    expectTypeOf(stale.context.source).toEqualTypeOf<'pool'>();

    const missing: unknown = chainError('TimelockRevealMissing', 'x', { likelyReasons: ['pulse_missing'] });
    if (!isSubnetError(missing, CHAIN_ERROR_CODES.timelockRevealMissing)) throw new Error('not narrowed');
    expectTypeOf(missing.context.likelyReasons).toEqualTypeOf<readonly TimelockMissReason[]>();

    const module: unknown = chainError('SettingWeightsTooFast', 'x');
    if (!isSubnetError(module, CHAIN_ERROR_CODES.settingWeightsTooFast)) throw new Error('not narrowed');
    expectTypeOf(module.context).toExtend<ChainErrorContext>();
    expectTypeOf(module.context.retryable).toEqualTypeOf<boolean>();
    expect(module.context.retryable).toBe(true);

    // a code held in a plain string does not narrow (no context is promised)
    const anyCode: string = CHAIN_ERROR_CODES.nodeRejected;
    const caught: unknown = rejected;
    expect(isSubnetError(caught, anyCode)).toBe(true);
    if (isSubnetError(caught, anyCode)) expectTypeOf(caught).toEqualTypeOf<SubnetError>();
  });
});
