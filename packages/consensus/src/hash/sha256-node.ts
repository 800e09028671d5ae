import { hash } from 'node:crypto';

/**
 * Internal (`#hash` under the `node` condition): lowercase hex sha256 of the UTF-8 bytes of `text`, by
 * node:crypto's one-shot `hash` (OpenSSL, no Hash object per call). Gives the same bytes as the portable
 * implementation in `sha256-portable.ts` (`hash.test.ts` checks both on random text).
 *
 * @param text - well-formed text
 * @returns 64 lowercase hex characters
 * @example sha256Hex('abc') // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Which implementation this is (for benchmarks and tests). */
export const HASH_IMPLEMENTATION = 'node:crypto';
