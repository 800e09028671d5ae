import { compareCodePoints, hotkeySchema, parseInput, SubnetError, uidSchema, unitIntervalSchema } from '@subnet/core';
import { z } from 'zod';

import { checkShape } from './check-shape.js';
import { COMPOSITE_ERROR_CODES } from './error-codes.js';
import { markTrusted, trustedPayload } from './trusted.js';
import { MAX_WINDOW_ID_LENGTH } from './window-entry.js';
import { compareArrivalKey } from './window-ring.js';
import { wellFormedText } from './well-formed-text.js';
import { WINDOW_CAPACITY, type MinerWindow, type WindowState } from './window-types.js';

const id = wellFormedText(1, MAX_WINDOW_ID_LENGTH);

const minerWindowSchema = z.strictObject({
  uid: uidSchema,
  hotkey: hotkeySchema,
  scores: z.array(unitIntervalSchema).min(1).max(WINDOW_CAPACITY),
  task_ids: z.array(id).min(1).max(WINDOW_CAPACITY),
  record_ids: z.array(id).min(1).max(WINDOW_CAPACITY),
  arrivals: z.array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).min(1).max(WINDOW_CAPACITY),
});

/** Orders two windows by uid, then hotkey (code point order). */
export function compareWindows(a: { uid: number; hotkey: string }, b: { uid: number; hotkey: string }): number {
  if (a.uid !== b.uid) return a.uid - b.uid;
  return a.hotkey === b.hotkey ? 0 : compareCodePoints(a.hotkey, b.hotkey);
}

/**
 * The rolling-window state schema (plain JSON, profile v1.1): `{ version: 2, windows: [{ uid, hotkey,
 * scores, task_ids, record_ids, arrivals }] }`. Checks every invariant: windows sorted by (uid, hotkey)
 * with no pair twice, the four lists of one window of equal length (1..100), scores in [0, 1], valid
 * hotkeys, well-formed ids, and (arrival, record id) strictly increasing within a window (oldest first).
 * A task id may repeat (a re-run is a new entry).
 *
 * @example
 * windowStateSchema.parse({ version: 2, windows: [] })
 */
export const windowStateSchema = z
  .strictObject({
    version: z.literal(2),
    windows: z.array(minerWindowSchema),
  })
  .superRefine((state, ctx) => {
    state.windows.forEach((w, index) => {
      const at = (...rest: (string | number)[]) => ['windows', index, ...rest];
      const previous = state.windows[index - 1];
      if (previous !== undefined && compareWindows(previous, w) >= 0) {
        ctx.addIssue({ code: 'custom', message: 'windows must be sorted by uid then hotkey, each pair once', path: at('hotkey'), input: w.hotkey });
      }
      const n = w.scores.length;
      for (const field of ['task_ids', 'record_ids', 'arrivals'] as const) {
        if (w[field].length !== n)
          ctx.addIssue({
            code: 'custom',
            message: `scores, task_ids, record_ids and arrivals must have the same length (${n} scores)`,
            path: at(field),
            input: w[field],
          });
      }
      if (w.task_ids.length !== n || w.record_ids.length !== n || w.arrivals.length !== n) return;
      for (let k = 1; k < n; k++) {
        if (compareArrivalKey(w.arrivals[k - 1] ?? 0, w.record_ids[k - 1] ?? '', w.arrivals[k] ?? 0, w.record_ids[k] ?? '') >= 0) {
          ctx.addIssue({ code: 'custom', message: '(arrival, record_id) must strictly increase, oldest first', path: at('arrivals', k), input: w.arrivals[k] });
        }
      }
    });
  });

