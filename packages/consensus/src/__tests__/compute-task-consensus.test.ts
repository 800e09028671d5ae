import { isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { computeConsensus, computeTaskConsensus, parseSssa } from '../index.js';
import type { ConsensusMemberInput } from '../index.js';

import { finding, hotkey, members, sssa } from './helpers.js';

const good = () => sssa({ verdict: 'BLOCK', findings: [finding('tool_poison', 'tools/a.py#L1-L4')], capabilities: ['fs.read'] });

describe('SPEC B v1.1: an invalid document is excluded from its group with a reason; it never stops the group', () => {
  it('the invalid member is listed in excluded (code, sentence, path, record id) and the rest are scored as a group of the rest', () => {
    const group = members([good(), good(), sssa({ verdict: 'MAYBE' }), good()]).map((m, i) => ({ ...m, recordId: `r${i}` }));
    const result = computeTaskConsensus({ taskId: 't', members: group });
    expect(result.excluded).toEqual([
      expect.objectContaining({ index: 2, uid: 3, hotkey: hotkey(3), recordId: 'r2', code: 'CONSENSUS_INVALID_SSSA', path: 'members[2].sssa.verdict' }),
    ]);
    expect(result.excluded[0]?.reason).toContain('members[2].sssa.verdict');
    expect(result.excluded[0]?.reason).toContain('"MAYBE"');
    const rest = computeConsensus({ taskId: 't', members: group.filter((_, i) => i !== 2) });
    expect(result.members).toEqual(rest.members);
    expect(result.n).toBe(3);
  });

  it('excluding members can leave fewer than 3: consensus is then null for the rest (neutral factor), no error', () => {
    const result = computeTaskConsensus({ taskId: 't', members: members([good(), 'not a document' as unknown as Record<string, unknown>, good()]) });
    expect(result.n).toBe(2);
    expect(result.members.map((m) => m.consensus)).toEqual([null, null]);
    expect(result.excluded.map((e) => e.code)).toEqual(['CONSENSUS_INVALID_SSSA']);
  });

  it('a document nested 4,000 levels deep is excluded (CONSENSUS_INVALID_SSSA), never a RangeError', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 4000; i++) deep = [deep];
    const result = computeTaskConsensus({ taskId: 't', members: members([good(), good(), good(), { ...good(), x: deep }]) });
    expect(result.excluded.map((e) => [e.index, e.code])).toEqual([[3, 'CONSENSUS_INVALID_SSSA']]);
    expect(result.n).toBe(3);
  });

  it.each([
    ['uid', { uid: 70000 }, 'CONSENSUS_INVALID_GROUP', 'members[1].uid'],
    ['hotkey', { hotkey: '5Gnot-a-hotkey' }, 'CONSENSUS_INVALID_GROUP', 'members[1].hotkey'],
    ['role', { role: 'leader' }, 'CONSENSUS_INVALID_GROUP', 'members[1].role'],
    ['recordId', { recordId: 7 }, 'CONSENSUS_INVALID_GROUP', 'members[1].recordId'],
    ['duplicate uid', { uid: 1 }, 'CONSENSUS_DUPLICATE_MEMBER', 'members[1].uid'],
    ['duplicate hotkey', { hotkey: hotkey(1) }, 'CONSENSUS_DUPLICATE_MEMBER', 'members[1].hotkey'],
  ])('a member with a bad %s is excluded with its code', (_name, change, code, path) => {
    const group: ConsensusMemberInput[] = members([good(), good(), good(), good()]);
    group[1] = { ...group[1]!, ...(change as object) };
    const result = computeTaskConsensus({ taskId: 't', members: group });
    expect(result.excluded.map((e) => [e.code, e.path])).toEqual([[code, path]]);
    expect(result.members.map((m) => m.uid)).toEqual([1, 3, 4]);
  });

  it('a second document by one miner is excluded; the first in input order keeps its place even when it is invalid', () => {
    const first = { uid: 1, hotkey: hotkey(1), role: 'primary' as const, sssa: { bad: true } };
    const second = { ...first, sssa: good() };
    const result = computeTaskConsensus({ taskId: 't', members: [first, second, ...members([good(), good(), good()]).slice(1)] });
    expect(result.excluded.map((e) => [e.index, e.code])).toEqual([
      [0, 'CONSENSUS_INVALID_SSSA'],
      [1, 'CONSENSUS_DUPLICATE_MEMBER'],
    ]);
  });

  it('parsed documents are not validated again here either', () => {
    const group = members([good(), good(), good()]).map((m) => ({ ...m, sssa: parseSssa(m.sssa) }));
    expect(computeTaskConsensus({ taskId: 't', members: group }).members.map((m) => m.consensus)).toEqual([1, 1, 1]);
  });
});

describe("SPEC B v1.1: the task type is the task's, passed in; documents that name other types are no error", () => {
  it('members whose documents disagree on task_type are scored together and the result carries the given task type', () => {
    const docs = ['mcp_server', 'skill', '__proto__'].map((task_type) => ({ ...good(), task_type }));
    const result = computeTaskConsensus({ taskId: 't', taskType: 'mcp_server', members: members(docs) });
    expect(result.excluded).toEqual([]);
    expect(result.taskType).toBe('mcp_server');
    expect(result.members.map((m) => m.consensus)).toEqual([1, 1, 1]);
    expect(computeConsensus({ taskId: 't', taskType: 'constructor', members: members(docs) }).taskType).toBe('constructor');
  });

  it('a task type or task id spelled like a prototype key is plain data', () => {
    const result = computeTaskConsensus({ taskId: 'constructor', taskType: '__proto__', members: members([good(), good(), good()]) });
    expect([result.taskId, result.taskType]).toEqual(['constructor', '__proto__']);
  });

  it('without a task type the result says null', () => {
    expect(computeTaskConsensus({ taskId: 't', members: [] }).taskType).toBeNull();
  });
});

describe("computeTaskConsensus: only the validator's own input can throw", () => {
  it.each([
    ['taskId', { taskId: ' ', members: [] }],
    ['taskType', { taskId: 't', taskType: '', members: [] }],
    ['members', { taskId: 't', members: 'x' }],
    ['', null],
  ])('a bad %s is CONSENSUS_INVALID_GROUP', (path, input) => {
    try {
      computeTaskConsensus(input as never);
      expect.unreachable();
    } catch (error) {
      expect(isSubnetError(error, 'CONSENSUS_INVALID_GROUP')).toBe(true);
      expect((error as { context: { path: string } }).context.path).toBe(path);
    }
  });

  it('random hostile members never make it throw: every member is scored or excluded, exactly once', () => {
    const hostile = fc.oneof(
      fc.constant(good()),
      fc.anything(),
      fc.record({
        uid: fc.oneof(fc.integer({ min: -2, max: 70000 }), fc.anything()),
        hotkey: fc.constantFrom(hotkey(1), hotkey(2), hotkey(3), '__proto__', ''),
        role: fc.constantFrom('primary', 'auditor', 'constructor'),
        sssa: fc.oneof(fc.constant(good()), fc.anything()),
      }),
    );
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 8 }), (list) => {
        const result = computeTaskConsensus({ taskId: 't', members: list as never });
        expect(result.n + result.excluded.length).toBe(list.length);
        for (const e of result.excluded) expect(e.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
