import { hexToBytes } from '@noble/hashes/utils.js';

import { timelockError } from './errors.js';
import type { TimelockErrorCode } from './errors.js';

/** Bytes given either as a `Uint8Array` or as a hex string (with or without `0x`). */
export type BytesLike = Uint8Array | string;

const U64_MAX = 2n ** 64n - 1n;

/** Internal: normalises {@link BytesLike} to a fresh `Uint8Array`, optionally of an exact length. */
export function toBytes(value: unknown, path: string, code: TimelockErrorCode, length?: number): Uint8Array {
  let bytes: Uint8Array;
  if (value instanceof Uint8Array) bytes = Uint8Array.from(value);
  else if (typeof value === 'string') {
    const hex = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
    if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
      throw timelockError(code, 'expected bytes as a Uint8Array or an even-length hex string', { path, value });
    }
    bytes = hexToBytes(hex.toLowerCase());
  } else {
    throw timelockError(code, 'expected bytes as a Uint8Array or an even-length hex string', { path, value });
  }
  if (length !== undefined && bytes.length !== length) {
    throw timelockError(code, `expected exactly ${length} bytes, got ${bytes.length}`, {
      path,
      value: bytes.length,
      expectedLength: length,
    });
  }
  return bytes;
}

/** Internal: concatenates byte arrays. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Internal: constant-shape equality of two byte arrays. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Internal: XOR of two equal-length byte arrays. */
export function xorBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) ^ (b[i] ?? 0);
  return out;
}

/** Internal: a u64 as 8 bytes, little- or big-endian. */
export function u64Bytes(value: bigint, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, littleEndian);
  return out;
}

/**
 * Internal: parses an unsigned integer given as a safe-integer number or a bigint, within [min, max].
 */
export function toUint(value: unknown, path: string, code: TimelockErrorCode, min = 0n, max: bigint = U64_MAX): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  if (parsed === undefined) {
    throw timelockError(code, 'expected an integer (a safe-integer number or a bigint)', { path, value });
  }
  if (parsed < min || parsed > max) {
    throw timelockError(code, `expected an integer in [${min}, ${max}]`, { path, value });
  }
  return parsed;
}

/** Internal: like {@link toUint} for small integers returned as numbers. */
export function toSmallUint(value: unknown, path: string, code: TimelockErrorCode, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw timelockError(code, `expected an integer number in [${min}, ${max}]`, { path, value });
  }
  return value;
}

/** Internal: a finite number (NaN and ±Infinity rejected), at least `min`. */
export function toFinite(value: unknown, path: string, code: TimelockErrorCode, min: number, exclusiveMin = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (exclusiveMin && value === min)) {
    throw timelockError(code, `expected a finite number ${exclusiveMin ? '>' : '>='} ${min}`, { path, value });
  }
  return value;
}
