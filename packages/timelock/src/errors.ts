import { SubnetError } from '@subnet/core';
import type { SubnetErrorContext } from '@subnet/core';

/**
 * Every error code this package raises. Codes are append-only; branch on them with
 * `isSubnetError(error, 'TIMELOCK_...')` from `@subnet/core`.
 *
 * - `TIMELOCK_INVALID_INPUT`: an argument has the wrong type or range (round, bytes, lengths, integers).
 * - `TIMELOCK_INVALID_BEACON`: a beacon public key is not a valid G2 point, or genesis/period is invalid.
 * - `TIMELOCK_INVALID_CIPHERTEXT`: bytes are not a tle `TLECiphertext<TinyBLS381>` (layout, lengths, U point, suite).
 * - `TIMELOCK_DECRYPTION_FAILED`: the signature does not open the ciphertext (wrong round or key, tampered U/V/W),
 *   or the AES-GCM tag does not verify (tampered body).
 * - `TIMELOCK_INVALID_PULSE`: a pulse signature is not a valid G1 point, or a pulse fails verification.
 * - `TIMELOCK_INVALID_SECRET_KEY`: a dev-beacon secret key is not a scalar in [1, r).
 * - `TIMELOCK_INVALID_PAYLOAD`: a `WeightsTlockPayload` cannot be encoded or decoded.
 * - `TIMELOCK_COMMIT_TOO_LARGE`: the commit would exceed the chain's 5000-byte limit.
 * - `TIMELOCK_NO_REVEAL_EPOCH`: the epoch schedule never reaches the reveal epoch (tempo 0).
 * - `TIMELOCK_REVEAL_ROUND_STALE`: the predicted round is below `Drand.LastStoredRound` (the chain would reject it).
 */
export type TimelockErrorCode =
  | 'TIMELOCK_INVALID_INPUT'
  | 'TIMELOCK_INVALID_BEACON'
  | 'TIMELOCK_INVALID_CIPHERTEXT'
  | 'TIMELOCK_DECRYPTION_FAILED'
  | 'TIMELOCK_INVALID_PULSE'
  | 'TIMELOCK_INVALID_SECRET_KEY'
  | 'TIMELOCK_INVALID_PAYLOAD'
  | 'TIMELOCK_COMMIT_TOO_LARGE'
  | 'TIMELOCK_NO_REVEAL_EPOCH'
  | 'TIMELOCK_REVEAL_ROUND_STALE';

/**
 * The codes of {@link TimelockErrorCode}, in the order they were added (append-only).
 *
 * @example TIMELOCK_ERROR_CODES.includes('TIMELOCK_COMMIT_TOO_LARGE') // true
 */
export const TIMELOCK_ERROR_CODES: readonly TimelockErrorCode[] = Object.freeze([
  'TIMELOCK_INVALID_INPUT',
  'TIMELOCK_INVALID_BEACON',
  'TIMELOCK_INVALID_CIPHERTEXT',
  'TIMELOCK_DECRYPTION_FAILED',
  'TIMELOCK_INVALID_PULSE',
  'TIMELOCK_INVALID_SECRET_KEY',
  'TIMELOCK_INVALID_PAYLOAD',
  'TIMELOCK_COMMIT_TOO_LARGE',
  'TIMELOCK_NO_REVEAL_EPOCH',
  'TIMELOCK_REVEAL_ROUND_STALE',
] as const);

/** Builds a coded error; internal. Never put a secret in `context`. */
export function timelockError(code: TimelockErrorCode, summary: string, context: SubnetErrorContext = {}, cause?: unknown): SubnetError {
  return new SubnetError(code, summary, cause === undefined ? { context } : { context, cause });
}
