import { z } from 'zod';

import { wellFormedText } from './well-formed-text.js';

/** One problem found in a plan or record beyond its shape (path segments from the root, message, value). */
export interface StructuralIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly value: unknown;
}

const positiveFinite = z.number().positive();
const nonNegativeFinite = z.number().min(0);
const count = z.number().int().min(0);
/** A non-empty, well-formed string (SPEC 0: a lone surrogate is invalid input) within the size limit. */
const id = wellFormedText(1, 1_048_576);

const taskShape = z.looseObject({
  task_id: id,
  constraints: z.looseObject({
    max_budget_tao: positiveFinite,
    max_latency_seconds: positiveFinite,
  }),
});

/**
 * The benchmark task a workflow is scored against (SPEC section A, wire format). `task_id` is a non-empty
 * string; `constraints.max_budget_tao` and `constraints.max_latency_seconds` are finite and > 0 (zero or
 * negative limits make an invalid task, not a score of 0). Unknown fields are kept and not scored.
 *
 * @example
 * workflowTaskSchema.parse({ task_id: 't-1', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } })
 */
export const workflowTaskSchema = taskShape;
/** A validated task (wire format). */
export type WorkflowTask = z.output<typeof workflowTaskSchema>;
/** A task as given on the wire, before validation. */
export type WorkflowTaskInput = z.input<typeof workflowTaskSchema>;

const errorHandlingEntrySchema = z.looseObject({
  retry_count: count.optional(),
  timeout_seconds: positiveFinite.optional(),
});

/** `error_handling` after parsing: a null-prototype object, so every key (`__proto__` too) is data. */
export type ErrorHandling = Record<string, z.output<typeof errorHandlingEntrySchema>>;

/**
 * `error_handling` (SPEC 0 "Hostile shapes"): an object whose keys are node ids. zod's `z.record` writes
 * its output with `obj[key] = ...`, which turns a key `__proto__` into a prototype and loses it; this
 * schema copies every own key into a null-prototype object instead, so `__proto__`, `constructor` and
 * `toString` are ordinary node ids.
 */
const errorHandlingSchema = z
  .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    message: 'Invalid input: expected an object of node id -> { retry_count, timeout_seconds }',
  })
  .transform((value, ctx) => {
    const out = Object.create(null) as ErrorHandling;
    for (const key of Object.keys(value)) {
      const entry = errorHandlingEntrySchema.safeParse(value[key]);
      if (entry.success) Object.defineProperty(out, key, { value: entry.data, enumerable: true, writable: true, configurable: true });
      else for (const issue of entry.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] });
    }
    return out;
  });

/** The shape of a plan without the DAG checks (internal: lets the parser tell shape errors from DAG errors). */
export const planShapeSchema = z.looseObject({
  nodes: z.array(z.looseObject({ id })),
  edges: z.array(z.looseObject({ from: id, to: id })).default([]),
  error_handling: errorHandlingSchema.default(() => Object.create(null) as ErrorHandling),
});

/**
 * The structural DAG checks of SPEC section A on a plan whose shape is valid: at least one node, unique
 * node ids, edges between existing nodes, no self edge, no duplicate edge, no cycle, and `error_handling`
 * keys that are node ids. Every problem is returned, in a fixed order (nodes, edges, error_handling, cycle).
 */
export function dagIssues(plan: z.output<typeof planShapeSchema>): StructuralIssue[] {
  const issues: StructuralIssue[] = [];
  const { nodes, edges } = plan;
  if (nodes.length === 0) issues.push({ path: ['nodes'], message: 'a workflow DAG needs at least one node', value: nodes });
  const index = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (index.has(node.id)) issues.push({ path: ['nodes', i, 'id'], message: 'duplicate node id', value: node.id });
    else index.set(node.id, i);
  });
  const seenEdges = new Set<number>();
  const validEdges: [number, number, number][] = [];
  edges.forEach((edge, i) => {
    const from = index.get(edge.from);
    const to = index.get(edge.to);
    if (from === undefined) issues.push({ path: ['edges', i, 'from'], message: 'edge starts at a node that does not exist', value: edge.from });
    if (to === undefined) issues.push({ path: ['edges', i, 'to'], message: 'edge ends at a node that does not exist', value: edge.to });
    if (from === undefined || to === undefined) return;
    if (from === to) {
      issues.push({ path: ['edges', i], message: 'self edge (a node cannot depend on itself)', value: { from: edge.from, to: edge.to } });
      return;
    }
    const key = from * nodes.length + to; // one number per (from, to) pair of node indices
    if (seenEdges.has(key)) {
      issues.push({ path: ['edges', i], message: 'duplicate edge', value: { from: edge.from, to: edge.to } });
      return;
    }
    seenEdges.add(key);
    validEdges.push([from, to, i]);
  });
  for (const key of Object.keys(plan.error_handling)) {
    if (!index.has(key)) issues.push({ path: ['error_handling', key], message: 'error_handling key is not a node id', value: key });
  }
  const cycle = findCycle(nodes.length, validEdges, nodes);
  if (cycle !== undefined) issues.push(cycle);
  return issues;
}

