import { hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';

import { beaconKeyFromSeed, encryptForRound, encryptWeightsCommit, roundAtTime, timeOfRound } from '../index.js';
import { encodeCompactU32, ScaleReader } from '../scale.js';
import { thrown } from './helpers.js';

/** A null where an object belongs is a coded error naming it (a TypeError was one mistyped `&&` away). */

const beacon = { publicKey: beaconKeyFromSeed('input shapes').publicKey };

describe('null for an input object or a beacon', () => {
  it('encryptForRound(null) and encryptWeightsCommit(null): TIMELOCK_INVALID_INPUT at input', () => {
    for (const call of [() => encryptForRound(null as never), () => encryptWeightsCommit(null as never)]) {
      const error = thrown(call);
      expect([error.code, error.context['path']]).toEqual(['TIMELOCK_INVALID_INPUT', 'input']);
    }
  });

  it('a null beacon schedule: TIMELOCK_INVALID_BEACON at beacon', () => {
    for (const call of [() => roundAtTime(1_700_000_000, null as never), () => timeOfRound(5n, null as never)]) {
      const error = thrown(call);
      expect([error.code, error.context['path']]).toEqual(['TIMELOCK_INVALID_BEACON', 'beacon']);
    }
  });

  it('the inputs are otherwise taken (the checks above are not blanket refusals)', () => {
    const hotkey = hexToBytes('d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d');
    expect(encryptWeightsCommit({ hotkeyPublicKey: hotkey, uids: [1], values: [65535], versionKey: 4n, round: 10n, beacon }).commit.length).toBeGreaterThan(
      244,
    );
  });
});

describe('Compact<u32> decoding at the mode boundaries, as parity-scale-codec', () => {
  it('2^30, the smallest value of the big-integer mode, decodes; 2^30 - 1 spelled in that mode is non-canonical', () => {
    expect(new ScaleReader(encodeCompactU32(2 ** 30)).compactU32('n')).toBe(2 ** 30);
    expect(new ScaleReader(encodeCompactU32(2 ** 32 - 1)).compactU32('n')).toBe(2 ** 32 - 1);
    const below = Uint8Array.of(0b11, 0xff, 0xff, 0xff, 0x3f);
    expect(() => new ScaleReader(below).compactU32('n')).toThrow('n: non-canonical compact encoding');
  });

  it('each lower mode: its smallest value decodes, and one below it spelled in that mode is refused', () => {
    expect(new ScaleReader(encodeCompactU32(1 << 6)).compactU32('n')).toBe(1 << 6);
    expect(new ScaleReader(encodeCompactU32(1 << 14)).compactU32('n')).toBe(1 << 14);
    expect(() => new ScaleReader(Uint8Array.of(((63 << 2) | 1) & 0xff, 0)).compactU32('n')).toThrow('non-canonical');
    const v = (((1 << 14) - 1) << 2) | 2;
    expect(() => new ScaleReader(Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, 0, 0)).compactU32('n')).toThrow('non-canonical');
  });
});
