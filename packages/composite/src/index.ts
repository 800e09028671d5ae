export { COMPOSITE_ERROR_CODES } from './error-codes.js';
export { parseExecutionRecord, parseWorkflowPlan, parseWorkflowTask } from './parse-workflow.js';
export { compositeScore, scoreWorkflow } from './score-workflow.js';
export type {
  ScoreWorkflowInput,
  WorkflowComponents,
  WorkflowCounters,
  WorkflowGates,
  WorkflowScore,
} from './score-workflow.js';
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
export {
  addTaskScore,
  addTaskScores,
  emptyWindowState,
  parseWindowState,
  resetUid,
  WINDOW_CAPACITY,
  windowScores,
  windowStateSchema,
} from './rolling-window.js';
export type { MinerWindow, TaskScoreEntry, WindowScore, WindowState } from './rolling-window.js';
