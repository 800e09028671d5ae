import {
  checkWindowId,
  parseExecutionRecord,
  parseWorkflowPlan,
  parseWorkflowTask,
  scoreWorkflow,
  type ExecutionRecord,
  type WorkflowPlan,
  type WorkflowScore,
  type WorkflowTask,
} from '@subnet/composite';

import { fmt, roundForPeople, section, table } from '../render.js';
import { ignoredKeySlips } from './ignored-keys.js';
import type { CommandOutput } from './output.js';

/** Inputs of `miner-check workflow`, as read from the three files. */
export interface WorkflowCheckInput {
  readonly task: unknown;
  readonly plan: unknown;
  readonly run: unknown;
}

interface Advice {
  readonly gain: number;
  readonly message: string;
}

/**
 * Scores one executed workflow with `@subnet/composite` and explains what would raise the score. Every
 * "what if" is a second call to `scoreWorkflow` on a changed input: this command owns no formula.
 */
export function workflowCheck(input: WorkflowCheckInput): CommandOutput {
  const task = parseWorkflowTask(input.task);
  // The validator refuses a task id its rolling window cannot hold (docs/spec.md G.2), by the window's own rule.
  checkWindowId(task.task_id, '--task.task_id');
  const plan = parseWorkflowPlan(input.plan);
  const record = parseExecutionRecord(input.run);
  const result = scoreWorkflow({ task, plan, record });
  const advice = adviseOn(task, plan, record, result);
  // Unknown keys are kept and not scored (SPEC A): a slip of an optional key changes the score without an error.
  const slips = ignoredKeySlips({ task: input.task, plan: input.plan, record: input.run });

  const json = {
    score: result.score,
    components: { ...result.components },
    completion_ratio: result.completionRatio,
    gates: { cost_scored: result.gates.costScored, latency_scored: result.gates.latencyScored },
    counters: {
      steps_completed: result.counters.stepsCompleted,
      total_steps: result.counters.totalSteps,
      actual_retries: result.counters.actualRetries,
      declared_retry_budget: result.counters.declaredRetryBudget,
      unplanned_retries: result.counters.unplannedRetries,
      timeouts: result.counters.timeouts,
      hard_failures: result.counters.hardFailures,
    },
    advice: advice.map((a) => a.message),
    ignored_keys: slips.map((slip) => ({ path: slip.path, key: slip.key, meant: slip.meant })),
  };

  const c = result.components;
  const text = [
    `Composite score for task ${task.task_id}: ${fmt(result.score)}`,
    '',
    ...(slips.length === 0
      ? []
      : [
          section(
            'Keys the scorer ignored (scored as if absent)',
            slips.map((slip) => `  - ${slip.path} has the key ${JSON.stringify(slip.key)}: did you mean ${JSON.stringify(slip.meant)}?`).join('\n'),
          ),
          '',
        ]),
    section(
      'Components',
      table(
        ['component', 'weight', 'value', 'scored'],
        [
          ['success', '0.50', fmt(c.success), 'yes'],
          ['cost', '0.25', fmt(c.cost), result.gates.costScored ? 'yes' : 'no (gate)'],
          ['latency', '0.15', fmt(c.latency), result.gates.latencyScored ? 'yes' : 'no (gate)'],
          ['reliability', '0.10', fmt(c.reliability), 'yes'],
        ],
      ),
    ),
    '',
    section(
      'Counters',
      table(
        ['counter', 'value'],
        [
          ['steps completed', `${result.counters.stepsCompleted}`],
          ['total steps', `${result.counters.totalSteps}`],
          ['completion ratio', fmt(result.completionRatio)],
          ['actual retries', `${result.counters.actualRetries}`],
          ['declared retry budget', `${result.counters.declaredRetryBudget}`],
          ['unplanned retries', `${result.counters.unplannedRetries}`],
          ['timeouts', `${result.counters.timeouts}`],
          ['hard failures', `${result.counters.hardFailures}`],
        ],
      ),
    ),
    '',
    // The package's sentences hold its numbers exactly (a double's noise included): rounded here for reading.
    section('How it was computed', result.explanation.map((line) => `  ${roundForPeople(line)}`).join('\n')),
    '',
    section(
      'What would raise the score',
      advice.length === 0 ? '  Nothing: this run scores the maximum the formula allows.' : advice.map((a) => `  - ${a.message}`).join('\n'),
    ),
  ].join('\n');
  return { json, text };
}

function rescore(task: WorkflowTask, plan: WorkflowPlan, record: unknown): number {
  return scoreWorkflow({ task, plan, record }).score;
}

