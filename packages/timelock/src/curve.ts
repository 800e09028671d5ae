/**
 * Internal curve plumbing on top of @noble/curves: point decoding with the checks arkworks applies
 * (on curve, in the prime-order subgroup, not the identity), hash-to-G1, and the tle hash functions
 * H2 (GT -> 32 bytes, arkworks serialisation), H3 (-> Fr) and H4 (sha256).
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';

import { concatBytes } from './bytes.js';
import { timelockError } from './errors.js';
import type { TimelockErrorCode } from './errors.js';

/** The hash-to-G1 domain separation tag of drand `bls-unchained-g1-rfc9380` (quicknet). */
export const DRAND_G1_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

export type G1Point = ReturnType<typeof bls12_381.G1.Point.fromBytes>;
export type G2Point = ReturnType<typeof bls12_381.G2.Point.fromBytes>;
type Gt = ReturnType<typeof bls12_381.pairing>;

export const G2_BASE: G2Point = bls12_381.G2.Point.BASE;
export const G1_BASE: G1Point = bls12_381.G1.Point.BASE;
export const FR_ORDER: bigint = bls12_381.fields.Fr.ORDER;

/** Decodes a 48-byte compressed G1 point (subgroup-checked); the identity is rejected. */
export function decodeG1(bytes: Uint8Array, code: TimelockErrorCode, path: string): G1Point {
  let point: G1Point;
  try {
    point = bls12_381.G1.Point.fromBytes(bytes);
  } catch (cause) {
    throw timelockError(code, `not a valid compressed G1 point: ${(cause as Error).message}`, { path, value: bytes.length }, cause);
  }
  if (point.is0()) throw timelockError(code, 'the G1 point is the identity', { path, value: 'identity' });
  return point;
}

/** Decodes a 96-byte compressed G2 point (subgroup-checked); the identity is rejected. */
export function decodeG2(bytes: Uint8Array, code: TimelockErrorCode, path: string): G2Point {
  let point: G2Point;
  try {
    point = bls12_381.G2.Point.fromBytes(bytes);
  } catch (cause) {
    throw timelockError(code, `not a valid compressed G2 point: ${(cause as Error).message}`, { path, value: bytes.length }, cause);
  }
  if (point.is0()) throw timelockError(code, 'the G2 point is the identity', { path, value: 'identity' });
  return point;
}

/** RFC 9380 `BLS12381G1_XMD:SHA-256_SSWU_RO_` with the drand DST: the identity point Q_id. */
export function hashToG1(message: Uint8Array): G1Point {
  return bls12_381.G1.hashToCurve(message, { DST: DRAND_G1_DST });
}

/** The optimal-ate pairing e(P in G1, Q in G2) with final exponentiation. */
export function pairing(p: G1Point, q: G2Point): Gt {
  return bls12_381.pairing(p, q);
}

/**
 * arkworks 0.4 `Fq12::serialize_compressed`: the twelve Fp coefficients c0.c0.c0, c0.c0.c1, c0.c1.c0, ...,
 * c1.c2.c1, each as 48 bytes little-endian (576 bytes).
 */
export function serializeGtArkworks(value: Gt): Uint8Array {
  const Fp = bls12_381.fields.Fp;
  const out = new Uint8Array(576);
  let offset = 0;
  for (const fp6 of [value.c0, value.c1]) {
    for (const fp2 of [fp6.c0, fp6.c1, fp6.c2]) {
      for (const fp of [fp2.c0, fp2.c1]) {
        const be = Fp.toBytes(fp);
        for (let i = 0; i < 48; i++) out[offset + i] = be[47 - i] ?? 0;
        offset += 48;
      }
    }
  }
  return out;
}

/** H2: GT -> 32 bytes, sha256 of the arkworks serialisation. */
export function h2(value: Gt): Uint8Array {
  return sha256(serializeGtArkworks(value));
}

/** H3: (sigma, esk) -> Fr, `from_be_bytes_mod_order(sha256(sigma || esk))`. */
export function h3(sigma: Uint8Array, esk: Uint8Array): bigint {
  const digest = sha256(concatBytes(sigma, esk));
  let value = 0n;
  for (const byte of digest) value = (value << 8n) | BigInt(byte);
  return value % FR_ORDER;
}

/** H4 for 32-byte inputs: sha256. */
export function h4(value: Uint8Array): Uint8Array {
  return sha256(value);
}

/** Internal: multiplies the G2 generator by a scalar, treating 0 as the identity. */
export function g2Mul(point: G2Point, scalar: bigint): G2Point {
  return scalar === 0n ? bls12_381.G2.Point.ZERO : point.multiply(scalar);
}
