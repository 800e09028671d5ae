import { createHash } from 'node:crypto';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { portableSha256Hex, sha256IsNative } from '../canonical-json.js';
import { sha256Hex } from '../index.js';

// Text with every kind of code unit a string can hold, lone surrogates included (each encodes as U+FFFD).
const units = ['a', 'é', '\u0000', '\u07ff', '\u0800', '\uFFFF', '\uE000', '\uD83D', '\uDE00', '\uD83D\uDE00', '\uDBFF\uDFFF', '"', '\\'];
const text = fc.array(fc.constantFrom(...units), { maxLength: 64 }).map((parts) => parts.join(''));

describe('sha256Hex on Node.js', () => {
  it('uses the native hash where the runtime offers one (Node.js >= 20.16 has process.getBuiltinModule)', () => {
    expect(sha256IsNative).toBe(typeof process.getBuiltinModule === 'function');
  });

  it('gives the NIST digests of "abc" and of the empty string on both paths', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    const empty = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect([sha256Hex('abc'), portableSha256Hex('abc')]).toEqual([abc, abc]);
    expect([sha256Hex(''), portableSha256Hex(new Uint8Array(0))]).toEqual([empty, empty]);
  });

  it('hashes the same UTF-8 bytes as the portable hash for any text, lone surrogates included', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(sha256Hex(s)).toBe(portableSha256Hex(s));
        expect(sha256Hex(s)).toBe(createHash('sha256').update(new TextEncoder().encode(s)).digest('hex'));
      }),
      { numRuns: 500 },
    );
  });

  it('hashes bytes as given, whatever view of a buffer they are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(16), (bytes, offset) => {
        const backing = new Uint8Array(bytes.length + offset + 3);
        backing.set(bytes, offset);
        const view = backing.subarray(offset, offset + bytes.length);
        expect(sha256Hex(view)).toBe(portableSha256Hex(bytes));
      }),
      { numRuns: 300 },
    );
  });
});
