import { encodeSs58, hotkeySchema, isSubnetError } from '@subnet/core';
import type { Hotkey } from '@subnet/core';
import { expect } from 'vitest';

/** A valid, checksummed SS58 hotkey made from a number (deterministic). */
export function hotkey(n: number): Hotkey {
  const key = new Uint8Array(32);
  new DataView(key.buffer).setUint32(0, n + 1);
  key[31] = 7;
  return hotkeySchema.parse(encodeSs58(key));
}

/** n distinct hotkeys, sorted ascending (so index order is hotkey order). */
export function sortedHotkeys(n: number, offset = 0): Hotkey[] {
  return Array.from({ length: n }, (_, i) => hotkey(i + offset)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Asserts that `run` throws a SubnetError with `code` whose context names `path`. */
export function expectError(run: () => unknown, code: string, path?: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(isSubnetError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
  if (path !== undefined) expect((caught as { context: { path: string } }).context.path).toBe(path);
}
