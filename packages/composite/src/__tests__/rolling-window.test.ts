import { encodeSs58 } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  addTaskScore,
  addTaskScores,
  emptyWindowState,
  parseWindowState,
  resetUid,
  WINDOW_CAPACITY,
  windowScores,
  windowStateSchema,
  type TaskScoreEntry,
} from '../index.js';
import { expectCodedError } from './helpers.js';

const hotkeyOf = (seed: number) => encodeSs58(Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) & 0xff));
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';

const entry = (uid: number, hotkey: string, arrival: number, score: number, taskId = `t-${arrival}`): TaskScoreEntry => ({ uid, hotkey, taskId, arrival, score });

describe('SPEC A rolling window: last 100 task scores per miner, equal weight, mean of those present', () => {
  it('starts empty', () => {
    expect(windowScores(emptyWindowState())).toEqual([]);
    expect(WINDOW_CAPACITY).toBe(100);
  });

  it('the window score is the mean of the scores present: (0.1 + 0.2 + 0.3) / 3, summed left to right in arrival order', () => {
    const state = addTaskScores(emptyWindowState(), [entry(3, ALICE, 1, 0.1), entry(3, ALICE, 2, 0.2), entry(3, ALICE, 3, 0.3)]);
    expect(windowScores(state)).toEqual([{ uid: 3, hotkey: ALICE, score: (0.1 + 0.2 + 0.3) / 3, count: 3 }]);
    expect(windowScores(state)[0]!.score).toBe(0.20000000000000004);
  });

  it('window eviction at 101: the 101st score pushes out the first', () => {
    let state = emptyWindowState();
    state = addTaskScore(state, entry(7, ALICE, 0, 1));
    for (let i = 1; i < 100; i++) state = addTaskScore(state, entry(7, ALICE, i, 0.5));
    expect(windowScores(state)[0]).toEqual({ uid: 7, hotkey: ALICE, score: (1 + 99 * 0.5) / 100, count: 100 });
    state = addTaskScore(state, entry(7, ALICE, 100, 0.5));
    expect(windowScores(state)[0]).toEqual({ uid: 7, hotkey: ALICE, score: 0.5, count: 100 });
    expect(state.miners['7']!.task_ids).not.toContain('t-0');
    expect(state.miners['7']!.task_ids).toContain('t-100');
    expect(state.miners['7']!.head).toBe(1);
  });

  it('after eviction the sum runs from the oldest retained score (ring order), not array order', () => {
    // 0.5, then 99 alternating 0.7 / 0.3, then 0.1: the ring stores 0.1 at index 0 after the eviction.
    let state = emptyWindowState();
    const scores = [0.5, ...Array.from({ length: 99 }, (_, i) => (i % 2 === 0 ? 0.7 : 0.3)), 0.1];
    scores.forEach((score, i) => {
      state = addTaskScore(state, entry(1, BOB, i, score));
    });
    const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
    const arrivalOrder = scores.slice(1);
    const arrayOrder = [0.1, ...scores.slice(1, 100)];
    expect(sumOf(arrayOrder) / 100).toBe(0.498); // what summing the stored array in index order would give
    expect(sumOf(arrivalOrder) / 100).toBe(0.49800000000000005);
    expect(windowScores(state)[0]!.score).toBe(0.49800000000000005);
  });

  it('hotkey change: a new hotkey on a uid clears its window', () => {
    let state = addTaskScores(emptyWindowState(), [entry(5, ALICE, 1, 0.9), entry(5, ALICE, 2, 0.8)]);
    state = addTaskScore(state, entry(5, BOB, 3, 0.2));
    expect(windowScores(state)).toEqual([{ uid: 5, hotkey: BOB, score: 0.2, count: 1 }]);
  });

  it('hotkey change: the new miner starts fresh, so its first arrival may be earlier than the old hotkey latest', () => {
    let state = addTaskScore(emptyWindowState(), entry(5, ALICE, 50, 0.9));
    state = addTaskScore(state, entry(5, BOB, 10, 0.4));
    expect(windowScores(state)).toEqual([{ uid: 5, hotkey: BOB, score: 0.4, count: 1 }]);
  });

  it('resetUid removes a uid window; resetting an absent uid returns the state unchanged', () => {
    const state = addTaskScores(emptyWindowState(), [entry(1, ALICE, 1, 0.5), entry(2, BOB, 1, 0.25)]);
    expect(windowScores(resetUid(state, 1))).toEqual([{ uid: 2, hotkey: BOB, score: 0.25, count: 1 }]);
    expect(resetUid(state, 9)).toBe(state);
    expectCodedError(() => resetUid(state, 70000), 'COMPOSITE_INVALID_WINDOW_ENTRY', 'uid', '70000');
  });

  it('lists miners sorted by uid, whatever order they arrived in', () => {
    const state = addTaskScores(emptyWindowState(), [entry(300, hotkeyOf(1), 1, 0.1), entry(2, hotkeyOf(2), 2, 0.2), entry(45, hotkeyOf(3), 3, 0.3)]);
    expect(windowScores(state).map((w) => w.uid)).toEqual([2, 45, 300]);
  });

  it('is pure: adding returns a new state and leaves the old one as it was', () => {
    const before = addTaskScore(emptyWindowState(), entry(1, ALICE, 1, 0.5));
    const json = JSON.stringify(before);
    const after = addTaskScore(before, entry(1, ALICE, 2, 1));
    expect(JSON.stringify(before)).toBe(json);
    expect(windowScores(before)[0]!.count).toBe(1);
    expect(windowScores(after)[0]!.count).toBe(2);
    expect(Object.isFrozen(after.miners['1']!.scores)).toBe(true);
  });
});

