/**
 * Every error code this package raises, in one place: the chain's own error names (module errors of
 * `SubtensorModule`, the transaction pool's `Custom error: N`, the standard pool errors) and the client-side
 * failures, as literal constants ({@link CHAIN_ERROR_CODES}), their union ({@link ChainErrorCode}) and each code's
 * context ({@link ChainErrorContextByCode}), so `isSubnetError(e, CHAIN_ERROR_CODES.nodeRejected)` narrows
 * `e.context` (here `rpcCode` and `rpcMessage`). Each code is `CHAIN_` + the upper snake case of the chain's
 * name, so a caller can search the chain's source for the name in `context.chainName`. Codes are append-only:
 * a code once published keeps its value and meaning (`error-codes.test.ts` lists every value).
 */

import type { CommitStoreHolder } from './commit-store-lock.js';
import type { TimelockMissReason } from './timelock-reveal.js';

/**
 * Every code of this package, keyed by the chain's (or the client's) name with a lowercase first letter.
 *
 * @example
 * if (isSubnetError(error, CHAIN_ERROR_CODES.nodeRejected)) log(error.context.rpcCode, error.context.rpcMessage)
 */
export const CHAIN_ERROR_CODES = Object.freeze({
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
} as const);

/** Every code of this package (the values of {@link CHAIN_ERROR_CODES}). */
export type ChainErrorCode = (typeof CHAIN_ERROR_CODES)[keyof typeof CHAIN_ERROR_CODES];

/** Context of every chain error: the chain's own name and where it came from. */
export interface ChainErrorContext {
  /** The chain's name of the error (`SettingWeightsTooFast`, `RateLimitExceeded`, `Stale`, ...). */
  readonly chainName: string;
  /** `module` (in-block ExtrinsicFailed or preflight replica), `pool` (RPC rejection) or `client`. */
  readonly source: 'module' | 'pool' | 'client';
  /** `preflight` when raised before signing by the local replica of the chain check. */
  readonly stage?: 'preflight' | 'submit' | 'inclusion' | 'confirm' | 'connect' | 'read';
  /** For pool errors: `N` of `Custom error: N`. */
  readonly customError?: number;
  /** For pool custom errors: the module errors that the chain turns into this one. */
  readonly moduleErrors?: readonly string[];
  /** For pool errors: the RPC error code (1010, 1012, 1013, 1014). */
  readonly rpcCode?: number;
  /** For pool errors: the RPC message as the node sent it. */
  readonly rpcMessage?: string;
  /** True when the same call may succeed later unchanged. */
  readonly retryable: boolean;
  /** What to do about it (the README table). */
  readonly advice: string;
  readonly path?: string;
  readonly value?: unknown;
  readonly [key: string]: unknown;
}

/** `CHAIN_INVALID_INPUT`: the argument's path and the value given. */
export interface ChainInvalidInputContext extends ChainErrorContext {
  readonly source: 'client';
  readonly path: string;
  readonly value: unknown;
}

/** `CHAIN_NODE_REJECTED`: the node's JSON-RPC error, kept whole. */
export interface ChainNodeRejectedContext extends ChainErrorContext {
  readonly source: 'client';
  readonly stage: 'read' | 'submit';
  /** What was requested (`author_submitExtrinsic`, `chain_getHeader`, ...). */
  readonly label: string;
  /** The JSON-RPC error code (1002 verification failed, -32603 internal error, ...). */
  readonly rpcCode: number;
  /** The node's message, redacted of endpoint credentials. */
  readonly rpcMessage: string;
}

/** A standard pool rejection (`CHAIN_STALE`, `CHAIN_TOO_LOW_PRIORITY`, ...): the node's message. */
export interface ChainPoolRejectionContext extends ChainErrorContext {
  readonly source: 'pool';
  readonly rpcMessage: string;
}

/** A pool `Custom error: N` of Subtensor's transaction extension. */
export interface ChainPoolCustomContext extends ChainPoolRejectionContext {
  readonly customError: number;
  readonly rpcCode: number;
  /** The module errors that the chain turns into this one. */
  readonly moduleErrors: readonly string[];
}

