import { blake2b } from '@noble/hashes/blake2.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';

import { BITTENSOR_SS58_PREFIX, decodeSs58, encodeSs58, hotkeySchema, isSubnetError, ss58Spelling } from '../index.js';

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
      why: expect.stringContaining('this is a 32-byte public key written in hex (0x and 64 hex digits), not its SS58 address'),
    });
    expect(ss58Spelling(encodeSs58(key).slice(0, -1) + 'A')).toMatchObject({ kind: 'not_ss58', why: expect.stringContaining('checksum') });
    expect(ss58Spelling('')).toMatchObject({ kind: 'not_ss58' });
  });
});

describe('an address whose first byte is 128 or more', () => {
  it('is refused in plain words: the byte, that no address starts so, and the address to use instead, under CORE_INVALID_SS58', () => {
    // Made by hand: first byte 200 (the SS58 format keeps 128-255 for formats it has not defined), a 32-byte key and two bytes.
    const text = base58.encode(Uint8Array.of(200, ...key, 0, 0));
    const why =
      "its first byte is 200, and no address starts so: an SS58 address's first byte holds its network prefix and is below 128 " +
      '(128 to 255 are kept for formats not defined yet), so this text is no account address of any network; ' +
      'use a Bittensor address (network prefix 42, starting with 5)';
    let caught: unknown;
    try {
      decodeSs58(text);
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, 'CORE_INVALID_SS58') && caught.message).toBe(
      `[CORE_INVALID_SS58] not a valid SS58 address: ${why} (got ${JSON.stringify(text)})`,
    );
    expect(ss58Spelling(text)).toMatchObject({ kind: 'not_ss58', why: expect.stringContaining(why) });
    const parsed = hotkeySchema.safeParse(text);
    expect(parsed.success ? 'accepted' : parsed.error.issues[0]?.message).toBe(`not a valid SS58 address: ${why}`);
    expect(why).not.toMatch(/reserved/);
  });
});

describe('text that is no SS58 address is refused in words that say what to fix', () => {
  const address = encodeSs58(key);
  const why = (text: string): string => {
    try {
      decodeSs58(text);
    } catch (error) {
      if (isSubnetError(error, 'CORE_INVALID_SS58')) return error.message;
      throw error;
    }
    throw new Error(`${text} was accepted`);
  };

  it('a character outside the base58 alphabet: which one, and where (counted from 1)', () => {
    // An O typed for a 0 is the classic slip; base58 has neither.
    const typo = `${address.slice(0, 9)}O${address.slice(10)}`;
    expect(why(typo)).toContain(
      'the character "O" at position 10 is not a base58 digit (an SS58 address is written with 1-9 and the letters but 0, O, I and l)',
    );
    expect(why(` ${address}`)).toContain('the character " " at position 1 is not a base58 digit');
    // Counted in characters, not UTF-16 units: the emoji is one.
    expect(why(`1😀${address}`)).toContain('the character "😀" at position 2 is not a base58 digit');
  });

  it('a public key in hex is named as such, with the form to write instead', () => {
    expect(why(`0x${'ab'.repeat(32)}`)).toContain(
      'this is a 32-byte public key written in hex (0x and 64 hex digits), not its SS58 address; write the key as its SS58 address (network prefix 42, starting with 5)',
    );
  });

  it('empty text is said to be empty', () => {
    expect(why('')).toBe('[CORE_INVALID_SS58] not a valid SS58 address: the text is empty (got "")');
  });

  it('a character missing or extra: the length in characters and in bytes, and what an address has', () => {
    expect(address).toHaveLength(48);
    expect(why(address.slice(0, -1))).toContain(
      'it is 47 characters long and decodes to 34 bytes, where the address of a 32-byte account decodes to 35 (36 with a two-byte network prefix): ' +
        'a character is missing or extra, or this is no account address (a Bittensor address is 48 characters and starts with 5)',
    );
    // Dropping a character changed the first byte too (here to 185): the length is what is wrong, not the network prefix.
    expect(why(address.slice(0, -1))).not.toContain('first byte');
    expect(why(`${address}1`)).toContain(
      'it is 49 characters long and decodes to 36 bytes, where the address of a 32-byte account with this first byte decodes to 35',
    );
  });

  it('one byte too few or too many for the first byte: the length for that network prefix', () => {
    // A one-byte prefix (42) with 33 bytes after it: 36 bytes, where that first byte makes 35.
    const text = base58.encode(Uint8Array.of(42, ...key, 0, 0, 0));
    expect(why(text)).toContain('decodes to 36 bytes, where the address of a 32-byte account with this first byte decodes to 35');
  });

  it('a mistyped or swapped character: the checksum, in words', () => {
    // Two neighbouring characters swapped keep the length and the alphabet; only the checksum tells.
    const at = address.split('').findIndex((c, i) => i > 2 && c !== address[i + 1]);
    const swapped = `${address.slice(0, at)}${address[at + 1] ?? ''}${address[at] ?? ''}${address.slice(at + 2)}`;
    expect(why(swapped)).toContain(
      'its last two bytes, the checksum, do not match the rest: a character is mistyped or two are swapped; copy the address again from where it was made',
    );
  });
});
