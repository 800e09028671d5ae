import { expect, it } from 'vitest';

import { TIMELOCK_ERROR_CODES } from '../index.js';

// Codes are append-only: callers branch on them. This list is written out by hand; a code may be added
// at the end of TIMELOCK_ERROR_CODES (and then here), but none may ever change or disappear.
const PINNED = [
  'TIMELOCK_INVALID_INPUT',
  'TIMELOCK_INVALID_BEACON',
  'TIMELOCK_INVALID_CIPHERTEXT',
  'TIMELOCK_DECRYPTION_FAILED',
  'TIMELOCK_INVALID_PULSE',
  'TIMELOCK_INVALID_SECRET_KEY',
  'TIMELOCK_INVALID_PAYLOAD',
  'TIMELOCK_COMMIT_TOO_LARGE',
  'TIMELOCK_NO_REVEAL_EPOCH',
  'TIMELOCK_REVEAL_ROUND_STALE',
];

it('keeps every published error code, in order (codes are append-only)', () => {
  expect(TIMELOCK_ERROR_CODES.slice(0, PINNED.length)).toEqual(PINNED);
});

it('has no duplicate code', () => {
  expect(new Set(TIMELOCK_ERROR_CODES).size).toBe(TIMELOCK_ERROR_CODES.length);
});