/** A request that could not be answered (`CHAIN_CONNECTION_LOST`, `CHAIN_REQUEST_FAILED`): what and why. */
export interface ChainRequestContext extends ChainErrorContext {
  readonly source: 'client';
  readonly label: string;
  /** The underlying failure, redacted of endpoint credentials. */
  readonly reason: string;
}

/** `CHAIN_CONNECTION_LOST`: the socket dropped and no endpoint came back within the request's time limit. */
export interface ChainConnectionLostContext extends ChainRequestContext {
  readonly timeoutMs: number;
  /** The endpoints, redacted. */
  readonly endpoints: readonly string[];
}

/** `CHAIN_REQUEST_TIMEOUT`: what was waited for, and how long. */
export interface ChainRequestTimeoutContext extends ChainErrorContext {
  readonly source: 'client';
  readonly label: string;
  readonly timeoutMs: number;
}

/** `CHAIN_HEAD_STALE`: the call that was not signed, and the endpoints (redacted). */
export interface ChainHeadStaleContext extends ChainErrorContext {
  readonly source: 'client';
  readonly stage: 'submit';
  readonly call: string;
  readonly endpoints: readonly string[];
}

/** `CHAIN_INCLUSION_TIMEOUT` and `CHAIN_EXTRINSIC_DROPPED`: the signed extrinsic and its era. */
export interface ChainInclusionContext extends ChainErrorContext {
  readonly source: 'client';
  readonly stage: 'inclusion';
  readonly extrinsicHash: string;
  readonly nonce: bigint;
  readonly call: string;
  /** The last block the extrinsic can be included in. */
  readonly mortalUntil: bigint;
  readonly birthBlock: bigint;
}

/** `CHAIN_TIMELOCK_REVEAL_MISSING`: where the commit left the queue, and the likely reasons. */
export interface ChainTimelockRevealMissingContext extends ChainErrorContext {
  readonly source: 'client';
  readonly stage: 'confirm';
  readonly commitHash: string;
  readonly revealBlock: bigint;
  readonly revealBlockHash: string;
  /** The epoch whose queue that block's reveal step took; above the commit epoch when the commit `expired`. */
  readonly revealEpoch: bigint;
  readonly likelyReasons: readonly TimelockMissReason[];
  /**
   * When the signer held no uid at the reveal (`HotKeyNotRegisteredInSubNet`): who held the commit's uid then, and since
   * which block (`BlockAtRegistration`). Older than the commit block: a hotkey swap moved it (`hotkey_swapped`).
   */
  readonly uidHolder?: { readonly uid: number; readonly hotkey: string; readonly registeredAt: bigint };
}

/** `CHAIN_COMMIT_STORE_LOCKED`: the commit store file, its lock folder and the holder it names. */
export interface ChainCommitStoreLockedContext extends ChainErrorContext {
  readonly source: 'client';
  readonly path: 'commitStore';
  /** The commit store file. */
  readonly value: string;
  /** The lock folder, `<file>.lock`. */
  readonly lockPath: string;
  /** The holder the lock names; absent when the lock cannot be read, or was lost. */
  readonly holder?: CommitStoreHolder;
  /** How old the holder's heartbeat was (ms), when only the heartbeat tells whether it runs (another host; no /proc). */
  readonly heartbeatAgeMs?: number;
  /** In how many ms the lock counts as abandoned and is taken over if its heartbeat still stands still (with heartbeatAgeMs). */
  readonly abandonedInMs?: number;
}

/** The codes of the standard pool rejections, whose context is {@link ChainPoolRejectionContext}. */
export type ChainPoolRejectionCode =
  | 'CHAIN_STALE'
  | 'CHAIN_FUTURE'
  | 'CHAIN_ANCIENT_BIRTH_BLOCK'
  | 'CHAIN_TOO_LOW_PRIORITY'
  | 'CHAIN_TEMPORARILY_BANNED'
  | 'CHAIN_ALREADY_IMPORTED'
  | 'CHAIN_BAD_PROOF'
  | 'CHAIN_EXHAUSTS_RESOURCES'
  | 'CHAIN_PAYMENT';

