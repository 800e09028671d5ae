import { beforeAll, describe, expect, it } from 'vitest';

import { computeEpoch } from '../index.js';
import { keys, sssa } from './helpers.js';

let M: string[];
let V: string;
beforeAll(async () => {
  const k = await keys();
  M = k.miners.map((m) => m.address).sort();
  V = k.validator.address;
});

const BLOCK = `0x${'12'.repeat(32)}`;
const config = {
  pipeline: { min_validators: 1, min_stake_fraction: 0 },
  challenges: [{ id: 'sssa', kind: 'sssa', alpha: 1, weight_cap: 1, assignment: { primaries: 3, auditors: 0 } }],
};

describe('tasks, groups and reputations in the epoch (SPEC B, docs/spec.md G.3)', () => {
  it('per-type reputation: the result carries the table after the epoch, from the table before and the observations', () => {
    const [a, b, c, d] = M as [string, string, string, string];
    const before = [{ task_type: 'mcp', hotkey: d, reputation: 0.1 }];
    const out = computeEpoch({
      config,
      epoch: 9,
      validatorHotkey: V,
      inputs: {
        tasks: [{ task_id: 't1', task_type: 'mcp', block_hash: BLOCK, seq: 1 }],
        candidates: M.map((hotkey, i) => ({ hotkey, uid: i + 1 })),
        reputations: before,
        // a and b send the same document, c sends nothing; d is not eligible (0.1 < 0.2).
        sssa_submissions: [
          { record_id: 's1', seq: 2, task_id: 't1', miner_uid: 1, miner_hotkey: a, sssa: sssa() },
          { record_id: 's2', seq: 3, task_id: 't1', miner_uid: 2, miner_hotkey: b, sssa: sssa() },
        ],
      },
      stakes: [{ validator_hotkey: V, stake: 1 }],
      metagraph: M.map((hotkey, i) => ({ hotkey, uid: i + 1 })),
    });
    const task = out.tasks[0] as { members: { hotkey: string; role: string }[]; block_hash: string };
    expect(task.block_hash).toBe(BLOCK);
    expect(task.members.map((m) => [m.hotkey, m.role])).toEqual([
      [a, 'primary'],
      [b, 'primary'],
      [c, 'primary'],
    ]);
    const eligibility = out.eligibility[0] as { task_type: string; candidates: { hotkey: string; eligible: boolean; reputation: number }[] };
    expect(eligibility.task_type).toBe('mcp');
    expect(eligibility.candidates.find((x) => x.hotkey === d)).toMatchObject({ eligible: false, reputation: 0.1 });
    // n = 2 valid SSSAs: consensus is null, so a and b observe nothing; c was assigned and sent nothing: 0.
    expect(out.reputations).toEqual([
      { task_type: 'mcp', hotkey: c, reputation: 0.9 * 0.5 + 0.1 * 0 },
      { task_type: 'mcp', hotkey: d, reputation: 0.1 },
    ]);
  });
});
