import { describe, expect, it } from 'vitest';

import {
  executionRecordSchema,
  parseExecutionRecord,
  parseWorkflowPlan,
  parseWorkflowTask,
  scoreWorkflow,
  workflowPlanSchema,
  workflowTaskSchema,
} from '../index.js';
import { attempt, chain, expectCodedError, preCounted, task, withAttempts } from './helpers.js';

const TASK = 'COMPOSITE_INVALID_TASK';
const PLAN = 'COMPOSITE_INVALID_PLAN';
const DAG = 'COMPOSITE_INVALID_DAG';
const RECORD = 'COMPOSITE_INVALID_RECORD';

describe('SPEC A task: max_budget_tao > 0 and max_latency_seconds > 0, finite', () => {
  it.each([
    ['a zero budget', task(0, 60), 'task.constraints.max_budget_tao', '0'],
    ['a negative budget', task(-1, 60), 'task.constraints.max_budget_tao', '-1'],
    ['a NaN budget', task(Number.NaN, 60), 'task.constraints.max_budget_tao', 'NaN'],
    ['a zero latency limit', task(1, 0), 'task.constraints.max_latency_seconds', '0'],
    ['an infinite latency limit', task(1, Number.POSITIVE_INFINITY), 'task.constraints.max_latency_seconds', 'Infinity'],
    ['an empty task id', { ...task(), task_id: '' }, 'task.task_id', '""'],
    ['missing constraints', { task_id: 't' }, 'task.constraints', 'undefined'],
  ])('rejects %s as an invalid task (not a score of 0)', (_name, input, path, value) => {
    expectCodedError(() => parseWorkflowTask(input), TASK, path, value);
    expectCodedError(() => scoreWorkflow({ task: input, plan: chain(['a']), record: withAttempts(1, 0, 0, []) }), TASK, path, value);
    expect(workflowTaskSchema.safeParse(input).success).toBe(false);
  });
});

describe('SPEC A plan: a DAG of 1..N uniquely named nodes', () => {
  it('rejects an empty DAG', () => {
    expectCodedError(() => parseWorkflowPlan({ nodes: [] }), DAG, 'plan.nodes', '[]');
  });

  it('rejects duplicate node ids, naming the second', () => {
    expectCodedError(() => parseWorkflowPlan({ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] }), DAG, 'plan.nodes[2].id', '"a"');
  });

  it('rejects an edge from or to a node that does not exist (dangling)', () => {
    expectCodedError(() => parseWorkflowPlan({ nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'zz' }] }), DAG, 'plan.edges[0].to', '"zz"');
    expectCodedError(() => parseWorkflowPlan({ nodes: [{ id: 'a' }], edges: [{ from: 'q', to: 'a' }] }), DAG, 'plan.edges[0].from', '"q"');
  });

  it('rejects a self edge', () => {
    expectCodedError(
      () =>
        parseWorkflowPlan({
          nodes: [{ id: 'a' }, { id: 'b' }],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'b' },
          ],
        }),
      DAG,
      'plan.edges[1]',
      '{"from":"b","to":"b"}',
    );
  });

  it('rejects a duplicate edge (decision: edges are a set)', () => {
    expectCodedError(
      () =>
        parseWorkflowPlan({
          nodes: [{ id: 'a' }, { id: 'b' }],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'a', to: 'b' },
          ],
        }),
      DAG,
      'plan.edges[1]',
      '{"from":"a","to":"b"}',
    );
  });

  it('rejects a cycle, naming its first edge and the cycle', () => {
    const plan = {
      nodes: [{ id: 'start' }, { id: 'a' }, { id: 'b' }, { id: 'c' }],
      edges: [
        { from: 'start', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
      ],
    };
    expectCodedError(() => parseWorkflowPlan(plan), DAG, 'plan.edges[1]');
    expect(() => parseWorkflowPlan(plan)).toThrow(/cycle a -> b -> c -> a/);
    expect(workflowPlanSchema.safeParse(plan).success).toBe(false);
  });

  it('decision (docs/spec.md G.37): retry_count values that sum past 2^53 - 1 are COMPOSITE_INVALID_PLAN at the count that passes it, not a rounded budget', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const done = (steps: number) => preCounted(1, 0.5, 30, { steps_completed: steps, actual_retries: 0, timeouts: 0, hard_failures: 0 });
    const plan = (counts: number[]) => ({
      nodes: counts.map((_, i) => ({ id: `n${i}` })),
      edges: [],
      error_handling: Object.fromEntries(counts.map((retry, i) => [`n${i}`, { retry_count: retry }])),
    });
    // At 2^53 - 1 the budget is exact and scored.
    expect(scoreWorkflow({ task: task(), plan: plan([max - 1, 1]), record: done(2) }).counters.declaredRetryBudget).toBe(max);
    // Three counts of 2^53 - 1 summed to 27021597764222972 (the sum is ...973), written to a bundle as a string.
    expectCodedError(() => parseWorkflowPlan(plan([max, 0, max, max])), PLAN, 'plan.error_handling.n2.retry_count', String(max));
    expect(() => parseWorkflowPlan(plan([max - 1, 2]))).toThrow(/retry_count values of error_handling sum to more than 9007199254740991 \(2\^53 - 1\)/);
    expect(() => scoreWorkflow({ task: task(), plan: plan([max, max, max]), record: done(3) })).toThrow(PLAN);
  });

  it('rejects a two-node cycle', () => {
    expect(() =>
      parseWorkflowPlan({
        nodes: [{ id: 'x' }, { id: 'y' }],
        edges: [
          { from: 'y', to: 'x' },
          { from: 'x', to: 'y' },
        ],
      }),
    ).toThrow(/cycle (x -> y -> x|y -> x -> y)/);
  });

  it('accepts a diamond (shared descendants are not cycles)', () => {
    const plan = parseWorkflowPlan({
      nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'a', to: 'c' },
        { from: 'b', to: 'd' },
        { from: 'c', to: 'd' },
      ],
    });
    expect(plan.edges).toHaveLength(4);
  });

  it('rejects error_handling keys that are not nodes', () => {
    expectCodedError(() => parseWorkflowPlan(chain(['a'], { ghost: { retry_count: 1 } })), DAG, 'plan.error_handling.ghost', '"ghost"');
  });

  it('rejects a negative or fractional retry_count and a zero timeout_seconds', () => {
    expectCodedError(() => parseWorkflowPlan(chain(['a'], { a: { retry_count: -1 } })), PLAN, 'plan.error_handling.a.retry_count', '-1');
    expectCodedError(() => parseWorkflowPlan(chain(['a'], { a: { retry_count: 1.5 } })), PLAN, 'plan.error_handling.a.retry_count', '1.5');
    expectCodedError(() => parseWorkflowPlan(chain(['a'], { a: { timeout_seconds: 0 } })), PLAN, 'plan.error_handling.a.timeout_seconds', '0');
  });

  it('rejects a node without a string id', () => {
    expectCodedError(() => parseWorkflowPlan({ nodes: [{ id: 7 }] }), PLAN, 'plan.nodes[0].id', '7');
    expectCodedError(() => parseWorkflowPlan({ nodes: [{ id: '' }] }), PLAN, 'plan.nodes[0].id', '""');
  });

  it('lists every DAG problem in context.issues, first one in the message', () => {
    try {
      parseWorkflowPlan({ nodes: [{ id: 'a' }, { id: 'a' }], edges: [{ from: 'a', to: 'x' }], error_handling: { y: {} } });
      expect.unreachable();
    } catch (error) {
      const issues = (error as { context: { issues: { path: string }[] } }).context.issues.map((issue) => issue.path);
      expect(issues).toEqual(['plan.nodes[1].id', 'plan.edges[0].to', 'plan.error_handling.y']);
    }
  });
});

