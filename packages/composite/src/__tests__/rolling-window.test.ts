import { encodeSs58 } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  addTaskScore,
  addTaskScores,
  createRollingWindow,
  emptyWindowState,
  parseWindowState,
  resetUid,
  retainWindows,
  WINDOW_CAPACITY,
  windowScores,
  windowStateSchema,
  type TaskScoreEntry,
} from '../index.js';
import { expectCodedError } from './helpers.js';

const hotkeyOf = (seed: number) => encodeSs58(Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) & 0xff));
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';

const entry = (uid: number, hotkey: string, arrival: number, score: number, taskId = `t-${arrival}`, recordId?: string): TaskScoreEntry =>
  recordId === undefined ? { uid, hotkey, taskId, arrival, score } : { uid, hotkey, taskId, arrival, recordId, score };

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
    expect(state.windows[0]!.task_ids).not.toContain('t-0');
    expect(state.windows[0]!.task_ids.at(-1)).toBe('t-100');
  });

  it('after eviction the sum runs from the oldest retained score (arrival order), in the pure state and in the in-place window', () => {
    // 0.5, then 99 alternating 0.7 / 0.3, then 0.1: a ring stores 0.1 in the first slot after the eviction.
    const scores = [0.5, ...Array.from({ length: 99 }, (_, i) => (i % 2 === 0 ? 0.7 : 0.3)), 0.1];
    let state = emptyWindowState();
    const window = createRollingWindow();
    scores.forEach((score, i) => {
      state = addTaskScore(state, entry(1, BOB, i, score));
      window.add(entry(1, BOB, i, score));
    });
    const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
    const arrivalOrder = scores.slice(1);
    const slotOrder = [0.1, ...scores.slice(1, 100)];
    expect(sumOf(slotOrder) / 100).toBe(0.498); // what summing the ring in slot order would give
    expect(sumOf(arrivalOrder) / 100).toBe(0.49800000000000005);
    expect(windowScores(state)[0]!.score).toBe(0.49800000000000005);
    expect(window.scores()[0]!.score).toBe(0.49800000000000005);
  });

  it('lists windows sorted by uid, whatever order they arrived in', () => {
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
    expect(Object.isFrozen(after.windows[0]!.scores)).toBe(true);
  });

  it('resetUid removes every window of a uid; resetting an absent uid returns the state unchanged', () => {
    const state = addTaskScores(emptyWindowState(), [entry(1, ALICE, 1, 0.5), entry(1, BOB, 2, 0.75), entry(2, BOB, 1, 0.25)]);
    expect(windowScores(resetUid(state, 1))).toEqual([{ uid: 2, hotkey: BOB, score: 0.25, count: 1 }]);
    expect(resetUid(state, 9)).toBe(state);
    expectCodedError(() => resetUid(state, 70000), 'COMPOSITE_INVALID_WINDOW_ENTRY', 'uid', '70000');
  });
});

