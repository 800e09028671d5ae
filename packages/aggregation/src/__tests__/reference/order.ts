// Slow reference: the implementation before the performance rewrite (commit 5f1f640), kept verbatim for reference.test.ts; only import paths changed. Do not optimise.
/**
 * Ordering helpers (internal). Hotkeys are SS58 text, i.e. base58 ASCII, for which UTF-16 code-unit order
 * equals the code-point order SPEC 0 asks for, so plain comparison is exact and fast.
 */
import type { Hotkey } from '@subnet/core';

/** Orders two hotkeys by code point (ASCII). */
export function compareHotkeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sums values left to right, in the order given (callers sort first). */
export function sumInOrder(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** One miner's weight, keyed by hotkey (every stage before the uid mapping, SPEC C.9). */
export interface HotkeyWeight {
  readonly hotkey: Hotkey;
  readonly weight: number;
}

/** Deep-freezes a plain object or array tree (results are frozen plain objects). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
