import { beforeAll, describe, expect, it } from 'vitest';

import { canonicalJson } from '@subnet/core';

import { buildBundle, bundleDigest, computeEpoch, recomputeBundle } from '../index.js';
import type { Bundle } from '../index.js';
import { dryRun, keys, plan, record, sssa, task } from './helpers.js';

let A: string;
let B: string;
let C: string;
let V: string;
let P: string;
beforeAll(async () => {
  const k = await keys();
  [A, B, C] = k.miners.map((m) => m.address) as [string, string, string];
  V = k.validator.address;
  P = k.peer.address;
});

const single = { min_validators: 1, min_stake_fraction: 0 };
const BLOCK = `0x${'ef'.repeat(32)}`;
const all = {
  pipeline: single,
  challenges: [
    { id: 'workflow', kind: 'workflow', alpha: 0.3, weight_cap: 1 },
    { id: 'sssa', kind: 'sssa', alpha: 0.3, weight_cap: 1 },
    { id: 'term', kind: 'term_pass_rate', alpha: 0.2, weight_cap: 1, total_tasks: 2 },
    { id: 'bounty', kind: 'bounty', alpha: 0.2, weight_cap: 1 },
  ],
};

function epochOf(inputs: Record<string, unknown>, metagraph?: { hotkey: string; uid: number }[]) {
  return {
    config: all,
    epoch: 4,
    validatorHotkey: V,
    inputs: {
      candidates: [
        { hotkey: A, uid: 1 },
        { hotkey: B, uid: 2 },
        { hotkey: C, uid: 3 },
      ],
      ...inputs,
    },
    stakes: [
      { validator_hotkey: V, stake: 2 },
      { validator_hotkey: P, stake: 1 },
    ],
    metagraph: metagraph ?? [
      { hotkey: V, uid: 0 },
      { hotkey: A, uid: 1 },
      { hotkey: B, uid: 2 },
      { hotkey: C, uid: 3 },
    ],
  };
}

const run = (id: string, seq: number, hotkey: string, uid: number, taskId = id) => ({
  record_id: id,
  seq,
  miner_uid: uid,
  miner_hotkey: hotkey,
  task: task(taskId),
  plan,
  record: record(),
});
const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { x: v };
  return v;
};

