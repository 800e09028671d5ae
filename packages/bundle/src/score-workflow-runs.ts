import { compareCodePoints, isSubnetError } from '@subnet/core';
import { addTaskScores, emptyWindowState, parseWindowState, resetUid, scoreWorkflow, windowScores } from '@subnet/composite';
import type { TaskScoreEntry, WindowState } from '@subnet/composite';

import type { WorkflowRunRecord } from './epoch-inputs.js';
import type { Exclusions } from './exclusion.js';
import type { OwnScore } from './own-score.js';

/** What {@link scoreWorkflowRuns} returns. */
export interface WorkflowOutcome {
  readonly own: OwnScore[];
  readonly details: unknown;
  /** The window state after this epoch, as plain JSON. */
  readonly windowState: unknown;
}

/**
 * The composite workflow challenge of one epoch (SPEC A, docs/spec.md G.6): each run scored by
 * `@subnet/composite` (a run it refuses is excluded with its code); the scores enter the rolling windows
 * in arrival order, keyed by record id so that a re-run of a task id is a new entry; an entry the window
 * refuses is excluded with its code; then the windows whose (uid, hotkey) pair is not in the epoch's
 * metagraph are dropped (a deregistered hotkey, or one that moved to another uid and starts there anew).
 * Own score of a miner = its window mean.
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
  let state: WindowState = parseWindowState(carried ?? emptyWindowState());
  const pending: { entry: TaskScoreEntry; run: WorkflowRunRecord }[] = tasks.map((t) => ({
    entry: { uid: t.run.miner_uid, hotkey: t.run.miner_hotkey, taskId: t.run.record_id, arrival: t.run.seq, score: t.scored.score },
    run: t.run,
  }));
  state = addEntries(state, pending, excluded);

  const pairs = new Set(metagraph.map((n) => `${n.uid}\u0000${n.hotkey}`));
  const dropped: { uid: number; hotkey: string }[] = [];
  for (const w of windowScores(state)) {
    if (!pairs.has(`${w.uid}\u0000${w.hotkey}`)) {
      dropped.push({ uid: w.uid, hotkey: w.hotkey });
      state = resetUid(state, w.uid);
    }
  }
  const windows = windowScores(state);
  const own = windows.map((w) => ({ miner_hotkey: w.hotkey, score: w.score })).sort((a, b) => compareCodePoints(a.miner_hotkey, b.miner_hotkey));
  return {
    own,
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

/**
 * Adds the entries in one batch; when the window refuses one (its error names `entries[i]`), that run is
 * excluded with the error's code and the rest are added again (nothing changes when addTaskScores throws).
 */
function addEntries(state: WindowState, pending: { entry: TaskScoreEntry; run: WorkflowRunRecord }[], excluded: Exclusions): WindowState {
  let rest = pending;
  for (;;) {
    try {
      return addTaskScores(
        state,
        rest.map((p) => p.entry),
      );
    } catch (error) {
      if (!isSubnetError(error)) throw error;
      const match = typeof error.context.path === 'string' ? /^entries\[(\d+)\]/.exec(error.context.path) : null;
      const index = match === null ? -1 : Number(match[1]);
      const culprit = rest[index];
      if (culprit === undefined) throw error;
      excluded.addError('workflow_runs', culprit.run, error);
      rest = rest.filter((_, i) => i !== index);
    }
  }
}
