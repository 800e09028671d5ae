import { compareCodePoints, SubnetError, type Hotkey, type Uid } from '@subnet/core';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { WINDOW_CAPACITY, type MinerWindow, type TaskScoreEntry } from './window-types.js';

/**
 * Internal: one (uid, hotkey) window as a mutable ring of at most {@link WINDOW_CAPACITY} entries in
 * arrival-key order, the oldest at `head`. Appending the newest entry is O(1); an entry fed out of
 * order is placed by its arrival key (arrival, record id) with at most 100 moves.
 */
export interface Ring {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  head: number;
  count: number;
  readonly scores: Float64Array;
  readonly arrivals: Float64Array;
  readonly recordIds: string[];
  readonly taskIds: string[];
}

/** An empty ring for a pair. */
export function newRing(uid: number, hotkey: string): Ring {
  return {
    uid: uid as Uid,
    hotkey: hotkey as Hotkey,
    head: 0,
    count: 0,
    scores: new Float64Array(WINDOW_CAPACITY),
    arrivals: new Float64Array(WINDOW_CAPACITY),
    recordIds: new Array<string>(WINDOW_CAPACITY).fill(''),
    taskIds: new Array<string>(WINDOW_CAPACITY).fill(''),
  };
}

/** A ring holding a (validated) window's entries. */
export function ringFromWindow(window: MinerWindow): Ring {
  const ring = newRing(window.uid, window.hotkey);
  const n = window.scores.length;
  for (let i = 0; i < n; i++) {
    ring.scores[i] = window.scores[i] as number;
    ring.arrivals[i] = window.arrivals[i] as number;
    ring.recordIds[i] = window.record_ids[i] as string;
    ring.taskIds[i] = window.task_ids[i] as string;
  }
  ring.count = n;
  return ring;
}

/** A copy of a ring (for undo). */
export function copyRing(ring: Ring): Ring {
  return { ...ring, scores: ring.scores.slice(), arrivals: ring.arrivals.slice(), recordIds: ring.recordIds.slice(), taskIds: ring.taskIds.slice() };
}

/** Puts `from`'s contents back into `into` (same pair). */
export function restoreRing(into: Ring, from: Ring): void {
  into.head = from.head;
  into.count = from.count;
  into.scores.set(from.scores);
  into.arrivals.set(from.arrivals);
  for (let i = 0; i < WINDOW_CAPACITY; i++) {
    into.recordIds[i] = from.recordIds[i] as string;
    into.taskIds[i] = from.taskIds[i] as string;
  }
}

/** The ring as a frozen wire window, entries in arrival order (oldest first). */
export function ringToWindow(ring: Ring): MinerWindow {
  const n = ring.count;
  const scores: number[] = [];
  const taskIds: string[] = [];
  const recordIds: string[] = [];
  const arrivals: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = (ring.head + k) % WINDOW_CAPACITY;
    scores.push(ring.scores[i] as number);
    taskIds.push(ring.taskIds[i] as string);
    recordIds.push(ring.recordIds[i] as string);
    arrivals.push(ring.arrivals[i] as number);
  }
  return Object.freeze({
    uid: ring.uid,
    hotkey: ring.hotkey,
    scores: Object.freeze(scores),
    task_ids: Object.freeze(taskIds),
    record_ids: Object.freeze(recordIds),
    arrivals: Object.freeze(arrivals),
  });
}

/** The window score: the plain left-to-right sum in arrival order divided by the count (SPEC A). */
export function ringScore(ring: Ring): number {
  const n = ring.count;
  let sum = 0;
  for (let k = 0; k < n; k++) sum += ring.scores[(ring.head + k) % WINDOW_CAPACITY] as number;
  return sum / n;
}

/** What the ring needs of an entry: a checked {@link TaskScoreEntry} (`recordId` defaults to `taskId`). */
type WindowEntry = Pick<TaskScoreEntry, 'taskId' | 'recordId' | 'arrival' | 'score'>;

/** Orders two arrival keys (arrival, record id): negative when a comes first. */
export function compareArrivalKey(arrivalA: number, recordA: string, arrivalB: number, recordB: string): number {
  if (arrivalA !== arrivalB) return arrivalA < arrivalB ? -1 : 1;
  return recordA === recordB ? 0 : compareCodePoints(recordA, recordB);
}

