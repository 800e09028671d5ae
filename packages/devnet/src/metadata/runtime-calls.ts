import { compactAddLength, u8aConcat } from '@polkadot/util';
import { buildMetadata, METADATA_VERSION } from './build-metadata.js';

/**
 * The SCALE answer to `state_call('Metadata_metadata_versions', '0x')`: `Vec<u32>` = `[15]`.
 * `@polkadot/api` asks this first (the runtime version declares Metadata api v2).
 *
 * @returns `0x04 0f000000`.
 * @example
 * u8aToHex(encodeMetadataVersions()); // '0x040f000000'
 */
export function encodeMetadataVersions(): Uint8Array {
  return new Uint8Array([0x04, METADATA_VERSION, 0, 0, 0]);
}

/**
 * The SCALE answer to `state_call('Metadata_metadata_at_version', u32 version)`:
 * `Option<OpaqueMetadata>`, `Some(buildMetadata())` for version 15 and `None` otherwise.
 *
 * @param version - The requested metadata version.
 * @returns `0x01 ‖ compact(len) ‖ metadata` or `0x00`.
 * @example
 * encodeMetadataAtVersion(15)[0]; // 1
 */
export function encodeMetadataAtVersion(version: number): Uint8Array {
  if (version !== METADATA_VERSION) return new Uint8Array([0]);
  return u8aConcat(new Uint8Array([1]), compactAddLength(buildMetadata()));
}
