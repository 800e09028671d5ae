import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';

import {
  assertValidPulse,
  beaconKeyFromSeed,
  DRAND_G1_DST,
  publicKeyFromSecret,
  QUICKNET,
  roundAtTime,
  signRound,
  timeOfRound,
  verifyPulse,
} from '../index.js';
import { thrown } from './helpers.js';

describe('beacon schedule', () => {
  it('round 1 is emitted at genesis and round r at genesis + (r - 1) * period', () => {
    expect(timeOfRound(1, QUICKNET)).toBe(1_692_803_367n);
    expect(timeOfRound(1000n, QUICKNET)).toBe(1_692_803_367n + 999n * 3n);
    expect(roundAtTime(1_692_803_367, QUICKNET)).toBe(1n);
    expect(roundAtTime(1_692_803_369.9, QUICKNET)).toBe(1n);
    expect(roundAtTime(1_692_803_370, QUICKNET)).toBe(2n);
    expect(roundAtTime(0, QUICKNET)).toBe(0n);
  });

  it('period 0 is TIMELOCK_INVALID_BEACON at beacon.period', () => {
    const error = thrown(() => roundAtTime(5, { genesisTime: 0, period: 0 }));
    expect(error.code).toBe('TIMELOCK_INVALID_BEACON');
    expect(error.context.path).toBe('beacon.period');
  });
});

describe('dev beacon', () => {
  const key = beaconKeyFromSeed('beacon tests');

  it('signRound agrees with noble’s own short-signature BLS over sha256(u64 BE round) with the drand DST', () => {
    const pulse = signRound(key.secretKey, 99n);
    const message = sha256(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 99));
    const nobleSig = bls12_381.shortSignatures.sign(bls12_381.shortSignatures.hash(message, DRAND_G1_DST), key.secretKey);
    expect(bytesToHex(pulse.signature)).toBe(bytesToHex(nobleSig.toBytes(true)));
    expect(bytesToHex(pulse.randomness)).toBe(bytesToHex(sha256(nobleSig.toBytes(true))));
  });

  it('signed pulses verify against the dev public key, and not against quicknet', () => {
    const pulse = signRound(key.secretKey, 12345n);
    expect(verifyPulse(pulse, { publicKey: key.publicKey }).valid).toBe(true);
    expect(verifyPulse(pulse, QUICKNET).verdict).toBe('signature_mismatch');
  });

  it('a wrong randomness is verdict randomness_mismatch; assertValidPulse throws TIMELOCK_INVALID_PULSE at pulse.randomness', () => {
    const pulse = signRound(key.secretKey, 5n);
    const forged = { ...pulse, randomness: new Uint8Array(32) };
    expect(verifyPulse(forged, { publicKey: key.publicKey }).verdict).toBe('randomness_mismatch');
    const error = thrown(() => assertValidPulse(forged, { publicKey: key.publicKey }));
    expect(error.code).toBe('TIMELOCK_INVALID_PULSE');
    expect(error.context.path).toBe('pulse.randomness');
  });

  it('assertValidPulse returns the normalised pulse with randomness = sha256(signature)', () => {
    const pulse = signRound(key.secretKey, 6n);
    const checked = assertValidPulse({ round: 6, signature: bytesToHex(pulse.signature) }, { publicKey: key.publicKey });
    expect(checked.round).toBe(6n);
    expect(bytesToHex(checked.randomness)).toBe(bytesToHex(pulse.randomness));
  });

  it('a secret key of 0 or >= r is TIMELOCK_INVALID_SECRET_KEY and the message does not echo the key', () => {
    const r = bls12_381.fields.Fr.ORDER;
    const rBytes = r.toString(16).padStart(64, '0');
    for (const sk of ['00'.repeat(32), rBytes]) {
      const error = thrown(() => publicKeyFromSecret(sk));
      expect(error.code).toBe('TIMELOCK_INVALID_SECRET_KEY');
      expect(error.message).not.toContain(sk);
    }
  });

  it('a 31-byte secret key is TIMELOCK_INVALID_SECRET_KEY reporting only its length', () => {
    const error = thrown(() => signRound(new Uint8Array(31).fill(7), 1n));
    expect(error.code).toBe('TIMELOCK_INVALID_SECRET_KEY');
    expect(error.context.value).toBe(31);
  });
});
