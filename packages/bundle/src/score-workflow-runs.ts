import { compareCodePoints, isSubnetError } from '@subnet/core';
import { createRollingWindow, scoreWorkflow } from '@subnet/composite';
import type { TaskScoreEntry } from '@subnet/composite';

import type { WorkflowRunRecord } from './epoch-inputs.js';
import type { Exclusions } from './exclusion.js';
import type { OwnScore } from './own-score.js';
import { noteSeq } from './submission-order.js';

/** What {@link scoreWorkflowRuns} returns. */
export interface WorkflowOutcome {
  readonly own: OwnScore[];
  readonly details: unknown;
  /** The window state after this epoch, as plain JSON. */
  readonly windowState: unknown;
  /** Per miner hotkey, the smallest arrival (seq) its kept window holds: its submission (docs/spec.md G.4). */
  readonly submissions: ReadonlyMap<string, number>;
}

/**
 * The composite workflow challenge of one epoch (SPEC A, docs/spec.md G.6): each run scored by
 * `@subnet/composite` (a run it refuses is excluded with its code); the scores enter the rolling windows
 * through composite's `createRollingWindow`, the one implementation of the window rules: each entry is
 * `{ taskId: the task's id, arrival: seq, recordId: record id }`, so a re-run of a task id is a new entry
 * and a late entry is placed by its arrival key (seq, record id); an entry the window refuses is excluded
 * with its code; then `retain` drops the windows whose (uid, hotkey) pair is not in the epoch's metagraph
 * (a deregistered hotkey, one that moved to another uid and starts there anew, or the previous holder of
 * a uid a new hotkey took: the new hotkey's window stays).
 * Own score of a miner = its window mean; its submission (for `winner_takes_all` ties, docs/spec.md G.4) is
 * the smallest arrival its kept window holds, carried entries included.
 *
 * @param runs - the epoch's screened runs, by (seq, record id)
 * @param carried - the window state carried from the previous epoch (null: empty)
 * @param metagraph - the epoch's metagraph
 * @param excluded - where exclusions go
 * @returns own scores by hotkey, the details and the window state to carry
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_STATE` when the carried state is invalid (not a record's fault)
 */
export function scoreWorkflowRuns(
  runs: readonly WorkflowRunRecord[],
  carried: unknown,
  metagraph: readonly { readonly hotkey: string; readonly uid: number }[],
  excluded: Exclusions,
): WorkflowOutcome {
  const tasks: { run: WorkflowRunRecord; taskId: string; scored: ReturnType<typeof scoreWorkflow> }[] = [];
  for (const run of runs) {
    try {
      const scored = scoreWorkflow({ task: run.task, plan: run.plan, record: run.record });
      const taskId = (run.task as { task_id?: unknown }).task_id;
      tasks.push({ run, taskId: typeof taskId === 'string' ? taskId : run.record_id, scored });
    } catch (error) {
      excluded.addError('workflow_runs', run, error);
    }
  }
  const window = createRollingWindow(carried ?? undefined);
  for (const t of tasks) {
    const entry: TaskScoreEntry = {
      uid: t.run.miner_uid,
      hotkey: t.run.miner_hotkey,
      taskId: t.taskId,
      arrival: t.run.seq,
      recordId: t.run.record_id,
      score: t.scored.score,
    };
    try {
      window.add(entry);
    } catch (error) {
      if (!isSubnetError(error)) throw error;
      excluded.addError('workflow_runs', t.run, error);
    }
  }
  const before = window.scores();
  window.retain(metagraph.map((n) => ({ uid: n.uid, hotkey: n.hotkey })));
  const kept = new Set(window.scores().map((w) => `${w.uid}\u0000${w.hotkey}`));
  const dropped = before.filter((w) => !kept.has(`${w.uid}\u0000${w.hotkey}`)).map((w) => ({ uid: w.uid, hotkey: w.hotkey }));
  const state = window.state();
  const windows = window.scores();
  const submissions = new Map<string, number>();
  for (const w of state.windows) for (const arrival of w.arrivals) noteSeq(submissions, w.hotkey, arrival);
  const own = windows.map((w) => ({ miner_hotkey: w.hotkey, score: w.score })).sort((a, b) => compareCodePoints(a.miner_hotkey, b.miner_hotkey));
  return {
    own,
    submissions,
    windowState: JSON.parse(JSON.stringify(state)) as unknown,
    details: {
      task_scores: tasks.map((t) => ({
        record_id: t.run.record_id,
        miner_uid: t.run.miner_uid,
        miner_hotkey: t.run.miner_hotkey,
        task_id: t.taskId,
        ...t.scored,
      })),
      windows,
      dropped_windows: dropped,
    },
  };
}
