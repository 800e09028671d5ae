import { beforeAll, describe, expect, it } from 'vitest';

import { computeEpoch } from '../index.js';
import { keys, plan, task } from './helpers.js';

/**
 * SPEC A v1.1 rolling-window rules, each through the epoch pipeline (`computeEpoch`), which keeps its
 * windows with `@subnet/composite`'s `createRollingWindow` (the one implementation of the rules).
 */

let A: string;
let B: string;
let D: string;
let V: string;
beforeAll(async () => {
  const k = await keys();
  [A, B, , D] = k.miners.map((m) => m.address) as [string, string, string, string];
  V = k.validator.address;
});

const config = { pipeline: { min_validators: 1, min_stake_fraction: 0 }, challenges: [{ id: 'workflow', kind: 'workflow', alpha: 1, weight_cap: 1 }] };

/** A pre-counted execution record whose composite score is a function of `quality` (1: 0.8). */
const execution = (quality: number) => ({
  output_quality_score: quality,
  actual_tao: 0.5,
  actual_seconds: 30,
  steps_completed: 2,
  actual_retries: 0,
  timeouts: 0,
  hard_failures: 0,
});

const run = (recordId: string, seq: number, hotkey: string, uid: number, taskId: string, quality = 1) => ({
  record_id: recordId,
  seq,
  miner_uid: uid,
  miner_hotkey: hotkey,
  task: task(taskId),
  plan,
  record: execution(quality),
});

interface Window {
  uid: number;
  hotkey: string;
  scores: number[];
  task_ids: string[];
  record_ids: string[];
  arrivals: number[];
}
interface Details {
  task_scores: { record_id: string; score: number }[];
  windows: { uid: number; hotkey: string; score: number; count: number }[];
  dropped_windows: { uid: number; hotkey: string }[];
}

function epoch(workflowRuns: unknown[], windowState: unknown, metagraph: { hotkey: string; uid: number }[]) {
  const out = computeEpoch({
    config,
    epoch: 9,
    validatorHotkey: V,
    inputs: { workflow_runs: workflowRuns, ...(windowState === null ? {} : { window_state: windowState }) },
    stakes: [{ validator_hotkey: V, stake: 1 }],
    metagraph,
  });
  const details = out.challenges[0]?.details as Details;
  const state = out.window_state as { windows: Window[] };
  return { out, details, windows: state.windows };
}

describe('rolling window rules (SPEC A v1.1) through computeEpoch', () => {
  const metagraph = () => [
    { hotkey: V, uid: 0 },
    { hotkey: A, uid: 1 },
    { hotkey: B, uid: 2 },
  ];

  it('rolling window: a re-run of a task id is a new entry (both runs count, the task id held twice)', () => {
    const { out, details, windows } = epoch([run('r1', 1, A, 1, 'task-7', 1), run('r2', 2, A, 1, 'task-7', 0.5)], null, metagraph());
    expect(out.excluded).toEqual([]);
    expect(windows).toEqual([expect.objectContaining({ uid: 1, hotkey: A, task_ids: ['task-7', 'task-7'], record_ids: ['r1', 'r2'], arrivals: [1, 2] })]);
    const [s1, s2] = details.task_scores.map((t) => t.score) as [number, number];
    expect(s1).not.toBe(s2);
    expect(details.windows).toEqual([expect.objectContaining({ hotkey: A, count: 2, score: (s1 + s2) / 2 })]);
  });

  it('rolling window: an entry fed out of order is placed by its arrival key (seq, then record id)', () => {
    const first = epoch([run('r10', 10, A, 1, 't10'), run('r12', 12, A, 1, 't12')], null, metagraph());
    // The next epoch's inputs hold a run that was accepted between the two (seq 11), and one after.
    const second = epoch([run('r11', 11, A, 1, 't11', 0.2), run('r13', 13, A, 1, 't13')], first.out.window_state, metagraph());
    expect(second.out.excluded).toEqual([]);
    expect(second.windows[0]).toEqual(expect.objectContaining({ arrivals: [10, 11, 12, 13], record_ids: ['r10', 'r11', 'r12', 'r13'] }));
    // Same arrival, record id breaks the tie: 'r11a' precedes 'r11b' whatever the feed order.
    const tie = epoch([run('r11b', 11, A, 1, 'tb'), run('r11a', 11, A, 1, 'ta')], first.out.window_state, metagraph());
    expect(tie.windows[0]?.record_ids).toEqual(['r10', 'r11a', 'r11b', 'r12']);
  });

  it('rolling window: a full window keeps the last 100 by arrival key, so a late entry older than all 100 is not held', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => run(`r${i + 2}`, i + 2, A, 1, `t${i + 2}`));
    const first = epoch(hundred, null, metagraph());
    const late = epoch([run('r1', 1, A, 1, 't1', 0)], first.out.window_state, metagraph());
    expect(late.out.excluded).toEqual([]);
    expect(late.windows[0]?.arrivals[0]).toBe(2);
    expect(late.details.windows[0]).toEqual(expect.objectContaining({ count: 100, score: first.details.windows[0]?.score }));
  });

  it('rolling window: the windows of pairs absent from the epoch metagraph are dropped', () => {
    const first = epoch([run('r1', 1, A, 1, 't1'), run('r2', 2, B, 2, 't2')], null, metagraph());
    const withoutB = [
      { hotkey: V, uid: 0 },
      { hotkey: A, uid: 1 },
    ];
    const second = epoch([], first.out.window_state, withoutB);
    expect(second.details.dropped_windows).toEqual([{ uid: 2, hotkey: B }]);
    expect(second.windows.map((w) => [w.uid, w.hotkey])).toEqual([[1, A]]);
    expect(second.out.u16.uids.filter((_, i) => (second.out.u16.weights[i] ?? 0) > 0)).toEqual([1]);
  });

  it('rolling window: a hotkey on a new uid starts a new window; the old pair is dropped', () => {
    const first = epoch([run('r1', 1, A, 1, 't1', 0.2)], null, metagraph());
    const moved = [
      { hotkey: V, uid: 0 },
      { hotkey: A, uid: 5 },
    ];
    const second = epoch([run('r2', 2, A, 5, 't2', 1)], first.out.window_state, moved);
    expect(second.details.dropped_windows).toEqual([{ uid: 1, hotkey: A }]);
    expect(second.windows).toEqual([expect.objectContaining({ uid: 5, hotkey: A, record_ids: ['r2'] })]);
  });

  it('rolling window: a new hotkey on a uid keeps its own window while the previous holder’s window is dropped', () => {
    const first = epoch([run('r1', 1, A, 1, 't1')], null, metagraph());
    // A deregistered; D now holds uid 1 and already ran a task this epoch.
    const replaced = [
      { hotkey: V, uid: 0 },
      { hotkey: D, uid: 1 },
    ];
    const second = epoch([run('r2', 2, D, 1, 't2')], first.out.window_state, replaced);
    expect(second.details.dropped_windows).toEqual([{ uid: 1, hotkey: A }]);
    expect(second.windows).toEqual([expect.objectContaining({ uid: 1, hotkey: D, record_ids: ['r2'] })]);
    expect(second.out.u16.uids.filter((_, i) => (second.out.u16.weights[i] ?? 0) > 0)).toEqual([1]);
  });
});
