import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, passRate } from '../index.js';
import type { TaskResult } from '../pass-rate.js';
import { expectError } from './helpers.js';

const pass = (taskId: string): TaskResult => ({ taskId, testsPassed: 3, testsTotal: 3, timedOut: false });

describe('SPEC C.1 task score and pass rate', () => {
  it('seed C example: 73 of 91 tasks passed gives 73/91 = 0.802', () => {
    const results = Array.from({ length: 91 }, (_, i) => (i < 73 ? pass(`t${i}`) : { taskId: `t${i}`, testsPassed: 2, testsTotal: 3, timedOut: false }));
    const r = passRate(results, 91);
    expect(r.passRate).toBe(73 / 91);
    expect(r.passRate.toFixed(3)).toBe('0.802');
    expect(r.explanation.passed).toBe(73);
    expect(r.explanation.failed).toHaveLength(18);
  });

  it('seed D example: 8 of 10 gives 0.80', () => {
    expect(
      passRate(
        Array.from({ length: 8 }, (_, i) => pass(`t${i}`)),
        10,
      ).passRate,
    ).toBe(0.8);
  });

  it('a task scores 1.0 only when every test passed (no partial credit)', () => {
    const r = passRate([{ taskId: 'a', testsPassed: 9, testsTotal: 10, timedOut: false }, pass('b')], 2);
    expect(r.passRate).toBe(0.5);
    expect(r.explanation.failed).toEqual([{ taskId: 'a', reason: 'tests_failed' }]);
  });

  it('a timeout scores 0 even when the tests it ran passed', () => {
    const r = passRate([{ taskId: 'a', testsPassed: 3, testsTotal: 3, timedOut: true }], 1);
    expect(r.passRate).toBe(0);
    expect(r.explanation.failed).toEqual([{ taskId: 'a', reason: 'timed_out' }]);
  });

  it('tasks never reported count as failed (denominator is the benchmark task count)', () => {
    const r = passRate([pass('a')], 4);
    expect(r.passRate).toBe(0.25);
    expect(r.explanation.missing).toBe(3);
  });

  it('rejects duplicate task ids, more results than tasks, passed > total and zero-test tasks', () => {
    expectError(() => passRate([pass('a'), pass('a')], 2), AGGREGATION_ERROR_CODES.duplicateTask, 'results[1].taskId');
    expectError(() => passRate([pass('a'), pass('b')], 1), AGGREGATION_ERROR_CODES.tooManyTasks, 'results.length');
    expectError(
      () => passRate([{ taskId: 'a', testsPassed: 4, testsTotal: 3, timedOut: false }], 1),
      AGGREGATION_ERROR_CODES.invalidInput,
      'results[0].testsPassed',
    );
    expectError(
      () => passRate([{ taskId: 'a', testsPassed: 0, testsTotal: 0, timedOut: false }], 1),
      AGGREGATION_ERROR_CODES.invalidInput,
      'results[0].testsTotal',
    );
    expectError(() => passRate([], 0), AGGREGATION_ERROR_CODES.invalidInput, 'totalTasks');
  });
});
