import { compareCodePoints, formatPath, hotkeySchema, parseInput, SubnetError, uidSchema, unitIntervalSchema } from '@subnet/core';
import type { Hotkey, Uid } from '@subnet/core';
import { z } from 'zod';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { markTrusted, trustedPayload } from './trusted.js';

/** How many task scores a miner's window keeps (SPEC section A: the last 100, equal weight). */
export const WINDOW_CAPACITY = 100;

/**
 * One miner's window (wire format): a ring of at most {@link WINDOW_CAPACITY} task scores with parallel
 * `task_ids` and `arrivals`. While the ring is not full, entries are in arrival order and `head` is 0;
 * once full, the oldest entry is at `head` and the next score overwrites it.
 */
export interface MinerWindow {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly head: number;
  readonly scores: readonly number[];
  readonly task_ids: readonly string[];
  readonly arrivals: readonly number[];
}

/** The rolling-window state: plain JSON, keyed by uid in decimal. Persist it as is; load with {@link parseWindowState}. */
export interface WindowState {
  readonly version: 1;
  readonly miners: Readonly<Record<string, MinerWindow>>;
}

/** One task score for the window (TypeScript API). */
export interface TaskScoreEntry {
  /** The miner's uid (0..65535). */
  readonly uid: number;
  /** The miner's SS58 hotkey; a hotkey other than the one in the window clears that uid's window. */
  readonly hotkey: string;
  /** The task id; unique within the miner's window. */
  readonly taskId: string;
  /** The caller's arrival sequence number (integer >= 0); per miner, (arrival, taskId) must increase. */
  readonly arrival: number;
  /** The task's composite score, in [0, 1]. */
  readonly score: number;
}

/** A miner's window score. */
export interface WindowScore {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  /** Mean of the scores present: left-to-right sum in arrival order, divided by `count`. */
  readonly score: number;
  /** How many scores the window holds (1..100). */
  readonly count: number;
}

const minerWindowSchema = z.object({
  uid: uidSchema,
  hotkey: hotkeySchema,
  head: z.number().int().min(0).max(WINDOW_CAPACITY - 1),
  scores: z.array(unitIntervalSchema).min(1).max(WINDOW_CAPACITY),
  task_ids: z.array(z.string().min(1)).min(1).max(WINDOW_CAPACITY),
  arrivals: z.array(z.number().int().min(0)).min(1).max(WINDOW_CAPACITY),
});

/** Orders two entries by (arrival, task id): negative when a comes first. */
function compareArrival(arrivalA: number, taskA: string, arrivalB: number, taskB: string): number {
  return arrivalA !== arrivalB ? arrivalA - arrivalB : compareCodePoints(taskA, taskB);
}

/**
 * The rolling-window state schema (plain JSON): `{ version: 1, miners: { "<uid>": { uid, hotkey, head,
 * scores, task_ids, arrivals } } }`. Checks every invariant: the key is the uid, the three arrays have
 * the same length (1..100), scores in [0, 1], `head` is 0 unless the ring is full, task ids are unique,
 * and (arrival, task_id) strictly increases in ring order from `head`.
 *
 * @example
 * windowStateSchema.parse({ version: 1, miners: {} })
 */