/**
 * The codes raised only as a pool `Custom error: N` (never as a module error or by the client), whose context
 * is {@link ChainPoolCustomContext}. The other `Custom error` names are also module errors.
 */
export type ChainPoolCustomCode =
  | 'CHAIN_COLDKEY_IN_SWAP_SCHEDULE'
  | 'CHAIN_STAKE_AMOUNT_TOO_LOW'
  | 'CHAIN_BALANCE_TOO_LOW'
  | 'CHAIN_HOTKEY_ACCOUNT_DOESNT_EXIST'
  | 'CHAIN_RATE_LIMIT_EXCEEDED'
  | 'CHAIN_ZERO_MAX_AMOUNT'
  | 'CHAIN_COMMIT_NOT_FOUND'
  | 'CHAIN_COMMIT_BLOCK_NOT_IN_REVEAL_RANGE'
  | 'CHAIN_UID_NOT_FOUND'
  | 'CHAIN_INVALID_REAL_ACCOUNT'
  | 'CHAIN_FAILED_SHIELDED_TX_PARSING'
  | 'CHAIN_INVALID_SHIELDED_TX_PUB_KEY_HASH'
  | 'CHAIN_BAD_REQUEST';

/** Codes whose context says more than {@link ChainErrorContext}. */
interface SpecificContexts {
  readonly CHAIN_INVALID_INPUT: ChainInvalidInputContext;
  readonly CHAIN_NODE_REJECTED: ChainNodeRejectedContext;
  readonly CHAIN_CONNECTION_LOST: ChainConnectionLostContext;
  readonly CHAIN_REQUEST_FAILED: ChainRequestContext;
  readonly CHAIN_REQUEST_TIMEOUT: ChainRequestTimeoutContext;
  readonly CHAIN_HEAD_STALE: ChainHeadStaleContext;
  readonly CHAIN_INCLUSION_TIMEOUT: ChainInclusionContext;
  readonly CHAIN_EXTRINSIC_DROPPED: ChainInclusionContext;
  readonly CHAIN_TIMELOCK_REVEAL_MISSING: ChainTimelockRevealMissingContext;
  readonly CHAIN_COMMIT_STORE_LOCKED: ChainCommitStoreLockedContext;
}

/**
 * Each code's context type: what `error.context` holds once `isSubnetError(error, code)` is true. Registered
 * with `@subnet/core` (`SubnetErrorContextByCode`), which is what makes `isSubnetError` narrow.
 */
export type ChainErrorContextByCode = {
  readonly [K in ChainErrorCode]: K extends keyof SpecificContexts
    ? SpecificContexts[K]
    : K extends ChainPoolRejectionCode
      ? ChainPoolRejectionContext
      : K extends ChainPoolCustomCode
        ? ChainPoolCustomContext
        : ChainErrorContext;
};

declare module '@subnet/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this package's codes
  interface SubnetErrorContextByCode extends ChainErrorContextByCode {}
}

/** Where an error comes from. */
export type ChainErrorSource = 'module' | 'pool' | 'client';

/** One row of the error table. */
export interface ChainErrorInfo {
  /** The stable code, e.g. `CHAIN_SETTING_WEIGHTS_TOO_FAST`. */
  readonly code: string;
  /** The chain's own name for it (`SettingWeightsTooFast`), or a client name for client errors. */
  readonly chainName: string;
  /** Module error (in-block `ExtrinsicFailed`), pool rejection (RPC 1010/1012/1013/1014), or client. */
  readonly source: ChainErrorSource;
  /** True when the same call can succeed later without changing its input (rate limit, connection). */
  readonly retryable: boolean;
  /** What a validator should do about it. */
  readonly advice: string;
}

