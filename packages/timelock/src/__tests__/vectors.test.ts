import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import {
  beaconKeyFromSeed,
  decodeWeightsPayload,
  decryptWithSignature,
  encodeWeightsPayload,
  encryptForRound,
  identityForRound,
  parseCiphertext,
  publicKeyFromSecret,
  QUICKNET,
  revealRoundLegacy,
  serializeCiphertext,
  signRound,
  verifyPulse,
} from '../index.js';
import vectors from './fixtures/tle-vectors.json' with { type: 'json' };

const beacons: Record<string, { public_key: string }> = vectors.beacons;
const beaconOf = (name: string) => ({ publicKey: beacons[name]!.public_key });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isSubnetError(error) ? error.code : 'not a SubnetError';
  }
  return undefined;
}

describe('beacons in tle-vectors.json', () => {
  it('QUICKNET constants equal the vectors file (subtensor DefaultBeaconConfig)', () => {
    const q = vectors.beacons.quicknet;
    expect(QUICKNET.publicKey).toBe(q.public_key);
    expect(QUICKNET.genesisTime).toBe(q.genesis_time);
    expect(QUICKNET.period).toBe(q.period);
    expect(QUICKNET.chainHash).toBe(q.chain_hash);
    expect(QUICKNET.groupHash).toBe(q.group_hash);
    expect(QUICKNET.schemeId).toBe(q.scheme_id);
  });

  it('local-dev key: sk = sha256("crv4 local dev beacon secret") mod r, pk = sk * G2', () => {
    const dev = vectors.beacons['local-dev'];
    const pair = beaconKeyFromSeed('crv4 local dev beacon secret');
    expect(bytesToHex(pair.secretKey)).toBe(dev.secret_key_scalar_hex);
    expect(bytesToHex(pair.publicKey)).toBe(dev.public_key);
    expect(bytesToHex(publicKeyFromSecret(dev.secret_key_scalar_hex))).toBe(dev.public_key);
  });
});

describe('pulses in tle-vectors.json', () => {
  for (const pulse of vectors.pulses) {
    it(`${pulse.beacon} round ${pulse.round} verifies and randomness = sha256(signature)`, () => {
      const result = verifyPulse({ round: BigInt(pulse.round), signature: pulse.signature, randomness: pulse.randomness }, beaconOf(pulse.beacon));
      expect(result.verdict).toBe('ok');
      expect(result.valid).toBe(true);
      expect(bytesToHex(result.expectedRandomness)).toBe(pulse.randomness);
      if ('message_sha256_round_be' in pulse) {
        expect(bytesToHex(identityForRound(pulse.round))).toBe(pulse.message_sha256_round_be);
      }
    });
  }

  for (const pulse of vectors.pulses.filter((p) => p.beacon === 'local-dev')) {
    it(`signRound with the local-dev key reproduces round ${pulse.round} byte for byte`, () => {
      const signed = signRound(vectors.beacons['local-dev'].secret_key_scalar_hex, pulse.round);
      expect(signed.round).toBe(BigInt(pulse.round));
      expect(bytesToHex(signed.signature)).toBe(pulse.signature);
      expect(bytesToHex(signed.randomness)).toBe(pulse.randomness);
    });
  }

  it('a quicknet pulse does not verify for another round (signature_mismatch)', () => {
    const p = vectors.pulses[0]!;
    expect(verifyPulse({ round: BigInt(p.round) + 1n, signature: p.signature }, QUICKNET).verdict).toBe('signature_mismatch');
  });

  it('a quicknet pulse does not verify under the local-dev key (signature_mismatch)', () => {
    const p = vectors.pulses[0]!;
    expect(verifyPulse({ round: BigInt(p.round), signature: p.signature }, beaconOf('local-dev')).verdict).toBe('signature_mismatch');
  });
});

describe('ciphertexts in tle-vectors.json', () => {
  for (const c of vectors.ciphertexts) {
    it(`${c.id}: decrypts to its plaintext with the round-${c.round} signature`, () => {
      expect(c.ciphertext_hex.length / 2).toBe(c.ciphertext_len);
      expect(bytesToHex(identityForRound(c.round))).toBe(c.identity_hex);
      const plaintext = decryptWithSignature(c.ciphertext_hex, c.decrypt_with_signature);
      expect(bytesToHex(plaintext)).toBe(c.plaintext_hex);
    });

    it(`${c.id}: parses into the recorded U, V, W, nonce, AES ciphertext and suite, and re-serialises`, () => {
      const parsed = parseCiphertext(c.ciphertext_hex);
      const i = c.intermediates_recomputed_by_noble_poc;
      expect(bytesToHex(parsed.u)).toBe(i.U);
      expect(bytesToHex(parsed.v)).toBe(i.V);
      expect(bytesToHex(parsed.w)).toBe(i.W);
      expect(bytesToHex(parsed.nonce)).toBe(i.aes_nonce);
      expect(bytesToHex(parsed.aesCiphertext)).toBe(i.aes_ciphertext_and_tag);
      expect(new TextDecoder().decode(parsed.cipherSuite)).toBe(i.cipher_suite_utf8);
      expect(bytesToHex(serializeCiphertext(parsed))).toBe(c.ciphertext_hex);
    });

    it(`${c.id}: re-encrypts byte for byte from its esk, sigma and nonce`, () => {
      const i = c.intermediates_recomputed_by_noble_poc;
      const fixed = 'fixed_inputs' in c ? c.fixed_inputs : undefined;
      const out = encryptForRound({
        message: hexToBytes(c.plaintext_hex),
        round: c.round,
        beacon: beaconOf(c.beacon),
        randomness: { esk: fixed?.esk_aes_key ?? i.esk_aes_key, sigma: fixed?.sigma ?? i.sigma, nonce: fixed?.aes_nonce ?? i.aes_nonce },
      });
      expect(bytesToHex(out)).toBe(c.ciphertext_hex);
    });
  }
});

