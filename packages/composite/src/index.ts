export { COMPOSITE_ERROR_CODES } from './error-codes.js';
export type { CompositeErrorCode } from './error-codes.js';
export { parseExecutionRecord, parseWorkflowPlan, parseWorkflowTask } from './parse-workflow.js';
export { compositeScore, scoreWorkflow } from './score-workflow.js';
export type { ScoreWorkflowInput, WorkflowComponents, WorkflowCounters, WorkflowGates, WorkflowScore } from './score-workflow.js';
export { executionRecordSchema, workflowPlanSchema, workflowTaskSchema } from './workflow-schemas.js';
export type {
  ExecutionRecord,
  ExecutionRecordInput,
  NodeAttempt,
  WorkflowPlan,
  WorkflowPlanInput,
  WorkflowTask,
  WorkflowTaskInput,
} from './workflow-schemas.js';
export { addTaskScore, addTaskScores, resetUid, retainWindows, windowScores } from './rolling-window.js';
export { emptyWindowState, parseWindowState, windowStateSchema } from './window-state.js';
export { WINDOW_CAPACITY } from './window-types.js';
export { checkWindowId, MAX_WINDOW_ID_LENGTH } from './window-entry.js';
export type { MetagraphPair, MinerWindow, TaskScoreEntry, WindowScore, WindowState } from './window-types.js';
export { createRollingWindow } from './create-rolling-window.js';
export type { RollingWindow } from './create-rolling-window.js';