/**
 * Converts a chain name (`SettingWeightsTooFast`, `TooManyUIDsPerMechanism`) to its error code
 * (`CHAIN_SETTING_WEIGHTS_TOO_FAST`, `CHAIN_TOO_MANY_UIDS_PER_MECHANISM`).
 *
 * @param chainName - a CamelCase name as the chain spells it
 * @returns `CHAIN_` followed by its upper snake case (a run of capitals followed by a lowercase `s` is one word)
 * @example chainErrorCode('HotKeyNotRegisteredInSubNet') // 'CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET'
 */
export function chainErrorCode(chainName: string): string {
  const snake = chainName
    .replace(/([A-Z]{2,})s(?=[A-Z]|$)/g, (_m, caps: string) => `${caps.charAt(0)}${caps.slice(1).toLowerCase()}s`)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
  return `CHAIN_${snake}`;
}

const moduleRows: readonly (readonly [string, boolean, string])[] = [
  ['CanNotSetRootNetworkWeights', false, 'Netuid 0 is the root network: set weights on a subnet netuid.'],
  ['WeightVecNotEqualSize', false, 'uids and values differ in length: a client bug, report it.'],
  ['MechanismDoesNotExist', false, 'The mecid is >= MechanismCountCurrent: use a mechanism the subnet has (metagraph.mechanismCount).'],
  ['UidsLengthExceedUidsInSubNet', false, 'More weights than neurons: refresh the metagraph and drop uids that no longer exist.'],
  ['HotKeyNotRegisteredInSubNet', false, 'Your hotkey is not registered on this subnet (or was deregistered): register it, or check netuid and wallet.'],
  ['NotEnoughStakeToSetWeights', false, 'Stake (incl. parent/child stake) is below StakeThreshold: add stake, or wait for stake to settle.'],
  ['IncorrectWeightVersionKey', false, 'versionKey is below the subnet WeightsVersionKey: upgrade your validator code or pass the subnet version key.'],
  ['SettingWeightsTooFast', true, 'Rate limit: wait until nextAllowedBlock() (WeightsSetRateLimit blocks after LastUpdate), then retry.'],
  ['NeuronNoValidatorPermit', false, 'No validator permit: permits are recomputed each epoch from stake; wait for an epoch or add stake.'],
  ['DuplicateUids', false, 'A uid appears twice: merge duplicate entries before submitting.'],
  ['UidVecContainInvalidOne', false, 'A uid is >= the subnet size: refresh the metagraph and drop it.'],
  ['WeightVecLengthIsLow', false, 'Fewer non-zero weights than MinAllowedWeights: weight more neurons (zeros are dropped by u16 conversion).'],
  ['MaxWeightExceeded', false, 'A weight exceeds the max weight limit (unreachable on current runtimes): report it.'],
  ['NoWeightsCommitFound', false, 'No pending commit for this hotkey: the commit was already revealed, expired, or never landed; commit again.'],
  [
    'InvalidRevealCommitHashNotMatch',
    false,
    'The reveal does not match the commit: salt, uids, values or version key differ from what was committed; commit again.',
  ],
  ['CommitRevealEnabled', false, 'The subnet has commit-reveal on: weights must be committed and revealed (setWeights does this when it reads the flag).'],
  ['CommitRevealDisabled', false, 'Commit-reveal is off for this subnet: set weights directly.'],
  ['TooManyUnrevealedCommits', false, '10 unrevealed commits are queued: reveal or let them expire before committing again.'],
  ['ExpiredWeightCommit', false, 'The reveal window passed: the commit is lost; commit again and reveal in the epoch after.'],
  ['RevealTooEarly', true, 'The reveal epoch has not started: wait for it (revealPending() does).'],
  ['InputLengthsUnequal', false, 'Batch inputs differ in length: a client bug, report it.'],
  ['CommittingWeightsTooFast', true, 'Commit rate limit: wait until nextAllowedBlock(), then commit.'],
  ['IncorrectCommitRevealVersion', false, 'The runtime expects another commit-reveal version: upgrade this client.'],
  ['InvalidRevealRound', false, 'The drand reveal round is in the past: recompute it (timelock path).'],
  ['RevealPeriodTooLarge', false, 'Subnet owner setting out of range (admin call).'],
  ['RevealPeriodTooSmall', false, 'Subnet owner setting out of range (admin call).'],
  ['TooManyUIDsPerMechanism', false, 'Subnet owner setting out of range (admin call).'],
  ['DynamicTempoBlockedByCommitReveal', false, 'Subnet owner setting blocked by commit-reveal (admin call).'],
];

