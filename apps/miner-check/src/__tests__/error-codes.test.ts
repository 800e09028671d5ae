import { expectCodesInOneFile, expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

import { MINER_CHECK_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  unreadableInput: 'MINER_CHECK_UNREADABLE_INPUT',
  malformedJson: 'MINER_CHECK_MALFORMED_JSON',
  invalidArgument: 'MINER_CHECK_INVALID_ARGUMENT',
  invalidInput: 'MINER_CHECK_INVALID_INPUT',
  minerNotFound: 'MINER_CHECK_MINER_NOT_FOUND',
  usage: 'MINER_CHECK_USAGE',
  internal: 'MINER_CHECK_INTERNAL',
  epochNotFound: 'MINER_CHECK_EPOCH_NOT_FOUND',
};

it('codes are append-only: every published miner-check code keeps its name and value', () => {
  expectPublishedCodes(MINER_CHECK_ERROR_CODES, PUBLISHED);
});

it('every raise site uses a constant of errors.ts: no other source file writes a MINER_CHECK_ code as a string literal', () => {
  expectCodesInOneFile(new URL('..', import.meta.url), 'MINER_CHECK_', 'errors.ts');
});
