import { hotkeySchema, parseInput, SubnetError, uidSchema } from '@subnet/core';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { assertHotkey, placeEntries } from './window-entry.js';
import { insertEntry, newRing, ringFromWindow, ringToWindow, type Ring } from './window-ring.js';
import { compareWindows, freezeState, parseWindowState } from './window-state.js';
import type { MetagraphPair, MinerWindow, TaskScoreEntry, WindowScore, WindowState } from './window-types.js';

function argumentError(path: string, summary: string, value: unknown): never {
  throw new SubnetError(COMPOSITE_ERROR_CODES.invalidArgument, summary, { context: { path, value } });
}

/** The position of the pair's window in a sorted window list (binary search), or -1. */
function findWindow(windows: readonly MinerWindow[], uid: number, hotkey: string): number {
  let lo = 0;
  let hi = windows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const order = compareWindows(windows[mid] as MinerWindow, { uid, hotkey });
    if (order === 0) return mid;
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Adds task scores to the rolling windows (SPEC section A, profile v1.1). Pure: returns a new state and
 * leaves `state` unchanged. The window is the (uid, hotkey) pair's: a hotkey new on a uid, or a hotkey
 * on a new uid, starts a window of its own (never an error); the windows of pairs absent from the
 * epoch's metagraph are dropped by {@link retainWindows} at the close. Each entry is placed by its
 * arrival key (arrival, then record id): a re-run of a task id is a new entry, an entry fed out of order
 * takes its place, and an entry older than a full window's 100 is not among the last 100. The same
 * arrival key again with the same task id and score is the same entry (nothing changes).
 *
 * Cost: O(1) per entry plus, per call, one copy of the window list and of each touched window (at most
 * 100 values). For one entry at a time at high rates use {@link createRollingWindow}, whose add is O(1).
 *
 * @param state - the current state (from this package, or raw JSON, then validated)
 * @param entries - task scores `{ uid, hotkey, taskId, arrival, recordId?, score }`
 * @returns the new, frozen state
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` for a malformed entry (bad uid, hotkey, score,
 *   arrival, empty or malformed id) or when `entries` is not an array; `COMPOSITE_WINDOW_CONFLICTING_ENTRY`
 *   when two different entries of one window share an arrival key; `COMPOSITE_INVALID_WINDOW_STATE` for an
 *   invalid raw state. Nothing changes when it throws.
 * @example
 * const next = addTaskScores(state, [{ uid: 3, hotkey, taskId: 't-9', arrival: 9, recordId: 'r-9', score: 0.82 }])
 */
export function addTaskScores(state: unknown, entries: readonly TaskScoreEntry[]): WindowState {
  return addEntries(state, entries, 'entries');
}

/**
 * Adds one task score to the rolling windows: {@link addTaskScores} with one entry.
 *
 * @param state - the current state
 * @param entry - `{ uid, hotkey, taskId, arrival, recordId?, score }`
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
  const single = label === 'entry';
  // Touched windows as rings, by uid (a uid usually has one hotkey; a list covers the rest).
  const touched = new Map<number, Ring[]>();
  const replaced = new Map<number, Ring>(); // position in base.windows -> ring
  const added: Ring[] = [];
  let changed = false as boolean; // set inside the callback
  let last: Ring | undefined;
  placeEntries(entries, label, single, (batch, first) => {
    for (let k = 0; k < batch.length; k++) {
      const uid = batch.uids[k] as number;
      const hotkey = batch.hotkeys[k] as string;
      // Runs of one miner's entries skip the lookups.
      let ring = last !== undefined && last.uid === uid && last.hotkey === hotkey ? last : undefined;
      if (ring === undefined) {
        let rings = touched.get(uid);
        if (rings !== undefined) for (let r = 0; r < rings.length && ring === undefined; r++) if ((rings[r] as Ring).hotkey === hotkey) ring = rings[r];
        if (ring === undefined) {
          const at = findWindow(base.windows, uid, hotkey);
          // A new window: its hotkey is checked once, here (a held window's was checked when it was made).
          if (at < 0) assertHotkey(hotkey, label, single ? -1 : first + k);
          ring = at >= 0 ? ringFromWindow(base.windows[at] as MinerWindow) : newRing(uid, hotkey);
          if (at >= 0) replaced.set(at, ring);
          else added.push(ring);
          if (rings === undefined) touched.set(uid, (rings = []));
          rings.push(ring);
        }
        last = ring;
      }
      if (insertEntry(ring, batch, k, label, single ? -1 : first + k)) changed = true;
    }
  });
  if (!changed) return base;
  const windows = base.windows.map((w, at) => {
    const ring = replaced.get(at);
    return ring === undefined ? w : ringToWindow(ring);
  });
  for (const ring of added) if (ring.count > 0) windows.push(ringToWindow(ring));
  if (added.length > 0) windows.sort(compareWindows);
  return freezeState(windows);
}

/**
 * Every window's score, sorted by uid then hotkey: the mean of the scores present (1..100), computed as
 * the plain left-to-right sum in arrival order divided by the count, so any two implementations agree
 * bit for bit. Before {@link retainWindows} runs, one uid may show more than one hotkey (and one hotkey
 * more than one uid). Miner weights come from these by linear normalisation and the 15 % cap (SPEC C.5).
 *
 * @param state - the state (from this package, or raw JSON, then validated)
 * @returns frozen `{ uid, hotkey, score, count }` per window, by uid then hotkey
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_STATE` for an invalid raw state
 * @example windowScores(state) // [{ uid: 3, hotkey: '5F…', score: 0.82, count: 1 }]
 */
export function windowScores(state: unknown): readonly WindowScore[] {
  const { windows } = parseWindowState(state);
  const scores: WindowScore[] = [];
  for (const w of windows) {
    const n = w.scores.length;
    let sum = 0;
    for (let k = 0; k < n; k++) sum += w.scores[k] as number;
    scores.push(Object.freeze({ uid: w.uid, hotkey: w.hotkey, score: sum / n, count: n }));
  }
  return Object.freeze(scores);
}

/**
 * Removes every window of a uid (whatever its hotkey). Resetting a uid that has no window returns the
 * state unchanged.
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
  const target = parseInput(uidSchema, uid, COMPOSITE_ERROR_CODES.invalidWindowEntry, 'uid');
  const kept = base.windows.filter((w) => w.uid !== target);
  return kept.length === base.windows.length ? base : freezeState(kept);
}

/**
 * Checks a metagraph pair list (internal, shared with the handle): an array of `{ uid, hotkey }` with
 * each uid at most once. Returns uid -> hotkey.
 */
export function metagraphMap(pairs: unknown): Map<number, string> {
  if (!Array.isArray(pairs)) argumentError('pairs', 'metagraph pairs must be an array of { uid, hotkey }', pairs);
  const byUid = new Map<number, string>();
  for (let i = 0; i < pairs.length; i++) {
    const pair: unknown = pairs[i];
    if (typeof pair !== 'object' || pair === null) argumentError(`pairs[${i}]`, 'a metagraph pair must be an object { uid, hotkey }', pair);
    const uid = parseInput(uidSchema, (pair as { uid?: unknown }).uid, COMPOSITE_ERROR_CODES.invalidArgument, `pairs[${i}].uid`);
    const hotkey = parseInput(hotkeySchema, (pair as { hotkey?: unknown }).hotkey, COMPOSITE_ERROR_CODES.invalidArgument, `pairs[${i}].hotkey`);
    const other = byUid.get(uid);
    if (other !== undefined && other !== hotkey)
      argumentError(`pairs[${i}].hotkey`, `uid ${uid} appears twice with different hotkeys (a metagraph has one hotkey per uid)`, hotkey);
    byUid.set(uid, hotkey);
  }
  return byUid;
}

/**
 * Keeps the windows whose (uid, hotkey) pair is in the epoch's metagraph and drops the others (SPEC A
 * v1.1, at every epoch close: the hotkey deregistered, or moved to another uid, or another hotkey now
 * holds the uid). Pure; returns `state` itself when nothing is dropped.
 *
 * @param state - the state (from this package, or raw JSON, then validated)
 * @param pairs - the metagraph's `{ uid, hotkey }` pairs (each uid at most once)
 * @returns the new, frozen state
 * @throws SubnetError `COMPOSITE_INVALID_ARGUMENT` when `pairs` is not an array of valid pairs or names a
 *   uid twice with different hotkeys; `COMPOSITE_INVALID_WINDOW_STATE` for an invalid raw state
 * @example state = retainWindows(state, metagraph.map((n) => ({ uid: n.uid, hotkey: n.hotkey })))
 */
export function retainWindows(state: unknown, pairs: readonly MetagraphPair[]): WindowState {
  const base = parseWindowState(state);
  const byUid = metagraphMap(pairs);
  const kept = base.windows.filter((w) => byUid.get(w.uid) === w.hotkey);
  return kept.length === base.windows.length ? base : freezeState(kept);
}
