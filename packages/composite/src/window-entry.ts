import { findLoneSurrogate, hotkeySchema, parseInput, SubnetError } from '@subnet/core';

import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import type { TaskScoreEntry } from './window-types.js';

/** The longest task id or record id a window entry may carry (UTF-16 code units). */
export const MAX_WINDOW_ID_LENGTH = 1024;

/** A checked window entry (internal): every field present, `recordId` filled in. */
export interface WindowEntry {
  readonly uid: number;
  readonly hotkey: string;
  readonly taskId: string;
  readonly recordId: string;
  readonly arrival: number;
  readonly score: number;
}

/** Hotkeys already checked valid (a verdict never changes; bounded so it cannot grow without end). */
const validHotkeys = new Set<string>();
const HOTKEY_MEMO_LIMIT = 65_536;

function entryError(path: string, summary: string, value: unknown): never {
  throw new SubnetError(COMPOSITE_ERROR_CODES.invalidWindowEntry, summary, { context: { path, value } });
}

/** Checks an id; the path (`path.field`) is built only when it fails. */
function checkId(value: unknown, path: string, field: string): string {
  if (typeof value !== 'string') entryError(`${path}.${field}`, 'must be a string', value);
  if (value.length === 0 || value.length > MAX_WINDOW_ID_LENGTH) entryError(`${path}.${field}`, `must hold 1..${MAX_WINDOW_ID_LENGTH} characters`, value);
  if (findLoneSurrogate(value) >= 0) entryError(`${path}.${field}`, 'holds a lone UTF-16 surrogate', value);
  return value;
}

/**
 * Checks a hotkey (SS58, checksum) unless it was checked before (a verdict never changes).
 *
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` at `path.hotkey`
 */
export function assertHotkey(hotkey: unknown, path: string): asserts hotkey is string {
  if (typeof hotkey === 'string' && validHotkeys.has(hotkey)) return;
  parseInput(hotkeySchema, hotkey, COMPOSITE_ERROR_CODES.invalidWindowEntry, `${path}.hotkey`);
  if (validHotkeys.size >= HOTKEY_MEMO_LIMIT) validHotkeys.clear();
  validHotkeys.add(hotkey as string);
}

/**
 * Checks one window entry by hand (no zod, no allocation: this runs once per add).
 *
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` naming `path.field` and the value
 */
export function assertEntry(entry: unknown, path: string): asserts entry is TaskScoreEntry {
  assertEntryFields(entry, path);
  assertHotkey(entry.hotkey, path);
}

/**
 * {@link assertEntry} without the SS58 check of the hotkey (only that it is a string): for a caller that
 * finds the hotkey's window first, whose hotkey was checked when the window was made.
 */
export function assertEntryFields(entry: unknown, path: string): asserts entry is TaskScoreEntry {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) entryError(path, 'a window entry must be an object', entry);
  const e = entry as Record<string, unknown>;
  const uid = e.uid;
  if (typeof uid !== 'number' || !Number.isInteger(uid) || uid < 0 || uid > 65535) entryError(`${path}.uid`, 'uid must be an integer 0..65535', uid);
  const score = e.score;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) entryError(`${path}.score`, 'score must be a number in [0, 1]', score);
  const arrival = e.arrival;
  if (typeof arrival !== 'number' || !Number.isSafeInteger(arrival) || arrival < 0) entryError(`${path}.arrival`, 'arrival must be an integer >= 0', arrival);
  checkId(e.taskId, path, 'taskId');
  if (e.recordId !== undefined) checkId(e.recordId, path, 'recordId');
  if (typeof e.hotkey !== 'string') assertHotkey(e.hotkey, path);
}

/**
 * Checks one window entry and returns it normalised (`recordId` filled in with the task id when absent).
 *
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_ENTRY` naming `path.field` and the value
 */
export function checkEntry(entry: unknown, path: string): WindowEntry {
  assertEntry(entry, path);
  return { uid: entry.uid, hotkey: entry.hotkey, taskId: entry.taskId, recordId: entry.recordId ?? entry.taskId, arrival: entry.arrival, score: entry.score };
}
