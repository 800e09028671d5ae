import { describe, expect, it } from 'vitest';

import { compositeScore, parseExecutionRecord, parseWorkflowPlan, parseWorkflowTask, scoreWorkflow, workflowPlanSchema } from '../index.js';
import { attempt, chain, expectCodedError, task, withAttempts } from './helpers.js';

const PROTO_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** A plan whose node ids and error_handling keys are prototype names, built from JSON so `__proto__` is an own key. */
function protoPlan() {
  const errorHandling = Object.fromEntries(PROTO_IDS.map((id, i) => [id, { retry_count: i, timeout_seconds: 10 }]));
  return JSON.parse(
    JSON.stringify({ nodes: PROTO_IDS.map((id) => ({ id })), edges: [] }).replace(
      /}$/,
      `,"error_handling":${JSON.stringify(errorHandling).replace('"__proto___', '"__proto__')}}`,
    ),
  ) as unknown;
}

describe('SPEC 0 hostile shapes: __proto__, constructor and every other key are plain data', () => {
  it('SPEC 0: node ids named __proto__, constructor, toString are ordinary ids, and their error_handling entries count', () => {
    const plan = protoPlan() as { error_handling: Record<string, unknown> };
    expect(Object.keys(plan.error_handling)).toEqual(PROTO_IDS); // JSON.parse made __proto__ an own key
    const parsed = parseWorkflowPlan(plan);
    expect(Object.keys(parsed.error_handling)).toEqual(PROTO_IDS);
    // Budget = 0 + 1 + 2 + 3 + 4 = 10: the __proto__ entry (retry_count 0) and the others are all read.
    const record = withAttempts(1, 0, 0, [
      attempt('__proto__', 1, 'failure'),
      attempt('constructor', 1, 'failure'),
      attempt('constructor', 2, 'success', 11),
      attempt('toString', 1, 'success'),
      attempt('hasOwnProperty', 1, 'success'),
      attempt('valueOf', 1, 'success'),
    ]);
    const result = scoreWorkflow({ task: task(), plan, record });
    expect(result.counters).toEqual({
      stepsCompleted: 4,
      totalSteps: 5,
      actualRetries: 1,
      declaredRetryBudget: 10,
      unplannedRetries: 0,
      timeouts: 1, // constructor#2 took 11 s > its timeout_seconds 10
      hardFailures: 1, // __proto__: 1 attempt >= retry_count 0 + 1
    });
    expect(result.explanation).toContain(
      'Node "__proto__": 1 attempt, last status failure, 0 timeouts counted: hard failure (1 attempt >= retry_count 0 + 1).',
    );
    expect(compositeScore({ task: task(), plan, record })).toBe(result.score);
  });

  it('SPEC 0: an error_handling key __proto__ or constructor that is not a node is a DAG error, not a prototype', () => {
    const plan = JSON.parse('{"nodes":[{"id":"a"}],"error_handling":{"__proto__":{"retry_count":5}}}') as unknown;
    expectCodedError(() => parseWorkflowPlan(plan), 'COMPOSITE_INVALID_DAG', 'plan.error_handling.__proto__', '"__proto__"');
    expect(workflowPlanSchema.safeParse(plan).success).toBe(false);
    expectCodedError(
      () => parseWorkflowPlan(chain(['a'], { constructor: { retry_count: 1 } })),
      'COMPOSITE_INVALID_DAG',
      'plan.error_handling.constructor',
      '"constructor"',
    );
  });

  it('SPEC 0: a node named constructor without an error_handling entry has budget 0 (nothing read through the prototype)', () => {
    const result = scoreWorkflow({
      task: task(),
      plan: chain(['constructor', 'toString']),
      record: withAttempts(1, 0, 0, [attempt('constructor', 1, 'failure'), attempt('toString', 1, 'success')]),
    });
    expect(result.counters.declaredRetryBudget).toBe(0);
    expect(result.counters.hardFailures).toBe(1);
  });

  it('SPEC 0: lone surrogates are invalid input in task ids, node ids and attempt node ids', () => {
    expectCodedError(() => parseWorkflowTask({ ...task(), task_id: 'x\udc00' }), 'COMPOSITE_INVALID_TASK', 'task.task_id');
    expectCodedError(() => parseWorkflowPlan({ nodes: [{ id: '\ud83d' }] }), 'COMPOSITE_INVALID_PLAN', 'plan.nodes[0].id');
    const record = withAttempts(1, 0, 0, [attempt('a\ud800b', 1, 'success')]);
    expectCodedError(() => parseExecutionRecord(record), 'COMPOSITE_INVALID_RECORD', 'record.attempts[0].node_id');
    expectCodedError(() => compositeScore({ task: task(), plan: chain(['a']), record }), 'COMPOSITE_INVALID_RECORD', 'record.attempts[0].node_id');
    // A well-formed pair (an emoji) is fine.
    expect(parseWorkflowPlan({ nodes: [{ id: '\ud83d\ude00' }] }).nodes[0]!.id).toBe('😀');
  });

  it('SPEC 0: input nested deeper than 64 levels is rejected at the boundary with the input code (core code in context.shapeCode)', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 64; i++) deep = { d: deep };
    const record = { ...withAttempts(1, 0, 0, [attempt('a', 1, 'success')]), extra: deep };
    for (const run of [
      () => parseExecutionRecord(record),
      () => compositeScore({ task: task(), plan: chain(['a']), record }),
      () => scoreWorkflow({ task: task(), plan: chain(['a']), record }),
    ]) {
      try {
        run();
        expect.unreachable();
      } catch (error) {
        const e = error as { code: string; context: { shapeCode: string; path: string } };
        expect(e.code).toBe('COMPOSITE_INVALID_RECORD');
        expect(e.context.shapeCode).toBe('CORE_INPUT_TOO_DEEP');
        expect(e.context.path.startsWith('record.extra.d.d')).toBe(true);
      }
    }
    // 63 levels inside the record (64 with it) are fine.
    let fits: unknown = 0;
    for (let i = 0; i < 63; i++) fits = { d: fits };
    expect(compositeScore({ task: task(), plan: chain(['a']), record: { ...withAttempts(1, 0, 0, [attempt('a', 1, 'success')]), extra: fits } })).toBe(1);
    expectCodedError(() => parseWorkflowTask({ ...task(), extra: deep }), 'COMPOSITE_INVALID_TASK', `task.extra${'.d'.repeat(63)}`);
    expectCodedError(() => parseWorkflowPlan({ nodes: [{ id: 'a', extra: deep }] }), 'COMPOSITE_INVALID_PLAN', `plan.nodes[0].extra${'.d'.repeat(61)}`);
  });

  it('SPEC 0: a record holding a non-JSON value (a Date, a function) is invalid input, not coerced', () => {
    expectCodedError(
      () => compositeScore({ task: task(), plan: chain(['a']), record: { ...withAttempts(1, 0, 0, []), when: new Date(0) } }),
      'COMPOSITE_INVALID_RECORD',
      'record.when',
    );
    expectCodedError(
      () => compositeScore({ task: task(), plan: chain(['a']), record: { ...withAttempts(1, 0, 0, []), f: () => 1 } }),
      'COMPOSITE_INVALID_RECORD',
      'record.f',
    );
  });
});

describe('every exported function checks its arguments (coded errors, never a TypeError)', () => {
  it.each([
    ['null', null],
    ['a string', 'x'],
    ['an array', []],
  ])('scoreWorkflow and compositeScore reject %s as input (COMPOSITE_INVALID_ARGUMENT)', (_name, input) => {
    expectCodedError(() => scoreWorkflow(input as never), 'COMPOSITE_INVALID_ARGUMENT', 'input');
    expectCodedError(() => compositeScore(input as never), 'COMPOSITE_INVALID_ARGUMENT', 'input');
  });

  it('parse functions reject non-objects with their input code', () => {
    expectCodedError(() => parseWorkflowTask(undefined), 'COMPOSITE_INVALID_TASK', 'task');
    expectCodedError(() => parseWorkflowPlan(42), 'COMPOSITE_INVALID_PLAN', 'plan');
    expectCodedError(() => parseExecutionRecord('r'), 'COMPOSITE_INVALID_RECORD', 'record');
  });
});
