import { compareCodePoints, SubnetError, type Hotkey, type Uid } from '@subnet/core';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { entryPath } from './window-entry.js';
import { WINDOW_CAPACITY, type MinerWindow } from './window-types.js';

/**
 * Internal: one (uid, hotkey) window as a mutable ring of at most {@link WINDOW_CAPACITY} entries in
 * arrival-key order, the oldest at `head`. Appending the newest entry is O(1); an entry fed out of
 * order is placed by its arrival key (arrival, record id) with at most 100 moves. An entry's fields sit
 * side by side (`nums`: score then arrival; `ids`: task id then record id) so that an add touches few
 * cache lines: with hundreds of miners the rings do not all fit in cache.
 */
export interface Ring {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  head: number;
  count: number;
  /** Slot k: score at 2k, arrival at 2k + 1. */
  readonly nums: Float64Array;
  /** Slot k: task id at 2k, record id at 2k + 1. */
  readonly ids: string[];
}

/** An empty ring for a pair. */
export function newRing(uid: number, hotkey: string): Ring {
  return {
    uid: uid as Uid,
    hotkey: hotkey as Hotkey,
    head: 0,
    count: 0,
    nums: new Float64Array(2 * WINDOW_CAPACITY),
    ids: new Array<string>(2 * WINDOW_CAPACITY).fill(''),
  };
}

/** A ring holding a (validated) window's entries. */
export function ringFromWindow(window: MinerWindow): Ring {
  const ring = newRing(window.uid, window.hotkey);
  const n = window.scores.length;
  for (let i = 0; i < n; i++) {
    ring.nums[2 * i] = window.scores[i] as number;
    ring.nums[2 * i + 1] = window.arrivals[i] as number;
    ring.ids[2 * i] = window.task_ids[i] as string;
    ring.ids[2 * i + 1] = window.record_ids[i] as string;
  }
  ring.count = n;
  return ring;
}

/** A copy of a ring (for undo). */
export function copyRing(ring: Ring): Ring {
  return { ...ring, nums: ring.nums.slice(), ids: ring.ids.slice() };
}

/** Puts `from`'s contents back into `into` (same pair). */
export function restoreRing(into: Ring, from: Ring): void {
  into.head = from.head;
  into.count = from.count;
  into.nums.set(from.nums);
  for (let i = 0; i < 2 * WINDOW_CAPACITY; i++) into.ids[i] = from.ids[i] as string;
}

