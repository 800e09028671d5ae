import { formatPath, parseInput, SubnetError } from '@subnet/core';
import type { z } from 'zod';

import { checkShape } from './check-shape.js';
import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { fastPlanShape, fastTaskShape } from './fast-shapes.js';
import { SLOTS } from './score-slots.js';
import { markTrusted, trustedPayload } from './trusted.js';
import {
  dagIssues,
  executionRecordSchema,
  planShapeSchema,
  workflowTaskSchema,
  type ExecutionRecord,
  type StructuralIssue,
  type WorkflowPlan,
  type WorkflowTask,
} from './workflow-schemas.js';

/** Internal: what a validated plan carries for the scorer (index, per-node budgets, scratch buffers). */
export interface CompiledPlan {
  readonly totalSteps: number;
  readonly index: ReadonlyMap<string, number>;
  /** retry_count per node (0 when the node has no error_handling entry or no retry_count). */
  readonly retryCount: Int32Array;
  /** timeout_seconds per node (+Infinity when none is declared: only status `timeout` counts then). */
  readonly timeoutSeconds: Float64Array;
  /** Sum of every retry_count in error_handling (SPEC A: 0 if absent). */
  readonly declaredRetryBudget: number;
  /** [h] = the fewest retries h hard failures need (sum of the h smallest retry_counts). */
  readonly minRetriesForHardFailures: Float64Array;
  /** Scratch, reset at the start of every count: attempts seen, highest attempt number, its status. */
  readonly attemptsSeen: Int32Array;
  readonly lastAttempt: Float64Array;
  /** Status of the highest-numbered attempt per node: 0 none, 1 success, 2 failure, 3 timeout. */
  readonly lastStatus: Uint8Array;
  /** Timeouts counted per node (status timeout, or seconds above the node's timeout_seconds). */
  readonly nodeTimeouts: Int32Array;
  /** Scratch for the fast path: where each node's attempt numbers start in the stamp table. */
  readonly offsets: Int32Array;
  /** Scratch for the fast path's one pass: bit k-1 set when attempt number k (<= 31) was seen, per node. */
  readonly numberMask: Int32Array;
  /** Node ids in plan order (for the per-node explanation). */
  readonly nodeIds: readonly string[];
  /** Scratch for the numbers of one evaluation (see `score-workflow.ts`). */
  readonly out: Float64Array;
}

/** A task marker (validated here). */
const TASK = Object.freeze({ kind: 'task' });
/** A record marker (validated here). */
const RECORD = Object.freeze({ kind: 'record' });

function freezeAll(values: readonly object[]): void {
  for (const value of values) Object.freeze(value);
}

/** A task through core's shape check and zod, which name the path of the first problem. */
function zodTaskShape(input: unknown): WorkflowTask {
  checkShape(input, COMPOSITE_ERROR_CODES.invalidTask, 'task');
  return parseInput(workflowTaskSchema, input, COMPOSITE_ERROR_CODES.invalidTask, 'task');
}

/**
 * Validates a task (SPEC section A) and returns it frozen. A value returned by this function is
 * recognised by {@link scoreWorkflow}, which then skips validating it again.
 *
 * @param input - the task as received (wire format), or a task this function returned
 * @returns the validated, frozen task
 * @throws SubnetError `COMPOSITE_INVALID_TASK` naming the path and value (e.g. `task.constraints.max_budget_tao`)
 * @example
 * const task = parseWorkflowTask({ task_id: 't-1', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } })
 */
export function parseWorkflowTask(input: unknown): WorkflowTask {
  if (trustedPayload(input) === TASK) return input as WorkflowTask;
  const task = fastTaskShape(input) ?? zodTaskShape(input);
  freezeAll([task.constraints]);
  markTrusted(task, TASK);
  return Object.freeze(task);
}

/**
 * Internal: a task for one evaluation. A task returned by {@link parseWorkflowTask} as it is; a raw one read by the
 * fast path into an unfrozen, unmarked copy that nothing keeps (freezing and marking it would cost more than reading
 * it), or else through {@link parseWorkflowTask}, which names the problem.
 */
export function taskForEvaluation(input: unknown): WorkflowTask {
  if (trustedPayload(input) === TASK) return input as WorkflowTask;
  return fastTaskShape(input) ?? parseWorkflowTask(input);
}

function throwIssues(code: string, label: string, summary: string, issues: readonly StructuralIssue[]): never {
  const listed = issues.map((issue) => ({ path: formatPath(issue.path, label), message: issue.message, value: issue.value }));
  const first = listed[0] ?? { path: label, message: summary, value: undefined };
  throw new SubnetError(code, `${summary}: ${first.message}`, { context: { path: first.path, value: first.value, issues: listed } });
}

