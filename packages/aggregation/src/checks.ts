/**
 * Cheap runtime checks for the typed (camelCase) API. Wire input is parsed with the zod schemas of
 * `schemas.ts`; these checks keep the typed functions safe for plain-JavaScript callers without paying
 * for a schema parse per record. Internal: not exported from the package.
 */
import { findLoneSurrogate } from '@subnet/core';
import type { Hotkey } from '@subnet/core';

import { AGGREGATION_ERROR_CODES, fail } from './errors.js';

const INVALID = AGGREGATION_ERROR_CODES.invalidInput;

/** A finite number >= 0. */
export function checkNonNegative(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(INVALID, 'expected a finite number >= 0', path, value);
  }
  return value;
}

/** A finite number in [0, 1]. */
export function checkUnit(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    fail(INVALID, 'expected a number in [0, 1]', path, value);
  }
  return value;
}

/** An integer in [min, max]. */
export function checkInteger(value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(INVALID, `expected an integer from ${min} to ${max}`, path, value);
  }
  return value;
}

/** A u16 uid. */
export function checkUid(value: unknown, path: string): number {
  return checkInteger(value, path, 0, 65535);
}

/**
 * A hotkey of the typed API: a non-empty string. Checksums are verified where wire input is parsed
 * (`hotkeySchema`); the `Hotkey` brand records that this happened.
 */
export function checkHotkey(value: unknown, path: string): Hotkey {
  if (typeof value !== 'string' || value.length === 0) fail(INVALID, 'expected a hotkey (SS58 string)', path, value);
  return value as Hotkey;
}

/** An array. */
export function checkArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(INVALID, 'expected an array', path, value);
  return value as readonly unknown[];
}

/** A plain object. */
export function checkObject(value: unknown, path: string): Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(INVALID, 'expected an object', path, value);
  return value as Readonly<Record<string, unknown>>;
}

/** One of a fixed set of strings. */
export function checkOneOf(value: unknown, allowed: readonly string[], path: string): void {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    fail(INVALID, `expected one of ${allowed.map((a) => `'${a}'`).join(', ')}`, path, value);
  }
}

/**
 * A challenge id: a non-empty, well-formed string (no lone surrogate, SPEC 0). Any text is data: `__proto__`
 * and `constructor` are ordinary ids (callers key Maps with it, never plain objects).
 */
export function checkChallengeId(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(INVALID, 'expected a challenge id (a non-empty string)', path, value);
  const at = findLoneSurrogate(value);
  if (at !== -1) fail(INVALID, `a challenge id must be well-formed text (a lone surrogate at index ${at})`, path, value);
  return value;
}
