import fc from 'fast-check';
import { expect } from 'vitest';

import { isSubnetError } from '@subnet/core';

/** Builders for wire-format inputs, and an assertion for coded errors. Not a test file. */

export type Status = 'success' | 'failure' | 'timeout';

export interface RawAttempt {
  node_id: string;
  attempt: number;
  status: Status;
  seconds: number;
}

export const task = (maxBudgetTao = 1, maxLatencySeconds = 60) => ({
  task_id: 'task-1',
  constraints: { max_budget_tao: maxBudgetTao, max_latency_seconds: maxLatencySeconds },
});

/** A linear DAG ids[0] -> ids[1] -> ... with the given error_handling. */
export const chain = (ids: readonly string[], errorHandling: Record<string, { retry_count?: number; timeout_seconds?: number }> = {}) => ({
  nodes: ids.map((id) => ({ id })),
  edges: ids.slice(1).map((to, i) => ({ from: ids[i]!, to })),
  error_handling: errorHandling,
});

export const attempt = (nodeId: string, n: number, status: Status, seconds = 1): RawAttempt => ({
  node_id: nodeId,
  attempt: n,
  status,
  seconds,
});

export const withAttempts = (quality: number, actualTao: number, actualSeconds: number, attempts: RawAttempt[]) => ({
  output_quality_score: quality,
  actual_tao: actualTao,
  actual_seconds: actualSeconds,
  attempts,
});

export interface Counts {
  steps_completed: number;
  actual_retries: number;
  timeouts: number;
  hard_failures: number;
}

export const preCounted = (quality: number, actualTao: number, actualSeconds: number, counts: Counts) => ({
  output_quality_score: quality,
  actual_tao: actualTao,
  actual_seconds: actualSeconds,
  ...counts,
});

/** Runs `fn`, expects a SubnetError with `code` whose context names `path` and whose message shows `valueText`. */
export function expectCodedError(fn: () => unknown, code: string, path: string, valueText?: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(isSubnetError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
  const error = caught as Error & { context: { path?: string } };
  expect(error.context.path).toBe(path);
  expect(error.message).toContain(` at ${path}`);
  if (valueText !== undefined) expect(error.message).toContain(`(got ${valueText})`);
}

/**
 * A copy of `value` with the value at `path` set (as an own enumerable data property, so `__proto__` is a
 * key) or deleted; the walk stops where the path leaves the copy, creating nothing that is not there and
 * never walking into a prototype (a test must not pollute one).
 */
export function mutateCopy(value: unknown, path: readonly (string | number)[], replacement: unknown, remove: boolean): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target: Record<string | number, unknown> = copy;
  for (let i = 0; i < path.length - 1; i++) {
    if (!Object.hasOwn(target, path[i]!)) break;
    const next = target[path[i]!];
    if (typeof next !== 'object' || next === null) break;
    target = next as Record<string | number, unknown>;
  }
  const key = path[path.length - 1]!;
  if (remove) Reflect.deleteProperty(target, key);
  else Object.defineProperty(target, key, { value: replacement, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Values that break a field: missing, retyped, out of range, not JSON, not a plain object, inherited keys. */
export const hostileValueArb = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -1,
    0,
    -0,
    1,
    1.5,
    2 ** 53,
    2 ** 53 - 1,
    '',
    'a',
    '\ud800',
    'success',
    'timeout',
    'b',
    [],
    {},
    true,
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: -2, max: 5 }),
  fc.constant(new Date(0)),
  fc.constant(Object.create(null) as object),
  fc.constant(Object.create({ inherited: 1 }) as object),
);

/** Paths of up to `maxLength` steps through the given keys and small indices, for {@link mutateCopy}. */
export function pathArb(keys: readonly string[], maxLength: number): fc.Arbitrary<(string | number)[]> {
  return fc.array(fc.oneof(fc.constantFrom(...keys), fc.nat(3)), { minLength: 1, maxLength });
}
