import type { CompiledPlan } from './parse-workflow.js';
import {
  ACTUAL_SECONDS,
  ACTUAL_TAO,
  ATTEMPTS,
  COMPLETION,
  COST,
  FROM_ATTEMPTS,
  GATE,
  HARD,
  LATENCY,
  QUALITY,
  RELIABILITY,
  RETRIES,
  SCORE,
  STATUS_SUCCESS,
  STEPS,
  SUCCESS,
  TIMEOUTS,
  UNPLANNED,
} from './score-slots.js';
import type { WorkflowTask } from './workflow-schemas.js';

const SUCCESS_GATE = 0.7;

/**
 * Internal: the formula of SPEC A (seed A) from the counters, in IEEE doubles in the order the seed
 * writes it; every number goes into `compiled.out`. The one implementation every path ends in.
 *
 * @returns S
 */
export function finishScore(
  task: WorkflowTask,
  compiled: CompiledPlan,
  quality: number,
  actualTao: number,
  actualSeconds: number,
  stepsCompleted: number,
  actualRetries: number,
  timeouts: number,
  hardFailures: number,
  fromAttempts: number,
  attempts: number,
): number {
  const unplannedRetries = Math.max(0, actualRetries - compiled.declaredRetryBudget);
  const completionRatio = stepsCompleted / compiled.totalSteps;
  const success = quality * completionRatio;
  const gate = success > SUCCESS_GATE;
  const cost = gate ? Math.max(0, 1 - actualTao / task.constraints.max_budget_tao) : 0;
  const latency = gate ? Math.max(0, 1 - actualSeconds / task.constraints.max_latency_seconds) : 0;
  const reliability = Math.min(1.0, Math.max(0, 1 - (unplannedRetries * 0.1 + timeouts * 0.2 + hardFailures * 0.5)));
  const score = 0.5 * success + 0.25 * cost + 0.15 * latency + 0.1 * reliability;

  const out = compiled.out;
  out[SCORE] = score;
  out[SUCCESS] = success;
  out[COST] = cost;
  out[LATENCY] = latency;
  out[RELIABILITY] = reliability;
  out[COMPLETION] = completionRatio;
  out[GATE] = gate ? 1 : 0;
  out[STEPS] = stepsCompleted;
  out[RETRIES] = actualRetries;
  out[UNPLANNED] = unplannedRetries;
  out[TIMEOUTS] = timeouts;
  out[HARD] = hardFailures;
  out[FROM_ATTEMPTS] = fromAttempts;
  out[ATTEMPTS] = attempts;
  out[QUALITY] = quality;
  out[ACTUAL_TAO] = actualTao;
  out[ACTUAL_SECONDS] = actualSeconds;
  return score;
}

/**
 * Internal: S of a record counted from its attempts, from the per-node tallies in `compiled`
 * (`attemptsSeen`, `lastStatus` of the highest-numbered attempt): retries = Σ(attempts − 1), a node is
 * completed iff its last attempt succeeded, a hard failure when it did not with attempts >= retry_count + 1.
 *
 * @returns S
 */
export function finishAttempts(
  task: WorkflowTask,
  compiled: CompiledPlan,
  quality: number,
  actualTao: number,
  actualSeconds: number,
  timeouts: number,
  attempts: number,
): number {
  const { attemptsSeen, lastStatus, retryCount } = compiled;
  let steps = 0;
  let retries = 0;
  let hard = 0;
  for (let node = 0; node < compiled.totalSteps; node++) {
    const seen = attemptsSeen[node] as number;
    if (seen === 0) continue;
    retries += seen - 1;
    if (lastStatus[node] === STATUS_SUCCESS) steps++;
    else if (seen >= (retryCount[node] as number) + 1) hard++;
  }
  return finishScore(task, compiled, quality, actualTao, actualSeconds, steps, retries, timeouts, hard, 1, attempts);
}
