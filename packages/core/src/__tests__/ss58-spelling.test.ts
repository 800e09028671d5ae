import { blake2b } from '@noble/hashes/blake2.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';

import { BITTENSOR_SS58_PREFIX, encodeSs58, ss58Spelling } from '../index.js';

// The one spelling of a key that Bittensor writes: SS58, prefix 42, one-byte form. The addresses are made by
// encodeSs58 for prefixes 0, 2 and 42, and by hand for 42's two-byte form (the prefix bytes of the SS58 format).
const key = Uint8Array.from({ length: 32 }, (_, i) => i + 1);

describe('ss58Spelling', () => {
  it('is canonical for prefix 42 in its one-byte form, with the public key', () => {
    expect(ss58Spelling(encodeSs58(key))).toEqual({ kind: 'canonical', publicKey: key });
  });

  it.each([0, 2])('names prefix %i and the address to send instead', (prefix) => {
    expect(ss58Spelling(encodeSs58(key, prefix))).toEqual({ kind: 'wrong_prefix', found: `prefix ${prefix}`, canonical: encodeSs58(key), publicKey: key });
  });

  it("names 42's two-byte form", () => {
    // Prefix 42 written in two bytes, by hand from the SS58 rules, with its checksum.
    const body = Uint8Array.of(0b0100_0000 | (BITTENSOR_SS58_PREFIX >> 2), (BITTENSOR_SS58_PREFIX & 0b11) << 6, ...key);
    const sum = blake2b(Uint8Array.of(...new TextEncoder().encode('SS58PRE'), ...body), { dkLen: 64 }).subarray(0, 2);
    const twoByte = base58.encode(Uint8Array.of(...body, ...sum));
    expect(ss58Spelling(twoByte)).toEqual({ kind: 'wrong_prefix', found: 'prefix 42 in its two-byte form', canonical: encodeSs58(key), publicKey: key });
  });

  it('says what is wrong with text that is no SS58 address of a 32-byte key, without throwing', () => {
    expect(ss58Spelling('0x' + '11'.repeat(32))).toMatchObject({
      kind: 'not_ss58',
      why: expect.stringContaining('it contains characters outside the base58 alphabet'),
    });
    expect(ss58Spelling(encodeSs58(key).slice(0, -1) + 'A')).toMatchObject({ kind: 'not_ss58', why: expect.stringContaining('checksum') });
    expect(ss58Spelling('')).toMatchObject({ kind: 'not_ss58' });
  });
});
