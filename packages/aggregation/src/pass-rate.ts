import { compareCodePoints } from '@subnet/core';

import { checkArray, checkInteger, checkObject } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';

/** One task's outcome as a validator reports it. */
export interface TaskResult {
  /** The benchmark's task id (unique within one evaluation). */
  readonly taskId: string;
  /** Tests of the task that passed. */
  readonly testsPassed: number;
  /** Tests the task has (>= 1). */
  readonly testsTotal: number;
  /** True when the agent ran out of time: the task scores 0 whatever the tests say. */
  readonly timedOut: boolean;
}

/** The pass rate and how it was reached. */
export interface PassRateResult {
  /** `passed / totalTasks` (SPEC C.1). */
  readonly passRate: number;
  readonly explanation: {
    readonly totalTasks: number;
    readonly passed: number;
    /** Task ids scored 1.0, sorted by id. */
    readonly passedTaskIds: readonly string[];
    /** Task ids reported but scored 0, with why, sorted by id. */
    readonly failed: readonly { readonly taskId: string; readonly reason: 'tests_failed' | 'timed_out' }[];
    /** Tasks of the benchmark that were never reported (count as failed). */
    readonly missing: number;
  };
}

/**
 * The benchmark score of one evaluation (SPEC C.1): each task scores 1.0 iff every test passed and it did
 * not time out; `pass_rate = passed / total_tasks`, where tasks never reported count as failed.
 *
 * @param results - the reported task results (task ids unique; `testsPassed <= testsTotal`, `testsTotal >= 1`)
 * @param totalTasks - the benchmark's task count (integer >= 1, at least the number of results)
 * @returns the pass rate and, per task, why it scored what it scored
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` (bad count or field), `AGGREGATION_DUPLICATE_TASK`,
 *   `AGGREGATION_TOO_MANY_TASKS`
 * @example passRate(results73of91, 91).passRate // 0.8021978021978022
 */
export function passRate(results: readonly TaskResult[], totalTasks: number): PassRateResult {
  checkArray(results, 'results');
  checkInteger(totalTasks, 'totalTasks', 1);
  if (results.length > totalTasks) {
    fail(AGGREGATION_ERROR_CODES.tooManyTasks, `more task results than the benchmark's ${totalTasks} tasks`, 'results.length', results.length);
  }
  const seen = new Set<string>();
  const passedIds: string[] = [];
  const failed: { taskId: string; reason: 'tests_failed' | 'timed_out' }[] = [];
  for (let i = 0; i < results.length; i += 1) {
    // As `forEach` did: a hole of a sparse list is skipped. Field paths are built only for a refusal.
    if (!(i in results)) continue;
    const raw: unknown = results[i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) checkObject(raw, `results[${i}]`);
    const result = raw as Readonly<Record<string, unknown>>;
    const taskId = result.taskId;
    if (typeof taskId !== 'string' || taskId.length === 0) fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a task id', `results[${i}].taskId`, taskId);
    if (seen.has(taskId)) fail(AGGREGATION_ERROR_CODES.duplicateTask, 'a task is reported twice', `results[${i}].taskId`, taskId);
    seen.add(taskId);
    const total = result.testsTotal;
    if (!isIntegerIn(total, 1, Number.MAX_SAFE_INTEGER)) checkInteger(total, `results[${i}].testsTotal`, 1);
    const passed = result.testsPassed;
    if (!isIntegerIn(passed, 0, total as number)) checkInteger(passed, `results[${i}].testsPassed`, 0, total as number);
    const timedOut = result.timedOut;
    if (typeof timedOut !== 'boolean') fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a boolean', `results[${i}].timedOut`, timedOut);
    if (timedOut) failed.push(Object.freeze({ taskId, reason: 'timed_out' }));
    else if (passed === total) passedIds.push(taskId);
    else failed.push(Object.freeze({ taskId, reason: 'tests_failed' }));
  }
  passedIds.sort(compareCodePoints);
  failed.sort((a, b) => compareCodePoints(a.taskId, b.taskId));
  // Every node is made here, so each is frozen as it is made (no deep walk).
  return Object.freeze({
    passRate: passedIds.length / totalTasks,
    explanation: Object.freeze({
      totalTasks,
      passed: passedIds.length,
      passedTaskIds: Object.freeze(passedIds),
      failed: Object.freeze(failed),
      missing: totalTasks - results.length,
    }),
  });
}

/** What `checkInteger(value, path, min, max)` accepts, without building the path. */
function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