export const windowStateSchema = z
  .object({
    version: z.literal(1),
    miners: z.record(z.string(), minerWindowSchema),
  })
  .superRefine((state, ctx) => {
    for (const [key, miner] of Object.entries(state.miners)) {
      const at = (...rest: (string | number)[]) => ['miners', key, ...rest];
      if (key !== String(miner.uid)) ctx.addIssue({ code: 'custom', message: `key must be the uid in decimal (${miner.uid})`, path: at('uid'), input: miner.uid });
      const n = miner.scores.length;
      const uneven = miner.task_ids.length !== n ? 'task_ids' : miner.arrivals.length !== n ? 'arrivals' : undefined;
      if (uneven !== undefined) {
        ctx.addIssue({ code: 'custom', message: `scores, task_ids and arrivals must have the same length (${n} scores)`, path: at(uneven), input: miner[uneven] });
        continue;
      }
      if (n < WINDOW_CAPACITY && miner.head !== 0) {
        ctx.addIssue({ code: 'custom', message: 'head must be 0 until the window is full', path: at('head'), input: miner.head });
        continue;
      }
      const ids = new Set<string>();
      for (let k = 0; k < n; k++) {
        const i = (miner.head + k) % n;
        const id = miner.task_ids[i] ?? '';
        if (ids.has(id)) ctx.addIssue({ code: 'custom', message: 'duplicate task id in a window', path: at('task_ids', i), input: id });
        ids.add(id);
        if (k > 0) {
          const j = (miner.head + k - 1) % n;
          if (compareArrival(miner.arrivals[j] ?? 0, miner.task_ids[j] ?? '', miner.arrivals[i] ?? 0, id) >= 0) {
            ctx.addIssue({ code: 'custom', message: '(arrival, task_id) must increase in ring order from head', path: at('arrivals', i), input: miner.arrivals[i] });
          }
        }
      }
    }
  });

const STATE = Object.freeze({ kind: 'window-state' });

function freezeState(miners: Record<string, MinerWindow>): WindowState {
  const state = { version: 1 as const, miners: Object.freeze(miners) };
  markTrusted(state, STATE);
  return Object.freeze(state);
}

function freezeMiner(miner: MinerWindow): MinerWindow {
  Object.freeze(miner.scores);
  Object.freeze(miner.task_ids);
  Object.freeze(miner.arrivals);
  return Object.freeze(miner);
}

/**
 * The state with no miners.
 *
 * @returns a frozen, empty state
 * @example const state = emptyWindowState() // { version: 1, miners: {} }
 */
export function emptyWindowState(): WindowState {
  return freezeState({});
}

/**
 * Validates a rolling-window state (for example one loaded from disk) and returns it frozen. States
 * returned by this package's functions are recognised and returned as they are.
 *
 * @param input - the state as JSON-parsed, or a state from this package
 * @returns the validated, frozen state
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_STATE` naming the path (e.g. `state.miners["7"].head`) and value
 * @example const state = parseWindowState(JSON.parse(readFileSync('window.json', 'utf8')))
 */
export function parseWindowState(input: unknown): WindowState {
  if (trustedPayload(input) === STATE) return input as WindowState;
  const parsed = parseInput(windowStateSchema, input, COMPOSITE_ERROR_CODES.invalidWindowState, 'state');
  const miners: Record<string, MinerWindow> = {};
  for (const key of Object.keys(parsed.miners).sort((a, b) => Number(a) - Number(b))) {
    miners[key] = freezeMiner(parsed.miners[key] as MinerWindow);
  }
  return freezeState(miners);
}

const entrySchema = z.object({
  uid: uidSchema,
  hotkey: z.string(),
  taskId: z.string().min(1),
  arrival: z.number().int().min(0),
  score: unitIntervalSchema,
});

/** A miner window being updated within one call (mutable copies; frozen when the call ends). */
interface Working {
  uid: Uid;
  hotkey: Hotkey;
  head: number;
  scores: number[];
  taskIds: string[];
  arrivals: number[];
  /** Task ids present: built on this miner's second entry in one call (the first entry scans the ring). */
  ids: Set<string> | undefined;
  /** Whether an entry for this miner was already added in this call. */
  touched: boolean;
}

/** A mutable copy. An index loop: `slice()` of a frozen array takes V8's slow path (tens of times slower). */
function copyOf<T>(source: readonly T[]): T[] {
  const copy: T[] = [];
  for (let i = 0; i < source.length; i++) copy.push(source[i] as T);
  return copy;
}

function entryError(code: string, summary: string, path: string, value: unknown): SubnetError {
  return new SubnetError(code, summary, { context: { path, value } });
}

