import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { expect, it } from 'vitest';

import {
  CANONICAL_JSON_TOO_DEEP,
  CANONICAL_JSON_UNSUPPORTED,
  CORE_ERROR_CODES,
  CORE_INPUT_NOT_JSON,
  CORE_INPUT_TOO_DEEP,
  CORE_INPUT_TOO_LARGE,
  CORE_MALFORMED_TEXT,
} from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  canonicalJsonUnsupported: 'CORE_CANONICAL_JSON_UNSUPPORTED_VALUE',
  canonicalJsonTooDeep: 'CORE_CANONICAL_JSON_TOO_DEEP',
  invalidSs58: 'CORE_INVALID_SS58',
  malformedText: 'CORE_MALFORMED_TEXT',
  inputTooDeep: 'CORE_INPUT_TOO_DEEP',
  inputTooLarge: 'CORE_INPUT_TOO_LARGE',
  inputNotJson: 'CORE_INPUT_NOT_JSON',
  invalidArgument: 'CORE_INVALID_ARGUMENT',
};

it('codes are append-only: every published core code keeps its name and value', () => {
  expectPublishedCodes(CORE_ERROR_CODES, PUBLISHED);
});

it('the named code constants are the codes of the codes file', () => {
  expect([CANONICAL_JSON_UNSUPPORTED, CANONICAL_JSON_TOO_DEEP, CORE_MALFORMED_TEXT, CORE_INPUT_TOO_DEEP, CORE_INPUT_TOO_LARGE, CORE_INPUT_NOT_JSON]).toEqual([
    'CORE_CANONICAL_JSON_UNSUPPORTED_VALUE',
    'CORE_CANONICAL_JSON_TOO_DEEP',
    'CORE_MALFORMED_TEXT',
    'CORE_INPUT_TOO_DEEP',
    'CORE_INPUT_TOO_LARGE',
    'CORE_INPUT_NOT_JSON',
  ]);
});
