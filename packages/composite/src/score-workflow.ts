import { SubnetError } from '@subnet/core';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { compiledPlanOf, parseExecutionRecord, parseWorkflowPlan, parseWorkflowTask, type CompiledPlan } from './parse-workflow.js';
import type { ExecutionRecord, NodeAttempt, WorkflowTask } from './workflow-schemas.js';

/** The four sub-scores of the composite (SPEC section A), each in [0, 1]. */
export interface WorkflowComponents {
  /** S_success = output_quality_score × completion_ratio. */
  readonly success: number;
  /** S_cost = max(0, 1 − actual_tao / max_budget_tao), or 0 when the gate is off. */
  readonly cost: number;
  /** S_latency = max(0, 1 − actual_seconds / max_latency_seconds), or 0 when the gate is off. */
  readonly latency: number;
  /** S_reliability = min(1, max(0, 1 − (unplanned × 0.10 + timeouts × 0.20 + hard_failures × 0.50))). */
  readonly reliability: number;
}

/** The success gate: cost and latency are scored only when S_success > 0.7 (strictly). */
export interface WorkflowGates {
  readonly costScored: boolean;
  readonly latencyScored: boolean;
}

/** The counters the score is computed from (derived from attempts, or pre-counted). */
export interface WorkflowCounters {
  readonly stepsCompleted: number;
  /** total_steps_in_dag = the number of nodes. */
  readonly totalSteps: number;
  readonly actualRetries: number;
  /** Sum of every retry_count in error_handling (0 if absent). */
  readonly declaredRetryBudget: number;
  /** max(0, actualRetries − declaredRetryBudget). */
  readonly unplannedRetries: number;
  readonly timeouts: number;
  readonly hardFailures: number;
}

/** The explained composite score of one executed workflow. Frozen. */
export interface WorkflowScore {
  /** S = 0.50 × S_success + 0.25 × S_cost + 0.15 × S_latency + 0.10 × S_reliability, in [0, 1]. */
  readonly score: number;
  readonly components: WorkflowComponents;
  /** steps_completed / total_steps_in_dag. */
  readonly completionRatio: number;
  readonly gates: WorkflowGates;
  readonly counters: WorkflowCounters;
  /** Plain sentences showing every step of the formula with its numbers, inputs first, S last. */
  readonly explanation: readonly string[];
}

/**
 * What {@link scoreWorkflow} scores: wire-format values (shaped as `WorkflowTaskInput`,
 * `WorkflowPlanInput` and `ExecutionRecordInput`) or values returned by the parse functions.
 * Typed `unknown` because every field is validated at run time.
 */
export interface ScoreWorkflowInput {
  readonly task: unknown;
  readonly plan: unknown;
  readonly record: unknown;
}

const SUCCESS_GATE = 0.7;

// Slots of the scratch vector one evaluation writes (CompiledPlan.out).
const SCORE = 0;
const SUCCESS = 1;
const COST = 2;
const LATENCY = 3;
const RELIABILITY = 4;
const COMPLETION = 5;
const GATE = 6;
const STEPS = 7;
const RETRIES = 8;
const UNPLANNED = 9;
const TIMEOUTS = 10;
const HARD = 11;

function recordError(path: string, summary: string, value: unknown): SubnetError {
  return new SubnetError(COMPOSITE_ERROR_CODES.invalidRecord, summary, { context: { path, value } });
}

/**
 * The one implementation of the formula: validates (or recognises) the inputs, derives or checks the
 * counters, and writes every number into the plan's scratch vector. Allocates nothing for parsed inputs.
 */
function compiledOf(plan: unknown): CompiledPlan {
  const compiled = compiledPlanOf(parseWorkflowPlan(plan));
  /* c8 ignore next */
  if (compiled === undefined) throw new Error('unreachable: a parsed plan is compiled');
  return compiled;
}

function evaluateParsed(task: WorkflowTask, compiled: CompiledPlan, record: ExecutionRecord): number {
  const totalSteps = compiled.totalSteps;
  let stepsCompleted = 0;
  let actualRetries = 0;
  let timeouts = 0;
  let hardFailures = 0;
  const attempts = record.attempts;
  if (attempts !== undefined) {
    const { index, timeoutSeconds, retryCount, attemptsSeen, lastAttempt, lastSucceeded } = compiled;
    attemptsSeen.fill(0);
    lastAttempt.fill(0);
    for (let i = 0; i < attempts.length; i++) {
      const attempt = attempts[i] as NodeAttempt;
      const node = index.get(attempt.node_id);
      if (node === undefined) {
        throw recordError(`record.attempts[${i}].node_id`, 'attempt for a node that is not in the plan', attempt.node_id);
      }
      attemptsSeen[node] = (attemptsSeen[node] as number) + 1;
      if (attempt.attempt > (lastAttempt[node] as number)) {
        lastAttempt[node] = attempt.attempt;
        lastSucceeded[node] = attempt.status === 'success' ? 1 : 0;
      }
      if (attempt.status === 'timeout' || attempt.seconds > (timeoutSeconds[node] as number)) timeouts++;
    }
    for (let node = 0; node < totalSteps; node++) {
      const seen = attemptsSeen[node] as number;
      if (seen === 0) continue;
      actualRetries += seen - 1;
      if (lastSucceeded[node] === 1) stepsCompleted++;
      else if (seen >= (retryCount[node] as number) + 1) hardFailures++;
    }
  } else {
    stepsCompleted = record.steps_completed ?? 0;
    actualRetries = record.actual_retries ?? 0;
    timeouts = record.timeouts ?? 0;
    hardFailures = record.hard_failures ?? 0;
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
      throw recordError(
        'record.timeouts',
        `more timeouts than attempts (at most actual_retries + total_steps_in_dag = ${actualRetries + totalSteps})`,
        timeouts,
      );
    }
  }

  const unplannedRetries = Math.max(0, actualRetries - compiled.declaredRetryBudget);
  const completionRatio = stepsCompleted / totalSteps;
  const success = record.output_quality_score * completionRatio;
  const gate = success > SUCCESS_GATE;
  const cost = gate ? Math.max(0, 1 - record.actual_tao / task.constraints.max_budget_tao) : 0;
  const latency = gate ? Math.max(0, 1 - record.actual_seconds / task.constraints.max_latency_seconds) : 0;
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
  return score;
}

