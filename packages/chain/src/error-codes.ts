/**
 * The table of every error this package raises: the chain's own error names (module errors of
 * `SubtensorModule`, the transaction pool's `Custom error: N`, the standard pool errors) and the
 * client-side failures. Each code is `CHAIN_` + the upper snake case of the chain's name, so a caller can
 * search the chain's source for the name in `context.chainName`. Codes are append-only.
 */

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

/** `InvalidTransaction::Custom(N)` of Subtensor's transaction extension, by N (README 2.3). */
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
  ['KeyFileEncrypted', false, 'The hotkey file is encrypted: decrypt it with btcli or pass a mnemonic/seed from a secret store.'],
  ['InvalidKeyFile', false, 'The key file is not the JSON the Bittensor wallet writes: regenerate or restore the hotkey.'],
  ['InvalidKey', false, 'The mnemonic, seed or dev URI is malformed (its content is never printed).'],
  ['KeyMismatch', false, 'The key file secret does not match its own ss58Address/publicKey: the file is corrupt or edited.'],
  ['ConnectionFailed', true, 'No endpoint answered: check the URLs and network; the client retries with backoff meanwhile.'],
  ['RequestTimeout', true, 'A request got no answer in time: the node is slow or the socket is half dead; the client reconnects.'],
  ['HeadStale', true, 'No new block for longer than staleHeadMs: the node or the chain is stalled; the client switches endpoint.'],
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
    'The chain took the timelocked commit out of its queue without revealing it (it reports nothing): see context.likelyReasons (version key raised, stake or permit lost, pulse missing, payload hotkey not the signer), fix it and commit again.',
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

/** The Subtensor module error names that concern weights (README 2.2/2.4), in the chain's declaration order. */
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
