import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { it } from 'vitest';

import { COMPOSITE_ERROR_CODES } from '../index.js';

/**
 * Issue 20 item 6: codes are append-only. This list is written out by hand: a code may be added to it,
 * but a value that changes or disappears fails here, because callers branch on these strings.
 */
const PUBLISHED = {
  invalidTask: 'COMPOSITE_INVALID_TASK',
  invalidPlan: 'COMPOSITE_INVALID_PLAN',
  invalidDag: 'COMPOSITE_INVALID_DAG',
  invalidRecord: 'COMPOSITE_INVALID_RECORD',
  invalidWindowEntry: 'COMPOSITE_INVALID_WINDOW_ENTRY',
  invalidWindowState: 'COMPOSITE_INVALID_WINDOW_STATE',
  windowDuplicateTask: 'COMPOSITE_WINDOW_DUPLICATE_TASK',
  windowOutOfOrder: 'COMPOSITE_WINDOW_OUT_OF_ORDER',
  windowConflictingEntry: 'COMPOSITE_WINDOW_CONFLICTING_ENTRY',
  invalidArgument: 'COMPOSITE_INVALID_ARGUMENT',
};

it('codes are append-only: every published composite code keeps its name and value', () => {
  expectPublishedCodes(COMPOSITE_ERROR_CODES, PUBLISHED);
});
