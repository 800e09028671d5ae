import { hotkeySchema, parseInput, SubnetError } from '@subnet/core';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { isWellFormedText } from './well-formed-text.js';

/** The longest task id or record id a window entry may carry (UTF-16 code units). */
export const MAX_WINDOW_ID_LENGTH = 1024;

/**
 * Checked window entries as parallel lists (internal): each field read once from the caller's object and
 * checked, `recordId` filled in with the task id when absent; no object per entry.
 */
export interface EntryBatch {
  length: number;
  uids: Int32Array;
  hotkeys: string[];
  taskIds: string[];
  recordIds: string[];
  arrivals: Float64Array;
  scores: Float64Array;
}

/** An empty batch with room for `capacity` entries. */
export function newEntryBatch(capacity: number): EntryBatch {
  return {
    length: 0,
    uids: new Int32Array(capacity),
    hotkeys: new Array<string>(capacity),
    taskIds: new Array<string>(capacity),
    recordIds: new Array<string>(capacity),
    arrivals: new Float64Array(capacity),
    scores: new Float64Array(capacity),
  };
}

/** An entry's path: `label` alone (index < 0) or `label[index]`, built only when something is wrong. */
export function entryPath(label: string, index: number): string {
  return index < 0 ? label : `${label}[${index}]`;
}

/** Hotkeys already checked valid (a verdict never changes; bounded so it cannot grow without end). */
const validHotkeys = new Set<string>();
const HOTKEY_MEMO_LIMIT = 65_536;

function entryError(path: string, summary: string, value: unknown): never {
  throw new SubnetError(COMPOSITE_ERROR_CODES.invalidWindowEntry, summary, { context: { path, value } });
}

/** What is wrong with a window id, or undefined when it is one (a string of 1..MAX_WINDOW_ID_LENGTH well-formed code units). */
function idProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0 || value.length > MAX_WINDOW_ID_LENGTH) return `must hold 1..${MAX_WINDOW_ID_LENGTH} characters`;
  if (!isWellFormedText(value)) return 'holds a lone UTF-16 surrogate';
  return undefined;
}

/** Checks an id; the path (`label[index].field`) is built only when it fails. */
function checkId(value: unknown, label: string, index: number, field: string): string {
  const problem = idProblem(value);
  if (problem !== undefined) entryError(`${entryPath(label, index)}.${field}`, problem, value);
  return value as string;
}

/**
 * Checks a value a window entry will carry as its task or record id, by the window's own rule (1..
 * {@link MAX_WINDOW_ID_LENGTH} well-formed UTF-16 code units): for a boundary that feeds it into a window
 * later (a workflow task id) and refuses it up front rather than have the window exclude it.
 *
 * @param value - the id
 * @param path - where it is, for the error (`body.task.task_id`)
 * @returns the id
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` naming `path` and the value
 * @example checkWindowId('t'.repeat(1025), 'task.task_id') // throws: must hold 1..1024 characters
 */
export function checkWindowId(value: unknown, path: string): string {
  const problem = idProblem(value);
  if (problem !== undefined) entryError(path, problem, value);
  return value as string;
}

/**
 * Checks a hotkey (SS58, checksum) unless it was checked before (a verdict never changes).
 *
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` at `label[index].hotkey` (`label.hotkey` for index < 0)
 */
export function assertHotkey(hotkey: unknown, label: string, index: number): asserts hotkey is string {
  if (typeof hotkey === 'string' && validHotkeys.has(hotkey)) return;
  parseInput(hotkeySchema, hotkey, COMPOSITE_ERROR_CODES.invalidWindowEntry, `${entryPath(label, index)}.hotkey`);
  if (validHotkeys.size >= HOTKEY_MEMO_LIMIT) validHotkeys.clear();
  validHotkeys.add(hotkey as string);
}

/**
 * Reads one window entry into slot `at` of `batch`, checking each field by hand (no zod, no allocation:
 * this runs once per add). The hotkey's SS58 checksum is checked only when `checkHotkey` is true (a caller
 * that finds the pair's window first checked it when the window was made); otherwise only that it is a
 * string.
 *
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` naming `label[index].field` and the value
 */
export function readEntry(entry: unknown, label: string, index: number, batch: EntryBatch, at: number, checkHotkey: boolean): void {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) entryError(entryPath(label, index), 'a window entry must be an object', entry);
  const e = entry as Record<string, unknown>;
  const uid = e.uid;
  if (typeof uid !== 'number' || !Number.isInteger(uid) || uid < 0 || uid > 65535)
    entryError(`${entryPath(label, index)}.uid`, 'uid must be an integer 0..65535', uid);
  const score = e.score;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) entryError(`${entryPath(label, index)}.score`, 'score must be a number in [0, 1]', score);
  const arrival = e.arrival;
  if (typeof arrival !== 'number' || !Number.isSafeInteger(arrival) || arrival < 0) {
    entryError(`${entryPath(label, index)}.arrival`, 'arrival must be an integer >= 0', arrival);
  }
  const taskId = checkId(e.taskId, label, index, 'taskId');
  const given = e.recordId;
  const recordId = given === undefined ? taskId : checkId(given, label, index, 'recordId');
  const hotkey = e.hotkey;
  if (checkHotkey || typeof hotkey !== 'string') assertHotkey(hotkey, label, index);
  batch.uids[at] = uid;
  batch.hotkeys[at] = hotkey;
  batch.taskIds[at] = taskId;
  batch.recordIds[at] = recordId;
  batch.arrivals[at] = arrival;
  batch.scores[at] = score;
}

/** Entries read per chunk: small enough to stay in cache, large enough to amortise the call. */
const CHUNK = 2048;

/**
 * Reads and checks a list of entries (see {@link readEntry}) chunk by chunk into one reusable batch, and
 * hands each chunk to `place` with the index of its first entry. A hotkey's SS58 checksum is checked by
 * `place` when it makes a window for it (a hotkey that finds its pair's window was checked when that
 * window was made). As if every entry were checked, in order, before any is placed: when reading a chunk
 * or placing it throws, the hotkeys before the failing point are checked first, and after a failed
 * placement the rest of the list too, so the first invalid entry is the one reported (the caller undoes
 * what it placed).
 *
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` for a malformed entry (paths `label[i].field`, or
 *   `label.field` for `single`) or when `entries` is not an array; whatever `place` throws
 */
export function placeEntries(entries: unknown, label: string, single: boolean, place: (batch: EntryBatch, first: number) => void): void {
  if (!Array.isArray(entries)) entryError(label, 'entries must be an array', entries);
  const n = entries.length;
  const batch = newEntryBatch(Math.min(n, CHUNK));
  const checkHotkeys = (from: number, to: number): void => {
    for (let i = from; i < to; i++) assertHotkey((entries[i] as { hotkey?: unknown }).hotkey, label, single ? -1 : i);
  };
  for (let first = 0; first < n; first += CHUNK) {
    const end = Math.min(n, first + CHUNK);
    let i = first;
    try {
      for (; i < end; i++) readEntry(entries[i], label, single ? -1 : i, batch, i - first, false);
    } catch (error) {
      checkHotkeys(first, i);
      throw error;
    }
    batch.length = end - first;
    try {
      place(batch, first);
    } catch (error) {
      checkHotkeys(first, end);
      const rest = newEntryBatch(1);
      for (let j = end; j < n; j++) {
        readEntry(entries[j], label, single ? -1 : j, rest, 0, true);
      }
      throw error;
    }
  }
}
