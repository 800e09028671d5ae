/**
 * Orders two validated SS58 hotkeys as `compareCodePoints` does, natively (internal). SS58 text is
 * base58, ASCII only, and below U+D800 code-unit order (`<`) is code-point order; the comparison of
 * thousands of evaluations by hotkey then costs a fraction of the general code-point walk.
 * Only for strings that passed `hotkeySchema` (or `isHotkey`): other text may hold surrogates.
 *
 * @param a - a validated hotkey
 * @param b - another
 * @returns negative, zero or positive, as `compareCodePoints(a, b)`
 */
export function compareHotkeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
