import { metagraphMap } from './rolling-window.js';
import { engineAdd, engineAddMany, engineFromState, engineRetain, engineScores, engineState } from './window-engine.js';
import { parseWindowState } from './window-state.js';
import type { MetagraphPair, TaskScoreEntry, WindowScore, WindowState } from './window-types.js';

/** A rolling window that changes in place (see {@link createRollingWindow}). */
export interface RollingWindow {
  /** Adds one task score in O(1) (amortised; an entry fed out of order costs at most 100 moves). Atomic. */
  add(entry: TaskScoreEntry): void;
  /** Adds task scores in order, all or nothing. */
  addMany(entries: readonly TaskScoreEntry[]): void;
  /** Every window's score, by uid then hotkey (frozen), as {@link windowScores} gives for {@link state}. */
  scores(): readonly WindowScore[];
  /** Drops the windows whose (uid, hotkey) pair is not in the metagraph, as {@link retainWindows}. */
  retain(pairs: readonly MetagraphPair[]): void;
  /** The windows now, as a frozen plain state (what the pure functions take and give). */
  state(): WindowState;
}

/**
 * A rolling window for high rates: the same rules and results as the pure functions
 * ({@link addTaskScore}, {@link windowScores}, {@link retainWindows}), but held in mutable rings inside,
 * so one add costs O(1) whatever the number of miners. Only what it returns is frozen plain data.
 *
 * @param initial - the state to start from (from this package, or raw JSON, then validated); empty if omitted.
 *   `null` is refused like any other value that is not a state: a saved state that came back null must not
 *   start every miner's window again unnoticed
 * @returns the window's methods
 * @throws SubnetError `COMPOSITE_INVALID_WINDOW_STATE` for an invalid raw state; each method throws the
 *   codes of its pure counterpart and changes nothing when it throws
 * @example
 * const window = createRollingWindow(loadedState)
 * for (const run of runs) window.add({ uid: run.uid, hotkey: run.hotkey, taskId: run.taskId, arrival: run.seq, recordId: run.id, score: run.score })
 * window.retain(metagraphPairs)
 * save(window.state())
 */
export function createRollingWindow(initial?: unknown): RollingWindow {
  const engine = engineFromState(parseWindowState(initial === undefined ? { version: 2, windows: [] } : initial));
  return Object.freeze({
    add: (entry: TaskScoreEntry) => {
      engineAdd(engine, entry, 'entry');
    },
    addMany: (entries: readonly TaskScoreEntry[]) => {
      engineAddMany(engine, entries);
    },
    scores: () => engineScores(engine),
    retain: (pairs: readonly MetagraphPair[]) => {
      engineRetain(engine, metagraphMap(pairs));
    },
    state: () => engineState(engine),
  });
}
