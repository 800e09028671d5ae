import { findLoneSurrogate } from '@subnet/core';
import { z } from 'zod';

/**
 * Internal: a zod string of `min..max` UTF-16 code units that is well-formed (SPEC 0: a lone surrogate
 * is invalid input).
 */
export function wellFormedText(min: number, max: number) {
  return z
    .string()
    .min(min)
    .max(max)
    .refine((text) => findLoneSurrogate(text) < 0, { message: 'text holds a lone UTF-16 surrogate' });
}

/** The engine's own check (ES2024 `String.prototype.isWellFormed`, Node.js >= 20), when it has one. */
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * Internal: whether a string is well-formed UTF-16 (no lone surrogate). The engine's native check when
 * present (it answers a one-byte string without reading it), else core's `findLoneSurrogate`; both give
 * the same answer for every string.
 */
export function isWellFormedText(text: string): boolean {
  return nativeWellFormed === undefined ? findLoneSurrogate(text) < 0 : nativeWellFormed.call(text);
}
