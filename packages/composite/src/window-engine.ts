import { assertHotkey, newEntryBatch, placeEntries, readEntry, type EntryBatch } from './window-entry.js';
import { copyRing, insertEntry, newRing, restoreRing, ringFromWindow, ringScore, ringToWindow, type Ring } from './window-ring.js';
import { compareWindows, freezeState } from './window-state.js';
import type { WindowScore, WindowState } from './window-types.js';

/**
 * Internal: every window as a mutable ring, by uid (a uid usually holds one hotkey; the list holds the
 * others until the close drops them). What {@link createRollingWindow} mutates; never shared.
 */
export interface WindowEngine {
  readonly byUid: Map<number, Ring[]>;
}

/** An engine holding a (validated) state's windows. */
export function engineFromState(state: WindowState): WindowEngine {
  const byUid = new Map<number, Ring[]>();
  for (const w of state.windows) {
    const rings = byUid.get(w.uid);
    if (rings === undefined) byUid.set(w.uid, [ringFromWindow(w)]);
    else rings.push(ringFromWindow(w));
  }
  return { byUid };
}

/** The pair's ring, or undefined. */
function findRing(engine: WindowEngine, uid: number, hotkey: string): Ring | undefined {
  const rings = engine.byUid.get(uid);
  if (rings === undefined) return undefined;
  for (let i = 0; i < rings.length; i++) if ((rings[i] as Ring).hotkey === hotkey) return rings[i];
  return undefined;
}

function ringFor(engine: WindowEngine, uid: number, hotkey: string): Ring {
  const rings = engine.byUid.get(uid);
  if (rings === undefined) {
    const ring = newRing(uid, hotkey);
    engine.byUid.set(uid, [ring]);
    return ring;
  }
  for (let i = 0; i < rings.length; i++) if ((rings[i] as Ring).hotkey === hotkey) return rings[i] as Ring;
  const ring = newRing(uid, hotkey);
  rings.push(ring);
  return ring;
}

/** The one-entry batch {@link engineAdd} reads into (no allocation per add). */
let single: EntryBatch | undefined;

/** Adds one entry: O(1) when it is the newest of its window. Atomic (checks before it changes anything). */
export function engineAdd(engine: WindowEngine, entry: unknown, label: string): void {
  const batch = single ?? (single = newEntryBatch(1));
  readEntry(entry, label, -1, batch, 0, false);
  const uid = batch.uids[0] as number;
  const hotkey = batch.hotkeys[0] as string;
  let ring = findRing(engine, uid, hotkey);
  if (ring === undefined) {
    assertHotkey(hotkey, label, -1); // a new window: its hotkey is checked once, here
    ring = ringFor(engine, uid, hotkey);
  }
  try {
    insertEntry(ring, batch, 0, label, -1);
  } finally {
    if (ring.count === 0) dropEmpty(engine, ring);
  }
}

function dropEmpty(engine: WindowEngine, ring: Ring): void {
  const rings = engine.byUid.get(ring.uid);
  if (rings === undefined) return;
  const kept = rings.filter((r) => r !== ring);
  if (kept.length === 0) engine.byUid.delete(ring.uid);
  else engine.byUid.set(ring.uid, kept);
}

/**
 * Adds entries in order, all or nothing: every entry is checked first, and a conflict found while placing
 * them puts back every window the call touched.
 */
export function engineAddMany(engine: WindowEngine, entries: unknown): void {
  const saved = new Map<Ring, Ring>();
  let last: Ring | undefined;
  try {
    placeEntries(entries, 'entries', false, (batch, first) => {
      for (let k = 0; k < batch.length; k++) {
        const uid = batch.uids[k] as number;
        const hotkey = batch.hotkeys[k] as string;
        // Runs of one miner's entries skip the lookups.
        let ring = last !== undefined && last.uid === uid && last.hotkey === hotkey ? last : findRing(engine, uid, hotkey);
        if (ring === undefined) {
          assertHotkey(hotkey, 'entries', first + k); // a new window: its hotkey is checked once, here
          ring = ringFor(engine, uid, hotkey);
        }
        if (ring !== last) {
          if (!saved.has(ring)) saved.set(ring, copyRing(ring));
          last = ring;
        }
        insertEntry(ring, batch, k, 'entries', first + k);
      }
    });
  } catch (error) {
    for (const [ring, copy] of saved) restoreRing(ring, copy);
    throw error;
  } finally {
    for (const ring of saved.keys()) if (ring.count === 0) dropEmpty(engine, ring);
  }
}

/** Every window's score, by uid then hotkey (frozen plain results). */
export function engineScores(engine: WindowEngine): readonly WindowScore[] {
  const scores: WindowScore[] = [];
  for (const rings of engine.byUid.values()) {
    for (const ring of rings) scores.push(Object.freeze({ uid: ring.uid, hotkey: ring.hotkey, score: ringScore(ring), count: ring.count }));
  }
  scores.sort(compareWindows);
  return Object.freeze(scores);
}

/** Drops the windows whose pair is not uid -> hotkey in `byUid`. */
export function engineRetain(engine: WindowEngine, byUid: ReadonlyMap<number, string>): void {
  for (const [uid, rings] of [...engine.byUid]) {
    const hotkey = byUid.get(uid);
    const kept = rings.filter((ring) => ring.hotkey === hotkey);
    if (kept.length === 0) engine.byUid.delete(uid);
    else engine.byUid.set(uid, kept);
  }
}

/** The engine's windows as a frozen plain state (the same JSON the pure functions produce). */
export function engineState(engine: WindowEngine): WindowState {
  const windows = [];
  for (const rings of engine.byUid.values()) for (const ring of rings) windows.push(ringToWindow(ring));
  windows.sort(compareWindows);
  return freezeState(windows);
}
