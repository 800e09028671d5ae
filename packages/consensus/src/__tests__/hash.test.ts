import { createHash } from 'node:crypto';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import * as resolved from '#hash';

import * as nodeHash from '../hash/sha256-node.js';
import * as portableHash from '../hash/sha256-portable.js';

// The oracle is node:crypto's streaming Hash object, used by neither implementation.
const oracle = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('#hash: one sha256, two implementations chosen by export condition', () => {
  it('resolves to node:crypto under the node condition (what tests and Node.js use)', () => {
    expect(resolved.HASH_IMPLEMENTATION).toBe('node:crypto');
  });

  it('node:crypto one-shot and the portable @noble/hashes give the oracle bytes on random well-formed text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const expected = oracle(text);
        expect(nodeHash.sha256Hex(text)).toBe(expected);
        expect(portableHash.sha256Hex(text)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('FIPS 180-2 vector: sha256("abc")', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(nodeHash.sha256Hex('abc')).toBe(abc);
    expect(portableHash.sha256Hex('abc')).toBe(abc);
  });
});