describe('SPEC A v1.1 rolling window rules', () => {
  it('SPEC A v1.1: a re-run with a repeated task id is a new entry, never an error', () => {
    const state = addTaskScores(emptyWindowState(), [entry(1, ALICE, 10, 0.2, 'task-a', 'r-10'), entry(1, ALICE, 11, 0.6, 'task-a', 'r-11')]);
    expect(windowScores(state)).toEqual([{ uid: 1, hotkey: ALICE, score: (0.2 + 0.6) / 2, count: 2 }]);
    const again = addTaskScore(state, entry(1, ALICE, 12, 1, 'task-a', 'r-12'));
    expect(again.windows[0]!.task_ids).toEqual(['task-a', 'task-a', 'task-a']);
    const window = createRollingWindow(state);
    window.add(entry(1, ALICE, 12, 1, 'task-a', 'r-12'));
    expect(window.state()).toEqual(again);
  });

  it('SPEC A v1.1: out-of-order feeds are placed by arrival key (seq, then record id)', () => {
    const inOrder = addTaskScores(emptyWindowState(), [
      entry(1, ALICE, 1, 0.1, 't', 'a'),
      entry(1, ALICE, 2, 0.2, 't', 'a'),
      entry(1, ALICE, 2, 0.3, 't', 'b'),
    ]);
    const shuffled = addTaskScores(emptyWindowState(), [
      entry(1, ALICE, 2, 0.3, 't', 'b'),
      entry(1, ALICE, 1, 0.1, 't', 'a'),
      entry(1, ALICE, 2, 0.2, 't', 'a'),
    ]);
    expect(shuffled).toEqual(inOrder);
    expect(inOrder.windows[0]!.scores).toEqual([0.1, 0.2, 0.3]);
    expect(inOrder.windows[0]!.record_ids).toEqual(['a', 'a', 'b']);
    // One at a time, in two calls, also lands in place.
    const late = addTaskScore(addTaskScore(emptyWindowState(), entry(1, ALICE, 5, 0.5)), entry(1, ALICE, 3, 0.9));
    expect(late.windows[0]!.arrivals).toEqual([3, 5]);
  });

  it('SPEC A v1.1: an entry fed late into a full window that is older than its 100 is not among the last 100', () => {
    const full = addTaskScores(
      emptyWindowState(),
      Array.from({ length: 100 }, (_, i) => entry(1, ALICE, 10 + i, 0.5)),
    );
    expect(addTaskScore(full, entry(1, ALICE, 3, 1))).toBe(full);
    const placed = addTaskScore(full, entry(1, ALICE, 50, 1, 't-50b', 'zz'));
    expect(placed.windows[0]!.arrivals[0]).toBe(11); // the oldest (10) left
    expect(placed.windows[0]!.arrivals.slice(39, 42)).toEqual([50, 50, 51]);
    expect(placed.windows[0]!.record_ids.slice(39, 42)).toEqual(['t-50', 'zz', 't-51']);
  });

  it('SPEC A v1.1: windows whose (uid, hotkey) pair is absent from the metagraph are dropped at the close', () => {
    const state = addTaskScores(emptyWindowState(), [entry(1, ALICE, 1, 0.5), entry(2, BOB, 2, 0.25), entry(5, hotkeyOf(9), 3, 1)]);
    const retained = retainWindows(state, [
      { uid: 1, hotkey: ALICE },
      { uid: 2, hotkey: hotkeyOf(4) }, // another hotkey holds uid 2 now
      { uid: 7, hotkey: hotkeyOf(9) }, // hotkeyOf(9) moved from uid 5 to 7
    ]);
    expect(windowScores(retained)).toEqual([{ uid: 1, hotkey: ALICE, score: 0.5, count: 1 }]);
    expect(retainWindows(retained, [{ uid: 1, hotkey: ALICE }])).toBe(retained);
    const window = createRollingWindow(state);
    window.retain([{ uid: 1, hotkey: ALICE }]);
    expect(window.state()).toEqual(retained);
  });

  it('SPEC A v1.1: a hotkey that appears on a new uid starts a new window there and never throws', () => {
    const state = addTaskScores(emptyWindowState(), [entry(3, ALICE, 1, 0.2), entry(3, ALICE, 2, 0.4)]);
    const moved = addTaskScore(state, entry(8, ALICE, 3, 1));
    expect(windowScores(moved)).toEqual([
      { uid: 3, hotkey: ALICE, score: (0.2 + 0.4) / 2, count: 2 },
      { uid: 8, hotkey: ALICE, score: 1, count: 1 },
    ]);
    expect(windowScores(retainWindows(moved, [{ uid: 8, hotkey: ALICE }]))).toEqual([{ uid: 8, hotkey: ALICE, score: 1, count: 1 }]);
  });

  it('SPEC A: a new hotkey on a uid starts its own window; the old pair is gone after the close', () => {
    let state = addTaskScores(emptyWindowState(), [entry(5, ALICE, 50, 0.9), entry(5, ALICE, 51, 0.8)]);
    state = addTaskScore(state, entry(5, BOB, 10, 0.2)); // earlier arrival than ALICE's: still fine, another window
    expect(windowScores(state).map((w) => [w.uid, w.hotkey, w.count])).toEqual(
      [
        [5, ALICE, 2],
        [5, BOB, 1],
      ].sort((a, b) => ((a[1] as string) < (b[1] as string) ? -1 : 1)),
    );
    expect(windowScores(retainWindows(state, [{ uid: 5, hotkey: BOB }]))).toEqual([{ uid: 5, hotkey: BOB, score: 0.2, count: 1 }]);
  });

  it('decision: the same arrival key again with the same task id and score is the same entry (no change)', () => {
    const state = addTaskScore(emptyWindowState(), entry(1, ALICE, 4, 0.5, 'x', 'r'));
    expect(addTaskScore(state, entry(1, ALICE, 4, 0.5, 'x', 'r'))).toBe(state);
    const window = createRollingWindow(state);
    window.add(entry(1, ALICE, 4, 0.5, 'x', 'r'));
    expect(window.state()).toEqual(state);
  });

  it('decision: another entry with an arrival key already held is a broken sequence (COMPOSITE_WINDOW_CONFLICTING_ENTRY), nothing changes', () => {
    const state = addTaskScores(emptyWindowState(), [entry(1, ALICE, 4, 0.5, 'x', 'r'), entry(1, ALICE, 9, 0.5)]);
    expectCodedError(() => addTaskScore(state, entry(1, ALICE, 4, 0.75, 'x', 'r')), 'COMPOSITE_WINDOW_CONFLICTING_ENTRY', 'entry.recordId', '"r"');
    expectCodedError(
      () => addTaskScores(state, [entry(2, BOB, 1, 0.1), entry(1, ALICE, 4, 0.5, 'y', 'r')]),
      'COMPOSITE_WINDOW_CONFLICTING_ENTRY',
      'entries[1].recordId',
      '"r"',
    );
    const window = createRollingWindow(state);
    expectCodedError(
      () => {
        window.addMany([entry(1, ALICE, 10, 0.1), entry(2, BOB, 1, 0.1), entry(1, ALICE, 4, 0.5, 'y', 'r')]);
      },
      'COMPOSITE_WINDOW_CONFLICTING_ENTRY',
      'entries[2].recordId',
      '"r"',
    );
    expect(window.state()).toEqual(state);
  });

  it('a batch reports its first invalid entry, as if every entry were checked before any is placed (long batches are read in chunks)', () => {
    // 5,000 valid entries of three miners, then faults placed before, inside and after the read chunks.
    const valid = Array.from({ length: 5000 }, (_, i) => entry(i % 3, hotkeyOf(i % 3), i + 10, (i % 10) / 10));
    const badHotkey = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ'; // checksum broken
    const conflict = entry(0, hotkeyOf(0), 5008, 0.9, 'other-task', 't-5008'); // the key of valid[4998] (uid 0's newest), another task
    const cases: [TaskScoreEntry[], string, string][] = [
      // A new miner's bad hotkey (checked when its window would be made) before a bad score later in the same chunk.
      [
        [...valid.slice(0, 10), entry(9, badHotkey, 1, 0.5), ...valid.slice(10, 20), { ...valid[20]!, score: 2 }],
        'COMPOSITE_INVALID_WINDOW_ENTRY',
        'entries[10].hotkey',
      ],
      // A conflict early and a bad hotkey in a later chunk: the bad entry is reported, not the conflict.
      [
        [...valid, conflict, ...valid.slice(0, 3000).map((e) => ({ ...e, arrival: e.arrival + 10_000 })), entry(9, badHotkey, 99_999, 0.5)],
        'COMPOSITE_INVALID_WINDOW_ENTRY',
        'entries[8001].hotkey',
      ],
      // A conflict and nothing invalid after it: the conflict.
      [[...valid, conflict], 'COMPOSITE_WINDOW_CONFLICTING_ENTRY', 'entries[5000].recordId'],
      // A bad score in a later chunk, after a bad hotkey in an earlier one.
      [[entry(9, badHotkey, 1, 0.5), ...valid, { ...valid[0]!, score: -1 }], 'COMPOSITE_INVALID_WINDOW_ENTRY', 'entries[0].hotkey'],
    ];
    for (const [entries, code, path] of cases) {
      expectCodedError(() => addTaskScores(emptyWindowState(), entries), code, path);
      const window = createRollingWindow();
      window.add(entry(2, hotkeyOf(2), 1, 0.5));
      const before = window.state();
      expectCodedError(
        () => {
          window.addMany(entries);
        },
        code,
        path,
      );
      expect(window.state()).toEqual(before);
    }
  });

  it('decision: recordId defaults to the task id, so v1 callers keep (arrival, task id) as the key', () => {
    const state = addTaskScores(emptyWindowState(), [entry(1, ALICE, 2, 0.1, 'b'), entry(1, ALICE, 2, 0.2, 'a')]);
    expect(state.windows[0]!.task_ids).toEqual(['a', 'b']);
    expect(state.windows[0]!.record_ids).toEqual(['a', 'b']);
  });

  it.each([
    ['a score above 1', entry(1, ALICE, 1, 1.5), 'entry.score', '1.5'],
    ['a NaN score', entry(1, ALICE, 1, Number.NaN), 'entry.score', 'NaN'],
    ['a uid above 65535', entry(70000, ALICE, 1, 0.5), 'entry.uid', '70000'],
    ['a string uid', { ...entry(1, ALICE, 1, 0.5), uid: '1' as never }, 'entry.uid', '"1"'],
    ['a negative arrival', entry(1, ALICE, -1, 0.5, 'x'), 'entry.arrival', '-1'],
    ['a fractional arrival', entry(1, ALICE, 1.5, 0.5, 'x'), 'entry.arrival', '1.5'],
    ['an empty task id', entry(1, ALICE, 1, 0.5, ''), 'entry.taskId', '""'],
    ['a task id with a lone surrogate', entry(1, ALICE, 1, 0.5, 'a\ud800'), 'entry.taskId', '"a\\ud800"'],
    ['an empty record id', entry(1, ALICE, 1, 0.5, 'x', ''), 'entry.recordId', '""'],
    ['a hotkey with a bad checksum', entry(1, `${ALICE.slice(0, -1)}Z`, 1, 0.5), 'entry.hotkey', `"${ALICE.slice(0, -1)}Z"`],
    ['a null entry', null as never, 'entry', 'null'],
  ])('rejects %s (COMPOSITE_INVALID_WINDOW_ENTRY)', (_name, bad, path, value) => {
    expectCodedError(() => addTaskScore(emptyWindowState(), bad), 'COMPOSITE_INVALID_WINDOW_ENTRY', path, value);
    expectCodedError(
      () => {
        createRollingWindow().add(bad);
      },
      'COMPOSITE_INVALID_WINDOW_ENTRY',
      path,
      value,
    );
  });

  it('rejects entries that are not an array, and metagraph pairs that are not pairs', () => {
    expectCodedError(() => addTaskScores(emptyWindowState(), 'x' as never), 'COMPOSITE_INVALID_WINDOW_ENTRY', 'entries', '"x"');
    expectCodedError(() => retainWindows(emptyWindowState(), null as never), 'COMPOSITE_INVALID_ARGUMENT', 'pairs', 'null');
    // No argument is an empty window; null is not "no state": a saved state that came back null is refused.
    expect(createRollingWindow().state()).toEqual(emptyWindowState());
    expectCodedError(() => createRollingWindow(null), 'COMPOSITE_INVALID_WINDOW_STATE', 'state', 'null');
    expectCodedError(() => retainWindows(emptyWindowState(), [{ uid: -1, hotkey: ALICE }]), 'COMPOSITE_INVALID_ARGUMENT', 'pairs[0].uid', '-1');
    expectCodedError(() => retainWindows(emptyWindowState(), [{ uid: 1, hotkey: 'nope' }]), 'COMPOSITE_INVALID_ARGUMENT', 'pairs[0].hotkey', '"nope"');
    expectCodedError(
      () =>
        retainWindows(emptyWindowState(), [
          { uid: 1, hotkey: ALICE },
          { uid: 1, hotkey: BOB },
        ]),
      'COMPOSITE_INVALID_ARGUMENT',
      'pairs[1].hotkey',
      `"${BOB}"`,
    );
  });
});

