import { isSubnetError, parseInput } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import { checkShape } from '../check-shape.js';
import { COMPOSITE_ERROR_CODES } from '../error-codes.js';
import { fastPlanShape, fastTaskShape } from '../fast-shapes.js';
import { parseWorkflowPlan } from '../parse-workflow.js';
import { planShapeSchema, workflowTaskSchema } from '../workflow-schemas.js';
import { hostileValueArb, mutateCopy, pathArb } from './helpers.js';
import { extrasArb, planArb, put } from './plan-arbitraries.js';

/**
 * The hand-written plan and task readers must accept exactly what core's shape check and the zod schemas
 * accept, and build the same value: the same keys in the same order, the same prototypes (error_handling
 * has none), the same values (-0 included). Random plans and tasks, with unknown keys at every level, and
 * random mutations of them go through both.
 */
/** An exact picture of a value: its string keys in order, prototypes, -0 (not the package's symbol trust mark). */
function picture(value: unknown): unknown {
  if (Array.isArray(value)) return ['array', ...value.map(picture)];
  if (typeof value === 'object' && value !== null) {
    const proto: unknown = Object.getPrototypeOf(value);
    return {
      proto: proto === null ? 'null' : proto === Object.prototype ? 'object' : 'other',
      keys: Object.getOwnPropertyNames(value).map((key) => [key, picture((value as Record<string, unknown>)[key])]),
    };
  }
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return value;
}

type Outcome = { valid: boolean; picture?: unknown };

/** Core's shape check and a zod schema, as the readers' fallback runs them. */
function viaZod(schema: z.ZodType, code: string, label: string): (raw: unknown) => Outcome {
  return (raw) => {
    try {
      checkShape(raw, code, label);
      return { valid: true, picture: picture(parseInput(schema, raw, code, label)) };
    } catch (error) {
      if (!isSubnetError(error)) throw error;
      return { valid: false };
    }
  };
}

function viaReader(read: (raw: unknown) => unknown): (raw: unknown) => Outcome {
  return (raw) => {
    const value = read(raw);
    return value === undefined ? { valid: false } : { valid: true, picture: picture(value) };
  };
}

const slowShape = viaZod(planShapeSchema, COMPOSITE_ERROR_CODES.invalidPlan, 'plan');
const fastShape = viaReader(fastPlanShape);
const slowTask = viaZod(workflowTaskSchema, COMPOSITE_ERROR_CODES.invalidTask, 'task');
const fastTask = viaReader(fastTaskShape);

const paths = pathArb(
  [
    'nodes',
    'edges',
    'error_handling',
    'id',
    'from',
    'to',
    'retry_count',
    'timeout_seconds',
    '__proto__',
    'a',
    'extra',
    'task_id',
    'constraints',
    'max_budget_tao',
    'max_latency_seconds',
  ],
  4,
);

describe('the fast plan reader and core + zod accept the same plans and build the same value', () => {
  it('agree on random plans with unknown keys at every level (`__proto__`, `constructor`, index-like, a lone surrogate)', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        expect(fastShape(plan)).toEqual(slowShape(plan));
      }),
      { numRuns: 600 },
    );
  });

  it('agree on random mutations (a field removed, retyped, out of range, not a plain object, a Date, inherited keys)', () => {
    fc.assert(
      fc.property(planArb, paths, hostileValueArb, fc.boolean(), (plan, path, value, remove) => {
        const raw = mutateCopy(plan, path, value, remove);
        expect(fastShape(raw)).toEqual(slowShape(raw));
      }),
      { numRuns: 2000 },
    );
  });

  it('agree on inputs that are not plans at all', () => {
    for (const raw of [null, undefined, 1, 'plan', [], [{ id: 'a' }], new Date(0), { nodes: {} }, { nodes: null }, { edges: [] }]) {
      expect(fastShape(raw)).toEqual(slowShape(raw));
    }
  });

  it('agree on the edges of the numbers: retry_count at 2^53, -0, fractions; timeout_seconds at 0, -0, tiny, infinite', () => {
    const retries = [2 ** 53, 2 ** 53 - 1, -0, 0, 1.5, -1, Number.NaN];
    const timeouts = [0, -0, 1e-300, Number.MAX_VALUE, Number.POSITIVE_INFINITY, -1];
    for (const value of [...retries.map((r) => ({ retry_count: r })), ...timeouts.map((t) => ({ timeout_seconds: t }))]) {
      const raw = { nodes: [{ id: 'a' }], error_handling: { a: value } };
      expect([value, fastShape(raw)]).toEqual([value, slowShape(raw)]);
    }
  });

  it('parseWorkflowPlan gives the same frozen plan either way, and still names the path of a bad field', () => {
    const raw = { nodes: [{ id: 'a', note: 1 }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }], error_handling: { b: { retry_count: 2 } }, extra: [1] };
    const plan = parseWorkflowPlan(raw);
    expect(picture(plan)).toEqual(slowShape(raw).picture);
    expect(Object.isFrozen(plan) && Object.isFrozen(plan.nodes[0]) && Object.isFrozen(plan.error_handling.b)).toBe(true);
    let thrown: unknown;
    try {
      parseWorkflowPlan({ ...raw, edges: [{ from: 'a', to: 7 }] });
    } catch (error) {
      thrown = error;
    }
    expect(isSubnetError(thrown, COMPOSITE_ERROR_CODES.invalidPlan) && thrown.context.path).toBe('plan.edges[0].to');
  });
});

