import { DEFAULT_INPUT_LIMITS } from '@subnet/core';

import { copyLoose, isCount, isEdgeKey, isEntryKey, isId, isNodeKey, isPlanKey, isPositive } from './fast-shapes.js';
import { isPlainObject, keyOk, prototypeIsClean } from './json-shape.js';
import { compiledPlan, planArrays, type CompiledPlan, type PlanArrays } from './parse-workflow.js';

const LIMITS = DEFAULT_INPUT_LIMITS;

// Scratch shared by every call (single-threaded, and nothing compiled here outlives the call that compiled it):
// the arrays of the last raw plan's size, and the DAG walk's per-node and per-edge lists, grown when too short.
let last: PlanArrays | undefined;
let indegree = new Int32Array(64);
let outStart = new Int32Array(65);
let mark = new Int32Array(64);
let queue = new Int32Array(64);
let edgeFrom = new Int32Array(64);
let edgeTo = new Int32Array(64);
let outList = new Int32Array(64);

/**
 * Internal, the raw-plan path of `scoreWorkflow` and `compositeScore`: a plan as received, compiled for one
 * evaluation without the frozen copy `parseWorkflowPlan` builds and marks for reuse. It accepts a plan only when
 * `parseWorkflowPlan` would (the shape checks of `fastPlanShape`, then the DAG rules: at least one node, unique node
 * ids, edges between two distinct known nodes at most once each, no cycle, error_handling keys that are nodes, and
 * retry counts that sum to at most 2^53 - 1), and gives the same compiled numbers; it reads each value of the input
 * once. The arrays it returns are scratch shared with the next raw plan of the same size, so the result must not
 * outlive the evaluation.
 *
 * @returns the compiled plan, or undefined when anything is off or unusual (the caller then runs
 *   `parseWorkflowPlan`, which names the problem or accepts what this path left to it)
 */
export function compileRawPlan(input: unknown): CompiledPlan | undefined {
  if (!isPlainObject(input) || !prototypeIsClean() || !Object.hasOwn(input, 'nodes')) return undefined;
  if (!copyLoose(input, undefined, isPlanKey, 1)) return undefined;
  const nodes = input.nodes;
  if (!Array.isArray(nodes) || nodes.length === 0 || nodes.length > LIMITS.maxListLength) return undefined;
  const n = nodes.length;
  const index = new Map<string, number>();
  const nodeIds = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const node: unknown = nodes[i];
    if (!isPlainObject(node) || !Object.hasOwn(node, 'id')) return undefined;
    const id = node.id;
    if (!isId(id) || !copyLoose(node, undefined, isNodeKey, 3) || index.has(id)) return undefined;
    index.set(id, i);
    nodeIds[i] = id;
  }
  const arrays = last !== undefined && last.n === n ? last : planArrays(n);
  last = arrays;
  const { timeoutSeconds, retryCount, retries } = arrays;
  timeoutSeconds.fill(Number.POSITIVE_INFINITY);
  retryCount.fill(0);
  retries.fill(0);
  let declaredRetryBudget = 0;
  if (Object.hasOwn(input, 'error_handling')) {
    const handling = input.error_handling;
    if (!isPlainObject(handling)) return undefined;
    let keyCount = 0;
    for (const key in handling) {
      if (++keyCount > LIMITS.maxObjectKeys || !keyOk(key)) return undefined;
      const node = index.get(key);
      const entry = handling[key];
      if (node === undefined || !isPlainObject(entry)) return undefined;
      let retry = 0;
      if (Object.hasOwn(entry, 'retry_count')) {
        const value = entry.retry_count;
        if (!isCount(value)) return undefined;
        retry = value;
      }
      if (Object.hasOwn(entry, 'timeout_seconds')) {
        const seconds = entry.timeout_seconds;
        if (!isPositive(seconds)) return undefined;
        timeoutSeconds[node] = seconds;
      }
      if (!copyLoose(entry, undefined, isEntryKey, 3)) return undefined;
      retries[node] = retry;
      retryCount[node] = Math.min(retry, 0x7fffffff);
      // Counts are safe integers, so a sum in any order is exact until it passes 2^53 - 1, and stays past it after.
      declaredRetryBudget += retry;
    }
    if (declaredRetryBudget > Number.MAX_SAFE_INTEGER) return undefined;
  }
  if (Object.hasOwn(input, 'edges') && !acyclicEdges(input.edges, index, n)) return undefined;
  return compiledPlan(arrays, index, nodeIds, declaredRetryBudget);
}

/**
 * Whether `list` is a valid edge list of the plan's nodes: each edge a plain object with two node ids as `from` and
 * `to` (and loose extra keys), between two known nodes, no pair twice, and no cycle (Kahn's algorithm; a self edge is
 * a cycle of one node, so it is refused there).
 */
function acyclicEdges(list: unknown, index: ReadonlyMap<string, number>, n: number): boolean {
  if (!Array.isArray(list) || list.length > LIMITS.maxListLength) return false;
  const count = list.length;
  if (indegree.length < n) {
    indegree = new Int32Array(n * 2);
    outStart = new Int32Array(n * 2 + 1);
    mark = new Int32Array(n * 2);
    queue = new Int32Array(n * 2);
  }
  if (edgeFrom.length < count) {
    edgeFrom = new Int32Array(count * 2);
    edgeTo = new Int32Array(count * 2);
    outList = new Int32Array(count * 2);
  }
  indegree.fill(0, 0, n);
  outStart.fill(0, 0, n + 1);
  for (let i = 0; i < count; i++) {
    const edge: unknown = list[i];
    if (!isPlainObject(edge) || !Object.hasOwn(edge, 'from') || !Object.hasOwn(edge, 'to')) return false;
    const from = edge.from;
    const to = edge.to;
    if (!isId(from) || !isId(to) || !copyLoose(edge, undefined, isEdgeKey, 3)) return false;
    const a = index.get(from);
    const b = index.get(to);
    if (a === undefined || b === undefined) return false;
    edgeFrom[i] = a;
    edgeTo[i] = b;
    indegree[b] = (indegree[b] as number) + 1;
    outStart[a + 1] = (outStart[a + 1] as number) + 1;
  }
  // Each node's successors side by side (counting sort by source), then a repeated pair is a successor seen twice
  // in one node's run.
  for (let v = 0; v < n; v++) outStart[v + 1] = (outStart[v + 1] as number) + (outStart[v] as number);
  for (let i = 0; i < count; i++) {
    const a = edgeFrom[i] as number;
    const at = outStart[a] as number;
    outList[at] = edgeTo[i] as number;
    outStart[a] = at + 1;
  }
  for (let v = n; v > 0; v--) outStart[v] = outStart[v - 1] as number;
  outStart[0] = 0;
  mark.fill(-1, 0, n);
  let tail = 0;
  for (let v = 0; v < n; v++) {
    for (let k = outStart[v] as number; k < (outStart[v + 1] as number); k++) {
      const w = outList[k] as number;
      if (mark[w] === v) return false;
      mark[w] = v;
    }
    if (indegree[v] === 0) queue[tail++] = v;
  }
  for (let head = 0; head < tail; head++) {
    const v = queue[head] as number;
    for (let k = outStart[v] as number; k < (outStart[v + 1] as number); k++) {
      const w = outList[k] as number;
      const left = (indegree[w] as number) - 1;
      indegree[w] = left;
      if (left === 0) queue[tail++] = w;
    }
  }
  return tail === n;
}