/**
 * Every other `SubtensorModule` error (finney spec 393 metadata and Subtensor main 14bc6f9f9
 * `pallets/subtensor/src/macros/errors.rs`), so that no module error is untyped: not raised by weights calls;
 * each keeps its chain name (`CHAIN_` + upper snake case). Added after every other table, so a name that is
 * also a pool or client error keeps that row.
 */
const otherModuleNames: readonly string[] = [
  'RootNetworkDoesNotExist',
  'InvalidIpType',
  'InvalidIpAddress',
  'InvalidPort',
  'HotKeyAccountNotExists',
  'HotKeyNotRegisteredInNetwork',
  'NonAssociatedColdKey',
  'NotEnoughStake',
  'NotEnoughStakeToWithdraw',
  'NotEnoughStakeToSetChildkeys',
  'NotEnoughBalanceToStake',
  'BalanceWithdrawalError',
  'ZeroBalanceAfterWithdrawn',
  'TooManyRegistrationsThisBlock',
  'HotKeyAlreadyRegisteredInSubNet',
  'NewHotKeyIsSameWithOld',
  'InvalidWorkBlock',
  'InvalidDifficulty',
  'InvalidSeal',
  'HotKeyAlreadyDelegate',
  'ServingRateLimitExceeded',
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
  'NoNeuronIdAvailable',
  'DelegateTakeTooLow',
  'DelegateTakeTooHigh',
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
  'CannotUnstakeLock',
  'SubnetNotExists',
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
  'VotingPowerTrackingNotEnabled',
  'InvalidVotingPowerEmaAlpha',
  'PrecisionLoss',
  'Deprecated',
  'AddStakeBurnRateLimitExceeded',
  'ColdkeySwapAnnounced',
  'ColdkeySwapDisputed',
  'ColdkeySwapClearTooEarly',
  'DisabledTemporarily',
  'NewHotKeyNotCleanForRootSwap',
  'StakeUnavailable',
  'RegistrationPriceLimitExceeded',
  'LockHotkeyMismatch',
  'InsufficientStakeForLock',
  'NoExistingLock',
  'ActiveLockExists',
  'CannotUseSystemAccount',
  'UnlockAmountTooHigh',
  'TempoOutOfBounds',
  'ActivityCutoffFactorMilliOutOfBounds',
  'EpochTriggerAlreadyPending',
  'AutoEpochAlreadyImminent',
  'AccountRejectsLockedAlpha',
];

/**
 * `InvalidTransaction::Custom(N)` of Subtensor's transaction extension, by N (README 2.3): the numbers of
 * opentensor/subtensor 14bc6f9f9 `common/src/transaction_error.rs:38-73` (ab0cb2e52 `:35-67` has 0 to 24 and 255,
 * the same numbers), the module errors behind them of `pallets/subtensor/src/extensions/subtensor.rs:27-60`.
 */