/**
 * Scores one executed workflow with the composite formula of SPEC section A (seed A, v1.0.0):
 * `S = 0.50·S_success + 0.25·S_cost + 0.15·S_latency + 0.10·S_reliability`, cost and latency gated on
 * `S_success > 0.7` (strictly), reliability never gated. Counters come from the attempts (a node is
 * completed iff its last attempt succeeded; retries = Σ(attempts − 1); timeouts = attempts with status
 * `timeout` or longer than the node's timeout_seconds; hard failures = nodes whose last attempt did not
 * succeed with attempts >= retry_count + 1) or from the pre-counted fields, checked against the DAG.
 * Arithmetic is IEEE double in the order the seed writes it.
 *
 * Inputs may be raw wire values (validated here) or values returned by {@link parseWorkflowTask},
 * {@link parseWorkflowPlan} and {@link parseExecutionRecord} (recognised and not validated again).
 *
 * @param input - `{ task, plan, record }`
 * @returns the frozen, explained score
 * @throws SubnetError `COMPOSITE_INVALID_TASK`, `COMPOSITE_INVALID_PLAN`, `COMPOSITE_INVALID_DAG` or
 *   `COMPOSITE_INVALID_RECORD` (an attempt for an unknown node, attempt numbers that skip or repeat,
 *   pre-counted counters the DAG cannot produce), naming the path and value
 * @example
 * const { score, explanation } = scoreWorkflow({
 *   task: { task_id: 't-1', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } },
 *   plan: { nodes: [{ id: 'a' }] },
 *   record: { output_quality_score: 0.9, actual_tao: 0.2, actual_seconds: 30,
 *             attempts: [{ node_id: 'a', attempt: 1, status: 'success', seconds: 30 }] },
 * })
 * // score = 0.50 * 0.9 + 0.25 * 0.8 + 0.15 * 0.5 + 0.10 * 1 = 0.825
 */
export function scoreWorkflow(input: ScoreWorkflowInput): WorkflowScore {
  const task = parseWorkflowTask(input.task);
  const compiled = compiledOf(input.plan);
  const record = parseExecutionRecord(input.record);
  evaluateParsed(task, compiled, record);
  const out = compiled.out;
  const gate = out[GATE] === 1;
  const result = {
    score: out[SCORE] as number,
    components: Object.freeze({
      success: out[SUCCESS] as number,
      cost: out[COST] as number,
      latency: out[LATENCY] as number,
      reliability: out[RELIABILITY] as number,
    }),
    completionRatio: out[COMPLETION] as number,
    gates: Object.freeze({ costScored: gate, latencyScored: gate }),
    counters: Object.freeze({
      stepsCompleted: out[STEPS] as number,
      totalSteps: compiled.totalSteps,
      actualRetries: out[RETRIES] as number,
      declaredRetryBudget: compiled.declaredRetryBudget,
      unplannedRetries: out[UNPLANNED] as number,
      timeouts: out[TIMEOUTS] as number,
      hardFailures: out[HARD] as number,
    }),
  };
  return Object.freeze({ ...result, explanation: explain(result, task, record) });
}

/**
 * The hot path: the same evaluation as {@link scoreWorkflow} (same validation, same arithmetic, so the
 * same number bit for bit) returning only `S`, with no explanation and, for inputs returned by the parse
 * functions, no allocation. For scoring many records in a loop.
 *
 * @param input - `{ task, plan, record }`, raw or parsed
 * @returns S in [0, 1], equal to `scoreWorkflow(input).score`
 * @throws SubnetError the codes of {@link scoreWorkflow}
 * @example
 * const plan = parseWorkflowPlan(rawPlan) // once
 * for (const raw of records) total += compositeScore({ task, plan, record: parseExecutionRecord(raw) })
 */
export function compositeScore(input: ScoreWorkflowInput): number {
  const task = parseWorkflowTask(input.task);
  const compiled = compiledOf(input.plan);
  return evaluateParsed(task, compiled, parseExecutionRecord(input.record));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function explain(result: Omit<WorkflowScore, 'explanation'>, task: WorkflowTask, record: ExecutionRecord): readonly string[] {
  const { score, components: c, completionRatio, gates, counters: k } = result;
  const { max_budget_tao: budget, max_latency_seconds: maxSeconds } = task.constraints;
  const { output_quality_score: quality, actual_tao: actualTao, actual_seconds: actualSeconds, attempts } = record;
  const source = attempts === undefined ? 'Counters are pre-counted' : `Counters are derived from ${plural(attempts.length, 'attempt')}`;
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
  ]);
}
