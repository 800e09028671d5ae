export { chainError, mapModuleError, mapPoolError } from './chain-error.js';
export type { ChainError, ChainErrorContext } from './chain-error.js';
export { CHAIN_ERROR_CODES, CHAIN_ERRORS, chainErrorCode, MODULE_ERROR_NAMES, POOL_CUSTOM_ERRORS, POOL_STANDARD_ERROR_NAMES } from './error-codes.js';
export type {
  ChainCommitStoreLockedContext,
  ChainConnectionLostContext,
  ChainErrorCode,
  ChainErrorContextByCode,
  ChainErrorInfo,
  ChainErrorSource,
  ChainHeadStaleContext,
  ChainInclusionContext,
  ChainInvalidInputContext,
  ChainNodeRejectedContext,
  ChainPoolCustomCode,
  ChainPoolCustomContext,
  ChainPoolRejectionCode,
  ChainPoolRejectionContext,
  ChainRequestContext,
  ChainRequestTimeoutContext,
  ChainTimelockRevealMissingContext,
  PoolCustomError,
} from './error-codes.js';
export { hotkeyFilePath, loadSigner } from './keys.js';
export type { ChainSigner, KeySource, KeyType } from './keys.js';
export { NETWORKS, resolveEndpoints } from './networks.js';
// The one URL redaction of every package and app (issue 17): re-exported so chain users need no second import.
export { redactUrl } from '@subnet/core';
export type { NetworkInput } from './networks.js';
export { commitPreimage, GLOBAL_MAX_SUBNET_COUNT, mechanismStorageIndex, weightCommitHash } from './commit-hash.js';
export type { CommitHashInput } from './commit-hash.js';
export { chainUpscale } from './chain-upscale.js';
export { convertToU16 } from './u16-conversion.js';
export type { U16Mode, U16Vector } from './u16-conversion.js';
export { commitStoreFileSchema, fileCommitStore, memoryCommitStore, pendingCommitFromJson, pendingCommitSchema, pendingCommitToJson } from './commit-store.js';
export type { CommitStore, FileCommitStore, PendingCommit } from './commit-store.js';
export { COMMIT_STORE_LOCK_STALE_AFTER_MS } from './commit-store-lock.js';
export type { CommitStoreHolder } from './commit-store-lock.js';
export type { EpochState, MetagraphSnapshot, RuntimeSpec, WeightHyperparameters } from './metagraph-snapshot.js';
export { exemptsSubnetOwner } from './owner-exemption.js';
export { nextAllowedBlockFor, preflight } from './preflight.js';
export type { PreflightInput, PreflightResult } from './preflight.js';
export { resolveWeights } from './resolve-weights.js';
export type { WeightsInput } from './resolve-weights.js';
export { epochAtBlock, revealWindow } from './reveal-window.js';
export type { EpochInput, RevealWindow } from './reveal-window.js';
export { connectChain, SUBTENSOR_SIGNED_EXTENSIONS, withTimeout } from './connection.js';
export type { ChainConnection, ChainLogger, ConnectOptions } from './connection.js';
export { readMetagraph } from './metagraph.js';
export type { ReadMetagraphOptions } from './metagraph.js';
export { serialiseBySigner, submitExtrinsic } from './submit-extrinsic.js';
export type { ExtrinsicEvent, Inclusion, SignedExtrinsic, SubmitOptions } from './submit-extrinsic.js';
export { createChainClient } from './chain-client.js';
export type {
  ChainClient,
  ChainClientOptions,
  RateLimitStatus,
  RevealOutcome,
  SetWeightsArgs,
  SignedWeightsCall,
  TimelockSubmissionInfo,
  WeightsSubmission,
} from './chain-client.js';
export { readTimelockContext, TIMELOCK_COMMIT_REVEAL_VERSION } from './timelock-context.js';
export type { BeaconSource, TimelockContext, TimelockOptions } from './timelock-context.js';
export { predictRevealRound } from './timelock-round.js';
export { prepareTimelockedCommit, timelockedCommitCall, timelockedCommitRecord } from './timelock-commit.js';
export type { PreparedTimelockedCommit, TimelockedCommitRecord } from './timelock-commit.js';
export { confirmTimelockedReveal } from './timelock-reveal.js';
export type { ConfirmRevealOptions, TimelockedReveal, TimelockMissReason } from './timelock-reveal.js';
export { epochRuntime, legacyEpochIndex, legacyShouldRunEpoch, v2CommitEpoch } from './epoch-schedule.js';
export type { EpochRuntime } from './epoch-schedule.js';
export { predictLegacyRevealRound } from './timelock-round-legacy.js';
export type { LegacyRevealRoundInput } from './timelock-round-legacy.js';
export { stakeWeight } from './stake-weight.js';
export type { StakeLink, StakeWeight, StakeWeightInput } from './stake-weight.js';
