/**
 * The error codes this package raises. Codes are append-only: a code once published keeps its meaning
 * (a test lists every value, so a code can be added but never changed or removed).
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
 * - `COMPOSITE_WINDOW_DUPLICATE_TASK`: profile v1 only (a task id already in the miner's window). Since
 *   profile v1.1 a re-run is a new entry and this code is no longer raised; it stays reserved.
 * - `COMPOSITE_WINDOW_OUT_OF_ORDER`: profile v1 only (an entry before the miner's latest). Since profile
 *   v1.1 entries are placed by arrival key and this code is no longer raised; it stays reserved.
 * - `COMPOSITE_WINDOW_CONFLICTING_ENTRY`: two different entries claim the same arrival key
 *   (arrival, record id) in one window: the caller's sequence is broken (an identical repeat is a no-op).
 * - `COMPOSITE_INVALID_ARGUMENT`: an exported function got an argument of the wrong kind (not an object,
 *   not an array, a malformed metagraph pair list).
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
  windowConflictingEntry: 'COMPOSITE_WINDOW_CONFLICTING_ENTRY',
  invalidArgument: 'COMPOSITE_INVALID_ARGUMENT',
} as const);

/** Every code of this package (the values of {@link COMPOSITE_ERROR_CODES}). */
export type CompositeErrorCode = (typeof COMPOSITE_ERROR_CODES)[keyof typeof COMPOSITE_ERROR_CODES];