describe('negative vectors in tle-vectors.json', () => {
  it('neg-new-timelock-0.3-format: the 242-byte newer format is rejected as TIMELOCK_INVALID_CIPHERTEXT', () => {
    const n = vectors.negatives.find((x) => x.id === 'neg-new-timelock-0.3-format')!;
    expect(codeOf(() => parseCiphertext(n.ciphertext_hex!))).toBe('TIMELOCK_INVALID_CIPHERTEXT');
    expect(codeOf(() => decryptWithSignature(n.ciphertext_hex!, n.decrypt_with_signature!))).toBe('TIMELOCK_INVALID_CIPHERTEXT');
    expect(codeOf(() => parseCiphertext(n.ciphertext_hex!, { chainCompatible: true }))).toBe('TIMELOCK_INVALID_CIPHERTEXT');
  });

  it('neg-wrong-round-signature: the round-2000 signature fails the FO check on a round-1000 ciphertext', () => {
    const n = vectors.negatives.find((x) => x.id === 'neg-wrong-round-signature')!;
    const c = vectors.ciphertexts.find((x) => x.id === n.ciphertext_ref)!;
    let caught: unknown;
    try {
      decryptWithSignature(c.ciphertext_hex, n.decrypt_with_signature!);
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, 'TIMELOCK_DECRYPTION_FAILED')).toBe(true);
    expect((caught as { context: { stage: string } }).context.stage).toBe('ibe');
  });

  it('neg-invalid-pulse-not-on-curve: verdict malformed_signature, decrypt throws TIMELOCK_INVALID_PULSE', () => {
    const n = vectors.negatives.find((x) => x.id === 'neg-invalid-pulse-not-on-curve')!;
    const result = verifyPulse({ round: n.round!, signature: n.signature!, randomness: n.randomness! }, QUICKNET);
    expect(result.valid).toBe(false);
    expect(result.verdict).toBe('malformed_signature');
    expect(codeOf(() => decryptWithSignature(vectors.ciphertexts[0]!.ciphertext_hex, n.signature!))).toBe('TIMELOCK_INVALID_PULSE');
  });
});

describe('SCALE payload vector', () => {
  const p = vectors.scale_payloads[0]!;
  it('payload-alice-4uids encodes to the recorded 59 bytes and decodes back', () => {
    const encoded = encodeWeightsPayload({
      hotkey: hexToBytes(p.fields.hotkey_hex),
      uids: p.fields.uids,
      values: p.fields.values,
      versionKey: BigInt(p.fields.version_key),
    });
    expect(bytesToHex(encoded)).toBe(p.encoded_hex);
    expect(encoded.length).toBe(p.encoded_len);
    const decoded = decodeWeightsPayload(encoded);
    expect(bytesToHex(decoded.hotkey)).toBe(p.fields.hotkey_hex);
    expect(decoded.uids).toEqual(p.fields.uids);
    expect(decoded.values).toEqual(p.fields.values);
    expect(decoded.versionKey).toBe(4n);
  });

  it('the Alice SS58 address encodes to the same payload as her public key', () => {
    const encoded = encodeWeightsPayload({
      hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
      uids: p.fields.uids,
      values: p.fields.values,
      versionKey: 4,
    });
    expect(bytesToHex(encoded)).toBe(p.encoded_hex);
  });
});

describe('reveal_round_example', () => {
  it('bittensor-drand generate_commit example gives the recorded round', () => {
    const { inputs, reveal_round } = vectors.reveal_round_example;
    const prediction = revealRoundLegacy({
      block: inputs.currentBlock,
      netuid: inputs.netuid,
      tempo: inputs.tempo,
      revealPeriod: inputs.revealPeriodEpochs,
      nowSeconds: inputs.nowSecs,
      blockTimeSeconds: inputs.blockTimeSecs,
      beacon: QUICKNET,
    });
    expect(prediction.round).toBe(BigInt(reveal_round));
  });
});
