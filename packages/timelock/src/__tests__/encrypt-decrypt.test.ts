import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  beaconKeyFromSeed,
  CIPHERTEXT_OVERHEAD_BYTES,
  decryptWithSignature,
  encryptForRound,
  parseCiphertext,
  QUICKNET,
  serializeCiphertext,
  signRound,
} from '../index.js';
import vectors from './fixtures/tle-vectors.json' with { type: 'json' };
import { thrown } from './helpers.js';

const dev = beaconKeyFromSeed('timelock tests');
const devBeacon = { publicKey: dev.publicKey, genesisTime: 0, period: 3 };
const ref = vectors.ciphertexts.find((c) => c.id === 'ref-r2000-weights-payload')!;
const refBytes = hexToBytes(ref.ciphertext_hex);
const refSignature = ref.decrypt_with_signature;
const n = ref.plaintext_hex.length / 2;

function tampered(offset: number, mask = 0x01): Uint8Array {
  const copy = Uint8Array.from(refBytes);
  copy[offset] = (copy[offset] ?? 0) ^ mask;
  return copy;
}

describe('round trips', () => {
  it('encrypt then decrypt returns the message for any length 0..600 (fast-check, dev beacon)', () => {
    const pulse = signRound(dev.secretKey, 77n);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 600 }), (message) => {
        const commit = encryptForRound({ message, round: 77n, beacon: devBeacon });
        expect(commit.length).toBe(CIPHERTEXT_OVERHEAD_BYTES + message.length);
        expect(bytesToHex(decryptWithSignature(commit, pulse.signature))).toBe(bytesToHex(message));
      }),
      { numRuns: 6, seed: 11 },
    );
  });

  it('default randomness differs between two encryptions of the same message', () => {
    const message = new TextEncoder().encode('same');
    const a = encryptForRound({ message, round: 5n, beacon: QUICKNET });
    const b = encryptForRound({ message, round: 5n, beacon: QUICKNET });
    expect(bytesToHex(a.subarray(0, 96))).not.toBe(bytesToHex(b.subarray(0, 96)));
  });

  it('a quicknet ciphertext for round 1000 opens with the real round-1000 quicknet signature', () => {
    const message = new TextEncoder().encode('hello quicknet');
    const commit = encryptForRound({ message, round: 1000, beacon: QUICKNET });
    const sig = vectors.pulses.find((p) => p.beacon === 'quicknet' && p.round === 1000)!.signature;
    expect(new TextDecoder().decode(decryptWithSignature(commit, sig))).toBe('hello quicknet');
  });

  it('decryptWithSignature accepts a parsed ciphertext as well as bytes', () => {
    expect(bytesToHex(decryptWithSignature(parseCiphertext(refBytes), refSignature))).toBe(ref.plaintext_hex);
  });
});

describe('wrong signature', () => {
  it('a ciphertext for round 77 does not open with the round-78 signature (TIMELOCK_DECRYPTION_FAILED, stage ibe)', () => {
    const commit = encryptForRound({ message: Uint8Array.of(1, 2, 3), round: 77n, beacon: devBeacon });
    const error = thrown(() => decryptWithSignature(commit, signRound(dev.secretKey, 78n).signature));
    expect(error.code).toBe('TIMELOCK_DECRYPTION_FAILED');
    expect(error.context.stage).toBe('ibe');
  });

  it('a ciphertext for the dev beacon does not open with another key’s signature of the same round', () => {
    const other = beaconKeyFromSeed('another beacon');
    const commit = encryptForRound({ message: Uint8Array.of(9), round: 77n, beacon: devBeacon });
    expect(thrown(() => decryptWithSignature(commit, signRound(other.secretKey, 77n).signature)).code).toBe('TIMELOCK_DECRYPTION_FAILED');
  });

  it('a 47-byte signature is TIMELOCK_INVALID_PULSE naming the path signature', () => {
    const error = thrown(() => decryptWithSignature(refBytes, hexToBytes(refSignature).subarray(0, 47)));
    expect(error.code).toBe('TIMELOCK_INVALID_PULSE');
    expect(error.context.path).toBe('signature');
  });
});

