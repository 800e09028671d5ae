import { DEFAULT_INPUT_LIMITS } from '@subnet/core';

import { isPlainObject, jsonShapeOk, keyOk, prototypeIsClean, textOk } from './json-shape.js';
import type { ErrorHandling, planShapeSchema, WorkflowTask } from './workflow-schemas.js';
import type { z } from 'zod';

const LIMITS = DEFAULT_INPUT_LIMITS;

/** What the zod shape of a plan gives for a valid plan (before the DAG checks). */
type PlanShape = z.output<typeof planShapeSchema>;

/** An id as the schema wants it: a non-empty, well-formed string within the size limit. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && textOk(value);
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function isPositive(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value < Number.POSITIVE_INFINITY;
}

/**
 * Walks the keys of a plain object as zod's loose object does after its declared fields: every key within
 * the limits and its value a JSON shape found inside `enclosing` containers; each undeclared key copied
 * into `out` by assignment, except `__proto__` (zod skips it: assigning it would set the prototype). Without
 * `out` it only checks (a reader that keeps no copy).
 *
 * @returns false when any key or value is off
 */
export function copyLoose(
  source: Record<string, unknown>,
  out: Record<string, unknown> | undefined,
  declared: (key: string) => boolean,
  enclosing: number,
): boolean {
  let keyCount = 0;
  for (const key in source) {
    if (++keyCount > LIMITS.maxObjectKeys || !keyOk(key)) return false;
    if (declared(key)) continue;
    const value = source[key];
    if (!jsonShapeOk(value, enclosing)) return false;
    if (out !== undefined && key !== '__proto__') out[key] = value;
  }
  return true;
}

export const isNodeKey = (key: string): boolean => key === 'id';
export const isEdgeKey = (key: string): boolean => key === 'from' || key === 'to';
export const isEntryKey = (key: string): boolean => key === 'retry_count' || key === 'timeout_seconds';
export const isPlanKey = (key: string): boolean => key === 'nodes' || key === 'edges' || key === 'error_handling';

function readNodes(list: unknown): Record<string, unknown>[] | undefined {
  if (!Array.isArray(list) || list.length > LIMITS.maxListLength) return undefined;
  const nodes: Record<string, unknown>[] = new Array<Record<string, unknown>>(list.length);
  for (let i = 0; i < list.length; i++) {
    const node: unknown = list[i];
    if (!isPlainObject(node) || !Object.hasOwn(node, 'id')) return undefined;
    const id = node.id;
    if (!isId(id)) return undefined;
    const out: Record<string, unknown> = { id };
    if (!copyLoose(node, out, isNodeKey, 3)) return undefined;
    nodes[i] = out;
  }
  return nodes;
}

function readEdges(list: unknown): Record<string, unknown>[] | undefined {
  if (!Array.isArray(list) || list.length > LIMITS.maxListLength) return undefined;
  const edges: Record<string, unknown>[] = new Array<Record<string, unknown>>(list.length);
  for (let i = 0; i < list.length; i++) {
    const edge: unknown = list[i];
    if (!isPlainObject(edge) || !Object.hasOwn(edge, 'from') || !Object.hasOwn(edge, 'to')) return undefined;
    const from = edge.from;
    const to = edge.to;
    if (!isId(from) || !isId(to)) return undefined;
    const out: Record<string, unknown> = { from, to };
    if (!copyLoose(edge, out, isEdgeKey, 3)) return undefined;
    edges[i] = out;
  }
  return edges;
}

function readErrorHandling(value: unknown): ErrorHandling | undefined {
  if (!isPlainObject(value)) return undefined;
  const out = Object.create(null) as ErrorHandling;
  let keyCount = 0;
  for (const key in value) {
    if (++keyCount > LIMITS.maxObjectKeys || !keyOk(key)) return undefined;
    const entry = value[key];
    if (!isPlainObject(entry)) return undefined;
    const read: Record<string, unknown> = {};
    if (Object.hasOwn(entry, 'retry_count')) {
      const retries = entry.retry_count;
      if (!isCount(retries)) return undefined;
      read.retry_count = retries;
    }
    if (Object.hasOwn(entry, 'timeout_seconds')) {
      const seconds = entry.timeout_seconds;
      if (!isPositive(seconds)) return undefined;
      read.timeout_seconds = seconds;
    }
    if (!copyLoose(entry, read, isEntryKey, 3)) return undefined;
    // Every key is data (`__proto__` too): defined, never assigned.
    Object.defineProperty(out, key, { value: read, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Internal, the fast path of `parseWorkflowPlan`: checks a raw plan against everything core's shape check
 * and the zod shape of a plan check (limits, plain objects, ids, counts, defaults) in one walk, and builds
 * the same value zod would (declared fields first, then the others in key order, `edges` defaulting to [],
 * `error_handling` to a null-prototype object), unfrozen. The DAG checks run after it, as after zod.
 *
 * @returns the plan's shape, or undefined when anything is off (the caller then runs core's check and zod,
 *   which name the path of the first problem). A property test holds both paths to the same answers.
 */
export function fastPlanShape(input: unknown): PlanShape | undefined {
  if (!isPlainObject(input) || !prototypeIsClean() || !Object.hasOwn(input, 'nodes')) return undefined;
  const nodes = readNodes(input.nodes);
  if (nodes === undefined) return undefined;
  const edges = Object.hasOwn(input, 'edges') ? readEdges(input.edges) : [];
  if (edges === undefined) return undefined;
  const errorHandling = Object.hasOwn(input, 'error_handling') ? readErrorHandling(input.error_handling) : (Object.create(null) as ErrorHandling);
  if (errorHandling === undefined) return undefined;
  const plan: Record<string, unknown> = { nodes, edges, error_handling: errorHandling };
  if (!copyLoose(input, plan, isPlanKey, 1)) return undefined;
  return plan as PlanShape;
}

const isTaskKey = (key: string): boolean => key === 'task_id' || key === 'constraints';
const isConstraintKey = (key: string): boolean => key === 'max_budget_tao' || key === 'max_latency_seconds';

/**
 * Internal, the fast path of `parseWorkflowTask`, as {@link fastPlanShape} is of plans: the same checks as
 * core's shape check and the zod task schema in one walk, the same value (declared fields first), unfrozen.
 *
 * @returns the task, or undefined when anything is off (the caller then runs core's check and zod)
 */
export function fastTaskShape(input: unknown): WorkflowTask | undefined {
  if (!isPlainObject(input) || !prototypeIsClean() || !Object.hasOwn(input, 'task_id') || !Object.hasOwn(input, 'constraints')) return undefined;
  const taskId = input.task_id;
  const given = input.constraints;
  if (!isId(taskId) || !isPlainObject(given) || !Object.hasOwn(given, 'max_budget_tao') || !Object.hasOwn(given, 'max_latency_seconds')) return undefined;
  const budget = given.max_budget_tao;
  const latency = given.max_latency_seconds;
  if (!isPositive(budget) || !isPositive(latency)) return undefined;
  const constraints: Record<string, unknown> = { max_budget_tao: budget, max_latency_seconds: latency };
  if (!copyLoose(given, constraints, isConstraintKey, 2)) return undefined;
  const task: Record<string, unknown> = { task_id: taskId, constraints };
  if (!copyLoose(input, task, isTaskKey, 1)) return undefined;
  return task as WorkflowTask;
}
