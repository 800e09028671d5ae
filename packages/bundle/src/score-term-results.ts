import { passRate } from '@subnet/aggregation';
import type { PassRateResult, TaskResult } from '@subnet/aggregation';

import type { TermResultRecord } from './epoch-inputs.js';
import type { Exclusions } from './exclusion.js';
import type { OwnScore } from './own-score.js';
import { latestPerMiner } from './select-latest.js';

const freeze = Object.freeze;

/**
 * The term pass-rate challenge of one epoch (SPEC C.1): each record's pass rate by `@subnet/aggregation`
 * (a record it refuses is excluded with its code); per miner the latest usable record counts.
 *
 * The details are returned in their wire form, frozen: `{ pass_rates: [{ record_id, miner_hotkey,
 * pass_rate, explanation: { total_tasks, passed, passed_task_ids, failed: [{ task_id, reason }], missing } }] }`,
 * exactly what `toWire` makes of the camelCase pass rates (`compute-epoch.test.ts` pins it), without a
 * generic walk per record.
 *
 * @param records - the epoch's screened term results
 * @param totalTasks - the benchmark's task count
 * @param excluded - where exclusions go
 * @returns own scores by hotkey and the pass rates (wire form)
 */
export function scoreTermResults(records: readonly TermResultRecord[], totalTasks: number, excluded: Exclusions): { own: OwnScore[]; details: unknown } {
  const rated = new Map<TermResultRecord, PassRateResult>();
  for (const r of records) {
    const results = r.results;
    // Pushed, not preallocated: a packed list (a preallocated one is holey, and slower to read).
    const tasks: TaskResult[] = [];
    for (let i = 0; i < results.length; i += 1) {
      const t = results[i] as TermResultRecord['results'][number];
      tasks.push({ taskId: t.task_id, testsPassed: t.tests_passed, testsTotal: t.tests_total, timedOut: t.timed_out });
    }
    try {
      rated.set(r, passRate(tasks, totalTasks));
    } catch (error) {
      excluded.addError('term_results', r, error);
    }
  }
  const latest = latestPerMiner('term_results', [...rated.keys()], excluded);
  const own = new Array<OwnScore>(latest.length);
  const rates = new Array<unknown>(latest.length);
  for (let i = 0; i < latest.length; i += 1) {
    const r = latest[i] as TermResultRecord;
    const rate = rated.get(r) as PassRateResult;
    const e = rate.explanation;
    own[i] = { miner_hotkey: r.miner_hotkey, score: rate.passRate };
    rates[i] = freeze({
      record_id: r.record_id,
      miner_hotkey: r.miner_hotkey,
      pass_rate: rate.passRate,
      explanation: freeze({
        total_tasks: e.totalTasks,
        passed: e.passed,
        passed_task_ids: freeze(copyOf(e.passedTaskIds)),
        failed: freeze(failedWire(e.failed)),
        missing: e.missing,
      }),
    });
  }
  return { own, details: freeze({ pass_rates: freeze(rates) }) };
}

// Indexed loops: the lists are frozen, and V8's `map`/`slice` leave their fast paths on frozen arrays.
function copyOf(list: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += 1) out.push(list[i] as string);
  return out;
}

function failedWire(list: PassRateResult['explanation']['failed']): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < list.length; i += 1) {
    const f = list[i] as PassRateResult['explanation']['failed'][number];
    out.push(freeze({ task_id: f.taskId, reason: f.reason }));
  }
  return out;
}