describe('SPEC A record: ranges', () => {
  const one = chain(['a']);
  it.each([
    ['quality above 1', { ...withAttempts(1.01, 0, 0, []) }, 'record.output_quality_score', '1.01'],
    ['quality below 0', { ...withAttempts(-0.1, 0, 0, []) }, 'record.output_quality_score', '-0.1'],
    ['NaN quality', { ...withAttempts(Number.NaN, 0, 0, []) }, 'record.output_quality_score', 'NaN'],
    ['negative actual_tao', { ...withAttempts(1, -0.5, 0, []) }, 'record.actual_tao', '-0.5'],
    ['infinite actual_tao', { ...withAttempts(1, Number.POSITIVE_INFINITY, 0, []) }, 'record.actual_tao', 'Infinity'],
    ['negative actual_seconds', { ...withAttempts(1, 0, -1, []) }, 'record.actual_seconds', '-1'],
    ['negative attempt seconds', withAttempts(1, 0, 0, [attempt('a', 1, 'success', -2)]), 'record.attempts[0].seconds', '-2'],
    ['NaN attempt seconds', withAttempts(1, 0, 0, [attempt('a', 1, 'success', Number.NaN)]), 'record.attempts[0].seconds', 'NaN'],
    ['attempt number 0', withAttempts(1, 0, 0, [attempt('a', 0, 'success')]), 'record.attempts[0].attempt', '0'],
    ['unknown status', withAttempts(1, 0, 0, [{ node_id: 'a', attempt: 1, status: 'skipped' as never, seconds: 1 }]), 'record.attempts[0].status', '"skipped"'],
    ['negative counter', preCounted(1, 0, 0, { steps_completed: -1, actual_retries: 0, timeouts: 0, hard_failures: 0 }), 'record.steps_completed', '-1'],
    ['fractional counter', preCounted(1, 0, 0, { steps_completed: 1, actual_retries: 0.5, timeouts: 0, hard_failures: 0 }), 'record.actual_retries', '0.5'],
    ['negative timeouts', preCounted(1, 0, 0, { steps_completed: 1, actual_retries: 0, timeouts: -1, hard_failures: 0 }), 'record.timeouts', '-1'],
    [
      'fractional hard_failures',
      preCounted(1, 0, 0, { steps_completed: 0, actual_retries: 0, timeouts: 0, hard_failures: 0.5 }),
      'record.hard_failures',
      '0.5',
    ],
    [
      'string hard_failures',
      preCounted(1, 0, 0, { steps_completed: 0, actual_retries: 0, timeouts: 0, hard_failures: '1' as never }),
      'record.hard_failures',
      '"1"',
    ],
  ])('rejects %s', (_name, record, path, value) => {
    expectCodedError(() => parseExecutionRecord(record), RECORD, path, value);
    expectCodedError(() => scoreWorkflow({ task: task(), plan: one, record }), RECORD, path, value);
    expect(executionRecordSchema.safeParse(record).success).toBe(false);
  });
});

