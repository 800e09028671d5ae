import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  beaconKeyFromSeed,
  CIPHERTEXT_OVERHEAD_BYTES,
  decodeWeightsPayload,
  decryptWithSignature,
  encodeWeightsPayload,
  encryptForRound,
  encryptWeightsCommit,
  MAX_COMMIT_BYTES,
  MAX_COMMIT_UIDS,
  revealWeightsCommit,
  signRound,
} from '../index.js';
import { thrown } from './helpers.js';

const ALICE = hexToBytes('d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d');
const BOB = hexToBytes('8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48');
const dev = beaconKeyFromSeed('weights tests');
const beacon = { publicKey: dev.publicKey };
const ROUND = 4242n;
const pulse = signRound(dev.secretKey, ROUND);

describe('WeightsTlockPayload SCALE', () => {
  it('round trips any hotkey/uids/values/version key (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 0, max: 65535 })), { maxLength: 300 }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        (hotkey, pairs, versionKey) => {
          const uids = pairs.map((p) => p[0]);
          const values = pairs.map((p) => p[1]);
          const bytes = encodeWeightsPayload({ hotkey, uids, values, versionKey });
          // compact(32) + 32 + compact(n) + 2n + compact(n) + 2n + 8, compact(n) = 1 byte below 64, else 2
          const compact = pairs.length < 64 ? 1 : 2;
          expect(bytes.length).toBe(1 + 32 + 2 * (compact + 2 * pairs.length) + 8);
          const decoded = decodeWeightsPayload(bytes);
          expect(bytesToHex(decoded.hotkey)).toBe(bytesToHex(hotkey));
          expect(decoded.uids).toEqual(uids);
          expect(decoded.values).toEqual(values);
          expect(decoded.versionKey).toBe(versionKey);
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });

  it('compact lengths: 63 -> fc, 64 -> 0101, 16383 -> fdff, 16384 -> 02000100 (hand-encoded)', () => {
    const cases: [number, string][] = [
      [63, 'fc'],
      [64, '0101'],
      [16383, 'fdff'],
      [16384, '02000100'],
    ];
    for (const [n, prefix] of cases) {
      const bytes = encodeWeightsPayload({ hotkey: ALICE, uids: new Array<number>(n).fill(0), values: new Array<number>(n).fill(0), versionKey: 0 });
      expect(bytesToHex(bytes.subarray(33, 33 + prefix.length / 2))).toBe(prefix);
    }
  });

  it('a non-canonical compact length (2-byte form of 1) is TIMELOCK_INVALID_PAYLOAD, as parity-scale-codec rejects it', () => {
    // hotkey length 32 = 0x80; uids length 1 written as 0x0500 instead of 0x04
    const bytes = hexToBytes(`80${'00'.repeat(32)}0500` + '0100' + '04' + '0200' + '00'.repeat(8));
    const error = thrown(() => decodeWeightsPayload(bytes));
    expect(error.code).toBe('TIMELOCK_INVALID_PAYLOAD');
    expect(error.context.path).toBe('payload.uids.length');
  });

  it('trailing bytes: rejected by default, ignored with allowTrailingBytes', () => {
    const bytes = encodeWeightsPayload({ hotkey: ALICE, uids: [1], values: [2], versionKey: 3 });
    const longer = Uint8Array.from([...bytes, 9]);
    expect(thrown(() => decodeWeightsPayload(longer)).code).toBe('TIMELOCK_INVALID_PAYLOAD');
    expect(decodeWeightsPayload(longer, { allowTrailingBytes: true }).versionKey).toBe(3n);
  });

  it('uid 65536 is TIMELOCK_INVALID_PAYLOAD at payload.uids[1]', () => {
    const error = thrown(() => encodeWeightsPayload({ hotkey: ALICE, uids: [0, 65536], values: [1, 1], versionKey: 0 }));
    expect(error.code).toBe('TIMELOCK_INVALID_PAYLOAD');
    expect(error.context.path).toBe('payload.uids[1]');
    expect(error.context.value).toBe(65536);
  });

  it('uids and values of different lengths are TIMELOCK_INVALID_PAYLOAD (the chain would drop it silently)', () => {
    expect(thrown(() => encodeWeightsPayload({ hotkey: ALICE, uids: [0, 1], values: [1], versionKey: 0 })).context.path).toBe('payload.values');
  });

  it('a 31-byte hotkey and a bad SS58 checksum are TIMELOCK_INVALID_PAYLOAD at payload.hotkey', () => {
    for (const hotkey of [new Uint8Array(31), '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ']) {
      const error = thrown(() => encodeWeightsPayload({ hotkey, uids: [], values: [], versionKey: 0 }));
      expect(error.code).toBe('TIMELOCK_INVALID_PAYLOAD');
      expect(error.context.path).toBe('payload.hotkey');
    }
  });
});

