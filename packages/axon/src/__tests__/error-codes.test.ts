import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

import { AXON_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  invalidDefinition: 'AXON_INVALID_DEFINITION',
  invalidJson: 'AXON_INVALID_JSON',
  invalidValue: 'AXON_INVALID_VALUE',
  invalidHeader: 'AXON_INVALID_HEADER',
  invalidAxonInfo: 'AXON_INVALID_AXON_INFO',
  serverStart: 'AXON_SERVER_START',
};

it('codes are append-only: every published axon code keeps its name and value', () => {
  expectPublishedCodes(AXON_ERROR_CODES, PUBLISHED);
});
