import { Metadata, TypeRegistry } from '@polkadot/types';
import type { GenericChainProperties } from '@polkadot/types';
import type { ExtDef } from '@polkadot/types/extrinsic/signedExtensions/types';
import { buildMetadata } from './build-metadata.js';
import type { DevnetRuntimeKind } from './runtime-version.js';
import { CHAIN_PROPERTIES } from './constants.js';

/**
 * User definitions for Subtensor's four zero-size transaction extensions, which `@polkadot/types` does
 * not know. Pass them as `ApiPromise.create({ signedExtensions: DEVNET_SIGNED_EXTENSIONS })` (works
 * against finney too) to silence the "Unknown signed extensions" warning and make signing explicit.
 *
 * @example
 * const api = await ApiPromise.create({ provider, signedExtensions: DEVNET_SIGNED_EXTENSIONS });
 */
export const DEVNET_SIGNED_EXTENSIONS: ExtDef = Object.freeze({
  SudoTransactionExtension: { extrinsic: {}, payload: {} },
  CheckShieldedTxValidity: { extrinsic: {}, payload: {} },
  SubtensorTransactionExtension: { extrinsic: {}, payload: {} },
  DrandPriority: { extrinsic: {}, payload: {} },
});

/** A registry with the devnet metadata set, and that metadata. */
export interface DevnetRegistry {
  readonly registry: TypeRegistry;
  readonly metadata: Metadata;
}

/**
 * Create a fresh `TypeRegistry` with the devnet metadata, the Subtensor signed extensions and the
 * chain properties (ss58 42, TAO, 9 decimals) set: ready to decode extrinsics
 * (`registry.createType('Extrinsic', hex)`), encode events and storage values, and build storage keys.
 *
 * @param kind - the runtime kind (default `stateful`)
 * @param specVersion - the spec version of the metadata's `System.Version` instead of the kind's own
 * @returns `{ registry, metadata }` (a new registry each call; registries are mutable).
 * @example
 * const { registry } = createDevnetRegistry();
 * const xt = registry.createType('Extrinsic', submittedHex);
 * xt.method.section; // 'subtensorModule'
 */
export function createDevnetRegistry(kind: DevnetRuntimeKind = 'stateful', specVersion?: number): DevnetRegistry {
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, buildMetadata(kind, specVersion));
  registry.setMetadata(metadata, undefined, DEVNET_SIGNED_EXTENSIONS);
  registry.setChainProperties(registry.createTypeUnsafe<GenericChainProperties>('ChainProperties', [CHAIN_PROPERTIES]));
  return { registry, metadata };
}