const poolCustomRows: readonly (readonly [number, string, boolean, string, readonly string[]])[] = [
  [0, 'ColdkeyInSwapSchedule', false, 'The coldkey is scheduled for a swap: wait for the swap to finish.', []],
  [
    1,
    'StakeAmountTooLow',
    false,
    'Stake below StakeThreshold (an unregistered hotkey also lands here first): check registration, then stake.',
    ['NotEnoughStakeToSetWeights'],
  ],
  [2, 'BalanceTooLow', false, 'Not enough balance for this call.', []],
  [3, 'SubnetNotExists', false, 'No such netuid: check the netuid.', []],
  [4, 'HotkeyAccountDoesntExist', false, 'The hotkey account does not exist on chain: register it.', []],
  [5, 'NotEnoughStakeToWithdraw', false, 'Not a weights error (unstake).', []],
  [
    6,
    'RateLimitExceeded',
    true,
    'Rate limit (set or commit too soon): wait until nextAllowedBlock(), then retry.',
    ['SettingWeightsTooFast', 'CommittingWeightsTooFast'],
  ],
  [7, 'InsufficientLiquidity', false, 'Not a weights error (swap).', []],
  [8, 'SlippageTooHigh', false, 'Not a weights error (swap).', []],
  [9, 'TransferDisallowed', false, 'Not a weights error (transfer).', []],
  [10, 'HotKeyNotRegisteredInNetwork', false, 'The hotkey is not registered: register it or check the netuid.', []],
  [11, 'InvalidIpAddress', false, 'Not a weights error (serve axon).', []],
  [12, 'ServingRateLimitExceeded', true, 'Not a weights error (serve axon).', []],
  [13, 'InvalidPort', false, 'Not a weights error (serve axon).', []],
  [14, 'ZeroMaxAmount', false, 'Not a weights error.', []],
  [15, 'InvalidRevealRound', false, 'The drand reveal round is in the past: recompute it (timelock path).', ['InvalidRevealRound']],
  [16, 'CommitNotFound', false, 'No pending commit to reveal: commit again.', ['NoWeightsCommitFound']],
  [17, 'CommitBlockNotInRevealRange', true, 'Reveal outside its window (too early): wait for the reveal epoch.', ['RevealTooEarly']],
  [18, 'InputLengthsUnequal', false, 'Batch inputs differ in length: a client bug, report it.', ['InputLengthsUnequal']],
  [19, 'UidNotFound', false, 'Hotkey not registered on the subnet: register it.', ['HotKeyNotRegisteredInSubNet']],
  [20, 'EvmKeyAssociateRateLimitExceeded', true, 'Not a weights error (EVM key).', []],
  [21, 'ColdkeySwapDisputed', false, 'Not a weights error (coldkey swap).', []],
  [22, 'InvalidRealAccount', false, 'Not a weights error (proxy).', []],
  [23, 'FailedShieldedTxParsing', false, 'Not a weights error (shielded tx).', []],
  [24, 'InvalidShieldedTxPubKeyHash', false, 'Not a weights error (shielded tx).', []],
  [25, 'NonAssociatedColdKey', false, 'Not a weights error.', []],
  [26, 'DelegateTakeTooLow', false, 'Not a weights error (delegate take).', []],
  [27, 'DelegateTakeTooHigh', false, 'Not a weights error (delegate take).', []],
  [255, 'BadRequest', false, 'The chain rejected the call as malformed: check the call arguments.', []],
];

/** Standard Substrate pool rejections (RPC errors 1010..1014). */
const poolStandardRows: readonly (readonly [string, boolean, string])[] = [
  ['Stale', true, 'Nonce already used ("Transaction is outdated"): another transaction with this key landed; the client refetches the nonce and retries once.'],
  ['Future', true, 'Nonce gap ("will be valid in the future"): another process signs with this hotkey; serialise them or use one client.'],
  ['AncientBirthBlock', true, 'The mortal era expired before submission: the node is far behind or the clock stalled; retry.'],
  ['TooLowPriority', false, 'RPC 1014: a transaction with the same signer and nonce is already in the pool: another process uses this hotkey; never run two.'],
  [
    'TemporarilyBanned',
    true,
    'RPC 1012: the pool banned this exact extrinsic (recently invalid): wait a few blocks; the client never resends identical bytes.',
  ],
  ['AlreadyImported', false, 'RPC 1013: this exact extrinsic is already in the pool: it was submitted before; wait for it.'],
  ['BadProof', false, 'Bad signature: the runtime or genesis changed under the client, or the signed extensions do not match; reconnect.'],
  ['ExhaustsResources', true, 'Block is full: retry next block.'],
  ['Payment', false, 'Cannot pay fees: weights calls are free, so this is not a weights call or the runtime changed.'],
  ['InvalidTransaction', false, 'The pool rejected the transaction for another reason: see context.rpcMessage.'],
];

