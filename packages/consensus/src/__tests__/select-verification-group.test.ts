import { isSubnetError, sha256Hex } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { createDrawStream } from '../draw-stream.js';
import { selectVerificationGroup, verificationSeed } from '../index.js';
import type { SelectionInput } from '../index.js';

import { hotkey } from './helpers.js';

/**
 * Every expected value below was computed outside this code by the Python reference printed in the
 * README ("Verification groups"), run on the same candidates, reputations, block hash and task id.
 */
const BLOCK_HASH = '0xa71d65abd42a154d95eb28366be7cea95b5ea344eb85b995b48e37585b443be0'; // sha256('subnet-scoring block 4200000')
const TASK_ID = 'task-mcp-filebox-0001';
const UIDS = [7, 3, 9, 1, 10, 2, 8, 4, 6, 5];
const REPUTATIONS = [0.9, 0.75, 0.75, 0.6, 0.15, 0.5, 0.5, 0.45, 0.3, 0.2];
const candidates = UIDS.map((uid, i) => ({ uid, hotkey: hotkey(i + 1) }));
const reputations = Object.fromEntries(REPUTATIONS.map((r, i) => [hotkey(i + 1), r]));
const base: SelectionInput = { candidates, reputations, blockHash: BLOCK_HASH, taskId: TASK_ID };

function errorOf(fn: () => unknown): { code: string; path: unknown } {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path };
    throw error;
  }
  throw new Error('expected a throw');
}

describe('verification PRNG (README spec)', () => {
  it('seed = sha256(`blockHash|taskId`) (golden from Python)', () => {
    expect(verificationSeed(BLOCK_HASH, TASK_ID)).toBe('bdb426b50bafe6b5f3117f1d2bc9b5f71541ef7acf837f79f1e8d085b5c5ed0d');
  });

  it('stream = big-endian u64s of sha256(seed ‖ u32be(i)) (golden from Python)', () => {
    const stream = createDrawStream(verificationSeed(BLOCK_HASH, TASK_ID));
    expect(Array.from({ length: 5 }, () => stream.nextU64().toString())).toEqual([
      '17347455984432687591',
      '15660510741132700102',
      '445078047307040924',
      '13753198563416514888',
      '16363776988186954754',
    ]);
  });

  it('uniform indexes by rejection sampling: 20,000 draws in [0, 2^52 + 1), 5 rejections (golden from Python)', () => {
    // Range 2^52 + 1 rejects about 1 u64 in 4096; the Python reference counted 5 rejections in these
    // 20,000 draws, so a wrong rejection rule shifts the sequence and changes the digest.
    const stream = createDrawStream(verificationSeed(BLOCK_HASH, TASK_ID));
    const draws = Array.from({ length: 20_000 }, () => stream.uniformIndex(2 ** 52 + 1));
    expect(draws.at(-1)).toBe(3407952269560209);
    expect(sha256Hex(draws.join(','))).toBe('066bf8c0c70baab7031603f2ebd86a25abe003fcf92ef014133527c9d9482556');
  });
});

