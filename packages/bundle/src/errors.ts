import { SubnetError } from '@subnet/core';

/**
 * Every error code `@subnet/bundle` raises. Codes are append-only.
 *
 * @example if (isSubnetError(e, BUNDLE_ERROR_CODES.badSignature)) reject()
 */
export const BUNDLE_ERROR_CODES = Object.freeze({
  /** The scoring configuration is invalid (names the field path and value). */
  invalidConfig: 'BUNDLE_INVALID_CONFIG',
  /** An input record, stake or neuron is invalid (names the field path and value). */
  invalidInput: 'BUNDLE_INVALID_INPUT',
  /** A bundle document does not match the bundle schema. */
  invalidBundle: 'BUNDLE_INVALID_BUNDLE',
  /** The digest carried by a signed bundle is not the digest of its bundle. */
  digestMismatch: 'BUNDLE_DIGEST_MISMATCH',
  /** The signature does not verify against the validator hotkey. */
  badSignature: 'BUNDLE_BAD_SIGNATURE',
  /** The signing key is not the bundle's validator hotkey. */
  signerMismatch: 'BUNDLE_SIGNER_MISMATCH',
});

/** A code of {@link BUNDLE_ERROR_CODES}. */
export type BundleErrorCode = (typeof BUNDLE_ERROR_CODES)[keyof typeof BUNDLE_ERROR_CODES];

/** Raises a bundle error naming a path and value (internal). */
export function fail(code: BundleErrorCode, summary: string, path: string, value: unknown): never {
  throw new SubnetError(code, summary, { context: { path, value } });
}