describe('rolling window state: plain JSON, validated when loaded', () => {
  const state = addTaskScores(emptyWindowState(), [entry(4, ALICE, 1, 0.25), entry(4, ALICE, 2, 0.75), entry(9, BOB, 1, 1, 't-1', 'r-1')]);

  it('round-trips through JSON and the loaded state scores the same', () => {
    const loaded: unknown = JSON.parse(JSON.stringify(state));
    expect(parseWindowState(loaded)).toEqual(state);
    expect(windowScores(loaded)).toEqual(windowScores(state));
    expect(windowScores(addTaskScore(loaded, entry(4, ALICE, 3, 0.5)))[0]!.count).toBe(3);
    expect(JSON.parse(JSON.stringify(state))).toEqual({
      version: 2,
      windows: [
        { uid: 4, hotkey: ALICE, scores: [0.25, 0.75], task_ids: ['t-1', 't-2'], record_ids: ['t-1', 't-2'], arrivals: [1, 2] },
        { uid: 9, hotkey: BOB, scores: [1], task_ids: ['t-1'], record_ids: ['r-1'], arrivals: [1] },
      ],
    });
  });

  it('reads a profile v1 state (keyed by uid, ring with head) and converts it', () => {
    const ring = { uid: 7, hotkey: ALICE, head: 1, scores: [] as number[], task_ids: [] as string[], arrivals: [] as number[] };
    for (let i = 0; i < 100; i++) {
      const arrival = i === 0 ? 100 : i; // slot 0 holds the newest (arrival 100), the oldest (1) is at head 1
      ring.scores.push(i === 0 ? 1 : 0.5);
      ring.task_ids.push(`t-${arrival}`);
      ring.arrivals.push(arrival);
    }
    const converted = parseWindowState({ version: 1, miners: { '7': ring } });
    expect(converted.windows[0]!.arrivals).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(converted.windows[0]!.record_ids).toEqual(converted.windows[0]!.task_ids);
    expect(windowScores(converted)[0]!.score).toBe((99 * 0.5 + 1) / 100);
    expectCodedError(() => parseWindowState({ version: 1, miners: { '8': ring } }), 'COMPOSITE_INVALID_WINDOW_STATE', 'state.miners["8"].uid', '7');
  });

  const good = () => JSON.parse(JSON.stringify(state)) as { windows: Record<string, unknown>[] };
  it.each([
    ['windows out of order', (s: ReturnType<typeof good>) => s.windows.reverse(), 'state.windows[1].hotkey', `"${ALICE}"`],
    ['lists of different lengths', (s: ReturnType<typeof good>) => (s.windows[0]!.arrivals = [1]), 'state.windows[0].arrivals', '[1]'],
    ['arrivals out of order', (s: ReturnType<typeof good>) => (s.windows[0]!.arrivals = [2, 1]), 'state.windows[0].arrivals[1]', '1'],
    ['a score above 1', (s: ReturnType<typeof good>) => (s.windows[1]!.scores = [1.5]), 'state.windows[1].scores[0]', '1.5'],
    ['a bad hotkey', (s: ReturnType<typeof good>) => (s.windows[1]!.hotkey = 'nope'), 'state.windows[1].hotkey', '"nope"'],
    [
      'an empty window',
      (s: ReturnType<typeof good>) => Object.assign(s.windows[1]!, { scores: [], task_ids: [], record_ids: [], arrivals: [] }),
      'state.windows[1].scores',
      '[]',
    ],
    ['an unknown field', (s: ReturnType<typeof good>) => (s.windows[1]!.__proto__x = 1), 'state.windows[1]', undefined],
  ])('rejects a persisted state with %s (COMPOSITE_INVALID_WINDOW_STATE)', (_name, corrupt, path, value) => {
    const s = good();
    corrupt(s);
    expectCodedError(() => parseWindowState(s), 'COMPOSITE_INVALID_WINDOW_STATE', path, value);
    expect(windowStateSchema.safeParse(s).success).toBe(false);
  });

  it('rejects a state of another version, and one nested deeper than 64 levels (SPEC 0 hostile shapes)', () => {
    expectCodedError(() => windowScores({ version: 3, windows: [] }), 'COMPOSITE_INVALID_WINDOW_STATE', 'state.version', '3');
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    try {
      parseWindowState({ version: 2, windows: [], extra: deep });
      expect.unreachable();
    } catch (error) {
      expect((error as { code: string; context: { shapeCode: string } }).code).toBe('COMPOSITE_INVALID_WINDOW_STATE');
      expect((error as { context: { shapeCode: string } }).context.shapeCode).toBe('CORE_INPUT_TOO_DEEP');
    }
  });
});

