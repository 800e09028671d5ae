import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

import type { BytesLike } from './bytes.js';
import { toBytes } from './bytes.js';
import { FR_ORDER, G2_BASE, hashToG1 } from './curve.js';
import { timelockError } from './errors.js';
import type { Pulse } from './pulse.js';
import type { RoundLike } from './round.js';
import { identityForRound, toRound } from './round.js';

/** A dev-beacon key pair: the 32-byte big-endian secret scalar and the 96-byte compressed G2 public key. */
export interface BeaconKeyPair {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
}

function scalarToBytes(scalar: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let rest = scalar;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/** Internal: parses a secret key (32 bytes big-endian, 1 <= sk < r); never echoes the key. */
function secretScalar(secretKey: unknown): bigint {
  let bytes: Uint8Array;
  try {
    bytes = toBytes(secretKey, 'secretKey', 'TIMELOCK_INVALID_SECRET_KEY', 32);
  } catch (cause) {
    const length = secretKey instanceof Uint8Array ? secretKey.length : typeof secretKey;
    throw timelockError('TIMELOCK_INVALID_SECRET_KEY', 'expected a 32-byte big-endian secret scalar', { path: 'secretKey', value: length }, cause);
  }
  let scalar = 0n;
  for (const byte of bytes) scalar = (scalar << 8n) | BigInt(byte);
  if (scalar === 0n || scalar >= FR_ORDER) {
    throw timelockError('TIMELOCK_INVALID_SECRET_KEY', 'the secret scalar must be in [1, r) (value withheld)', {
      path: 'secretKey',
      value: '[secret]',
    });
  }
  return scalar;
}

/**
 * Derives a dev-beacon key pair from a seed: `sk = sha256(seed) mod r`, `pk = sk * G2` (compressed).
 * A string seed is taken as UTF-8 text. For local dev chains only: a seed is not a safe way to hold a
 * production key.
 *
 * @param seed - bytes or UTF-8 text
 * @returns the frozen key pair
 * @throws SubnetError `TIMELOCK_INVALID_INPUT` when the seed is neither bytes nor a string;
 *   `TIMELOCK_INVALID_SECRET_KEY` in the (2^-255) case that the hash reduces to 0
 * @example beaconKeyFromSeed('crv4 local dev beacon secret').publicKey // a1a916d9... (96 bytes)
 */
export function beaconKeyFromSeed(seed: Uint8Array | string): BeaconKeyPair {
  let bytes: Uint8Array;
  if (typeof seed === 'string') bytes = utf8ToBytes(seed);
  else if (seed instanceof Uint8Array) bytes = seed;
  else throw timelockError('TIMELOCK_INVALID_INPUT', 'expected a seed as bytes or a string', { path: 'seed', value: typeof seed });
  const digest = sha256(bytes);
  let scalar = 0n;
  for (const byte of digest) scalar = (scalar << 8n) | BigInt(byte);
  const secretKey = scalarToBytes(scalar % FR_ORDER);
  return Object.freeze({ secretKey, publicKey: publicKeyFromSecret(secretKey) });
}

/**
 * The compressed G2 public key (96 bytes) of a dev-beacon secret key: `sk * G2`.
 *
 * @param secretKey - 32 bytes big-endian, 1 <= sk < r (Uint8Array or hex)
 * @returns the 96-byte public key, usable as `BeaconConfig.publicKey`
 * @throws SubnetError `TIMELOCK_INVALID_SECRET_KEY` (the key is never echoed)
 * @example publicKeyFromSecret(beaconKeyFromSeed('dev').secretKey)
 */
export function publicKeyFromSecret(secretKey: BytesLike): Uint8Array {
  return G2_BASE.multiply(secretScalar(secretKey)).toBytes(true);
}

/**
 * Signs a round as a drand `bls-unchained-g1-rfc9380` beacon would: `sig = sk * H(sha256(round as u64 BE))`,
 * `randomness = sha256(sig)`. This is how a dev chain acts as its own beacon.
 *
 * @param secretKey - the dev-beacon secret key (32 bytes big-endian)
 * @param round - the round to sign, 1..u64::MAX
 * @returns the frozen pulse `{ round, signature (48 bytes), randomness (32 bytes) }`
 * @throws SubnetError `TIMELOCK_INVALID_SECRET_KEY`, `TIMELOCK_INVALID_INPUT` (bad round)
 * @example const pulse = signRound(devKey.secretKey, 1000n)
 */
export function signRound(secretKey: BytesLike, round: RoundLike): Pulse {
  const scalar = secretScalar(secretKey);
  const value = toRound(round);
  const signature = hashToG1(identityForRound(value)).multiply(scalar).toBytes(true);
  return Object.freeze({ round: value, signature, randomness: sha256(signature) });
}