const constraintValueArb = fc.oneof(
  fc.double({ min: 1e-9, max: 100, noNaN: true }),
  fc.constantFrom(0, -0, -1, Number.MAX_VALUE, Number.POSITIVE_INFINITY, Number.NaN, '1', null),
);
const taskArb = fc
  .record({
    id: fc.oneof(fc.constantFrom('t', '', '\ud800', '__proto__'), fc.string({ maxLength: 4 })),
    budget: constraintValueArb,
    latency: constraintValueArb,
    taskExtras: extrasArb,
    constraintExtras: extrasArb,
    drop: fc.constantFrom('none', 'task_id', 'constraints', 'max_budget_tao', 'max_latency_seconds'),
  })
  .map(({ id, budget, latency, taskExtras, constraintExtras, drop }) => {
    const constraints: Record<string, unknown> = {};
    for (const [key, value] of constraintExtras) put(constraints, key, value);
    if (drop !== 'max_budget_tao') put(constraints, 'max_budget_tao', budget);
    if (drop !== 'max_latency_seconds') put(constraints, 'max_latency_seconds', latency);
    const task: Record<string, unknown> = {};
    for (const [key, value] of taskExtras) put(task, key, value);
    if (drop !== 'constraints') put(task, 'constraints', constraints);
    if (drop !== 'task_id') put(task, 'task_id', id);
    return task;
  });

describe('the fast task reader and core + zod accept the same tasks and build the same value', () => {
  it('agree on random tasks: ids, limits at 0, -0, tiny, huge and infinite, missing fields, unknown keys', () => {
    fc.assert(
      fc.property(taskArb, (task) => {
        expect(fastTask(task)).toEqual(slowTask(task));
      }),
      { numRuns: 1500 },
    );
  });

  it('agree on random mutations of tasks and on values that are not tasks', () => {
    fc.assert(
      fc.property(taskArb, paths, hostileValueArb, fc.boolean(), (task, path, value, remove) => {
        const raw = mutateCopy(task, path, value, remove);
        expect(fastTask(raw)).toEqual(slowTask(raw));
      }),
      { numRuns: 1000 },
    );
    for (const raw of [null, 1, 'task', [], new Date(0), { task_id: 't', constraints: [] }]) expect(fastTask(raw)).toEqual(slowTask(raw));
  });
});

describe('the fast readers hold the depth limit where core does', () => {
  /** A list nested `levels` deep: [[[...]]]. */
  const nested = (levels: number): unknown => {
    let value: unknown = [];
    for (let i = 1; i < levels; i++) value = [value];
    return value;
  };
  it('an unknown field nested up to the limit at every level of a plan and a task: accepted or refused exactly as core refuses it', () => {
    for (let levels = 58; levels <= 64; levels++) {
      const deep = nested(levels);
      const plans = [
        { nodes: [{ id: 'a' }], extra: deep },
        { nodes: [{ id: 'a', extra: deep }] },
        { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b', extra: deep }] },
        { nodes: [{ id: 'a' }], error_handling: { a: { retry_count: 1, extra: deep } } },
      ];
      for (const plan of plans) expect([levels, fastShape(plan)]).toEqual([levels, slowShape(plan)]);
      const tasks = [
        { task_id: 't', constraints: { max_budget_tao: 1, max_latency_seconds: 1 }, extra: deep },
        { task_id: 't', constraints: { max_budget_tao: 1, max_latency_seconds: 1, extra: deep } },
      ];
      for (const task of tasks) expect([levels, fastTask(task)]).toEqual([levels, slowTask(task)]);
    }
  });
});
