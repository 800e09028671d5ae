/**
 * The error codes this package raises. Codes are append-only: a code once published keeps its meaning.
 *
 * - `COMPOSITE_INVALID_TASK`: the task (`task_id`, `constraints`) is malformed.
 * - `COMPOSITE_INVALID_PLAN`: the workflow plan's shape is wrong (a field missing, a wrong type, a number
 *   out of range).
 * - `COMPOSITE_INVALID_DAG`: the plan is well-formed but not a DAG SPEC A accepts (no nodes, a duplicate
 *   node id, a dangling, self or duplicate edge, a cycle, an `error_handling` key that is not a node).
 * - `COMPOSITE_INVALID_RECORD`: the execution record is malformed, or does not fit the plan (an attempt
 *   for an unknown node, attempt numbers that skip or repeat, pre-counted counters the DAG cannot produce).
 * - `COMPOSITE_INVALID_WINDOW_ENTRY`: a task score given to the rolling window is malformed.
 * - `COMPOSITE_INVALID_WINDOW_STATE`: a persisted rolling-window state does not validate.
 * - `COMPOSITE_WINDOW_DUPLICATE_TASK`: the task id is already in that miner's window.
 * - `COMPOSITE_WINDOW_OUT_OF_ORDER`: the task arrives before (or at the same place as) that miner's latest.
 *
 * @example
 * if (isSubnetError(error, COMPOSITE_ERROR_CODES.invalidDag)) console.error(error.context.path)
 */
export const COMPOSITE_ERROR_CODES = Object.freeze({
  invalidTask: 'COMPOSITE_INVALID_TASK',
  invalidPlan: 'COMPOSITE_INVALID_PLAN',
  invalidDag: 'COMPOSITE_INVALID_DAG',
  invalidRecord: 'COMPOSITE_INVALID_RECORD',
  invalidWindowEntry: 'COMPOSITE_INVALID_WINDOW_ENTRY',
  invalidWindowState: 'COMPOSITE_INVALID_WINDOW_STATE',
  windowDuplicateTask: 'COMPOSITE_WINDOW_DUPLICATE_TASK',
  windowOutOfOrder: 'COMPOSITE_WINDOW_OUT_OF_ORDER',
} as const);