describe('SPEC A record: attempts or pre-counted counters', () => {
  it('rejects attempts for a node that is not in the plan', () => {
    const record = withAttempts(1, 0, 0, [attempt('a', 1, 'success'), attempt('nope', 1, 'success')]);
    expectCodedError(() => scoreWorkflow({ task: task(), plan: chain(['a']), record }), RECORD, 'record.attempts[1].node_id', '"nope"');
  });

  it('rejects attempt numbers that repeat', () => {
    const record = withAttempts(1, 0, 0, [attempt('a', 1, 'failure'), attempt('a', 1, 'success')]);
    expectCodedError(() => parseExecutionRecord(record), RECORD, 'record.attempts[1].attempt', '1');
    expect(executionRecordSchema.safeParse(record).success).toBe(false);
  });

  it('rejects attempt numbers that skip', () => {
    const record = withAttempts(1, 0, 0, [attempt('a', 1, 'failure'), attempt('a', 3, 'success')]);
    expectCodedError(() => parseExecutionRecord(record), RECORD, 'record.attempts[1].attempt', '3');
    expect(() => parseExecutionRecord(record)).toThrow(/2 attempts must be numbered 1\.\.2/);
  });

  it('rejects a record that gives both attempts and counters (decision: ambiguous)', () => {
    const record = { ...withAttempts(1, 0, 0, []), steps_completed: 0 };
    expectCodedError(() => parseExecutionRecord(record), RECORD, 'record.steps_completed', '0');
  });

  it('rejects a record with neither form, naming the first missing counter', () => {
    const record = { output_quality_score: 1, actual_tao: 0, actual_seconds: 0, steps_completed: 1, actual_retries: 0 };
    expectCodedError(() => parseExecutionRecord(record), RECORD, 'record.timeouts', 'undefined');
  });

  it('rejects steps_completed above the number of nodes', () => {
    const record = preCounted(1, 0, 0, { steps_completed: 3, actual_retries: 0, timeouts: 0, hard_failures: 0 });
    expectCodedError(() => scoreWorkflow({ task: task(), plan: chain(['a', 'b']), record }), RECORD, 'record.steps_completed', '3');
  });

  it('rejects hard_failures + steps_completed above the number of nodes (a node is at most one of them)', () => {
    const record = preCounted(1, 0, 0, { steps_completed: 2, actual_retries: 0, timeouts: 0, hard_failures: 1 });
    expectCodedError(() => scoreWorkflow({ task: task(), plan: chain(['a', 'b']), record }), RECORD, 'record.hard_failures', '1');
  });

  it('rejects hard failures without the retries that exhaust the declared budgets', () => {
    // Both nodes declare retry_count 2: one hard failure needs at least 2 retries.
    const plan = chain(['a', 'b'], { a: { retry_count: 2 }, b: { retry_count: 3 } });
    const record = preCounted(1, 0, 0, { steps_completed: 0, actual_retries: 1, timeouts: 0, hard_failures: 1 });
    expectCodedError(() => scoreWorkflow({ task: task(), plan, record }), RECORD, 'record.actual_retries', '1');
    const enough = preCounted(1, 0, 0, { steps_completed: 0, actual_retries: 2, timeouts: 0, hard_failures: 1 });
    expect(scoreWorkflow({ task: task(), plan, record: enough }).counters.hardFailures).toBe(1);
  });

  it('rejects more timeouts than there can be attempts (actual_retries + nodes)', () => {
    const record = preCounted(1, 0, 0, { steps_completed: 0, actual_retries: 1, timeouts: 4, hard_failures: 0 });
    expectCodedError(() => scoreWorkflow({ task: task(), plan: chain(['a', 'b']), record }), RECORD, 'record.timeouts', '4');
    const most = preCounted(1, 0, 0, { steps_completed: 0, actual_retries: 1, timeouts: 3, hard_failures: 0 });
    expect(scoreWorkflow({ task: task(), plan: chain(['a', 'b']), record: most }).counters.timeouts).toBe(3);
  });

  it('error messages name the path and the value', () => {
    expect(() => parseWorkflowPlan({ nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'x' }] })).toThrow(
      '[COMPOSITE_INVALID_DAG] invalid workflow DAG: edge ends at a node that does not exist at plan.edges[0].to (got "x")',
    );
  });
});
