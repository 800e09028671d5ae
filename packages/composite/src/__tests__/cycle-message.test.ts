import { describe, expect, it } from 'vitest';

import { describeValue, isSubnetError } from '@subnet/core';

import { parseWorkflowPlan, scoreWorkflow, workflowPlanSchema } from '../index.js';

/**
 * docs/spec.md G.46 (f): a cycle's message names at most 8 node ids, each cut at 64 characters, then how many more
 * and the way back; code, path and the error's value (every id of the cycle) are unchanged. Before, the message
 * listed every id in full: a 10,000-node cycle made a message of about 90 KB, sent back to the sender at ingest.
 */
function refusal(run: () => unknown): { code: string; path: unknown; value: unknown; message: string } {
  try {
    run();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path, value: error.context.value, message: error.message };
    throw error;
  }
  throw new Error('the plan was taken');
}

/** A cycle n0 -> n1 -> ... -> n(k-1) -> n0, its closing edge listed last. */
function ring(k: number, id: (i: number) => string = (i) => `n${i}`) {
  return {
    nodes: Array.from({ length: k }, (_, i) => ({ id: id(i) })),
    edges: Array.from({ length: k }, (_, i) => ({ from: id(i), to: id((i + 1) % k) })),
  };
}

describe('decision (docs/spec.md G.46 (f)): a cycle message is bounded', () => {
  it('a 10,000-node cycle: the first 8 ids, "(9992 more)" and the way back; code, path and value as before', () => {
    const plan = ring(10_000);
    const ids = [...Array.from({ length: 10_000 }, (_, i) => `n${i}`), 'n0'];
    const summary = 'invalid workflow DAG: cycle of 10000 nodes: n0 -> n1 -> n2 -> n3 -> n4 -> n5 -> n6 -> n7 -> ... (9992 more) -> n0';
    const expected = {
      code: 'COMPOSITE_INVALID_DAG',
      path: 'plan.edges[0]',
      value: ids,
      message: `[COMPOSITE_INVALID_DAG] ${summary} at plan.edges[0] (got ${describeValue(ids)})`,
    };
    expect(refusal(() => parseWorkflowPlan(plan))).toEqual(expected);
    expect(expected.message.length).toBeLessThan(300);
    // scoreWorkflow, which the validator's ingest runs, refuses it with the same error.
    const task = { task_id: 't', constraints: { max_budget_tao: 1, max_latency_seconds: 60 } };
    const record = {
      steps_completed: 0,
      total_steps_in_dag: 10_000,
      actual_tao: 0,
      actual_latency_seconds: 1,
      actual_retries: 0,
      timeouts: 0,
      hard_failures: 0,
    };
    expect(refusal(() => scoreWorkflow({ task, plan, record }))).toEqual(expected);
    const issues = workflowPlanSchema.safeParse(plan).error?.issues ?? [];
    expect(issues.map((i) => [i.path.join('.'), i.message])).toEqual([['edges.0', summary.slice('invalid workflow DAG: '.length)]]);
  });

  it('up to 8 nodes the message is as before, every id named; 9 nodes is the first bounded one', () => {
    expect(refusal(() => parseWorkflowPlan(ring(8))).message).toContain(
      'invalid workflow DAG: cycle n0 -> n1 -> n2 -> n3 -> n4 -> n5 -> n6 -> n7 -> n0 at plan.edges[0]',
    );
    expect(refusal(() => parseWorkflowPlan(ring(9))).message).toContain(
      'invalid workflow DAG: cycle of 9 nodes: n0 -> n1 -> n2 -> n3 -> n4 -> n5 -> n6 -> n7 -> ... (1 more) -> n0 at plan.edges[0]',
    );
  });

  it('an id longer than 64 characters is cut to 61 and "...", never inside a surrogate pair', () => {
    const long = (i: number) => `${'x'.repeat(60)}\u{1F600}${i}${'y'.repeat(1_000_000)}`;
    const got = refusal(() => parseWorkflowPlan(ring(2, long)));
    const shown = `${'x'.repeat(60)}...`;
    expect(got.message).toContain(`invalid workflow DAG: cycle ${shown} -> ${shown} -> ${shown} at plan.edges[0]`);
    expect(got.message.length).toBeLessThan(400);
    expect((got.value as string[]).map((id) => id.length)).toEqual([long(0).length, long(1).length, long(0).length]);
    const exact = 'z'.repeat(64);
    expect(refusal(() => parseWorkflowPlan(ring(2, (i) => `${exact.slice(0, 63)}${i}`))).message).toContain(
      `cycle ${exact.slice(0, 63)}0 -> ${exact.slice(0, 63)}1 -> ${exact.slice(0, 63)}0 at`,
    );
  });
});