describe('rolling window decisions: duplicates and arrival order (explicit, never a clock)', () => {
  const base = addTaskScores(emptyWindowState(), [entry(1, ALICE, 10, 0.5, 'b')]);

  it('rejects a task id already in the miner window (COMPOSITE_WINDOW_DUPLICATE_TASK), nothing changes', () => {
    expectCodedError(() => addTaskScore(base, entry(1, ALICE, 11, 0.9, 'b')), 'COMPOSITE_WINDOW_DUPLICATE_TASK', 'entry.taskId', '"b"');
    expect(windowScores(base)).toEqual([{ uid: 1, hotkey: ALICE, score: 0.5, count: 1 }]);
  });

  it('the same task id for another miner is fine', () => {
    expect(windowScores(addTaskScore(base, entry(2, BOB, 11, 0.9, 'b')))).toHaveLength(2);
  });

  it('rejects an arrival earlier than the miner latest (COMPOSITE_WINDOW_OUT_OF_ORDER)', () => {
    expectCodedError(() => addTaskScore(base, entry(1, ALICE, 9, 0.9, 'z')), 'COMPOSITE_WINDOW_OUT_OF_ORDER', 'entry.arrival', '9');
  });

  it('ties in arrival are ordered by task id: a later task id is accepted, an earlier one is rejected', () => {
    expect(windowScores(addTaskScore(base, entry(1, ALICE, 10, 1, 'c')))[0]!.count).toBe(2);
    expectCodedError(() => addTaskScore(base, entry(1, ALICE, 10, 1, 'a')), 'COMPOSITE_WINDOW_OUT_OF_ORDER', 'entry.arrival', '10');
  });

  it('a failing batch changes nothing: entries before the bad one are not kept', () => {
    expectCodedError(
      () => addTaskScores(base, [entry(1, ALICE, 11, 0.9, 'c'), entry(2, BOB, 1, 0.1), entry(1, ALICE, 12, 0.9, 'c')]),
      'COMPOSITE_WINDOW_DUPLICATE_TASK',
      'entries[2].taskId',
      '"c"',
    );
    expect(windowScores(base)).toEqual([{ uid: 1, hotkey: ALICE, score: 0.5, count: 1 }]);
  });

  it('a task id evicted from the window may come again (only the retained window is checked)', () => {
    let state = emptyWindowState();
    for (let i = 0; i <= 100; i++) state = addTaskScore(state, entry(1, ALICE, i, 0.5));
    state = addTaskScore(state, entry(1, ALICE, 101, 0.5, 't-0'));
    expect(windowScores(state)[0]!.count).toBe(100);
  });

  it.each([
    ['a score above 1', entry(1, ALICE, 1, 1.5), 'entry.score', '1.5'],
    ['a NaN score', entry(1, ALICE, 1, Number.NaN), 'entry.score', 'NaN'],
    ['a uid above 65535', entry(70000, ALICE, 1, 0.5), 'entry.uid', '70000'],
    ['a negative arrival', entry(1, ALICE, -1, 0.5, 'x'), 'entry.arrival', '-1'],
    ['a fractional arrival', entry(1, ALICE, 1.5, 0.5, 'x'), 'entry.arrival', '1.5'],
    ['an empty task id', entry(1, ALICE, 1, 0.5, ''), 'entry.taskId', '""'],
    ['a hotkey with a bad checksum', entry(1, `${ALICE.slice(0, -1)}Z`, 1, 0.5), 'entry.hotkey', `"${ALICE.slice(0, -1)}Z"`],
  ])('rejects %s (COMPOSITE_INVALID_WINDOW_ENTRY)', (_name, bad, path, value) => {
    expectCodedError(() => addTaskScore(emptyWindowState(), bad), 'COMPOSITE_INVALID_WINDOW_ENTRY', path, value);
  });
});