/** Kahn's algorithm; when nodes remain, walks predecessors among them to name one cycle. */
function findCycle(n: number, edges: readonly [number, number, number][], nodes: readonly { id: string }[]): StructuralIssue | undefined {
  const indegree = new Int32Array(n);
  const outgoing: number[][] = Array.from({ length: n }, () => []);
  for (const [from, to] of edges) {
    indegree[to] = (indegree[to] ?? 0) + 1;
    outgoing[from]?.push(to);
  }
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue.push(i);
  const removed = new Uint8Array(n);
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] ?? 0;
    removed[node] = 1;
    for (const next of outgoing[node] ?? []) {
      indegree[next] = (indegree[next] ?? 0) - 1;
      if (indegree[next] === 0) queue.push(next);
    }
  }
  if (queue.length === n) return undefined;
  // Every remaining node has a predecessor that remains: walk predecessors (first edge by index) until a
  // node repeats; the repeated stretch is a cycle.
  const predecessorEdge = new Int32Array(n).fill(-1);
  for (let e = 0; e < edges.length; e++) {
    const [from, to] = edges[e] ?? [0, 0, 0];
    if (removed[from] === 0 && removed[to] === 0 && predecessorEdge[to] === -1) predecessorEdge[to] = e;
  }
  let start = 0;
  while (removed[start] === 1) start++;
  const position = new Map<number, number>();
  const walk: number[] = [];
  let node = start;
  while (!position.has(node)) {
    position.set(node, walk.length);
    walk.push(node);
    node = edges[predecessorEdge[node] ?? 0]?.[0] ?? 0;
  }
  const loop = walk.slice(position.get(node)).reverse(); // predecessor order reversed = edge direction
  // Name the cycle from the source of its edge listed first.
  let firstEdge = Number.POSITIVE_INFINITY;
  let firstAt = 0;
  for (let k = 0; k < loop.length; k++) {
    const to = loop[(k + 1) % loop.length] ?? 0;
    const edgeIndex = edges[predecessorEdge[to] ?? 0]?.[2] ?? 0;
    if (edgeIndex < firstEdge) [firstEdge, firstAt] = [edgeIndex, k];
  }
  const rotated = [...loop.slice(firstAt), ...loop.slice(0, firstAt)];
  const ids = [...rotated, rotated[0] ?? 0].map((i) => nodes[i]?.id ?? '');
  return { path: ['edges', firstEdge], message: cycleSentence(ids), value: ids };
}

/** The most node ids a cycle's message names (docs/spec.md G.46 (f)); the value keeps them all. */
const CYCLE_IDS_SHOWN = 8;
/** The most UTF-16 code units of one node id in a cycle's message; a longer id is cut, ending `...`. */
const CYCLE_ID_SHOWN_LENGTH = 64;

/**
 * A cycle in words, bounded whatever its length (the message goes back to the sender at ingest): `cycle a -> b -> c ->
 * a` up to {@link CYCLE_IDS_SHOWN} nodes; beyond, the first ones, how many are left out and the way back, `cycle of
 * 10000 nodes: n0 -> n1 -> … -> n7 -> ... (9992 more) -> n0`. An id longer than {@link CYCLE_ID_SHOWN_LENGTH} is cut.
 *
 * @param ids - the cycle's node ids in edge order, the first repeated at the end
 */
function cycleSentence(ids: readonly string[]): string {
  const show = (id: string) => {
    if (id.length <= CYCLE_ID_SHOWN_LENGTH) return id;
    const cut = CYCLE_ID_SHOWN_LENGTH - 3;
    // Never half a surrogate pair: the message stays well-formed text.
    const code = id.charCodeAt(cut - 1);
    return `${id.slice(0, code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut)}...`;
  };
  const nodes = ids.length - 1;
  if (nodes <= CYCLE_IDS_SHOWN) return `cycle ${ids.map(show).join(' -> ')}`;
  const first = ids.slice(0, CYCLE_IDS_SHOWN).map(show).join(' -> ');
  return `cycle of ${nodes} nodes: ${first} -> ... (${nodes - CYCLE_IDS_SHOWN} more) -> ${show(ids[0] ?? '')}`;
}

/**
 * A workflow plan (SPEC section A, wire format): `nodes` (1..N objects with a unique non-empty string
 * `id`; other node fields are kept, not scored), `edges` (`{from, to}` between existing nodes; no self,
 * duplicate or cyclic edges; default `[]`) and `error_handling` (optional; keys are node ids; each entry
 * has an optional integer `retry_count >= 0`, default 0, and an optional `timeout_seconds > 0`, default
 * none). The schema runs the DAG checks too, so parsing with it alone is complete.
 *
 * @example
 * workflowPlanSchema.parse({ nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] })
 */
