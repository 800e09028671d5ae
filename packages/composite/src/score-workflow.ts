import { SubnetError } from '@subnet/core';

import { scoreParsed } from './count-parsed.js';
import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { explainWorkflow } from './explain-workflow.js';
import { compileRawPlan } from './fast-plan.js';
import { fastScoreRaw } from './fast-record.js';
import { compiledPlanOf, isParsedRecord, parseExecutionRecord, parseWorkflowPlan, taskForEvaluation, type CompiledPlan } from './parse-workflow.js';
import { COMPLETION, COST, GATE, HARD, LATENCY, RELIABILITY, RETRIES, SCORE, STEPS, SUCCESS, TIMEOUTS, UNPLANNED } from './score-slots.js';
import type { WorkflowTask } from './workflow-schemas.js';

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
  /**
   * Plain sentences showing every step of the formula with its numbers, inputs first, S next, then one
   * line per node (attempts, last status, timeouts counted, completed or hard failure) when the counters
   * were derived from attempts.
   */
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

function argumentError(summary: string, value: unknown): never {
  throw new SubnetError(COMPOSITE_ERROR_CODES.invalidArgument, summary, { context: { path: 'input', value } });
}

function compiledOf(plan: unknown): CompiledPlan {
  const compiled = compiledPlanOf(parseWorkflowPlan(plan));
  /* c8 ignore next */
  if (compiled === undefined) throw new Error('unreachable: a parsed plan is compiled');
  return compiled;
}

/**
 * Validates (or recognises) the three inputs and scores them into the plan's scratch vector. A raw
 * record goes through the allocation-free fast path; when that finds anything off, the zod path runs and
 * throws the coded error with the field path (or scores, if the fast path was stricter than the schema).
 */
function evaluate(input: ScoreWorkflowInput): { task: WorkflowTask; compiled: CompiledPlan } {
  const given: unknown = input;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) argumentError('scoreWorkflow takes { task, plan, record }', given);
  const task = taskForEvaluation(input.task);
  // A plan not returned by parseWorkflowPlan is compiled for this one evaluation, without a frozen copy to keep.
  const plan = input.plan;
  const compiled = compiledPlanOf(plan) ?? compileRawPlan(plan) ?? compiledOf(plan);
  const record = input.record;
  if (isParsedRecord(record)) scoreParsed(task, compiled, record);
  else if (!fastScoreRaw(task, compiled, record)) scoreParsed(task, compiled, parseExecutionRecord(record));
  return { task, compiled };
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
 *   pre-counted counters the DAG cannot produce, input deeper than 64 levels or beyond the size limits),
 *   naming the path and value; `COMPOSITE_INVALID_ARGUMENT` when `input` is not an object
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
  const { task, compiled } = evaluate(input);
  const out = compiled.out;
  const gate = out[GATE] === 1;
  const score = out[SCORE] as number;
  const components = Object.freeze({
    success: out[SUCCESS] as number,
    cost: out[COST] as number,
    latency: out[LATENCY] as number,
    reliability: out[RELIABILITY] as number,
  });
  const completionRatio = out[COMPLETION] as number;
  const gates = Object.freeze({ costScored: gate, latencyScored: gate });
  const counters = Object.freeze({
    stepsCompleted: out[STEPS] as number,
    totalSteps: compiled.totalSteps,
    actualRetries: out[RETRIES] as number,
    declaredRetryBudget: compiled.declaredRetryBudget,
    unplannedRetries: out[UNPLANNED] as number,
    timeouts: out[TIMEOUTS] as number,
    hardFailures: out[HARD] as number,
  });
  // One literal in the published key order (a spread of a partial result would copy it key by key).
  const explanation = explainWorkflow({ score, components, completionRatio, gates, counters }, task, compiled);
  return Object.freeze({ score, components, completionRatio, gates, counters, explanation });
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
  return evaluate(input).compiled.out[SCORE] as number;
}
