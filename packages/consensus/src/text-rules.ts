import { asciiLower, asciiTrim, findLoneSurrogate } from '@subnet/core';

/**
 * Internal: the text rules of SPEC 0 as this package applies them when it builds a key. Folding and
 * trimming are ASCII only (`A-Z`/`a-z`, U+0009-U+000D and U+0020), so every runtime gives the same bytes.
 */

/** Whether `text` is empty once ASCII-trimmed. */
export function isBlank(text: string): boolean {
  return asciiTrim(text) === '';
}

/** ASCII-trimmed, then ASCII-lowercased: category, severity, capability, package, resource, action. */
export function foldLower(text: string): string {
  const trimmed = asciiTrim(text);
  // Most keys are already lowercase: look for A-Z before building a new string.
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return asciiLower(trimmed);
  }
  return trimmed;
}

type WellFormedString = string & { isWellFormed(): boolean };

/**
 * Whether `text` is well-formed UTF-16 (no lone surrogate). Uses the engine's `isWellFormed` where it
 * exists (Node.js 20), `findLoneSurrogate` otherwise; both answer the same.
 */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as Partial<WellFormedString>).isWellFormed === 'function'
    ? (text) => (text as WellFormedString).isWellFormed()
    : (text) => findLoneSurrogate(text) < 0;
