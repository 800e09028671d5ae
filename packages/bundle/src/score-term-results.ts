import { passRate } from '@subnet/aggregation';

import type { TermResultRecord } from './epoch-inputs.js';
import type { Exclusions } from './exclusion.js';
import type { OwnScore } from './own-score.js';
import { latestPerMiner } from './select-latest.js';

/**
 * The term pass-rate challenge of one epoch (SPEC C.1): each record's pass rate by `@subnet/aggregation`
 * (a record it refuses is excluded with its code); per miner the latest usable record counts.
 *
 * @param records - the epoch's screened term results
 * @param totalTasks - the benchmark's task count
 * @param excluded - where exclusions go
 * @returns own scores by hotkey and the pass rates
 */
export function scoreTermResults(records: readonly TermResultRecord[], totalTasks: number, excluded: Exclusions): { own: OwnScore[]; details: unknown } {
  const rated = new Map<TermResultRecord, ReturnType<typeof passRate>>();
  for (const r of records) {
    try {
      rated.set(
        r,
        passRate(
          r.results.map((t) => ({ taskId: t.task_id, testsPassed: t.tests_passed, testsTotal: t.tests_total, timedOut: t.timed_out })),
          totalTasks,
        ),
      );
    } catch (error) {
      excluded.addError('term_results', r, error);
    }
  }
  const latest = latestPerMiner('term_results', [...rated.keys()], excluded);
  const rates = latest.map((r) => ({ record_id: r.record_id, miner_hotkey: r.miner_hotkey, ...(rated.get(r) as ReturnType<typeof passRate>) }));
  return { own: rates.map((r) => ({ miner_hotkey: r.miner_hotkey, score: r.passRate })), details: { pass_rates: rates } };
}
