import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Internal (`#hash` under the `default` condition: browsers, Deno, Bun, workers): lowercase hex sha256
 * of the UTF-8 bytes of `text`, in pure JavaScript (@noble/hashes).
 *
 * @param text - well-formed text
 * @returns 64 lowercase hex characters
 * @example sha256Hex('abc') // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** Which implementation this is (for benchmarks and tests). */
export const HASH_IMPLEMENTATION = '@noble/hashes';
