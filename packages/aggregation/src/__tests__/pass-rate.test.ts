import fc from 'fast-check';
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

/**
 * SPEC C.1 written out plainly (imports nothing from src): results in order, holes of a sparse list
 * skipped, the first refusal's code and field path; otherwise the pass rate and its explanation.
 */
function referencePassRate(results: unknown, totalTasks: unknown): { code: string; path: string; value: unknown } | { value: unknown } {
  const isInt = (v: unknown, min: number, max: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  const bad = (code: string, path: string, value: unknown) => ({ code, path, value });
  if (!Array.isArray(results)) return bad(AGGREGATION_ERROR_CODES.invalidInput, 'results', results);
  if (!isInt(totalTasks, 1, Number.MAX_SAFE_INTEGER)) return bad(AGGREGATION_ERROR_CODES.invalidInput, 'totalTasks', totalTasks);
  const total = totalTasks as number;
  if (results.length > total) return bad(AGGREGATION_ERROR_CODES.tooManyTasks, 'results.length', results.length);
  const seen: string[] = [];
  const passed: string[] = [];
  const failed: { taskId: string; reason: string }[] = [];
  for (let i = 0; i < results.length; i += 1) {
    if (!(i in results)) continue;
    const item: unknown = results[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return bad(AGGREGATION_ERROR_CODES.invalidInput, `results[${i}]`, item);
    const r = item as Record<string, unknown>;
    if (typeof r.taskId !== 'string' || r.taskId === '') return bad(AGGREGATION_ERROR_CODES.invalidInput, `results[${i}].taskId`, r.taskId);
    if (seen.includes(r.taskId)) return bad(AGGREGATION_ERROR_CODES.duplicateTask, `results[${i}].taskId`, r.taskId);
    seen.push(r.taskId);
    if (!isInt(r.testsTotal, 1, Number.MAX_SAFE_INTEGER)) return bad(AGGREGATION_ERROR_CODES.invalidInput, `results[${i}].testsTotal`, r.testsTotal);
    if (!isInt(r.testsPassed, 0, r.testsTotal as number)) return bad(AGGREGATION_ERROR_CODES.invalidInput, `results[${i}].testsPassed`, r.testsPassed);
    if (typeof r.timedOut !== 'boolean') return bad(AGGREGATION_ERROR_CODES.invalidInput, `results[${i}].timedOut`, r.timedOut);
    if (r.timedOut) failed.push({ taskId: r.taskId, reason: 'timed_out' });
    else if (r.testsPassed === r.testsTotal) passed.push(r.taskId);
    else failed.push({ taskId: r.taskId, reason: 'tests_failed' });
  }
  // Code-point order: compare arrays of code points.
  const byCodePoint = (a: string, b: string): number => {
    const x = Array.from(a, (c) => c.codePointAt(0) as number);
    const y = Array.from(b, (c) => c.codePointAt(0) as number);
    for (let k = 0; k < Math.min(x.length, y.length); k += 1) if (x[k] !== y[k]) return (x[k] as number) - (y[k] as number);
    return x.length - y.length;
  };
  passed.sort(byCodePoint);
  failed.sort((a, b) => byCodePoint(a.taskId, b.taskId));
  return {
    value: {
      passRate: passed.length / total,
      explanation: { totalTasks: total, passed: passed.length, passedTaskIds: passed, failed, missing: total - results.length },
    },
  };
}

describe('passRate against the plain reference (hostile values, sparse lists)', () => {
  const hostile = fc.constantFrom<unknown>(null, -0, Number.NaN, Number.POSITIVE_INFINITY, 1.5, '3', true, [], {}, undefined);
  const taskId = fc.oneof(fc.constantFrom('a', 'b', '__proto__', 'constructor', '', 'é', '\u{1F600}', '\uFFFF'), hostile);
  const count = fc.oneof(fc.integer({ min: -1, max: 4 }), hostile);
  const result = fc.oneof(
    { weight: 4, arbitrary: fc.record({ taskId, testsPassed: count, testsTotal: count, timedOut: fc.oneof(fc.boolean(), hostile) }) },
    {
      weight: 4,
      arbitrary: fc.record({
        taskId: fc.string({ minLength: 1, maxLength: 3 }),
        testsPassed: fc.integer({ min: 0, max: 2 }),
        testsTotal: fc.constant(2),
        timedOut: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: hostile },
  );
  it('gives the same value, or the same code, field path and value', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(result, { maxLength: 8 }), fc.sparseArray(result, { maxLength: 8 })),
        fc.oneof(fc.integer({ min: 1, max: 10 }), count),
        (results, total) => {
          const expected = referencePassRate(results, total);
          let actual: { code: string; path: string; value: unknown } | { value: unknown };
          try {
            const out = passRate(results as TaskResult[], total as number);
            expect(Object.isFrozen(out) && Object.isFrozen(out.explanation) && Object.isFrozen(out.explanation.failed)).toBe(true);
            actual = { value: out };
          } catch (error) {
            const e = error as { code: string; context: { path: string; value: unknown } };
            actual = { code: e.code, path: e.context.path, value: e.context.value };
          }
          expect(actual).toStrictEqual(expected);
          if ('code' in expected) expect(Object.is(actual.value, expected.value)).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
