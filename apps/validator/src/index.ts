export type {
  ChainNeuron,
  ChainPort,
  ChainSubmission,
  ChainView,
  CommitSchedule,
  SetWeightsOptions,
  SubmissionIdentity,
  SubmissionQuery,
  SubmissionSearch,
} from './chain-port.js';
export { defaultConfigYaml, ENV_PREFIX, envOverlay, loadConfig, redactConfig, resolveConfig, validatorConfigSchema } from './config.js';
export type { ConfigFlags, ValidatorConfig } from './config.js';
export { runDemo } from './demo.js';
export type { DemoOptions, DemoResult } from './demo.js';
export { ComputationAbandoned, createEpochComputer, RecordsUnreadable } from './epoch-compute.js';
export type { BundleText, ComputedEpoch, ComputedOn, EpochComputer, EpochComputerOptions, EpochSource } from './epoch-compute.js';
export { closeEpoch, inputsFromRecords, publishBundle, stakeSet } from './epoch-runner.js';
export type { CloseOptions, EpochOutcome, EpochRunnerDeps, StoredBundle } from './epoch-runner.js';
export { closeEndedEpochs } from './missed-epochs.js';
export type { CatchUpOptions } from './missed-epochs.js';
export { reconcileInterrupted } from './reconcile.js';
export type { ReconcileOutcome } from './reconcile.js';
export { checkReadiness } from './readiness.js';
export type { ReadinessCheck, ReadinessReport, ReadinessSources, RecordWrites } from './readiness.js';
export { DEFAULT_HTTP_LIMITS } from './http-limits.js';
export type { HttpLimits } from './http-limits.js';
export { VALIDATOR_ERROR_CODES } from './errors.js';
export { createMetrics } from './metrics.js';
export type { ValidatorMetrics } from './metrics.js';
export { openPostgresStorage } from './postgres-storage.js';
export type { PostgresOptions } from './postgres-storage.js';
export { buildServer } from './server.js';
export type { ServerContext } from './server.js';
export { handleSignals, startValidator } from './service.js';
export type { StartOptions, ValidatorService } from './service.js';
export { RECEIVER_HEADER, SIGNATURE_HEADERS, signedMessage, signRequest, verifySignedRequest } from './signed-request.js';
export type { RequestSigner, SignatureFailure, SignatureRefusal, SignedRequestParts } from './signed-request.js';
export { openSqliteStorage } from './sqlite-storage.js';
export { MIGRATIONS } from './storage.js';
export type { EpochFields, EpochRow, EpochStatus, InsertOutcome, Migration, NewRecord, RecordKind, Storage, StoredRecord } from './storage.js';
export { connectSubnetChain } from './subnet-chain.js';
export type { SubnetChainOptions } from './subnet-chain.js';
export { createWriteQueue } from './write-queue.js';
export type { WriteQueue } from './write-queue.js';