describe('selectVerificationGroup (SPEC B)', () => {
  it('golden draw: primaries [7, 3, 9], auditors [4, 1] (Python reference)', () => {
    const group = selectVerificationGroup(base);
    expect(group.primaries.map((m) => m.uid)).toEqual([7, 3, 9]);
    expect(group.auditors.map((m) => m.uid)).toEqual([4, 1]);
    expect(group.seed).toBe('bdb426b50bafe6b5f3117f1d2bc9b5f71541ef7acf837f79f1e8d085b5c5ed0d');
    expect(group.primaries.every((m) => m.role === 'primary')).toBe(true);
    expect(group.auditors.every((m) => m.role === 'auditor')).toBe(true);
  });

  it('golden draw with an excluded hotkey and more auditors than remain: all 5 drawn, shortfall 1 (Python reference)', () => {
    const group = selectVerificationGroup({ ...base, auditors: 6, filters: { excludeHotkeys: [hotkey(4)] } });
    expect(group.primaries.map((m) => m.uid)).toEqual([7, 3, 9]);
    expect(group.auditors.map((m) => m.uid)).toEqual([8, 6, 5, 2, 4]);
    expect(group.shortfall).toEqual({ primaries: 0, auditors: 1 });
    expect(group.excluded.map((m) => [m.uid, m.reason])).toEqual([
      [1, 'excluded_hotkey'],
      [10, 'reputation_below_minimum'],
    ]);
  });

  it('another task id at the same block draws other auditors: [8, 2] (Python reference)', () => {
    expect(selectVerificationGroup({ ...base, taskId: 'task-mcp-filebox-0002' }).auditors.map((m) => m.uid)).toEqual([8, 2]);
  });

  it('primaries = top k by reputation, ties broken by hotkey ascending', () => {
    const tied = Object.fromEntries(candidates.map((c) => [c.hotkey, 0.5]));
    const group = selectVerificationGroup({ ...base, reputations: tied, auditors: 0 });
    expect(group.primaries.map((m) => m.hotkey)).toEqual([hotkey(1), hotkey(2), hotkey(3)]);
  });

  it('the default filter excludes reputation below 0.2 and keeps exactly 0.2', () => {
    const group = selectVerificationGroup({ ...base, auditors: 10 });
    const selected = [...group.primaries, ...group.auditors].map((m) => m.uid);
    expect(selected).not.toContain(10);
    expect(selected).toContain(5);
    expect(group.eligible).toBe(9);
  });

  it('filters are configuration: minReputation 0.5 leaves 6 eligible', () => {
    const group = selectVerificationGroup({ ...base, auditors: 10, filters: { minReputation: 0.5 } });
    expect(group.eligible).toBe(6);
    expect(group.auditors).toHaveLength(3);
  });

  it('is a pure function of its input: candidate order does not matter', () => {
    const forward = selectVerificationGroup(base);
    const backward = selectVerificationGroup({ ...base, candidates: [...candidates].reverse() });
    expect(backward).toEqual(forward);
  });

  it('auditors are drawn without replacement and never overlap the primaries', () => {
    const group = selectVerificationGroup({ ...base, auditors: 6 });
    const uids = [...group.primaries, ...group.auditors].map((m) => m.uid);
    expect(new Set(uids).size).toBe(uids.length);
  });

  it('with too few eligible, all become primaries and the shortfall is reported (README decision)', () => {
    const group = selectVerificationGroup({ ...base, filters: { minReputation: 0.7 } });
    expect(group.primaries.map((m) => m.uid)).toEqual([7, 3, 9]);
    expect(group.auditors).toEqual([]);
    expect(group.shortfall).toEqual({ primaries: 0, auditors: 2 });
    const two = selectVerificationGroup({ ...base, filters: { minReputation: 0.8 } });
    expect(two.primaries.map((m) => m.uid)).toEqual([7]);
    expect(two.shortfall).toEqual({ primaries: 2, auditors: 2 });
  });

  it('is frozen', () => {
    const group = selectVerificationGroup(base);
    expect(Object.isFrozen(group)).toBe(true);
    expect(Object.isFrozen(group.auditors[0])).toBe(true);
  });

  it.each([
    ['blockHash', { blockHash: BLOCK_HASH.toUpperCase() }],
    ['blockHash', { blockHash: BLOCK_HASH.slice(2) }],
    ['taskId', { taskId: '' }],
    ['primaries', { primaries: -1 }],
    ['auditors', { auditors: 1.5 }],
    ['filters.minReputation', { filters: { minReputation: 2 } }],
    ['filters', { filters: { minRep: 0.3 } }],
    ['candidates[1].uid', { candidates: [candidates[0]!, { ...candidates[1]!, uid: 7 }] }],
    ['candidates[1].hotkey', { candidates: [candidates[0]!, { ...candidates[1]!, hotkey: hotkey(1) }] }],
    [`reputations["${hotkey(11)}"]`, { candidates: [...candidates, { uid: 11, hotkey: hotkey(11) }] }],
    [`reputations["${hotkey(1)}"]`, { reputations: { ...reputations, [hotkey(1)]: Number.NaN } }],
  ])('rejects bad input with CONSENSUS_INVALID_SELECTION naming %s', (path, patch) => {
    expect(errorOf(() => selectVerificationGroup({ ...base, ...patch } as SelectionInput))).toEqual({
      code: 'CONSENSUS_INVALID_SELECTION',
      path,
    });
  });
});

describe('selectVerificationGroup takes what docs/spec.md G.3 describes', () => {
  const g3 = {
    candidates: candidates.map((c, i) => ({ ...c, reputation: REPUTATIONS[i]! })),
    blockHash: BLOCK_HASH,
    taskId: TASK_ID,
    k: 3,
    m: 2,
    minReputation: 0.2,
  };

  it('candidates with reputation, block hash, task id, k, m, min_reputation give the golden draw, with roles', () => {
    const group = selectVerificationGroup(g3);
    expect(group.members.map((m) => [m.uid, m.role])).toEqual([
      [7, 'primary'],
      [3, 'primary'],
      [9, 'primary'],
      [4, 'auditor'],
      [1, 'auditor'],
    ]);
    expect(group).toEqual(selectVerificationGroup(base));
  });

  it('k, m and minReputation are the draw parameters (k = 1, m = 4, min 0.5)', () => {
    const group = selectVerificationGroup({ ...g3, k: 1, m: 4, minReputation: 0.5 });
    expect(group.primaries.map((m) => m.uid)).toEqual([7]);
    expect(group.auditors).toHaveLength(4);
    expect(group.eligible).toBe(6);
  });

  it.each([
    ['primaries', { primaries: 3 }],
    ['filters.minReputation', { filters: { minReputation: 0.3 } }],
    ['candidates[0].reputation', { reputations }],
    ['', { extra: 1 }],
    ['candidates[0].reputation', { candidates: [{ ...g3.candidates[0]!, reputation: 1.5 }] }],
  ])('a value given twice, an unknown key or a bad reputation is CONSENSUS_INVALID_SELECTION naming %s', (path, patch) => {
    expect(errorOf(() => selectVerificationGroup({ ...g3, ...patch }))).toEqual({ code: 'CONSENSUS_INVALID_SELECTION', path });
  });

  it('a reputations table is read by own keys only: "__proto__" and "constructor" entries are plain data', () => {
    const table = JSON.parse(`{"__proto__": 0.9, "constructor": 0.9, ${REPUTATIONS.map((r, i) => `"${hotkey(i + 1)}": ${r}`).join(', ')}}`) as Record<
      string,
      number
    >;
    expect(selectVerificationGroup({ ...base, reputations: table })).toEqual(selectVerificationGroup(base));
    const missing = { ...reputations };
    Reflect.deleteProperty(missing, hotkey(1));
    expect(errorOf(() => selectVerificationGroup({ ...base, reputations: missing })).path).toBe(`reputations["${hotkey(1)}"]`);
  });
});
