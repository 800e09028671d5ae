import { passRate } from '@subnet/aggregation';
import { termResultsSchema } from '@subnet/bundle/records';
import { parseInput } from '@subnet/core';

import { fmt, section, table } from '../render.js';
import type { CommandOutput } from './output.js';
import { MINER_CHECK_ERROR_CODES } from '../errors.js';

// The wire format of a term-challenge results file is `@subnet/bundle`'s `termResultsSchema`: the very
// schema the validator's `POST /v1/term-results` reads (`timed_out` defaults to false), so a file this
// command accepts is one the validator accepts.

/**
 * The term challenge pass rate (SPEC C.1) with `@subnet/aggregation`'s `passRate`: a task scores 1 only
 * when every test passed and it did not time out; tasks never reported count as failed.
 */
export function termCheck(input: { readonly results: unknown; readonly totalTasks: number }): CommandOutput {
  const results = parseInput(termResultsSchema, input.results, MINER_CHECK_ERROR_CODES.invalidInput, 'results');
  const outcome = passRate(
    results.map((r) => ({ taskId: r.task_id, testsPassed: r.tests_passed, testsTotal: r.tests_total, timedOut: r.timed_out })),
    input.totalTasks,
  );
  const e = outcome.explanation;
  const failedIds = e.failed.map((f) => f.taskId);
  const json = { pass_rate: outcome.passRate, passed: e.passed, total: e.totalTasks, failed_task_ids: failedIds };
  const byId = new Map(results.map((r) => [r.task_id, r]));
  const text = [
    `Pass rate: ${e.passed} / ${e.totalTasks} = ${fmt(outcome.passRate)} (${(outcome.passRate * 100).toFixed(1)} %)`,
    '',
    e.failed.length === 0
      ? 'No reported task failed.'
      : section(
          'Failed tasks (a task scores 1 only when every test passes in time)',
          table(
            ['task', 'tests', 'why'],
            e.failed.map((f) => {
              const r = byId.get(f.taskId);
              return [f.taskId, r === undefined ? '' : `${r.tests_passed}/${r.tests_total}`, f.reason === 'timed_out' ? 'timed out' : 'a test failed'];
            }),
          ),
        ),
    ...(e.missing > 0 ? ['', `${e.missing} of the benchmark's ${e.totalTasks} tasks were never reported: they count as failed.`] : []),
  ].join('\n');
  return { json, text };
}