describe('rolling window state: plain JSON, validated when loaded', () => {
  const state = addTaskScores(emptyWindowState(), [entry(4, ALICE, 1, 0.25), entry(4, ALICE, 2, 0.75), entry(9, BOB, 1, 1)]);

  it('round-trips through JSON and the loaded state scores the same', () => {
    const loaded: unknown = JSON.parse(JSON.stringify(state));
    expect(parseWindowState(loaded)).toEqual(state);
    expect(windowScores(loaded)).toEqual(windowScores(state));
    expect(windowScores(addTaskScore(loaded, entry(4, ALICE, 3, 0.5)))[0]!.count).toBe(3);
    expect(JSON.parse(JSON.stringify(state))).toEqual({
      version: 1,
      miners: {
        '4': { uid: 4, hotkey: ALICE, head: 0, scores: [0.25, 0.75], task_ids: ['t-1', 't-2'], arrivals: [1, 2] },
        '9': { uid: 9, hotkey: BOB, head: 0, scores: [1], task_ids: ['t-1'], arrivals: [1] },
      },
    });
  });

  const good = () => JSON.parse(JSON.stringify(state)) as { miners: Record<string, Record<string, unknown>> };
  it.each([
    ['a key that is not the uid', (s: ReturnType<typeof good>) => ((s.miners['5'] = s.miners['4']!), delete s.miners['4']), 'state.miners["5"].uid', '4'],
    ['head not 0 before the ring is full', (s: ReturnType<typeof good>) => (s.miners['4']!.head = 1), 'state.miners["4"].head', '1'],
    ['arrays of different lengths', (s: ReturnType<typeof good>) => (s.miners['4']!.arrivals = [1]), 'state.miners["4"].arrivals', '[1]'],
    ['a duplicate task id', (s: ReturnType<typeof good>) => (s.miners['4']!.task_ids = ['t-1', 't-1']), 'state.miners["4"].task_ids[1]', '"t-1"'],
    ['arrivals out of order', (s: ReturnType<typeof good>) => (s.miners['4']!.arrivals = [2, 1]), 'state.miners["4"].arrivals[1]', '1'],
    ['a score above 1', (s: ReturnType<typeof good>) => (s.miners['9']!.scores = [1.5]), 'state.miners["9"].scores[0]', '1.5'],
    ['a bad hotkey', (s: ReturnType<typeof good>) => (s.miners['9']!.hotkey = 'nope'), 'state.miners["9"].hotkey', '"nope"'],
    ['an empty window', (s: ReturnType<typeof good>) => Object.assign(s.miners['9']!, { scores: [], task_ids: [], arrivals: [] }), 'state.miners["9"].scores', '[]'],
  ])('rejects a persisted state with %s (COMPOSITE_INVALID_WINDOW_STATE)', (_name, corrupt, path, value) => {
    const s = good();
    corrupt(s);
    expectCodedError(() => parseWindowState(s), 'COMPOSITE_INVALID_WINDOW_STATE', path, value);
    expect(windowStateSchema.safeParse(s).success).toBe(false);
  });

  it('rejects a state of another version', () => {
    expectCodedError(() => windowScores({ version: 2, miners: {} }), 'COMPOSITE_INVALID_WINDOW_STATE', 'state.version', '2');
  });
});

describe('rolling window properties (fast-check)', () => {
  const streamArb = fc.array(fc.record({ uid: fc.integer({ min: 0, max: 3 }), score: fc.double({ min: 0, max: 1, noNaN: true }), swap: fc.integer({ min: 0, max: 40 }) }), {
    maxLength: 260,
  });

  it('agrees with a reference that keeps every score and averages the last 100 of the current hotkey', () => {
    fc.assert(
      fc.property(streamArb, (stream) => {
        const hotkeys = [ALICE, BOB];
        const entries = stream.map((s, i) => entry(s.uid, hotkeys[s.swap === 0 ? 1 : 0]!, i, s.score));
        const state = addTaskScores(emptyWindowState(), entries);
        const reference = new Map<number, { hotkey: string; scores: number[] }>();
        for (const e of entries) {
          const current = reference.get(e.uid);
          if (current?.hotkey !== e.hotkey) reference.set(e.uid, { hotkey: e.hotkey, scores: [e.score] });
          else current.scores.push(e.score);
        }
        const expected = [...reference.entries()]
          .sort(([a], [b]) => a - b)
          .map(([uid, { hotkey, scores }]) => {
            const last = scores.slice(-100);
            let sum = 0;
            for (const score of last) sum += score;
            return { uid, hotkey, score: sum / last.length, count: last.length };
          });
        expect(windowScores(state)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('one batch equals the same entries added one at a time', () => {
    fc.assert(
      fc.property(streamArb, (stream) => {
        const entries = stream.map((s, i) => entry(s.uid, s.swap === 0 ? BOB : ALICE, i, s.score));
        let one = emptyWindowState();
        for (const e of entries) one = addTaskScore(one, e);
        expect(addTaskScores(emptyWindowState(), entries)).toEqual(one);
      }),
      { numRuns: 60 },
    );
  });
});
