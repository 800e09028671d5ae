import { expectRaisedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

/**
 * Issue 20 item 6: codes are append-only. miner-check writes its codes as string literals where it raises
 * them (there is no constants file), so this test reads its own source: every code written out here must
 * still be raised somewhere in `src/` (a renamed or removed code fails), and every `MINER_CHECK_` code the
 * source raises must be listed here (a new code is appended to this list, by hand, in review).
 */
const PUBLISHED = [
  'MINER_CHECK_UNREADABLE_INPUT',
  'MINER_CHECK_MALFORMED_JSON',
  'MINER_CHECK_INVALID_ARGUMENT',
  'MINER_CHECK_INVALID_INPUT',
  'MINER_CHECK_MINER_NOT_FOUND',
  'MINER_CHECK_USAGE',
  'MINER_CHECK_INTERNAL',
];

it('codes are append-only: every published miner-check code is still raised, and every raised code is published', () => {
  expectRaisedCodes(new URL('..', import.meta.url), 'MINER_CHECK_', PUBLISHED);
});