describe('encryptWeightsCommit', () => {
  it('produces a commit the round signature opens to the SCALE payload; size = 244 + payload', () => {
    const c = encryptWeightsCommit({ hotkeyPublicKey: ALICE, uids: [0, 1, 2, 300], values: [65535, 0, 1234, 42], versionKey: 4n, round: ROUND, beacon });
    expect(c.round).toBe(ROUND);
    // payload vector payload-alice-4uids
    expect(bytesToHex(c.payload)).toBe(
      '80d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d100000010002002c0110ffff0000d2042a000400000000000000',
    );
    expect(c.size).toBe(244 + 59);
    expect(bytesToHex(decryptWithSignature(c.commit, pulse.signature))).toBe(bytesToHex(c.payload));
  });

  it(`commit size limit: ${MAX_COMMIT_UIDS} uids fit in ${MAX_COMMIT_BYTES} bytes, one more is TIMELOCK_COMMIT_TOO_LARGE`, () => {
    // 244 + (1 + 32) + (2 + 2n) + (2 + 2n) + 8 = 289 + 4n <= 5000  <=>  n <= 1177.75
    expect(MAX_COMMIT_UIDS).toBe(Math.floor((5000 - 289) / 4));
    const make = (n: number) => ({
      hotkeyPublicKey: ALICE,
      uids: Array.from({ length: n }, (_, i) => i),
      values: new Array<number>(n).fill(1),
      versionKey: 0,
      round: ROUND,
      beacon,
    });
    const fits = encryptWeightsCommit(make(1177));
    expect(fits.size).toBe(289 + 4 * 1177);
    expect(fits.size).toBeLessThanOrEqual(MAX_COMMIT_BYTES);
    const error = thrown(() => encryptWeightsCommit(make(1178)));
    expect(error.code).toBe('TIMELOCK_COMMIT_TOO_LARGE');
    expect(error.context.size).toBe(289 + 4 * 1178);
    expect(error.context.limit).toBe(5000);
    expect(error.context.path).toBe('uids');
  });

  it('given randomness, the commit is exactly encryptForRound of its payload with that randomness (reproducible)', () => {
    const randomness = { esk: new Uint8Array(32).fill(7), sigma: new Uint8Array(32).fill(9), nonce: new Uint8Array(12).fill(3) };
    const input = { hotkeyPublicKey: ALICE, uids: [1, 2], values: [3, 4], versionKey: 5n, round: ROUND, beacon, randomness };
    const first = encryptWeightsCommit(input);
    expect(bytesToHex(encryptWeightsCommit(input).commit)).toBe(bytesToHex(first.commit));
    expect(bytesToHex(first.commit)).toBe(bytesToHex(encryptForRound({ message: first.payload, round: ROUND, beacon, randomness })));
    // without it, fresh randomness each time
    const { randomness: _omitted, ...fresh } = input;
    expect(bytesToHex(encryptWeightsCommit(fresh).commit)).not.toBe(bytesToHex(encryptWeightsCommit(fresh).commit));
  });

  it('the version key takes the whole u64 range: 2^64 - 1 is encoded, 2^64 is TIMELOCK_INVALID_PAYLOAD', () => {
    const at = (versionKey: bigint) => ({ hotkeyPublicKey: ALICE, uids: [1], values: [1], versionKey, round: ROUND, beacon });
    expect(bytesToHex(encryptWeightsCommit(at(2n ** 64n - 1n)).payload).endsWith('ffffffffffffffff')).toBe(true);
    const error = thrown(() => encryptWeightsCommit(at(2n ** 64n)));
    expect(error.code).toBe('TIMELOCK_INVALID_PAYLOAD');
  });

  it('CIPHERTEXT_OVERHEAD_BYTES is 96 + 40 + 40 + 8 + 24 + 20 + 16 = 244', () => {
    expect(CIPHERTEXT_OVERHEAD_BYTES).toBe(96 + (8 + 32) + (8 + 32) + 8 + (8 + 16) + (8 + 12) + (8 + 8));
  });
});