/** The plan's shape through core's shape check and zod, which name the path of the first problem. */
function zodPlanShape(input: unknown): z.output<typeof planShapeSchema> {
  checkShape(input, COMPOSITE_ERROR_CODES.invalidPlan, 'plan');
  return parseInput(planShapeSchema, input, COMPOSITE_ERROR_CODES.invalidPlan, 'plan');
}

/**
 * Validates a workflow plan (shape, then the DAG checks of SPEC section A) and returns it frozen, with
 * its per-node retry and timeout budgets compiled for scoring.
 *
 * @param input - the plan as received (wire format), or a plan this function returned
 * @returns the validated, frozen plan (`edges` and `error_handling` default to empty)
 * @throws SubnetError `COMPOSITE_INVALID_PLAN` for a shape error or `retry_count` values summing past 2^53 - 1
 *   (docs/spec.md G.37), `COMPOSITE_INVALID_DAG` for no nodes,
 *   a duplicate node id, a dangling, self or duplicate edge, a cycle, or an error_handling key that is not
 *   a node; the message names the path (e.g. `plan.edges[2].to`) and the value
 * @example
 * const plan = parseWorkflowPlan({ nodes: [{ id: 'fetch' }, { id: 'summarise' }], edges: [{ from: 'fetch', to: 'summarise' }] })
 */
export function parseWorkflowPlan(input: unknown): WorkflowPlan {
  if (compiledPlanOf(input) !== undefined) return input as WorkflowPlan;
  const plan = fastPlanShape(input) ?? zodPlanShape(input);
  const issues = dagIssues(plan);
  if (issues.length > 0) throwIssues(COMPOSITE_ERROR_CODES.invalidDag, 'plan', 'invalid workflow DAG', issues);
  // The compiled plan sums the retry counts; only a sum past 2^53 - 1 walks them again, to name the count at fault.
  const compiled = compile(plan);
  if (compiled.declaredRetryBudget > Number.MAX_SAFE_INTEGER)
    throwIssues(COMPOSITE_ERROR_CODES.invalidPlan, 'plan', 'invalid workflow plan', [retryBudgetIssue(plan)]);
  freezeAll(plan.nodes);
  freezeAll(plan.edges);
  freezeAll(Object.values(plan.error_handling));
  freezeAll([plan.nodes, plan.edges, plan.error_handling]);
  markTrusted(plan, compiled);
  return Object.freeze(plan);
}

/**
 * The `retry_count` at which the plan's declared retry budget (their sum, in node order) passes 2^53 - 1, for a plan
 * whose whole sum does (docs/spec.md G.37). Each count is a safe integer, but their sum need not be: beyond 2^53 it is
 * rounded, and canonical JSON writes it as a decimal string, so the bundle's `declared_retry_budget` would be a
 * string holding another number than the sum. The running sum stays exact up to the first excess (two safe
 * integers add to at most 2^54 - 2, and rounding keeps a sum of 2^53 or more at 2^53 or more), so the whole sum is
 * past 2^53 - 1 exactly when some running sum is.
 */
function retryBudgetIssue(plan: WorkflowPlan): StructuralIssue {
  let budget = 0;
  for (const node of plan.nodes) {
    const id = (node as { readonly id: string }).id;
    if (!Object.hasOwn(plan.error_handling, id)) continue;
    const retry = plan.error_handling[id]?.retry_count ?? 0;
    budget += retry;
    if (budget > Number.MAX_SAFE_INTEGER)
      return {
        path: ['error_handling', id, 'retry_count'],
        message: `the retry_count values of error_handling sum to more than ${Number.MAX_SAFE_INTEGER} (2^53 - 1), the largest declared_retry_budget a number holds exactly`,
        value: retry,
      };
  }
  throw new Error('retryBudgetIssue: the retry counts do not sum past 2^53 - 1');
}

/** Internal: the typed arrays of a compiled plan of `n` nodes, and the retry counts it sorts. */
export interface PlanArrays {
  readonly n: number;
  readonly timeoutSeconds: Float64Array;
  readonly minRetriesForHardFailures: Float64Array;
  readonly lastAttempt: Float64Array;
  readonly out: Float64Array;
  /** Each node's retry_count (0 without one), sorted in place by {@link compiledPlan}. */
  readonly retries: Float64Array;
  readonly retryCount: Int32Array;
  readonly attemptsSeen: Int32Array;
  readonly nodeTimeouts: Int32Array;
  readonly offsets: Int32Array;
  readonly numberMask: Int32Array;
  readonly lastStatus: Uint8Array;
}

/**
 * Internal: a plan's typed arrays carved out of one buffer (one allocation instead of twelve): the 8-byte arrays
 * first, then the 4-byte ones, then the bytes, each aligned for its element size. All zero.
 */
