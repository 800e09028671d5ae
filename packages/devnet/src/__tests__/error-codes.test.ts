import { expectRaisedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

/**
 * Issue 20 item 6: codes are append-only. @subnet/devnet writes its codes as string literals where it raises
 * them (there is no constants file), so this test reads its own source: every code written out here must
 * still be raised somewhere in `src/` (a renamed or removed code fails), and every `DEVNET_` code the
 * source raises must be listed here (a new code is appended to this list, by hand, in review).
 */
const PUBLISHED = [
  'DEVNET_BAD_EVENT_ARGS',
  'DEVNET_BAD_EVENT_RECORD',
  'DEVNET_BAD_STORAGE_KEY',
  'DEVNET_ERROR_UNKNOWN',
  'DEVNET_INVALID_DEFERRAL',
  'DEVNET_INVALID_FAULT',
  'DEVNET_INVALID_HYPERPARAMETER',
  'DEVNET_INVALID_OPTIONS',
  'DEVNET_INVALID_UID',
  'DEVNET_LISTEN_FAILED',
  'DEVNET_METADATA_INVALID',
  'DEVNET_STORAGE_UNKNOWN',
  'DEVNET_UNKNOWN_ERROR',
  'DEVNET_UNKNOWN_EVENT',
  'DEVNET_UNKNOWN_PALLET',
  'DEVNET_UNKNOWN_STORAGE',
];

it('codes are append-only: every published @subnet/devnet code is still raised, and every raised code is published', () => {
  expectRaisedCodes(new URL('..', import.meta.url), 'DEVNET_', PUBLISHED);
});
