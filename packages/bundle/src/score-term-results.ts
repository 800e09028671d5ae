import { passRate } from '@subnet/aggregation';
import { compareCodePoints } from '@subnet/core';
import type { PassRateResult, TaskResult } from '@subnet/aggregation';

import type { TermResultRecord } from './epoch-inputs.js';
import type { Exclusions } from './exclusion.js';
import type { OwnScore } from './own-score.js';
import { latestPerMiner } from './select-latest.js';
import { noteSeq } from './submission-order.js';

const freeze = Object.freeze;

/**
 * The term pass-rate challenge of one epoch (SPEC C.1): each record's pass rate by `@subnet/aggregation`
 * (a record it refuses is excluded with its code); per miner the latest usable record counts, and its seq is
 * the miner's submission (for `winner_takes_all` ties, docs/spec.md G.4).
 *
 * The details are returned in their wire form, frozen: `{ pass_rates: [{ record_id, miner_hotkey,
 * pass_rate, explanation: { total_tasks, passed, passed_task_ids, failed: [{ task_id, reason }], missing } }] }`,
 * exactly what `toWire` makes of the camelCase pass rates (`compute-epoch.test.ts` pins it), without a
 * generic walk per record.
 *
 * @param records - the epoch's screened term results
 * @param totalTasks - the benchmark's task count
 * @param excluded - where exclusions go
 * @returns own scores by hotkey, the pass rates (wire form) and each miner's submission seq
 */
export function scoreTermResults(
  records: readonly TermResultRecord[],
  totalTasks: number,
  excluded: Exclusions,
): { own: OwnScore[]; details: unknown; submissions: ReadonlyMap<string, number> } {
  // Per record its pass rate in wire form: read from the record's own results when `passRate` would accept
  // them (`directRate`), else by `passRate` itself, which gives the same value or the error that excludes it.
  const rated = new Map<TermResultRecord, RateWire>();
  const usable: TermResultRecord[] = [];
  const total = Number.isInteger(totalTasks) && totalTasks >= 1 && totalTasks <= Number.MAX_SAFE_INTEGER ? totalTasks : 0;
  for (const r of records) {
    let rate = total === 0 ? undefined : directRate(r.results, total);
    if (rate === undefined) {
      try {
        rate = rateWire(passRate(taskResults(r.results), totalTasks));
      } catch (error) {
        excluded.addError('term_results', r, error);
        continue;
      }
    }
    rated.set(r, rate);
    usable.push(r);
  }
  const latest = latestPerMiner('term_results', usable, excluded);
  const own = new Array<OwnScore>(latest.length);
  const rates = new Array<unknown>(latest.length);
  const submissions = new Map<string, number>();
  for (let i = 0; i < latest.length; i += 1) {
    const r = latest[i] as TermResultRecord;
    noteSeq(submissions, r.miner_hotkey, r.seq);
    const rate = rated.get(r) as RateWire;
    own[i] = { miner_hotkey: r.miner_hotkey, score: rate.passRate };
    rates[i] = freeze({
      record_id: r.record_id,
      miner_hotkey: r.miner_hotkey,
      pass_rate: rate.passRate,
      explanation: freeze({
        total_tasks: rate.totalTasks,
        passed: rate.passed.length,
        passed_task_ids: freeze(rate.passed),
        failed: freeze(rate.failed),
        missing: rate.missing,
      }),
    });
  }
  return { own, details: freeze({ pass_rates: freeze(rates) }), submissions };
}

/** A record's pass rate with the lists of its wire explanation (`failed` entries frozen, the lists not yet). */
interface RateWire {
  readonly passRate: number;
  readonly totalTasks: number;
  readonly passed: string[];
  readonly failed: unknown[];
  readonly missing: number;
}

/** The camelCase task results `passRate` reads. Pushed, not preallocated: a packed list (a preallocated one is holey, and slower to read). */
function taskResults(results: TermResultRecord['results']): TaskResult[] {
  const tasks: TaskResult[] = [];
  for (let i = 0; i < results.length; i += 1) {
    const t = results[i] as TermResultRecord['results'][number];
    tasks.push({ taskId: t.task_id, testsPassed: t.tests_passed, testsTotal: t.tests_total, timedOut: t.timed_out });
  }
  return tasks;
}

function rateWire(rate: PassRateResult): RateWire {
  const e = rate.explanation;
  return { passRate: rate.passRate, totalTasks: e.totalTasks, passed: copyOf(e.passedTaskIds), failed: failedWire(e.failed), missing: e.missing };
}

/**
 * `rateWire(passRate(taskResults(results), totalTasks))` read straight from the record's results, or
 * undefined when `passRate` might refuse them (more results than tasks, a task id twice, a field it would not
 * accept), which then takes the path above for its error. `totalTasks` is an integer >= 1. The same sums and
 * the same order: ids by code point (a stable insertion sort, as the stable sort of `passRate`).
 */
function directRate(results: TermResultRecord['results'], totalTasks: number): RateWire | undefined {
  const n = results.length;
  if (n > totalTasks) return undefined;
  const passed: string[] = [];
  const failedIds: string[] = [];
  const reasons: ('tests_failed' | 'timed_out')[] = [];
  for (let i = 0; i < n; i += 1) {
    const t = results[i];
    if (t === undefined) return undefined;
    const { task_id, tests_passed, tests_total, timed_out } = t;
    if (typeof task_id !== 'string' || task_id.length === 0 || typeof timed_out !== 'boolean') return undefined;
    if (!Number.isInteger(tests_total) || tests_total < 1 || tests_total > Number.MAX_SAFE_INTEGER) return undefined;
    if (!Number.isInteger(tests_passed) || tests_passed < 0 || tests_passed > tests_total) return undefined;
    for (let j = 0; j < i; j += 1) if ((results[j] as TermResultRecord['results'][number]).task_id === task_id) return undefined;
    if (timed_out) {
      failedIds.push(task_id);
      reasons.push('timed_out');
    } else if (tests_passed === tests_total) passed.push(task_id);
    else {
      failedIds.push(task_id);
      reasons.push('tests_failed');
    }
  }
  sortIds(passed, null);
  sortIds(failedIds, reasons);
  // Pushed: a packed list (a preallocated one stays holey once frozen, and canonical JSON reads it slower).
  const failed: unknown[] = [];
  for (let i = 0; i < failedIds.length; i += 1) failed.push(freeze({ task_id: failedIds[i] as string, reason: reasons[i] as string }));
  return { passRate: passed.length / totalTasks, totalTasks, passed, failed, missing: totalTasks - n };
}

/** Sorts `ids` by code point in place (stable insertion sort: the lists are short and usually sorted), `tags` along. */
function sortIds(ids: string[], tags: string[] | null): void {
  for (let i = 1; i < ids.length; i += 1) {
    const id = ids[i] as string;
    if (compareCodePoints(ids[i - 1] as string, id) <= 0) continue;
    const tag = tags === null ? undefined : tags[i];
    let j = i - 1;
    while (j >= 0 && compareCodePoints(ids[j] as string, id) > 0) {
      ids[j + 1] = ids[j] as string;
      if (tags !== null) tags[j + 1] = tags[j] as string;
      j -= 1;
    }
    ids[j + 1] = id;
    if (tags !== null) tags[j + 1] = tag as string;
  }
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
