import { describe, expect, it } from 'vitest';

import { isSubnetError } from '@subnet/core';

import { assignTask, memberRole, selectVerificationGroup } from '../index.js';
import { hotkey } from './helpers.js';

const blockHash = `0x${'ab'.repeat(32)}`;
const candidates = [1, 2, 3, 4, 5, 6, 7].map((i) => ({ uid: i, hotkey: hotkey(i) }));

describe('task assignment (SPEC B, docs/spec.md G.3)', () => {
  it('task assignment: roles come from selectVerificationGroup over the candidates and their per-type reputation', () => {
    const reputations = [
      { task_type: 'mcp', hotkey: hotkey(1), reputation: 0.9 },
      { task_type: 'mcp', hotkey: hotkey(2), reputation: 0.1 },
      { task_type: 'other', hotkey: hotkey(3), reputation: 0.95 },
    ].sort((a, b) => (a.task_type === b.task_type ? (a.hotkey < b.hotkey ? -1 : 1) : a.task_type < b.task_type ? -1 : 1));
    const task = assignTask({ taskId: 't-1', taskType: 'mcp', blockHash, candidates, reputations });
    // The reference: the same draw written out with the table read by hand (absent = 0.5).
    const byHand: Record<string, number> = {};
    for (const c of candidates) byHand[c.hotkey] = c.hotkey === hotkey(1) ? 0.9 : c.hotkey === hotkey(2) ? 0.1 : 0.5;
    const group = selectVerificationGroup({ candidates, reputations: byHand, blockHash, taskId: 't-1', filters: { minReputation: 0.2 } });
    expect(task.members.map((m) => [m.hotkey, m.role])).toEqual([...group.primaries, ...group.auditors].map((m) => [m.hotkey, m.role]));
    expect(task.members[0]?.hotkey).toBe(hotkey(1));
    expect(task.candidates.find((c) => c.hotkey === hotkey(2))).toMatchObject({ reputation: 0.1, eligible: false });
    expect(task.candidates.find((c) => c.hotkey === hotkey(3))).toMatchObject({ reputation: 0.5, eligible: true });
    expect(memberRole(task, hotkey(1))).toBe('primary');
    expect(memberRole(task, hotkey(2))).toBeUndefined();
    expect(task.seed).toBe(group.seed);
  });

  it('task assignment: a task type named __proto__ reads no prototype', () => {
    const task = assignTask({ taskId: 't', taskType: '__proto__', blockHash, candidates, reputations: null });
    expect(task.candidates.every((c) => c.reputation === 0.5)).toBe(true);
    expect(task.members).toHaveLength(5);
  });

  it('rejects a malformed block hash and a blank task type, naming the field', () => {
    const cases: [Partial<{ blockHash: string; taskType: string }>, string][] = [
      [{ blockHash: '0xAB' }, 'blockHash'],
      [{ taskType: '  ' }, 'taskType'],
    ];
    for (const [bad, path] of cases) {
      let caught: unknown;
      try {
        assignTask({ taskId: 't', taskType: bad.taskType ?? 'x', candidates, reputations: null, blockHash: bad.blockHash ?? blockHash });
      } catch (error) {
        caught = error;
      }
      expect(isSubnetError(caught, 'CONSENSUS_INVALID_SELECTION')).toBe(true);
      expect((caught as { context: { path: string } }).context.path).toBe(path);
    }
  });
});