describe('tampered ciphertexts are rejected (ref-r2000-weights-payload, n = 59)', () => {
  it('U: a flipped bit makes U not a subgroup point (TIMELOCK_INVALID_CIPHERTEXT at ciphertext.u)', () => {
    const error = thrown(() => decryptWithSignature(tampered(50), refSignature));
    expect(error.code).toBe('TIMELOCK_INVALID_CIPHERTEXT');
    expect(error.context.path).toBe('ciphertext.u');
  });

  it('U: another valid G2 point in place of U fails the FO check (TIMELOCK_DECRYPTION_FAILED)', () => {
    const copy = Uint8Array.from(refBytes);
    copy.set(hexToBytes(vectors.ciphertexts[0]!.ciphertext_hex).subarray(0, 96), 0);
    const error = thrown(() => decryptWithSignature(copy, refSignature));
    expect(error.code).toBe('TIMELOCK_DECRYPTION_FAILED');
    expect(error.context.stage).toBe('ibe');
  });

  const regions: [string, number, string][] = [
    ['V', 104 + 5, 'ibe'],
    ['W', 144 + 5, 'ibe'],
    ['body (AES ciphertext)', 192 + 3, 'aes'],
    ['tag', 192 + n + 4, 'aes'],
    ['nonce', 216 + n + 2, 'aes'],
  ];
  for (const [region, offset, stage] of regions) {
    it(`${region}: a flipped bit at byte ${offset} is TIMELOCK_DECRYPTION_FAILED (stage ${stage})`, () => {
      const error = thrown(() => decryptWithSignature(tampered(offset), refSignature));
      expect(error.code).toBe('TIMELOCK_DECRYPTION_FAILED');
      expect(error.context.stage).toBe(stage);
    });
  }

  it('suite: "AES_GCM_" changed to "AES_GCM-" is TIMELOCK_INVALID_CIPHERTEXT at ciphertext.cipherSuite', () => {
    const copy = Uint8Array.from(refBytes);
    copy[refBytes.length - 1] = 0x2d;
    const error = thrown(() => decryptWithSignature(copy, refSignature));
    expect(error.code).toBe('TIMELOCK_INVALID_CIPHERTEXT');
    expect(error.context.path).toBe('ciphertext.cipherSuite');
  });

  it('suite: chainCompatible ignores the label, as tle `tld` does, and decrypts', () => {
    const copy = Uint8Array.from(refBytes);
    copy[refBytes.length - 1] = 0x2d;
    expect(bytesToHex(decryptWithSignature(copy, refSignature, { chainCompatible: true }))).toBe(ref.plaintext_hex);
  });

  const lengths: [string, number, string][] = [
    ['len(V)', 96, 'ciphertext.v.length'],
    ['len(W)', 136, 'ciphertext.w.length'],
    // body one byte shorter: the shortfall shows when the nonce is read
    ['len(body)', 176, 'ciphertext.body.nonce.length'],
    // aes part one byte shorter: the nonce prefix is then read one byte early, misaligned
    ['len(aes)', 184, 'ciphertext.body.nonce.length'],
    ['len(nonce)', 208 + n, 'ciphertext.body.nonce.length'],
    ['len(suite)', 228 + n, 'ciphertext.cipherSuite.length'],
  ];
  for (const [field, offset, path] of lengths) {
    it(`${field}: a length prefix off by 1 is TIMELOCK_INVALID_CIPHERTEXT at ${path}`, () => {
      const error = thrown(() => parseCiphertext(tampered(offset, 0x01)));
      expect(error.code).toBe('TIMELOCK_INVALID_CIPHERTEXT');
      expect(error.context.path).toBe(path);
    });
  }

  it('a length prefix of 2^63 is rejected without allocating', () => {
    const error = thrown(() => parseCiphertext(tampered(96 + 7, 0x80)));
    expect(error.code).toBe('TIMELOCK_INVALID_CIPHERTEXT');
    expect(error.context.path).toBe('ciphertext.v.length');
  });

  it('truncation at every byte boundary is rejected', () => {
    for (let cut = 0; cut < refBytes.length; cut += 7) {
      expect(thrown(() => parseCiphertext(refBytes.subarray(0, cut))).code).toBe('TIMELOCK_INVALID_CIPHERTEXT');
    }
  });

  it('a trailing byte is rejected in strict mode and ignored in chainCompatible mode (arkworks reads from a reader)', () => {
    const longer = Uint8Array.from([...refBytes, 0]);
    expect(thrown(() => parseCiphertext(longer)).code).toBe('TIMELOCK_INVALID_CIPHERTEXT');
    expect(bytesToHex(serializeCiphertext(parseCiphertext(longer, { chainCompatible: true })))).toBe(ref.ciphertext_hex);
  });

  it('the identity point as U is rejected', () => {
    const copy = Uint8Array.from(refBytes);
    copy.fill(0, 0, 96);
    copy[0] = 0xc0;
    expect(thrown(() => parseCiphertext(copy)).context.path).toBe('ciphertext.u');
  });
});

describe('encryptForRound input errors', () => {
  it('round 0 is TIMELOCK_INVALID_INPUT (drand rounds start at 1)', () => {
    const error = thrown(() => encryptForRound({ message: Uint8Array.of(), round: 0, beacon: QUICKNET }));
    expect(error.code).toBe('TIMELOCK_INVALID_INPUT');
    expect(error.context.path).toBe('round');
  });

  it('round 2^64 is TIMELOCK_INVALID_INPUT', () => {
    expect(thrown(() => encryptForRound({ message: Uint8Array.of(), round: 2n ** 64n, beacon: QUICKNET })).code).toBe('TIMELOCK_INVALID_INPUT');
  });

  it('a 95-byte public key is TIMELOCK_INVALID_BEACON at beacon.publicKey', () => {
    const error = thrown(() => encryptForRound({ message: Uint8Array.of(), round: 1, beacon: { publicKey: new Uint8Array(95) } }));
    expect(error.code).toBe('TIMELOCK_INVALID_BEACON');
    expect(error.context.path).toBe('beacon.publicKey');
  });

  it('a public key that is not a curve point is TIMELOCK_INVALID_BEACON', () => {
    const bad = hexToBytes(QUICKNET.publicKey);
    bad[40] = (bad[40] ?? 0) ^ 0xff;
    expect(thrown(() => encryptForRound({ message: Uint8Array.of(), round: 1, beacon: { publicKey: bad } })).code).toBe('TIMELOCK_INVALID_BEACON');
  });

  it('an 11-byte injected nonce is TIMELOCK_INVALID_INPUT at randomness.nonce', () => {
    const error = thrown(() =>
      encryptForRound({
        message: Uint8Array.of(),
        round: 1,
        beacon: QUICKNET,
        randomness: { esk: new Uint8Array(32), sigma: new Uint8Array(32), nonce: new Uint8Array(11) },
      }),
    );
    expect(error.code).toBe('TIMELOCK_INVALID_INPUT');
    expect(error.context.path).toBe('randomness.nonce');
  });

  it('a string message is TIMELOCK_INVALID_INPUT (no silent UTF-8 coercion)', () => {
    expect(thrown(() => encryptForRound({ message: 'hi' as unknown as Uint8Array, round: 1, beacon: QUICKNET })).context.path).toBe('message');
  });
});
