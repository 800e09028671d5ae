import { describe, expect, it } from 'vitest';

import { isSubnetError } from '@subnet/core';

import { DEFAULT_REPUTATION_SETTINGS, parseReputationTable, updateReputations } from '../index.js';
import { hotkey } from './helpers.js';

const [A, B, C] = [hotkey(1), hotkey(2), hotkey(3)] as [string, string, string];
const sorted = (...hs: string[]) => [...hs].sort();

describe('per-type reputation (docs/spec.md G.3)', () => {
  it('defaults: initial reputation 0.5, minimum 0.2, rate 0.1', () => {
    expect(DEFAULT_REPUTATION_SETTINGS).toEqual({ initialReputation: 0.5, minReputation: 0.2, rate: 0.1 });
  });

  it('per-type reputation: r = (1 - beta) * r + beta * c, from the initial reputation when absent', () => {
    const out = updateReputations({
      before: null,
      tasks: [{ taskId: 't1', taskType: 'mcp', members: [{ hotkey: A, valid: true, consensus: 0.9 }] }],
      keepHotkeys: new Set([A]),
    });
    expect(out.table).toEqual([{ task_type: 'mcp', hotkey: A, reputation: 0.9 * 0.5 + 0.1 * 0.9 }]);
  });

  it('per-type reputation: observations in task id order, then hotkey order, left to right', () => {
    const before = [{ task_type: 'mcp', hotkey: A, reputation: 0.3 }];
    const out = updateReputations({
      before,
      // Given out of order: t2 must be applied after t1.
      tasks: [
        { taskId: 't2', taskType: 'mcp', members: [{ hotkey: A, valid: true, consensus: 0 }] },
        { taskId: 't1', taskType: 'mcp', members: [{ hotkey: A, valid: true, consensus: 1 }] },
      ],
      keepHotkeys: new Set([A]),
    });
    const afterT1 = (1 - 0.1) * 0.3 + 0.1 * 1;
    const afterT2 = (1 - 0.1) * afterT1 + 0.1 * 0;
    expect(out.observations.map((o) => o.task_id)).toEqual(['t1', 't2']);
    expect(out.table[0]?.reputation).toBe(afterT2);
  });

  it('per-type reputation: an assigned member without a valid SSSA observes 0 whatever n; a valid SSSA to a null-consensus task observes nothing', () => {
    const out = updateReputations({
      before: null,
      tasks: [
        {
          taskId: 't1',
          taskType: 'x',
          members: [
            { hotkey: A, valid: false, consensus: null },
            { hotkey: B, valid: true, consensus: null },
          ],
        },
      ],
      keepHotkeys: new Set([A, B]),
    });
    expect(out.observations).toEqual([{ task_id: 't1', task_type: 'x', hotkey: A, observation: 0, before: 0.5, after: 0.9 * 0.5 }]);
    expect(out.table).toEqual([{ task_type: 'x', hotkey: A, reputation: 0.9 * 0.5 }]);
  });

  it('per-type reputation: types are separate, and __proto__ or constructor is an ordinary type', () => {
    const out = updateReputations({
      before: null,
      tasks: [
        { taskId: 'a', taskType: '__proto__', members: [{ hotkey: A, valid: true, consensus: 1 }] },
        { taskId: 'b', taskType: 'constructor', members: [{ hotkey: A, valid: false, consensus: null }] },
      ],
      keepHotkeys: new Set([A]),
    });
    expect(out.table.map((e) => [e.task_type, e.reputation])).toEqual([
      ['__proto__', 0.9 * 0.5 + 0.1],
      ['constructor', 0.9 * 0.5],
    ]);
    const table = parseReputationTable(out.table);
    expect(table.get('__proto__', A)).toBe(0.9 * 0.5 + 0.1);
    expect(table.get('toString', A)).toBeUndefined();
  });

  it('per-type reputation: entries of hotkeys absent from the metagraph are dropped after the update', () => {
    const out = updateReputations({
      before: [
        { task_type: 'x', hotkey: sorted(B, C)[0] as string, reputation: 0.4 },
        { task_type: 'x', hotkey: sorted(B, C)[1] as string, reputation: 0.6 },
      ],
      tasks: [],
      keepHotkeys: new Set([B]),
    });
    expect(out.table).toEqual([{ task_type: 'x', hotkey: B, reputation: B === sorted(B, C)[0] ? 0.4 : 0.6 }]);
    expect(out.dropped.map((e) => e.hotkey)).toEqual([C]);
  });

  it('rejects an unsorted or duplicated table, naming the entry', () => {
    let caught: unknown;
    try {
      parseReputationTable([
        { task_type: 'x', hotkey: A, reputation: 0.4 },
        { task_type: 'x', hotkey: A, reputation: 0.6 },
      ]);
    } catch (error) {
      caught = error;
    }
    expect(isSubnetError(caught, 'CONSENSUS_INVALID_SELECTION')).toBe(true);
    expect((caught as { context: { path: string } }).context.path).toBe('reputations[1]');
  });
});