/** Profile v1's state (`{ version: 1, miners: { "<uid>": ring with head } }`), read and converted. */
const legacyMinerSchema = z.strictObject({
  uid: uidSchema,
  hotkey: hotkeySchema,
  head: z
    .number()
    .int()
    .min(0)
    .max(WINDOW_CAPACITY - 1),
  scores: z.array(unitIntervalSchema).min(1).max(WINDOW_CAPACITY),
  task_ids: z.array(id).min(1).max(WINDOW_CAPACITY),
  arrivals: z.array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).min(1).max(WINDOW_CAPACITY),
});
const legacyStateSchema = z.strictObject({ version: z.literal(1), miners: z.record(z.string(), legacyMinerSchema) });

function fromLegacy(legacy: z.output<typeof legacyStateSchema>): unknown {
  const windows = Object.entries(legacy.miners).map(([key, m]) => {
    if (key !== String(m.uid)) {
      throw new SubnetError(COMPOSITE_ERROR_CODES.invalidWindowState, `key must be the uid in decimal (${m.uid})`, {
        context: { path: `state.miners[${JSON.stringify(key)}].uid`, value: m.uid },
      });
    }
    const n = m.scores.length;
    const order = (list: readonly unknown[]) => Array.from({ length: list.length }, (_, k) => list[(m.head + k) % Math.max(1, list.length)]);
    if (m.head !== 0 && n < WINDOW_CAPACITY) {
      throw new SubnetError(COMPOSITE_ERROR_CODES.invalidWindowState, 'head must be 0 until the window is full', {
        context: { path: `state.miners[${JSON.stringify(key)}].head`, value: m.head },
      });
    }
    return { uid: m.uid, hotkey: m.hotkey, scores: order(m.scores), task_ids: order(m.task_ids), record_ids: order(m.task_ids), arrivals: order(m.arrivals) };
  });
  windows.sort(compareWindows);
  return { version: 2, windows };
}

const STATE = Object.freeze({ kind: 'window-state' });

/** Freezes a list of (frozen) windows, sorted by pair, into a state this package recognises. */
export function freezeState(windows: readonly MinerWindow[]): WindowState {
  const state = { version: 2 as const, windows: Object.freeze(windows) };
  markTrusted(state, STATE);
  return Object.freeze(state);
}

function freezeWindow(w: MinerWindow): MinerWindow {
  Object.freeze(w.scores);
  Object.freeze(w.task_ids);
  Object.freeze(w.record_ids);
  Object.freeze(w.arrivals);
  return Object.freeze(w);
}

/**
 * The state with no windows.
 *
 * @returns a frozen, empty state
 * @example const state = emptyWindowState() // { version: 2, windows: [] }
 */
export function emptyWindowState(): WindowState {
  return freezeState([]);
}

/**
 * Validates a rolling-window state (for example one loaded from disk) and returns it frozen. States
 * returned by this package's functions are recognised and returned as they are. A profile v1 state
 * (`version: 1`, keyed by uid, ring with head) is converted: its record ids are its task ids.
 *
 * @param input - the state as JSON-parsed, or a state from this package
 * @returns the validated, frozen state
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_STATE` naming the path (e.g. `state.windows[3].arrivals[7]`)
 *   and value, also for input nested deeper than 64 levels or beyond the size limits (`context.shapeCode`)
 * @example const state = parseWindowState(JSON.parse(readFileSync('window.json', 'utf8')))
 */
export function parseWindowState(input: unknown): WindowState {
  if (trustedPayload(input) === STATE) return input as WindowState;
  checkShape(input, COMPOSITE_ERROR_CODES.invalidWindowState, 'state');
  const version = typeof input === 'object' && input !== null && Object.hasOwn(input, 'version') ? (input as { version: unknown }).version : undefined;
  const current = version === 1 ? fromLegacy(parseInput(legacyStateSchema, input, COMPOSITE_ERROR_CODES.invalidWindowState, 'state')) : input;
  const parsed = parseInput(windowStateSchema, current, COMPOSITE_ERROR_CODES.invalidWindowState, 'state');
  return freezeState(parsed.windows.map((w) => freezeWindow(w as MinerWindow)));
}
