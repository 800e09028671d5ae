import { expect, it } from 'vitest';

import * as composite from '../index.js';

it('exports exactly the public API (every change here is an API change)', () => {
  expect(Object.keys(composite).sort()).toEqual([
    'COMPOSITE_ERROR_CODES',
    'MAX_WINDOW_ID_LENGTH',
    'WINDOW_CAPACITY',
    'addTaskScore',
    'addTaskScores',
    'checkWindowId',
    'compositeScore',
    'createRollingWindow',
    'emptyWindowState',
    'executionRecordSchema',
    'parseExecutionRecord',
    'parseWindowState',
    'parseWorkflowPlan',
    'parseWorkflowTask',
    'resetUid',
    'retainWindows',
    'scoreWorkflow',
    'windowScores',
    'windowStateSchema',
    'workflowPlanSchema',
    'workflowTaskSchema',
  ]);
});
