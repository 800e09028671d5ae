import { expectPublishedCodes } from '@subnet/vitest-config/error-codes';
import { expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES } from '../index.js';

/**
 * Codes are append-only (issue 20 item 6): callers branch on these strings. Add a line for a new code;
 * never change or remove one.
 */
const PINNED = {
  invalidInput: 'AGGREGATION_INVALID_INPUT',
  duplicateEvaluation: 'AGGREGATION_DUPLICATE_EVALUATION',
  unknownValidator: 'AGGREGATION_UNKNOWN_VALIDATOR',
  duplicateHotkey: 'AGGREGATION_DUPLICATE_HOTKEY',
  duplicateUid: 'AGGREGATION_DUPLICATE_UID',
  duplicateTask: 'AGGREGATION_DUPLICATE_TASK',
  tooManyTasks: 'AGGREGATION_TOO_MANY_TASKS',
  epochMismatch: 'AGGREGATION_EPOCH_MISMATCH',
  epochBeforeTop: 'AGGREGATION_EPOCH_BEFORE_TOP',
  duplicateChallenge: 'AGGREGATION_DUPLICATE_CHALLENGE',
  unknownChallenge: 'AGGREGATION_UNKNOWN_CHALLENGE',
  alphaSumExceedsOne: 'AGGREGATION_ALPHA_SUM_EXCEEDS_ONE',
  weightsExceedOne: 'AGGREGATION_WEIGHTS_EXCEED_ONE',
} as const;

it('every error code keeps its value (append-only: a code may be added, never changed or removed)', () => {
  expectPublishedCodes(AGGREGATION_ERROR_CODES, PINNED);
  // Anything beyond the pinned codes must be added to PINNED above.
  expect(Object.keys(AGGREGATION_ERROR_CODES)).toEqual(Object.keys(PINNED));
});
