import type { Hotkey, Uid } from '@subnet/core';

/** How many task scores a miner's window keeps (SPEC section A: the last 100, equal weight). */
export const WINDOW_CAPACITY = 100;

/**
 * One miner's window (wire format): the held task scores of one (uid, hotkey) pair in arrival order,
 * oldest first, with their task ids, record ids and arrivals (parallel lists of 1..100 values).
 */
export interface MinerWindow {
  readonly uid: Uid;
  readonly hotkey: Hotkey;
  readonly scores: readonly number[];
  readonly task_ids: readonly string[];
  readonly record_ids: readonly string[];
  readonly arrivals: readonly number[];
}

/**
 * The rolling-window state: plain JSON, `{ version: 2, windows: [...] }`, windows sorted by uid then
 * hotkey (code point order). Persist it as is; load it with `parseWindowState` (a profile v1 state,
 * `{ version: 1, miners: {...} }`, is read too and converted).
 */
export interface WindowState {
  readonly version: 2;
  readonly windows: readonly MinerWindow[];
}

/** One task score for the window (TypeScript API). */
export interface TaskScoreEntry {
  /** The miner's uid (0..65535). */
  readonly uid: number;
  /** The miner's SS58 hotkey. The window is the (uid, hotkey) pair's. */
  readonly hotkey: string;
  /** The task id. Any number of entries may share one (a re-run is a new entry, SPEC A v1.1). */
  readonly taskId: string;
  /** The caller's arrival sequence number (integer >= 0, the validator's acceptance sequence). */
  readonly arrival: number;
  /** The record id, second part of the arrival key (ties of `arrival`); defaults to `taskId`. */
  readonly recordId?: string;
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

/** A (uid, hotkey) pair of the epoch's metagraph, for `retainWindows`. */
export interface MetagraphPair {
  readonly uid: number;
  readonly hotkey: string;
}