const clientRows: readonly (readonly [string, boolean, string])[] = [
  ['InvalidInput', false, 'An argument is malformed: the message names the field path and value.'],
  ['KeyFileNotFound', false, 'No key file at that path: check the wallet name, hotkey name and wallet path.'],
  ['InsecureKeyFile', false, 'The key file is readable by group or others: run `chmod 600` on it (and `chmod 700` on its directory).'],
  [
    'KeyFileEncrypted',
    false,
    "The hotkey file is encrypted and no password reached it: give `passwordFile` or btwallet's `BT_PW_<PATH>` variable, or pass a mnemonic/seed from a secret store (an encryption other than $NACL cannot be read: decrypt it with btcli).",
  ],
  ['InvalidKeyFile', false, 'The key file is not the JSON the Bittensor wallet writes: regenerate or restore the hotkey.'],
  ['InvalidKey', false, 'The mnemonic, seed or dev URI is malformed (its content is never printed).'],
  ['KeyMismatch', false, 'The key file secret does not match its own ss58Address/publicKey: the file is corrupt or edited.'],
  ['ConnectionFailed', true, 'No endpoint answered: check the URLs and network; the client retries with backoff meanwhile.'],
  ['RequestTimeout', true, 'A request got no answer in time: the node is slow or the socket is half dead; the client reconnects.'],
  [
    'HeadStale',
    true,
    'No new block for longer than staleHeadMs on any endpoint: the node or the chain is stalled; nothing was signed; the client keeps switching endpoints, retry when blocks move.',
  ],
  ['ClientClosed', false, 'The client was closed: create a new one.'],
  ['CallNotAvailable', false, 'The runtime metadata has none of the calls this path needs: the runtime is not Subtensor or is too old/new.'],
  ['StorageNotAvailable', false, 'The runtime metadata lacks a storage item this client reads: the runtime is not Subtensor or changed.'],
  [
    'TimelockRequired',
    false,
    'The subnet requires a timelocked commit-reveal version this client does not speak (it speaks CommitRevealWeightsVersion 4): upgrade this client.',
  ],
  ['UnknownHotkey', false, 'A weight is keyed by a hotkey that is not in the metagraph: refresh the metagraph or drop it.'],
  ['EmptyWeights', false, 'No non-zero weight after u16 conversion: there is nothing to set.'],
  [
    'InclusionTimeout',
    true,
    'The extrinsic was submitted but not seen in a block within the wait: outcome unknown until its era ends (context.mortalUntil); do not resubmit before that.',
  ],
  ['ExtrinsicDropped', true, 'The extrinsic era ended and it is in no block: it can never land; safe to retry.'],
  ['WeightsNotConfirmed', false, 'The extrinsic succeeded but the WeightsSet event or the stored Weights do not match what was sent: investigate.'],
  ['UnknownModuleError', false, 'A dispatch error this client does not know: see context.chainName and the runtime source.'],
  ['NoPendingCommit', false, 'There is no stored commit to reveal for this hotkey/netuid/mecid.'],
  ['RevealWindowMissed', false, 'The stored commit is past its reveal epoch: it expired on chain; commit again.'],
  [
    'TimelockBeaconUnknown',
    false,
    'No usable drand beacon config (none on chain with timelock.beacon "chain", or an invalid public key): configure timelock.beacon.',
  ],
  [
    'TimelockBeaconMismatch',
    false,
    "The configured beacon public key differs from the chain's Drand.BeaconConfig: the chain could never decrypt the commit; drop the option or fix the key.",
  ],
  ['TimelockCommitTooLarge', false, 'The encrypted commit would exceed the chain limit of 5000 bytes (at most 1177 uids): weight fewer uids.'],
  ['TimelockNoRevealEpoch', false, 'Tempo is 0: the subnet never runs an epoch, so a timelocked commit would never be revealed; ask the subnet owner.'],
  [
    'TimelockRevealMissing',
    false,
    'The chain took the timelocked commit out of its queue without revealing it (it reports nothing): see context.likelyReasons (reveal epoch passed or skipped, version key raised, stake or permit lost, deregistered or hotkey swapped, pulse missing, payload hotkey not the signer), fix it and commit again.',
  ],
  [
    'TimelockRevealTimeout',
    true,
    'The timelocked commit is still queued after the wait (chain stalled or reveal epoch far away): call confirmTimelockedReveal again later.',
  ],
  [
    'ConnectionLost',
    true,
    'The socket dropped and no endpoint came back within the request time limit: the node or network is down; the client keeps reconnecting, retry later.',
  ],
  [
    'NodeRejected',
    false,
    'The node refused the request with a JSON-RPC error (context.rpcCode, context.rpcMessage), e.g. 1002 verification failed or -32603 internal error: nothing was included; read the message, fix the cause, then retry.',
  ],
  [
    'RequestFailed',
    true,
    'A read failed with an error that is neither a node rejection nor a dropped socket (context.reason, redacted): retry; report it if it persists.',
  ],
  [
    'CommitStoreLocked',
    false,
    'Another process (context.holder: pid, host) or another open store of this process holds the commit store file: stop it or close that store, or give this one its own file; a lock whose holder cannot be checked here (another host) is taken over once its heartbeat is older than the bound (60 s): context.abandonedInMs says when; do not remove context.lockPath while its holder may run. Also when the lock was lost (taken over while this holder stalled, or removed by hand): close this store.',
  ],
];