export function planArrays(n: number): PlanArrays {
  const buffer = new ArrayBuffer(8 * (4 * n + 1 + SLOTS) + 4 * 5 * n + n);
  let at = 0;
  const take = (bytes: number): number => {
    const start = at;
    at += bytes;
    return start;
  };
  const f64 = (length: number): Float64Array => new Float64Array(buffer, take(8 * length), length);
  const i32 = (length: number): Int32Array => new Int32Array(buffer, take(4 * length), length);
  return {
    n,
    timeoutSeconds: f64(n),
    minRetriesForHardFailures: f64(n + 1),
    lastAttempt: f64(n),
    out: f64(SLOTS),
    retries: f64(n),
    retryCount: i32(n),
    attemptsSeen: i32(n),
    nodeTimeouts: i32(n),
    offsets: i32(n),
    numberMask: i32(n),
    lastStatus: new Uint8Array(buffer, take(n), n),
  };
}

/**
 * Internal: the compiled plan over `arrays` once the plan's own fields are written (`timeoutSeconds`, `retryCount`,
 * `retries`): sorts the retry counts and sums them into `minRetriesForHardFailures`.
 */
export function compiledPlan(arrays: PlanArrays, index: ReadonlyMap<string, number>, nodeIds: readonly string[], declaredRetryBudget: number): CompiledPlan {
  const { n, retries, minRetriesForHardFailures } = arrays;
  retries.sort();
  minRetriesForHardFailures[0] = 0;
  for (let h = 1; h <= n; h++) minRetriesForHardFailures[h] = (minRetriesForHardFailures[h - 1] as number) + (retries[h - 1] as number);
  return {
    totalSteps: n,
    index,
    retryCount: arrays.retryCount,
    timeoutSeconds: arrays.timeoutSeconds,
    declaredRetryBudget,
    minRetriesForHardFailures,
    attemptsSeen: arrays.attemptsSeen,
    lastAttempt: arrays.lastAttempt,
    lastStatus: arrays.lastStatus,
    nodeTimeouts: arrays.nodeTimeouts,
    offsets: arrays.offsets,
    numberMask: arrays.numberMask,
    nodeIds,
    out: arrays.out,
  };
}

function compile(plan: WorkflowPlan): CompiledPlan {
  const n = plan.nodes.length;
  const index = new Map<string, number>();
  const nodeIds: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const id = (plan.nodes[i] as { readonly id: string }).id;
    index.set(id, i);
    nodeIds[i] = id;
  }
  const arrays = planArrays(n);
  const { timeoutSeconds, retryCount, retries } = arrays;
  timeoutSeconds.fill(Number.POSITIVE_INFINITY);
  let declaredRetryBudget = 0;
  for (let i = 0; i < n; i++) {
    const id = nodeIds[i] as string;
    if (!Object.hasOwn(plan.error_handling, id)) continue;
    const entry = plan.error_handling[id];
    if (entry === undefined) continue;
    const retry = entry.retry_count ?? 0;
    retries[i] = retry;
    retryCount[i] = Math.min(retry, 0x7fffffff);
    declaredRetryBudget += retry;
    if (entry.timeout_seconds !== undefined) timeoutSeconds[i] = entry.timeout_seconds;
  }
  return compiledPlan(arrays, index, Object.freeze(nodeIds), declaredRetryBudget);
}

/** Internal: the compiled form of a plan returned by {@link parseWorkflowPlan}, else undefined. */
export function compiledPlanOf(plan: unknown): CompiledPlan | undefined {
  const payload = trustedPayload(plan);
  return payload instanceof Object && 'attemptsSeen' in payload ? (payload as CompiledPlan) : undefined;
}

/** Internal: whether `value` is a record returned by {@link parseExecutionRecord}. */
export function isParsedRecord(value: unknown): value is ExecutionRecord {
  return trustedPayload(value) === RECORD;
}

/**
 * Validates an execution record on its own (SPEC section A: ranges, exactly one of the two forms,
 * attempt numbers 1..k per node) and returns it frozen. Checks that need the plan (unknown node ids,
 * counters the DAG cannot produce) run in {@link scoreWorkflow}.
 *
 * @param input - the record as received (wire format), or a record this function returned
 * @returns the validated, frozen record
 * @throws SubnetError `COMPOSITE_INVALID_RECORD` naming the path and value (e.g. `record.attempts[3].attempt`)
 * @example
 * const record = parseExecutionRecord({
 *   output_quality_score: 0.9, actual_tao: 0.2, actual_seconds: 30,
 *   steps_completed: 1, actual_retries: 0, timeouts: 0, hard_failures: 0,
 * })
 */
export function parseExecutionRecord(input: unknown): ExecutionRecord {
  if (trustedPayload(input) === RECORD) return input as ExecutionRecord;
  checkShape(input, COMPOSITE_ERROR_CODES.invalidRecord, 'record');
  const record = parseInput(executionRecordSchema, input, COMPOSITE_ERROR_CODES.invalidRecord, 'record');
  if (record.attempts !== undefined) {
    freezeAll(record.attempts);
    Object.freeze(record.attempts);
  }
  markTrusted(record, RECORD);
  return Object.freeze(record);
}
