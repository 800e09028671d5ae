import { expect, it } from 'vitest';

import * as timelock from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(timelock).sort()).toEqual([
    'CIPHERTEXT_OVERHEAD_BYTES',
    'DEFAULT_OVERDUE_AFTER_BLOCKS',
    'DRAND_G1_DST',
    'MAX_COMMIT_BYTES',
    'MAX_COMMIT_UIDS',
    'QUICKNET',
    'REVEAL_SECURITY_BLOCKS',
    'TIMELOCK_ERROR_CODES',
    'TLE_CIPHER_SUITE',
    'assertValidPulse',
    'beaconKeyFromSeed',
    'decodeWeightsPayload',
    'decryptWithSignature',
    'encodeWeightsPayload',
    'encryptForRound',
    'encryptWeightsCommit',
    'identityForRound',
    'parseCiphertext',
    'publicKeyFromSecret',
    'revealRoundLegacy',
    'revealRoundStateful',
    'revealWeightsCommit',
    'roundAtTime',
    'serializeCiphertext',
    'signRound',
    'timeOfRound',
    'verifyPulse',
  ]);
});

it('every error code starts with TIMELOCK_ and the list has no duplicates', () => {
  expect(timelock.TIMELOCK_ERROR_CODES.every((code) => code.startsWith('TIMELOCK_'))).toBe(true);
  expect(new Set(timelock.TIMELOCK_ERROR_CODES).size).toBe(timelock.TIMELOCK_ERROR_CODES.length);
  expect(timelock.TIMELOCK_ERROR_CODES).toContain('TIMELOCK_COMMIT_TOO_LARGE');
});

it('QUICKNET is frozen', () => {
  expect(Object.isFrozen(timelock.QUICKNET)).toBe(true);
});