/**
 * Adds task scores to the rolling windows (SPEC section A), in the order given. Pure: returns a new
 * state and leaves `state` unchanged. Per miner (uid + hotkey): a hotkey other than the window's clears
 * that uid's window first; the score is appended in arrival order and, once 100 are held, replaces the
 * oldest. Each entry costs O(1) amortised; each call also copies the miner index once and each touched
 * miner's ring once (at most 100 numbers), so batch many entries per call when you can.
 *
 * @param state - the current state (from this package, or raw JSON, then validated)
 * @param entries - task scores `{ uid, hotkey, taskId, arrival, score }`
 * @returns the new, frozen state
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` for a malformed entry (bad uid, hotkey, score,
 *   arrival, empty task id); `COMPOSITE_WINDOW_DUPLICATE_TASK` when the task id is already in that miner's
 *   window; `COMPOSITE_WINDOW_OUT_OF_ORDER` when (arrival, taskId) does not come after that miner's latest;
 *   `COMPOSITE_INVALID_WINDOW_STATE` for an invalid raw state. Nothing changes when it throws.
 * @example
 * const next = addTaskScores(state, [{ uid: 3, hotkey, taskId: 't-9', arrival: 9, score: 0.82 }])
 */
export function addTaskScores(state: unknown, entries: readonly TaskScoreEntry[]): WindowState {
  return addEntries(state, entries, 'entries');
}

/**
 * Adds one task score to the rolling window: {@link addTaskScores} with one entry.
 *
 * @param state - the current state
 * @param entry - `{ uid, hotkey, taskId, arrival, score }`
 * @returns the new, frozen state (`state` is unchanged)
 * @throws SubnetError the codes of {@link addTaskScores}, paths rooted at `entry`
 * @example
 * let state = emptyWindowState()
 * state = addTaskScore(state, { uid: 3, hotkey, taskId: 't-1', arrival: 1, score: 0.82 })
 */
export function addTaskScore(state: unknown, entry: TaskScoreEntry): WindowState {
  return addEntries(state, [entry], 'entry');
}

function addEntries(state: unknown, entries: readonly TaskScoreEntry[], label: string): WindowState {
  const base = parseWindowState(state);
  if (!Array.isArray(entries)) {
    throw entryError(COMPOSITE_ERROR_CODES.invalidWindowEntry, 'entries must be an array', label, entries);
  }
  const working = new Map<string, Working>();
  for (let i = 0; i < entries.length; i++) {
    const root = label === 'entry' ? 'entry' : formatPath([i], label);
    const entry = parseInput(entrySchema, entries[i], COMPOSITE_ERROR_CODES.invalidWindowEntry, root);
    const key = String(entry.uid);
    let miner = working.get(key);
    if (miner === undefined) {
      const stored = base.miners[key];
      if (stored !== undefined && stored.hotkey === entry.hotkey) {
        miner = {
          uid: stored.uid,
          hotkey: stored.hotkey,
          head: stored.head,
          scores: copyOf(stored.scores),
          taskIds: copyOf(stored.task_ids),
          arrivals: copyOf(stored.arrivals),
          ids: undefined,
          touched: false,
        };
        working.set(key, miner);
      }
    }
    if (miner?.hotkey !== entry.hotkey) {
      // A new miner, or a new hotkey on this uid: its window starts empty (SPEC section A).
      const hotkey = parseInput(hotkeySchema, entry.hotkey, COMPOSITE_ERROR_CODES.invalidWindowEntry, `${root}.hotkey`);
      miner = { uid: entry.uid, hotkey, head: 0, scores: [], taskIds: [], arrivals: [], ids: undefined, touched: false };
      working.set(key, miner);
    }
    const n = miner.scores.length;
    if (miner.touched) miner.ids ??= new Set(miner.taskIds);
    if (n > 0) {
      if (miner.ids === undefined ? miner.taskIds.includes(entry.taskId) : miner.ids.has(entry.taskId)) {
        throw entryError(
          COMPOSITE_ERROR_CODES.windowDuplicateTask,
          `task id is already in the window of uid ${entry.uid}`,
          `${root}.taskId`,
          entry.taskId,
        );
      }
      const newest = n < WINDOW_CAPACITY ? n - 1 : (miner.head + WINDOW_CAPACITY - 1) % WINDOW_CAPACITY;
      const latestArrival = miner.arrivals[newest] ?? 0;
      const latestTask = miner.taskIds[newest] ?? '';
      if (compareArrival(entry.arrival, entry.taskId, latestArrival, latestTask) <= 0) {
        throw entryError(
          COMPOSITE_ERROR_CODES.windowOutOfOrder,
          `arrival must come after the latest of uid ${entry.uid} (arrival ${latestArrival}, task ${JSON.stringify(latestTask)}; ties by task id)`,
          `${root}.arrival`,
          entry.arrival,
        );
      }
    }
    if (n < WINDOW_CAPACITY) {
      miner.scores.push(entry.score);
      miner.taskIds.push(entry.taskId);
      miner.arrivals.push(entry.arrival);
    } else {
      miner.ids?.delete(miner.taskIds[miner.head] ?? '');
      miner.scores[miner.head] = entry.score;
      miner.taskIds[miner.head] = entry.taskId;
      miner.arrivals[miner.head] = entry.arrival;
      miner.head = (miner.head + 1) % WINDOW_CAPACITY;
    }
    miner.ids?.add(entry.taskId);
    miner.touched = true;
  }
  if (working.size === 0) return base;
  const miners: Record<string, MinerWindow> = { ...base.miners };
  for (const [key, miner] of working) {
    miners[key] = freezeMiner({
      uid: miner.uid,
      hotkey: miner.hotkey,
      head: miner.head,
      scores: miner.scores,
      task_ids: miner.taskIds,
      arrivals: miner.arrivals,
    });
  }
  return freezeState(miners);
}

