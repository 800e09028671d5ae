export { buildMetadata, METADATA_VERSION } from './build-metadata.js';
export { CHAIN_PROPERTIES, PALLET_INDEX, SS58_PREFIX, SUBTENSOR_CALL_INDEX, type DevnetPalletName } from './constants.js';
export { SIGNED_EXTENSION_IDENTIFIERS } from './extrinsic.js';
export { SUBTENSOR_ERRORS } from './pallet-subtensor.js';
export { createDevnetRegistry, DEVNET_SIGNED_EXTENSIONS, type DevnetRegistry } from './registry.js';
export {
  RUNTIME_VERSION,
  runtimeVersionOf,
  STATEFUL_RUNTIME_VERSION,
  type DevnetRuntimeKind,
  type RuntimeApiVersion,
  type RuntimeVersionJson,
} from './runtime-version.js';
export { storageEntry, storageKey, storagePrefix } from './storage-key.js';
export { encodeEvent, encodeEventRecords, moduleError, type EventPhase, type EventRecordInput, type ModuleDispatchError } from './events.js';
export { encodeMetadataAtVersion, encodeMetadataVersions } from './runtime-calls.js';