describe('rolling window properties (fast-check)', () => {
  const hotkeys = [ALICE, BOB, hotkeyOf(3)];
  const entryArb = fc.record({
    uid: fc.integer({ min: 0, max: 3 }),
    hotkey: fc.integer({ min: 0, max: 2 }),
    arrival: fc.integer({ min: 0, max: 400 }),
    record: fc.constantFrom('a', 'b', 'c'),
    task: fc.constantFrom('t1', 't2'),
    score: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  // Unique arrival keys per pair (the caller's sequence is sound): dedupe by (uid, hotkey, arrival, record).
  const streamArb = fc.uniqueArray(entryArb, { maxLength: 400, selector: (e) => `${e.uid}|${e.hotkey}|${e.arrival}|${e.record}` });
  const toEntries = (stream: readonly { uid: number; hotkey: number; arrival: number; record: string; task: string; score: number }[]) =>
    stream.map((s) => entry(s.uid, hotkeys[s.hotkey]!, s.arrival, s.score, s.task, s.record));

  /** The rule written out plainly: per pair, every entry sorted by (arrival, record id), the last 100 kept. */
  function reference(entries: readonly TaskScoreEntry[]) {
    const pairs = new Map<string, TaskScoreEntry[]>();
    for (const e of entries) {
      const key = `${String(e.uid).padStart(5, '0')}|${e.hotkey}`;
      pairs.set(key, [...(pairs.get(key) ?? []), e]);
    }
    return [...pairs.keys()].sort().map((key) => {
      const list = [...pairs.get(key)!]
        .sort((a, b) => a.arrival - b.arrival || (a.recordId! < b.recordId! ? -1 : a.recordId! > b.recordId! ? 1 : 0))
        .slice(-100);
      let sum = 0;
      for (const e of list) sum += e.score;
      return { uid: list[0]!.uid, hotkey: list[0]!.hotkey, score: sum / list.length, count: list.length };
    });
  }

  it('agrees with a reference that keeps every entry, sorts by arrival key and averages the last 100 of each pair', () => {
    fc.assert(
      fc.property(streamArb, (stream) => {
        const entries = toEntries(stream);
        expect(windowScores(addTaskScores(emptyWindowState(), entries))).toEqual(reference(entries));
      }),
      { numRuns: 150 },
    );
  });

  it('the state does not depend on the order entries are fed in, nor on how they are split into calls', () => {
    fc.assert(
      fc.property(streamArb, fc.integer({ min: 1, max: 50 }), (stream, chunk) => {
        const entries = toEntries(stream);
        const batch = addTaskScores(emptyWindowState(), entries);
        const reversed = addTaskScores(emptyWindowState(), [...entries].reverse());
        let chunked = emptyWindowState();
        for (let i = 0; i < entries.length; i += chunk) chunked = addTaskScores(chunked, entries.slice(i, i + chunk));
        expect(reversed).toEqual(batch);
        expect(chunked).toEqual(batch);
      }),
      { numRuns: 80 },
    );
  });

  it('the in-place window (createRollingWindow) gives the same states and scores as the pure functions', () => {
    fc.assert(
      fc.property(streamArb, (stream) => {
        const entries = toEntries(stream);
        const window = createRollingWindow();
        let pure = emptyWindowState();
        for (const e of entries) {
          window.add(e);
          pure = addTaskScore(pure, e);
        }
        expect(window.state()).toEqual(pure);
        expect(window.scores()).toEqual(windowScores(pure));
        const pairs = [
          { uid: 1, hotkey: ALICE },
          { uid: 2, hotkey: BOB },
        ];
        window.retain(pairs);
        expect(window.state()).toEqual(retainWindows(pure, pairs));
      }),
      { numRuns: 80 },
    );
  });
});
