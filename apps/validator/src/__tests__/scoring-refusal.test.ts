import { SubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { answerMessage } from '../answer-message.js';
import { refusalAtSentPath, sssaSentPath, termSentPath, workflowSentPath } from '../scoring-refusal.js';

/** docs/spec.md G.42 (b): the sender's path of a scoring package's refusal, and only of the paths it knows. */
describe('decision (docs/spec.md G.42 (b)): a scoring package path restated as sent', () => {
  it("workflow: composite's task, plan and record paths go under body.; any other path is the package's", () => {
    expect(workflowSentPath('plan')).toBe('body.plan');
    expect(workflowSentPath('plan.edges[2].to')).toBe('body.plan.edges[2].to');
    expect(workflowSentPath('record.attempts[0].node_id')).toBe('body.record.attempts[0].node_id');
    expect(workflowSentPath('task.constraints.max_budget_tao')).toBe('body.task.constraints.max_budget_tao');
    for (const other of ['input', 'planned', 'body.task.task_id', 'records[0]']) expect(workflowSentPath(other)).toBeUndefined();
  });

  it("term: passRate's camelCase fields are the wire's snake_case ones; a name it does not read is not guessed", () => {
    expect(termSentPath('results[3].taskId')).toBe('body.results[3].task_id');
    expect(termSentPath('results[0].testsPassed')).toBe('body.results[0].tests_passed');
    expect(termSentPath('results[0].testsTotal')).toBe('body.results[0].tests_total');
    expect(termSentPath('results[0].timedOut')).toBe('body.results[0].timed_out');
    expect(termSentPath('results[7]')).toBe('body.results[7]');
    expect(termSentPath('results.length')).toBe('body.results.length');
    for (const other of ['totalTasks', 'results[0].constructor', 'results[0].__proto__', 'results.taskId']) expect(termSentPath(other)).toBeUndefined();
  });

  it('the message keeps the words and the value and names the sent path where it named its own; without a value or a path of the body it is unchanged', () => {
    const withValue = new SubnetError('COMPOSITE_INVALID_RECORD', 'steps_completed exceeds total_steps_in_dag (2)', {
      context: { path: 'record.steps_completed', value: 3 },
    });
    expect(refusalAtSentPath(withValue, workflowSentPath)).toEqual({
      code: 'COMPOSITE_INVALID_RECORD',
      message: 'steps_completed exceeds total_steps_in_dag (2) at body.record.steps_completed (got 3)',
      path: 'body.record.steps_completed',
    });
    const noValue = new SubnetError('COMPOSITE_INVALID_PLAN', 'invalid workflow plan: required', { context: { path: 'plan.nodes' } });
    expect(refusalAtSentPath(noValue, workflowSentPath)).toEqual({
      code: 'COMPOSITE_INVALID_PLAN',
      message: 'invalid workflow plan: required at body.plan.nodes',
      path: 'body.plan.nodes',
    });
    const own = new SubnetError('COMPOSITE_INVALID_WINDOW_ENTRY', 'too long', { context: { path: 'body.task.task_id', value: 'x' } });
    expect(refusalAtSentPath(own, workflowSentPath)).toEqual({ code: own.code, message: 'too long at body.task.task_id (got "x")', path: 'body.task.task_id' });
    const pathless = new SubnetError('AGGREGATION_INVALID_INPUT', 'no path');
    expect(refusalAtSentPath(pathless, termSentPath)).toEqual({ code: pathless.code, message: 'no path' });
  });
});

describe('decision (docs/spec.md G.46 (c)): an answer carries the code in `code`, not at the head of its message', () => {
  it('answerMessage drops the leading [CODE] only; the error itself keeps it', () => {
    const error = new SubnetError('COMPOSITE_INVALID_DAG', 'the workflow DAG has a cycle', { context: { path: 'plan.edges[0]', value: 1 } });
    expect(answerMessage(error)).toBe('the workflow DAG has a cycle at plan.edges[0] (got 1)');
    expect(error.message).toBe('[COMPOSITE_INVALID_DAG] the workflow DAG has a cycle at plan.edges[0] (got 1)');
    // A summary that itself starts with a bracket keeps it: only the code's own lead is dropped.
    expect(answerMessage(new SubnetError('X_Y', '[Z] inner'))).toBe('[Z] inner');
  });

  it("consensus: parseSssa's label sssa is the body's field sssa", () => {
    expect(sssaSentPath('sssa')).toBe('body.sssa');
    expect(sssaSentPath('sssa.findings[0].severity')).toBe('body.sssa.findings[0].severity');
    for (const other of ['sssas', 'label', 'options.limits.maxDepth']) expect(sssaSentPath(other)).toBeUndefined();
  });
});