describe('revealWeightsCommit (the chain’s reveal step)', () => {
  const commit = encryptWeightsCommit({ hotkeyPublicKey: ALICE, uids: [3, 4], values: [10, 20], versionKey: 7n, round: ROUND, beacon }).commit;

  it('revealed: the signer matches the payload hotkey', () => {
    const outcome = revealWeightsCommit({ commit, signature: pulse.signature, signer: ALICE });
    expect(outcome).toMatchObject({ status: 'revealed', format: 'hotkey', uids: [3, 4], values: [10, 20], versionKey: 7n });
  });

  it('hotkey mismatch: dropped with reason hotkey_mismatch (the chain logs at trace and emits nothing)', () => {
    expect(revealWeightsCommit({ commit, signature: pulse.signature, signer: BOB })).toMatchObject({ status: 'dropped', reason: 'hotkey_mismatch' });
  });

  it('a pulse stored with an ASCII "0x" prefix is accepted, as the chain strips it', () => {
    const prefixed = Uint8Array.from([0x30, 0x78, ...pulse.signature]);
    expect(revealWeightsCommit({ commit, signature: prefixed, signer: ALICE }).status).toBe('revealed');
  });

  it('the wrong round’s pulse: dropped with reason decryption_failed', () => {
    const other = signRound(dev.secretKey, ROUND + 1n);
    expect(revealWeightsCommit({ commit, signature: other.signature, signer: ALICE })).toMatchObject({ status: 'dropped', reason: 'decryption_failed' });
  });

  it('garbage commit bytes: dropped with reason invalid_ciphertext', () => {
    expect(revealWeightsCommit({ commit: new Uint8Array(100), signature: pulse.signature, signer: ALICE })).toMatchObject({
      status: 'dropped',
      reason: 'invalid_ciphertext',
    });
  });

  it('legacy hotkey-less payload {uids, values, version_key}: revealed with format legacy', () => {
    // compact(1) uid 5 | compact(1) value 9 | u64 7 -- the first byte 0x04 reads as a 1-byte "hotkey", too short for AccountId32
    const legacy = hexToBytes('04' + '0500' + '04' + '0900' + '0700000000000000');
    const legacyCommit = encryptForRound({ message: legacy, round: ROUND, beacon });
    expect(revealWeightsCommit({ commit: legacyCommit, signature: pulse.signature, signer: BOB })).toMatchObject({
      status: 'revealed',
      format: 'legacy',
      uids: [5],
      values: [9],
      versionKey: 7n,
    });
  });

  it('a plaintext neither format decodes: dropped with reason invalid_payload', () => {
    const junk = encryptForRound({ message: Uint8Array.of(0xff), round: ROUND, beacon });
    expect(revealWeightsCommit({ commit: junk, signature: pulse.signature, signer: ALICE })).toMatchObject({ status: 'dropped', reason: 'invalid_payload' });
  });
});
