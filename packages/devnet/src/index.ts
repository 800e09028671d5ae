export { startDevnet, defaultDevnetRuntime } from './devnet.js';
export type { Devnet, DevnetBeaconHandle, DevnetBlock, DevnetHyperparameter } from './devnet.js';
export { beaconSeed } from './drand-beacon.js';
export type { DevnetBeaconInfo } from './drand-beacon.js';
export type { TimelockDrop, TimelockDropReason } from './timelock-reveal.js';
export { devnetOptionsSchema, parseDevnetOptions } from './devnet-options.js';
export type { DevnetOptions, DevnetOptionsInput } from './devnet-options.js';
export { deriveDevAccounts, devHotkeyUri } from './dev-accounts.js';
export type { DevAccount } from './dev-accounts.js';
export type { DevnetFaults } from './faults.js';
export type { DevnetBranchBlock, ReorganizeOptions, RetractedTransactions } from './reorganize.js';
export { POOL_ERRORS } from './rpc-errors.js';
export type { JsonRpcErrorObject } from './rpc-errors.js';
export type { DevnetRuntime, DevnetRuntimeVersion } from './runtime-context.js';
export { CUSTOM_ERROR } from './custom-error.js';
export { DEVNET_ERROR_CODES } from './errors.js';
export type { DevnetErrorCode } from './errors.js';
export { maxUpscaleToU16 } from './max-upscale.js';
export { weightCommitHash } from './weight-commit-hash.js';
export {
  buildMetadata,
  createDevnetRegistry,
  DEVNET_SIGNED_EXTENSIONS,
  RUNTIME_VERSION,
  runtimeVersionOf,
  SS58_PREFIX,
  STATEFUL_RUNTIME_VERSION,
} from './metadata/index.js';
export type { DevnetRuntimeKind } from './metadata/index.js';