function write(ring: Ring, slot: number, entry: WindowEntry): void {
  ring.scores[slot] = entry.score + 0; // -0 is stored as 0 (the same number; JSON writes both as 0)
  ring.arrivals[slot] = entry.arrival;
  ring.recordIds[slot] = entry.recordId ?? entry.taskId;
  ring.taskIds[slot] = entry.taskId;
}

/** Moves the entry at logical position `from` to logical position `to` (physical slots from head). */
function move(ring: Ring, from: number, to: number): void {
  const a = (ring.head + from) % WINDOW_CAPACITY;
  const b = (ring.head + to) % WINDOW_CAPACITY;
  ring.scores[b] = ring.scores[a] as number;
  ring.arrivals[b] = ring.arrivals[a] as number;
  ring.recordIds[b] = ring.recordIds[a] as string;
  ring.taskIds[b] = ring.taskIds[a] as string;
}

/** The same arrival key again: an identical entry is the same entry (no-op); a different one is an error. */
function sameKey(ring: Ring, slot: number, entry: WindowEntry, path: string): false {
  if (ring.taskIds[slot] === entry.taskId && ring.scores[slot] === entry.score) return false;
  const recordId = entry.recordId ?? entry.taskId;
  throw new SubnetError(
    COMPOSITE_ERROR_CODES.windowConflictingEntry,
    `another entry of uid ${ring.uid} already has arrival ${entry.arrival} and record id ${JSON.stringify(recordId)} (task ${JSON.stringify(ring.taskIds[slot])}, score ${ring.scores[slot]}): an arrival key names one entry`,
    { context: { path: `${path}.recordId`, value: recordId, arrival: entry.arrival } },
  );
}

/**
 * Places one entry in the ring by its arrival key (SPEC A v1.1): after the newest in O(1); an entry fed
 * out of order at its place; an entry older than all 100 held ones is not among the last 100 and is
 * not kept. The same key again with the same task id and score is the same entry (nothing changes).
 *
 * @returns whether the ring changed
 * @throws SubnetError `COMPOSITE_WINDOW_CONFLICTING_ENTRY` (before any change) when a held entry has the
 *   same arrival key but another task id or score
 */
export function insertEntry(ring: Ring, entry: WindowEntry, path: string): boolean {
  const n = ring.count;
  if (n === 0) {
    write(ring, ring.head, entry);
    ring.count = 1;
    return true;
  }
  const newest = (ring.head + n - 1) % WINDOW_CAPACITY;
  const recordId = entry.recordId ?? entry.taskId;
  const order = compareArrivalKey(entry.arrival, recordId, ring.arrivals[newest] as number, ring.recordIds[newest] as string);
  if (order > 0) {
    if (n < WINDOW_CAPACITY) {
      write(ring, (ring.head + n) % WINDOW_CAPACITY, entry);
      ring.count = n + 1;
    } else {
      write(ring, ring.head, entry);
      ring.head = (ring.head + 1) % WINDOW_CAPACITY;
    }
    return true;
  }
  if (order === 0) return sameKey(ring, newest, entry, path);
  // Out of order: the first logical position whose key is >= the entry's (binary search).
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const slot = (ring.head + mid) % WINDOW_CAPACITY;
    if (compareArrivalKey(ring.arrivals[slot] as number, ring.recordIds[slot] as string, entry.arrival, recordId) < 0) lo = mid + 1;
    else hi = mid;
  }
  const at = (ring.head + lo) % WINDOW_CAPACITY;
  if (compareArrivalKey(ring.arrivals[at] as number, ring.recordIds[at] as string, entry.arrival, recordId) === 0) return sameKey(ring, at, entry, path);
  if (n < WINDOW_CAPACITY) {
    for (let k = n; k > lo; k--) move(ring, k - 1, k);
    write(ring, at, entry);
    ring.count = n + 1;
    return true;
  }
  // Full: the oldest leaves. An entry older than every held one is not among the last 100.
  if (lo === 0) return false;
  for (let k = 0; k < lo - 1; k++) move(ring, k + 1, k);
  write(ring, (ring.head + lo - 1) % WINDOW_CAPACITY, entry);
  return true;
}