export const workflowPlanSchema = planShapeSchema.superRefine((plan, ctx) => {
  for (const issue of dagIssues(plan)) ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path], input: issue.value });
});
/** A validated plan (wire format; `edges` and `error_handling` filled with their defaults). */
export type WorkflowPlan = z.output<typeof workflowPlanSchema>;
/** A plan as given on the wire, before validation. */
export type WorkflowPlanInput = z.input<typeof workflowPlanSchema>;

const attemptSchema = z.looseObject({
  node_id: id,
  attempt: z.number().int().min(1),
  status: z.enum(['success', 'failure', 'timeout']),
  seconds: nonNegativeFinite,
});

const COUNTER_FIELDS = ['steps_completed', 'actual_retries', 'timeouts', 'hard_failures'] as const;

/** The record's shape without the form and numbering checks (internal). */
export const recordShapeSchema = z.looseObject({
  output_quality_score: z.number().min(0).max(1),
  actual_tao: nonNegativeFinite,
  actual_seconds: nonNegativeFinite,
  attempts: z.array(attemptSchema).optional(),
  steps_completed: count.optional(),
  actual_retries: count.optional(),
  timeouts: count.optional(),
  hard_failures: count.optional(),
});

/**
 * The checks of a record that need no plan: exactly one of the two forms (`attempts`, or all four
 * pre-counted counters), and per node attempt numbers that are exactly 1..k (none skipped, none repeated).
 */
export function recordIssues(record: z.output<typeof recordShapeSchema>): StructuralIssue[] {
  const issues: StructuralIssue[] = [];
  const { attempts } = record;
  if (attempts !== undefined) {
    for (const field of COUNTER_FIELDS) {
      if (record[field] !== undefined) {
        issues.push({ path: [field], message: 'give either attempts or the pre-counted counters, not both', value: record[field] });
      }
    }
    const seen = new Map<string, Set<number>>();
    const counts = new Map<string, number>();
    for (const attempt of attempts) counts.set(attempt.node_id, (counts.get(attempt.node_id) ?? 0) + 1);
    attempts.forEach((attempt, i) => {
      let numbers = seen.get(attempt.node_id);
      if (numbers === undefined) seen.set(attempt.node_id, (numbers = new Set()));
      const k = counts.get(attempt.node_id) ?? 0;
      if (numbers.has(attempt.attempt)) {
        issues.push({
          path: ['attempts', i, 'attempt'],
          message: `attempt number repeats for node ${JSON.stringify(attempt.node_id)}`,
          value: attempt.attempt,
        });
      } else if (attempt.attempt > k) {
        issues.push({
          path: ['attempts', i, 'attempt'],
          message: `attempt numbers skip for node ${JSON.stringify(attempt.node_id)} (${k} attempt${k === 1 ? '' : 's'} must be numbered 1..${k})`,
          value: attempt.attempt,
        });
      }
      numbers.add(attempt.attempt);
    });
  } else {
    for (const field of COUNTER_FIELDS) {
      if (record[field] === undefined) {
        issues.push({
          path: [field],
          message: 'required: give attempts, or all of steps_completed, actual_retries, timeouts, hard_failures',
          value: undefined,
        });
      }
    }
  }
  return issues;
}

/**
 * An execution record (SPEC section A, wire format): `output_quality_score` in [0, 1], `actual_tao >= 0`,
 * `actual_seconds >= 0` (all finite), and either `attempts` (`[{node_id, attempt (1-based integer),
 * status: success|failure|timeout, seconds >= 0}]`, numbered 1..k per node) or all four pre-counted
 * counters `steps_completed`, `actual_retries`, `timeouts`, `hard_failures` (integers >= 0), never both.
 * Checks against the plan (unknown node ids, counters the DAG cannot produce) happen when it is scored.
 *
 * @example
 * executionRecordSchema.parse({
 *   output_quality_score: 0.9, actual_tao: 0.2, actual_seconds: 30,
 *   attempts: [{ node_id: 'a', attempt: 1, status: 'success', seconds: 30 }],
 * })
 */
export const executionRecordSchema = recordShapeSchema.superRefine((record, ctx) => {
  for (const issue of recordIssues(record)) ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path], input: issue.value });
});
/** A validated execution record (wire format). */
export type ExecutionRecord = z.output<typeof executionRecordSchema>;
/** An execution record as given on the wire, before validation. */
export type ExecutionRecordInput = z.input<typeof executionRecordSchema>;
/** One attempt of one node, as in {@link ExecutionRecord}. */
export type NodeAttempt = z.output<typeof attemptSchema>;
