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
