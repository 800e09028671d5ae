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
  // Exclusion codes (SPEC 0 isolation): a record listed under `result.excluded` carries one of these, or
  // the code of the scoring package or input check that refused it (`COMPOSITE_*`, `CONSENSUS_*`, `CORE_INPUT_*`).
  /** A record does not match its list's record schema. */
  invalidRecord: 'BUNDLE_INVALID_RECORD',
  /** A record id (or task id) already used by an earlier record of the same list. */
  duplicateRecord: 'BUNDLE_DUPLICATE_RECORD',
  /** A record for a challenge kind, or a peer score for a challenge id, that is not configured (or is bounty). */
  challengeNotConfigured: 'BUNDLE_CHALLENGE_NOT_CONFIGURED',
  /** A peer score signed by the validator computing the epoch (SPEC C.4). */
  ownPeerScore: 'BUNDLE_OWN_PEER_SCORE',
  /** A peer score from a hotkey outside the epoch's validator set. */
  peerNotAValidator: 'BUNDLE_PEER_NOT_A_VALIDATOR',
  /** A second score from one peer for one miner in one challenge (SPEC C.2). */
  duplicatePeerScore: 'BUNDLE_DUPLICATE_PEER_SCORE',
  /** An SSSA for a task that was not registered this epoch (SPEC B). */
  unknownTask: 'BUNDLE_UNKNOWN_TASK',
  /** An SSSA from a miner outside the task's drawn group (SPEC B). */
  notInGroup: 'BUNDLE_NOT_IN_GROUP',
  /** A second SSSA by one miner for one task (SPEC B). */
  duplicateSssa: 'BUNDLE_DUPLICATE_SSSA',
  /** A term result or bounty record replaced by a later one of the same miner (latest wins). */
  superseded: 'BUNDLE_RECORD_SUPERSEDED',
  /**
   * A reveal attestation (commit-reveal v4 outcome signed after the fact, docs/spec.md G.6) does not match its
   * schema, is not bound to the bundle it travels with (epoch, netuid, validator), or comes without its signature.
   */
  revealInvalid: 'BUNDLE_REVEAL_INVALID',
  /** A reveal attestation's `bundle_digest` is not the digest of the bundle it travels with. */
  revealDigestMismatch: 'BUNDLE_REVEAL_DIGEST_MISMATCH',
  /** A reveal attestation's signature does not verify against the bundle's validator hotkey. */
  revealBadSignature: 'BUNDLE_REVEAL_BAD_SIGNATURE',
});

/** A code of {@link BUNDLE_ERROR_CODES}. */
export type BundleErrorCode = (typeof BUNDLE_ERROR_CODES)[keyof typeof BUNDLE_ERROR_CODES];

/** Raises a bundle error naming a path and value (internal). */
export function fail(code: BundleErrorCode, summary: string, path: string, value: unknown): never {
  throw new SubnetError(code, summary, { context: { path, value } });
}
