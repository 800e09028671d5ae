import type { CompiledPlan } from './parse-workflow.js';
import { ACTUAL_SECONDS, ACTUAL_TAO, ATTEMPTS, FROM_ATTEMPTS, QUALITY, STATUS_FAILURE, STATUS_SUCCESS } from './score-slots.js';
import type { WorkflowScore } from './score-workflow.js';
import type { WorkflowTask } from './workflow-schemas.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line per node: attempts, last status, timeouts counted, and what the node counts as (SPEC A). */
function nodeLines(compiled: CompiledPlan): string[] {
  const lines: string[] = [];
  for (let node = 0; node < compiled.totalSteps; node++) {
    const id = JSON.stringify(compiled.nodeIds[node]);
    const seen = compiled.attemptsSeen[node] as number;
    if (seen === 0) {
      lines.push(`Node ${id}: never attempted, so neither completed nor a hard failure.`);
      continue;
    }
    const status = compiled.lastStatus[node] === STATUS_SUCCESS ? 'success' : compiled.lastStatus[node] === STATUS_FAILURE ? 'failure' : 'timeout';
    const retry = compiled.retryCount[node] as number;
    const verdict =
      status === 'success'
        ? 'completed'
        : seen >= retry + 1
          ? `hard failure (${plural(seen, 'attempt')} >= retry_count ${retry} + 1)`
          : `not completed and not a hard failure (${plural(seen, 'attempt')} < retry_count ${retry} + 1)`;
    lines.push(
      `Node ${id}: ${plural(seen, 'attempt')}, last status ${status}, ${plural(compiled.nodeTimeouts[node] as number, 'timeout')} counted: ${verdict}.`,
    );
  }
  return lines;
}

/**
 * Internal: the explanation of a score (every step of the formula with its numbers, then one line per
 * node when the counters came from attempts). Reads the numbers the evaluation left in `compiled`.
 */
export function explainWorkflow(result: Omit<WorkflowScore, 'explanation'>, task: WorkflowTask, compiled: CompiledPlan): readonly string[] {
  const { score, components: c, completionRatio, gates, counters: k } = result;
  const { max_budget_tao: budget, max_latency_seconds: maxSeconds } = task.constraints;
  const out = compiled.out;
  const quality = out[QUALITY] as number;
  const actualTao = out[ACTUAL_TAO] as number;
  const actualSeconds = out[ACTUAL_SECONDS] as number;
  const fromAttempts = out[FROM_ATTEMPTS] === 1;
  const source = fromAttempts ? `Counters are derived from ${plural(out[ATTEMPTS] as number, 'attempt')}` : 'Counters are pre-counted';
  return Object.freeze([
    `${source}: ${k.stepsCompleted} of ${plural(k.totalSteps, 'step')} completed, ${k.actualRetries} ${k.actualRetries === 1 ? 'retry' : 'retries'}, ${plural(k.timeouts, 'timeout')}, ${plural(k.hardFailures, 'hard failure')}.`,
    `completion_ratio = steps_completed / total_steps_in_dag = ${k.stepsCompleted} / ${k.totalSteps} = ${completionRatio}.`,
    `S_success = output_quality_score * completion_ratio = ${quality} * ${completionRatio} = ${c.success}.`,
    gates.costScored
      ? `Gate: S_success = ${c.success} is above 0.7, so cost and latency are scored.`
      : `Gate: S_success = ${c.success} is not above 0.7, so cost and latency are not scored: S_cost = 0 and S_latency = 0.`,
    gates.costScored
      ? `S_cost = max(0, 1 - actual_tao / max_budget_tao) = max(0, 1 - ${actualTao} / ${budget}) = ${c.cost}.`
      : `S_cost = 0 (gated off; actual_tao ${actualTao} against max_budget_tao ${budget} is not scored).`,
    gates.latencyScored
      ? `S_latency = max(0, 1 - actual_seconds / max_latency_seconds) = max(0, 1 - ${actualSeconds} / ${maxSeconds}) = ${c.latency}.`
      : `S_latency = 0 (gated off; actual_seconds ${actualSeconds} against max_latency_seconds ${maxSeconds} is not scored).`,
    `unplanned_retries = max(0, actual_retries - declared_retry_budget) = max(0, ${k.actualRetries} - ${k.declaredRetryBudget}) = ${k.unplannedRetries} (declared retries are free).`,
    `S_reliability = min(1, max(0, 1 - (unplanned_retries * 0.10 + timeouts * 0.20 + hard_failures * 0.50))) = min(1, max(0, 1 - (${k.unplannedRetries} * 0.10 + ${k.timeouts} * 0.20 + ${k.hardFailures} * 0.50))) = ${c.reliability}.`,
    `S = 0.50 * S_success + 0.25 * S_cost + 0.15 * S_latency + 0.10 * S_reliability = 0.50 * ${c.success} + 0.25 * ${c.cost} + 0.15 * ${c.latency} + 0.10 * ${c.reliability} = ${score}.`,
    ...(fromAttempts ? nodeLines(compiled) : ['Per-node lines: none, the counters were pre-counted (no attempts to show).']),
  ]);
}