/** The ring as a frozen wire window, entries in arrival order (oldest first). */
export function ringToWindow(ring: Ring): MinerWindow {
  const n = ring.count;
  const scores = new Array<number>(n);
  const taskIds = new Array<string>(n);
  const recordIds = new Array<string>(n);
  const arrivals = new Array<number>(n);
  for (let k = 0; k < n; k++) {
    const i = (ring.head + k) % WINDOW_CAPACITY;
    scores[k] = ring.nums[2 * i] as number;
    arrivals[k] = ring.nums[2 * i + 1] as number;
    taskIds[k] = ring.ids[2 * i] as string;
    recordIds[k] = ring.ids[2 * i + 1] as string;
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
  for (let k = 0; k < n; k++) sum += ring.nums[2 * ((ring.head + k) % WINDOW_CAPACITY)] as number;
  return sum / n;
}

/** Orders two arrival keys (arrival, record id): negative when a comes first. */
export function compareArrivalKey(arrivalA: number, recordA: string, arrivalB: number, recordB: string): number {
  if (arrivalA !== arrivalB) return arrivalA < arrivalB ? -1 : 1;
  return recordA === recordB ? 0 : compareCodePoints(recordA, recordB);
}

/** A checked entry's fields where {@link insertEntry} reads them: slot `at` of parallel lists. */
export interface EntrySource {
  readonly taskIds: readonly string[];
  readonly recordIds: readonly string[];
  readonly arrivals: Float64Array;
  readonly scores: Float64Array;
}

function write(ring: Ring, slot: number, from: EntrySource, at: number): void {
  ring.nums[2 * slot] = (from.scores[at] as number) + 0; // -0 is stored as 0 (the same number; JSON writes both as 0)
  ring.nums[2 * slot + 1] = from.arrivals[at] as number;
  ring.ids[2 * slot] = from.taskIds[at] as string;
  ring.ids[2 * slot + 1] = from.recordIds[at] as string;
}

/** Moves the entry at logical position `from` to logical position `to` (physical slots from head). */
function move(ring: Ring, from: number, to: number): void {
  const a = 2 * ((ring.head + from) % WINDOW_CAPACITY);
  const b = 2 * ((ring.head + to) % WINDOW_CAPACITY);
  ring.nums[b] = ring.nums[a] as number;
  ring.nums[b + 1] = ring.nums[a + 1] as number;
  ring.ids[b] = ring.ids[a] as string;
  ring.ids[b + 1] = ring.ids[a + 1] as string;
}

/** The same arrival key again: an identical entry is the same entry (no-op); a different one is an error. */
function sameKey(ring: Ring, slot: number, from: EntrySource, at: number, label: string, index: number): false {
  if (ring.ids[2 * slot] === from.taskIds[at] && ring.nums[2 * slot] === from.scores[at]) return false;
  const recordId = from.recordIds[at] as string;
  const arrival = from.arrivals[at] as number;
  throw new SubnetError(
    COMPOSITE_ERROR_CODES.windowConflictingEntry,
    `another entry of uid ${ring.uid} already has arrival ${arrival} and record id ${JSON.stringify(recordId)} (task ${JSON.stringify(ring.ids[2 * slot])}, score ${ring.nums[2 * slot]}): an arrival key names one entry`,
    { context: { path: `${entryPath(label, index)}.recordId`, value: recordId, arrival } },
  );
}

/**
 * Places one entry in the ring by its arrival key (SPEC A v1.1): after the newest in O(1); an entry fed
 * out of order at its place; an entry older than all 100 held ones is not among the last 100 and is
 * not kept. The same key again with the same task id and score is the same entry (nothing changes).
 *
 * The entry is slot `at` of `from` (checked); `label` and `index` name it in an error.
 *
 * @returns whether the ring changed
 * @throws SubnetError `COMPOSITE_WINDOW_CONFLICTING_ENTRY` (before any change) when a held entry has the
 *   same arrival key but another task id or score
 */
export function insertEntry(ring: Ring, from: EntrySource, at: number, label: string, index: number): boolean {
  const n = ring.count;
  if (n === 0) {
    write(ring, ring.head, from, at);
    ring.count = 1;
    return true;
  }
  const newest = (ring.head + n - 1) % WINDOW_CAPACITY;
  const recordId = from.recordIds[at] as string;
  const arrival = from.arrivals[at] as number;
  const newestArrival = ring.nums[2 * newest + 1] as number;
  // The usual case, a later arrival, needs no record id.
  const order = arrival > newestArrival ? 1 : compareArrivalKey(arrival, recordId, newestArrival, ring.ids[2 * newest + 1] as string);
  if (order > 0) {
    if (n < WINDOW_CAPACITY) {
      write(ring, (ring.head + n) % WINDOW_CAPACITY, from, at);
      ring.count = n + 1;
    } else {
      write(ring, ring.head, from, at);
      ring.head = (ring.head + 1) % WINDOW_CAPACITY;
    }
    return true;
  }
  if (order === 0) return sameKey(ring, newest, from, at, label, index);
  // Out of order: the first logical position whose key is >= the entry's (binary search).
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const slot = (ring.head + mid) % WINDOW_CAPACITY;
    if (compareArrivalKey(ring.nums[2 * slot + 1] as number, ring.ids[2 * slot + 1] as string, arrival, recordId) < 0) lo = mid + 1;
    else hi = mid;
  }
  const place = (ring.head + lo) % WINDOW_CAPACITY;
  if (compareArrivalKey(ring.nums[2 * place + 1] as number, ring.ids[2 * place + 1] as string, arrival, recordId) === 0)
    return sameKey(ring, place, from, at, label, index);
  if (n < WINDOW_CAPACITY) {
    for (let k = n; k > lo; k--) move(ring, k - 1, k);
    write(ring, place, from, at);
    ring.count = n + 1;
    return true;
  }
  // Full: the oldest leaves. An entry older than every held one is not among the last 100.
  if (lo === 0) return false;
  for (let k = 0; k < lo - 1; k++) move(ring, k + 1, k);
  write(ring, (ring.head + lo - 1) % WINDOW_CAPACITY, from, at);
  return true;
}