/** The record in its pre-counted form, from the counters the package derived. */
function counted(record: ExecutionRecord, result: WorkflowScore): Record<string, unknown> {
  return {
    output_quality_score: record.output_quality_score,
    actual_tao: record.actual_tao,
    actual_seconds: record.actual_seconds,
    steps_completed: result.counters.stepsCompleted,
    actual_retries: result.counters.actualRetries,
    timeouts: result.counters.timeouts,
    hard_failures: result.counters.hardFailures,
  };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function adviseOn(task: WorkflowTask, plan: WorkflowPlan, record: ExecutionRecord, result: WorkflowScore): Advice[] {
  const base = result.score;
  const advice: Advice[] = [];
  const add = (score: number, message: (gain: string) => string) => {
    const gain = score - base;
    if (gain > 1e-12) advice.push({ gain, message: message(fmt(gain, 4)) });
  };
  const { counters } = result;
  const precounted = counted(record, result);

  // Unplanned retries: declaring them on the nodes that retried makes them free (seed A). Node ids are data (a
  // node may be called `__proto__`), so the changed error_handling is built from entries, never by assignment.
  if (counters.unplannedRetries > 0) {
    const attemptsPerNode = new Map<string, number>();
    for (const attempt of record.attempts ?? []) attemptsPerNode.set(attempt.node_id, (attemptsPerNode.get(attempt.node_id) ?? 0) + 1);
    const errorHandling = new Map<string, { retry_count?: number; timeout_seconds?: number }>(Object.entries(plan.error_handling));
    const nodes: string[] = [];
    for (const [node, attempts] of [...attemptsPerNode].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const declared = errorHandling.get(node)?.retry_count ?? 0;
      if (attempts - 1 > declared) {
        errorHandling.set(node, { ...errorHandling.get(node), retry_count: attempts - 1 });
        nodes.push(`${node} (retry_count: ${attempts - 1})`);
      }
    }
    // A pre-counted record does not say which steps retried: only the declared total counts, so the what-if
    // declares the unplanned retries on the plan's first node.
    const first = plan.nodes[0]?.id;
    if (nodes.length === 0 && first !== undefined) {
      const entry = errorHandling.get(first);
      errorHandling.set(first, { ...entry, retry_count: (entry?.retry_count ?? 0) + counters.unplannedRetries });
    }
    const where =
      nodes.length > 0
        ? `declare retry_count on ${nodes.length === 1 ? 'step' : 'steps'} ${nodes.join(', ')}`
        : `declare them in error_handling (retry_count on the steps that retried, ${counters.unplannedRetries} more in all)`;
    add(
      rescore(task, { ...plan, error_handling: Object.fromEntries(errorHandling) }, record),
      (gain) => `${plural(counters.unplannedRetries, 'unplanned retry', 'unplanned retries')} cost ${gain}: ${where}`,
    );
  }
  if (counters.timeouts > 0) {
    add(
      rescore(task, plan, { ...precounted, timeouts: 0 }),
      (gain) => `${plural(counters.timeouts, 'timeout')} cost ${gain}: raise timeout_seconds where the step needs longer, or make the step faster`,
    );
  }
  if (counters.hardFailures > 0) {
    add(
      rescore(task, plan, {
        ...precounted,
        hard_failures: 0,
        steps_completed: Math.min(counters.totalSteps, counters.stepsCompleted + counters.hardFailures),
      }),
      (gain) => `${plural(counters.hardFailures, 'hard failure')} cost ${gain}: a step that fails after its retry budget also leaves the DAG incomplete`,
    );
  }
  const notAttempted = counters.totalSteps - counters.stepsCompleted - counters.hardFailures;
  if (notAttempted > 0) {
    add(
      rescore(task, plan, { ...precounted, steps_completed: counters.stepsCompleted + notAttempted }),
      (gain) =>
        `${plural(notAttempted, 'step')} never completed: finishing ${notAttempted === 1 ? 'it' : 'them'} would add ${gain} (completion ratio ${fmt(result.completionRatio, 2)} -> ${fmt((counters.stepsCompleted + notAttempted) / counters.totalSteps, 2)})`,
    );
  }
  if (!result.gates.costScored) {
    add(
      rescore(task, plan, { ...precounted, output_quality_score: 1, steps_completed: counters.totalSteps, hard_failures: 0 }),
      (gain) =>
        `cost and latency are not scored while S_success = ${fmt(result.components.success, 4)} <= 0.7: a complete run at full quality would add up to ${gain}`,
    );
  } else if (record.output_quality_score < 1) {
    add(
      rescore(task, plan, { ...precounted, output_quality_score: 1 }),
      (gain) => `output quality ${fmt(record.output_quality_score, 2)} is below 1: full quality would add ${gain}`,
    );
  }
  if (result.gates.costScored && record.actual_tao > 0) {
    add(
      rescore(task, plan, { ...precounted, actual_tao: record.actual_tao / 2 }),
      (gain) => `spent ${record.actual_tao} of a ${task.constraints.max_budget_tao} TAO budget: halving the cost would add ${gain}`,
    );
  }
  if (result.gates.latencyScored && record.actual_seconds > 0) {
    add(
      rescore(task, plan, { ...precounted, actual_seconds: record.actual_seconds / 2 }),
      (gain) => `took ${record.actual_seconds} s of ${task.constraints.max_latency_seconds} s allowed: halving the latency would add ${gain}`,
    );
  }
  return advice.sort((a, b) => b.gain - a.gain || (a.message < b.message ? -1 : 1));
}