function buildTable(): ReadonlyMap<string, ChainErrorInfo> {
  const table = new Map<string, ChainErrorInfo>();
  const add = (chainName: string, source: ChainErrorSource, retryable: boolean, advice: string): void => {
    const code = chainErrorCode(chainName);
    if (!table.has(code)) table.set(code, Object.freeze({ code, chainName, source, retryable, advice }));
  };
  for (const [name, retry, advice] of moduleRows) add(name, 'module', retry, advice);
  for (const [, name, retry, advice] of poolCustomRows) add(name, 'pool', retry, advice);
  for (const [name, retry, advice] of poolStandardRows) add(name, 'pool', retry, advice);
  for (const [name, retry, advice] of clientRows) add(name, 'client', retry, advice);
  for (const name of otherModuleNames) add(name, 'module', false, `Not a weights error: SubtensorModule.${name} (see the Subtensor source, macros/errors.rs).`);
  return table;
}

/** Every error code this package raises, with its chain name, source, retryability and advice. */
export const CHAIN_ERRORS: ReadonlyMap<string, ChainErrorInfo> = buildTable();

/**
 * The Subtensor module error names that concern weights (README 2.2/2.4): first the thirteen of
 * `internal_set_weights` in the order it checks them (opentensor/subtensor 14bc6f9f9
 * `pallets/subtensor/src/subnets/weights.rs:766-839`), then the commit-reveal ones in the chain's declaration order
 * (`macros/errors.rs`).
 */
export const MODULE_ERROR_NAMES: readonly string[] = Object.freeze(moduleRows.map((row) => row[0]));

/** Every `SubtensorModule` error name this package types (weights errors first, then every other). */
export const SUBTENSOR_MODULE_ERROR_NAMES: readonly string[] = Object.freeze([...moduleRows.map((row) => row[0]), ...otherModuleNames]);

/** One row of the `Custom error: N` table. */
export interface PoolCustomError {
  readonly n: number;
  readonly chainName: string;
  /** The module errors that turn into this pool error when raised by the transaction extension. */
  readonly moduleErrors: readonly string[];
}

/** `InvalidTransaction::Custom(N)` names of Subtensor's transaction extension, keyed by N. */
export const POOL_CUSTOM_ERRORS: ReadonlyMap<number, PoolCustomError> = new Map(
  poolCustomRows.map(([n, chainName, , , moduleErrors]) => [n, Object.freeze({ n, chainName, moduleErrors: Object.freeze([...moduleErrors]) })]),
);

/** Names of the standard pool rejections this package recognises. */
export const POOL_STANDARD_ERROR_NAMES: readonly string[] = Object.freeze(poolStandardRows.map((row) => row[0]));
