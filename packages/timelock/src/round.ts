import { sha256 } from '@noble/hashes/sha2.js';

import { toUint, u64Bytes } from './bytes.js';

/** A drand round number: a safe-integer number or a bigint, from 1 to u64::MAX. */
export type RoundLike = number | bigint;

const U64_MAX = 2n ** 64n - 1n;

/** Internal: validates a round (1..u64::MAX) and returns it as a bigint. */
export function toRound(value: unknown, path = 'round'): bigint {
  return toUint(value, path, 'TIMELOCK_INVALID_INPUT', 1n, U64_MAX);
}

/**
 * The IBE identity (and the message drand signs) for a round: `sha256(round as u64 big-endian)`.
 *
 * @param round - the drand round, 1..u64::MAX
 * @returns the 32-byte identity
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` when the round is not an integer in [1, u64::MAX]
 * @example bytesToHex(identityForRound(1000)) // 'f652498d092acd949bad74e40683bf3824fb817980504a0c7e6722cfc5a9c0a3'
 */
export function identityForRound(round: RoundLike): Uint8Array {
  const value = toRound(round);
  return sha256(u64Bytes(value, false));
}