describe('isolation (SPEC 0): record content never fails an epoch', () => {
  it('isolation: an SSSA claiming another task_type than the task is scored under the registered type', () => {
    // v1 failure: two SSSAs of one task disagreeing on task_type threw. The type is now the task's.
    const out = computeEpoch(
      epochOf({
        tasks: [{ task_id: 't1', task_type: 'mcp_server', block_hash: BLOCK, seq: 1 }],
        sssa_submissions: [
          { record_id: 's1', seq: 2, task_id: 't1', miner_uid: 1, miner_hotkey: A, sssa: { ...sssa(), skill: { type: 'other' } } },
          { record_id: 's2', seq: 3, task_id: 't1', miner_uid: 2, miner_hotkey: B, sssa: sssa() },
          { record_id: 's3', seq: 4, task_id: 't1', miner_uid: 3, miner_hotkey: C, sssa: sssa() },
        ],
      }),
    );
    const groups = (out.challenges.find((c) => c.id === 'sssa')!.details as { groups: { task_type: string }[] }).groups;
    expect(groups.map((g) => g.task_type)).toEqual(['mcp_server']);
    expect(out.excluded).toEqual([]);
  });

  it('isolation: a workflow re-run of a task id is a new window entry; a late entry is placed by its arrival key', () => {
    const first = computeEpoch(epochOf({ workflow_runs: [run('r1', 10, A, 1, 'same-task'), run('r2', 11, A, 1, 'same-task')] }));
    const windows = (first.challenges.find((c) => c.id === 'workflow')!.details as { windows: { hotkey: string; count: number }[] }).windows;
    expect(windows).toEqual([expect.objectContaining({ hotkey: A, count: 2 })]);
    // The next epoch feeds a run whose arrival precedes the window's latest (seq 5 < 11).
    const second = computeEpoch(epochOf({ workflow_runs: [run('r0', 5, A, 1), run('r3', 12, A, 1)], window_state: first.window_state }));
    const secondWindows = (second.challenges.find((c) => c.id === 'workflow')!.details as { windows: { count: number }[] }).windows;
    // SPEC A v1.1: the late entry is placed by its arrival key, never refused.
    expect(second.excluded).toEqual([]);
    expect(secondWindows[0]?.count).toBe(4);
  });

  it('rolling window: a hotkey that re-registers on another uid starts a new window there; the old pair is dropped', () => {
    const first = computeEpoch(epochOf({ workflow_runs: [run('r1', 1, A, 1)] }));
    const moved = [
      { hotkey: V, uid: 0 },
      { hotkey: A, uid: 7 },
      { hotkey: B, uid: 2 },
    ];
    const second = computeEpoch(epochOf({ workflow_runs: [run('r2', 2, A, 7)], window_state: first.window_state }, moved));
    const details = second.challenges.find((c) => c.id === 'workflow')!.details as {
      windows: { uid: number; hotkey: string; count: number }[];
      dropped_windows: unknown[];
    };
    expect(details.windows).toEqual([expect.objectContaining({ uid: 7, hotkey: A, count: 1 })]);
    expect(details.dropped_windows).toEqual([{ uid: 1, hotkey: A }]);
    const third = computeEpoch(epochOf({ window_state: second.window_state }, moved));
    expect(third.u16.uids).toContain(7);
  });

  it('isolation: a peer-score document signed with the validator own hotkey is excluded, not fatal', () => {
    const out = computeEpoch(epochOf({ peer_scores: [{ record_id: 'p', seq: 1, validator_hotkey: V, challenge_id: 'term', miner_hotkey: A, score: 1 }] }));
    expect(out.excluded.map((e) => e.code)).toEqual(['BUNDLE_OWN_PEER_SCORE']);
  });

  it('isolation: task types constructor and __proto__ take the default base weight, never a prototype member', () => {
    const out = computeEpoch(
      epochOf({
        tasks: [
          { task_id: 'a', task_type: 'constructor', block_hash: BLOCK, seq: 1 },
          { task_id: 'b', task_type: '__proto__', block_hash: BLOCK, seq: 2 },
        ],
        sssa_submissions: [A, B, C].flatMap((h, i) => [
          { record_id: `a${i}`, seq: 10 + i, task_id: 'a', miner_uid: i + 1, miner_hotkey: h, sssa: sssa() },
          { record_id: `b${i}`, seq: 20 + i, task_id: 'b', miner_uid: i + 1, miner_hotkey: h, sssa: sssa() },
        ]),
      }),
    );
    const groups = (out.challenges.find((c) => c.id === 'sssa')!.details as { groups: { emissions: { factors: { base_weight: number } }[] }[] }).groups;
    expect(groups.flatMap((g) => g.emissions.map((e) => e.factors.base_weight))).toEqual([1, 1, 1, 1, 1, 1]);
    expect(out.reputations.map((r) => r.task_type)).toEqual(['__proto__', '__proto__', '__proto__', 'constructor', 'constructor', 'constructor']);
  });

  it('isolation: a record nesting 4,000 levels is excluded with CORE_INPUT_TOO_DEEP; its bundle digests and recomputes', () => {
    const deep = { ...run('deep', 3, B, 2), record: { ...record(), extra: nested(4000) } };
    const input = epochOf({ workflow_runs: [run('ok', 1, A, 1), deep] });
    const out = computeEpoch(input);
    expect(out.excluded.map((e) => [e.record_id, e.code, e.miner_hotkey])).toEqual([['deep', 'CORE_INPUT_TOO_DEEP', B]]);
    const bundle = buildBundle({ ...input, netuid: 1, result: out, submission: dryRun });
    expect(bundleDigest(bundle)).toMatch(/^[0-9a-f]{64}$/);
    const text = canonicalJson(bundle);
    expect(text).toContain('"withheld"');
    expect(recomputeBundle(JSON.parse(text) as Bundle).identical).toBe(true);
  });

  it('isolation: a record that fails its schema is excluded with BUNDLE_INVALID_RECORD naming the field', () => {
    const out = computeEpoch(
      epochOf({ bounty_records: [{ record_id: 'b1', seq: 1, miner_hotkey: A, valid_issues: -1, invalid_issues: 0, starred_repos: 0 }] }),
    );
    expect(out.excluded).toEqual([
      expect.objectContaining({ list: 'bounty_records', record_id: 'b1', seq: 1, miner_hotkey: A, code: 'BUNDLE_INVALID_RECORD' }),
    ]);
    expect(out.excluded[0]?.reason).toContain('bounty_records[0].valid_issues');
  });

  it('tasks: an SSSA for an unknown task, from outside the group, or a second one by a miner is excluded with its code', () => {
    const out = computeEpoch(
      epochOf({
        tasks: [{ task_id: 't1', task_type: 'mcp', block_hash: BLOCK, seq: 1 }],
        candidates: [
          { hotkey: A, uid: 1 },
          { hotkey: B, uid: 2 },
        ],
        sssa_submissions: [
          { record_id: 'invented', seq: 2, task_id: 'invented-task', miner_uid: 1, miner_hotkey: A, sssa: sssa() },
          { record_id: 'outsider', seq: 3, task_id: 't1', miner_uid: 3, miner_hotkey: C, sssa: sssa() },
          { record_id: 'first', seq: 4, task_id: 't1', miner_uid: 1, miner_hotkey: A, sssa: sssa() },
          { record_id: 'second', seq: 5, task_id: 't1', miner_uid: 1, miner_hotkey: A, sssa: sssa('BLOCK') },
          { record_id: 'broken', seq: 6, task_id: 't1', miner_uid: 2, miner_hotkey: B, sssa: { verdict: 'MAYBE' } },
        ],
      }),
    );
    expect(out.excluded.map((e) => [e.record_id, e.code])).toEqual([
      ['invented', 'BUNDLE_UNKNOWN_TASK'],
      ['outsider', 'BUNDLE_NOT_IN_GROUP'],
      ['second', 'BUNDLE_DUPLICATE_SSSA'],
      ['broken', 'CONSENSUS_INVALID_SSSA'],
    ]);
  });

  it('tasks: thirty invented task ids earn nothing (the v1 one-member-group exploit)', () => {
    const invented = Array.from({ length: 30 }, (_, i) => ({
      record_id: `x${i}`,
      seq: 100 + i,
      task_id: `invented-${i}`,
      miner_uid: 1,
      miner_hotkey: A,
      sssa: sssa(),
    }));
    const out = computeEpoch(epochOf({ sssa_submissions: invented }));
    expect(out.challenges.find((c) => c.id === 'sssa')!.own_scores).toEqual([]);
    expect(out.excluded.every((e) => e.code === 'BUNDLE_UNKNOWN_TASK')).toBe(true);
    expect(out.excluded).toHaveLength(30);
  });

  it('canonical list order: the order of challenges in a configuration file does not change the digest (SPEC E)', () => {
    const input = epochOf({ bounty_records: [{ record_id: 'b1', seq: 1, miner_hotkey: A, valid_issues: 4, invalid_issues: 0, starred_repos: 1 }] });
    const forward = buildBundle({ ...input, netuid: 1, submission: dryRun });
    const reversed = buildBundle({ ...input, config: { ...all, challenges: [...all.challenges].reverse() }, netuid: 1, submission: dryRun });
    expect(bundleDigest(reversed)).toBe(bundleDigest(forward));
    expect((forward.config as { challenges: { id: string }[] }).challenges.map((c) => c.id)).toEqual(['bounty', 'sssa', 'term', 'workflow']);
  });

  it('canonical list order: records by arrival sequence, stakes and metagraph by hotkey, whatever order they were given in (SPEC E)', () => {
    const records = [3, 1, 2].map((seq) => ({
      record_id: `b${seq}`,
      seq,
      miner_hotkey: [A, B, C][seq - 1] as string,
      valid_issues: seq,
      invalid_issues: 0,
      starred_repos: 0,
    }));
    const input = epochOf({ bounty_records: records });
    const a = buildBundle({ ...input, netuid: 1, submission: dryRun });
    const b = buildBundle({
      ...input,
      inputs: { ...input.inputs, bounty_records: [...records].reverse() },
      stakes: [...input.stakes].reverse(),
      metagraph: [...input.metagraph].reverse(),
      netuid: 1,
      submission: dryRun,
    });
    expect(bundleDigest(b)).toBe(bundleDigest(a));
    expect((a.inputs as { bounty_records: { seq: number }[] }).bounty_records.map((r) => r.seq)).toEqual([1, 2, 3]);
  });
});