/**
 * Every miner's window score, sorted by uid: the mean of the scores present (1..100), computed as the
 * plain left-to-right sum in arrival order divided by the count, so any two implementations agree bit
 * for bit. Miner weights come from these by linear normalisation and the 15 % cap (SPEC section C.5).
 *
 * @param state - the state (from this package, or raw JSON, then validated)
 * @returns frozen `{ uid, hotkey, score, count }` per miner, by uid ascending
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_STATE` for an invalid raw state
 * @example windowScores(state) // [{ uid: 3, hotkey: '5F…', score: 0.82, count: 1 }]
 */
export function windowScores(state: unknown): readonly WindowScore[] {
  const { miners } = parseWindowState(state);
  const scores: WindowScore[] = [];
  for (const miner of Object.values(miners)) {
    const n = miner.scores.length;
    let sum = 0;
    for (let k = 0; k < n; k++) sum += miner.scores[(miner.head + k) % n] ?? 0;
    scores.push(Object.freeze({ uid: miner.uid, hotkey: miner.hotkey, score: sum / n, count: n }));
  }
  scores.sort((a, b) => a.uid - b.uid);
  return Object.freeze(scores);
}

/**
 * Removes a uid's window (for example when the metagraph shows a new hotkey on it and you want its
 * window gone before the new miner's first score). Resetting a uid that has no window returns the state
 * unchanged.
 *
 * @param state - the state (from this package, or raw JSON, then validated)
 * @param uid - the uid to clear
 * @returns the new, frozen state without that uid
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` for a uid outside 0..65535;
 *   `COMPOSITE_INVALID_WINDOW_STATE` for an invalid raw state
 * @example state = resetUid(state, 3)
 */
export function resetUid(state: unknown, uid: number): WindowState {
  const base = parseWindowState(state);
  const key = String(parseInput(uidSchema, uid, COMPOSITE_ERROR_CODES.invalidWindowEntry, 'uid'));
  if (base.miners[key] === undefined) return base;
  const miners: Record<string, MinerWindow> = { ...base.miners };
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a copy keyed by uid
  delete miners[key];
  return freezeState(miners);
}
