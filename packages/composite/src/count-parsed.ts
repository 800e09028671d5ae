import { SubnetError } from '@subnet/core';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { finishAttempts, finishScore } from './finish-score.js';
import type { CompiledPlan } from './parse-workflow.js';
import { STATUS_FAILURE, STATUS_NONE, STATUS_SUCCESS, STATUS_TIMEOUT } from './score-slots.js';
import type { ExecutionRecord, NodeAttempt, WorkflowTask } from './workflow-schemas.js';

function recordError(path: string, summary: string, value: unknown): SubnetError {
  return new SubnetError(COMPOSITE_ERROR_CODES.invalidRecord, summary, { context: { path, value } });
}

/**
 * Internal: derives (or checks) the counters of a parsed record against the plan and scores it into
 * `compiled.out` (SPEC A counters: completed iff the highest-numbered attempt succeeded; retries =
 * Σ(attempts − 1); timeouts = status timeout or seconds above the node's timeout_seconds; hard failures =
 * last attempt not success with attempts >= retry_count + 1). Allocates nothing.
 *
 * @returns S
 * @throws SubnetError `COMPOSITE_INVALID_RECORD` for an attempt of a node not in the plan, or pre-counted
 *   counters the DAG cannot produce
 */
export function scoreParsed(task: WorkflowTask, compiled: CompiledPlan, record: ExecutionRecord): number {
  const totalSteps = compiled.totalSteps;
  const attempts = record.attempts;
  const quality = record.output_quality_score;
  if (attempts !== undefined) {
    const { index, timeoutSeconds, attemptsSeen, lastAttempt, lastStatus, nodeTimeouts } = compiled;
    attemptsSeen.fill(0);
    lastAttempt.fill(0);
    lastStatus.fill(STATUS_NONE);
    nodeTimeouts.fill(0);
    let timeouts = 0;
    for (let i = 0; i < attempts.length; i++) {
      const attempt = attempts[i] as NodeAttempt;
      const node = index.get(attempt.node_id);
      if (node === undefined) {
        throw recordError(`record.attempts[${i}].node_id`, 'attempt for a node that is not in the plan', attempt.node_id);
      }
      attemptsSeen[node] = (attemptsSeen[node] as number) + 1;
      const status = attempt.status === 'success' ? STATUS_SUCCESS : attempt.status === 'failure' ? STATUS_FAILURE : STATUS_TIMEOUT;
      if (attempt.attempt > (lastAttempt[node] as number)) {
        lastAttempt[node] = attempt.attempt;
        lastStatus[node] = status;
      }
      if (status === STATUS_TIMEOUT || attempt.seconds > (timeoutSeconds[node] as number)) {
        timeouts++;
        nodeTimeouts[node] = (nodeTimeouts[node] as number) + 1;
      }
    }
    return finishAttempts(task, compiled, quality, record.actual_tao, record.actual_seconds, timeouts, attempts.length);
  }
  const stepsCompleted = record.steps_completed ?? 0;
  const actualRetries = record.actual_retries ?? 0;
  const timeouts = record.timeouts ?? 0;
  const hardFailures = record.hard_failures ?? 0;
  if (stepsCompleted > totalSteps) {
    throw recordError('record.steps_completed', `steps_completed exceeds total_steps_in_dag (${totalSteps})`, stepsCompleted);
  }
  if (hardFailures > totalSteps - stepsCompleted) {
    throw recordError(
      'record.hard_failures',
      `a node is either completed or a hard failure: hard_failures + steps_completed (${stepsCompleted}) exceeds total_steps_in_dag (${totalSteps})`,
      hardFailures,
    );
  }
  const minRetries = compiled.minRetriesForHardFailures[hardFailures] as number;
  if (actualRetries < minRetries) {
    throw recordError(
      'record.actual_retries',
      `${hardFailures} hard failure(s) must exhaust their nodes' retry_count, which takes at least ${minRetries} retries in this plan`,
      actualRetries,
    );
  }
  if (timeouts > actualRetries + totalSteps) {
    throw recordError('record.timeouts', `more timeouts than attempts (at most actual_retries + total_steps_in_dag = ${actualRetries + totalSteps})`, timeouts);
  }
  return finishScore(task, compiled, quality, record.actual_tao, record.actual_seconds, stepsCompleted, actualRetries, timeouts, hardFailures, 0, 0);
}
