import { requireString } from './arguments.js';
import { CORE_ERROR_CODES } from './error-codes.js';
import { SubnetError } from './errors.js';

/** Code raised by {@link assertWellFormed} for a string that holds a lone UTF-16 surrogate. */
export const CORE_MALFORMED_TEXT = CORE_ERROR_CODES.malformedText;

/**
 * Lowercases ASCII only (SPEC 0 "Text is ASCII-folded"): `A`-`Z` become `a`-`z`, every other code point
 * is kept as it is, so every language and runtime produces the same bytes whatever its Unicode tables
 * (`'İ'.toLowerCase()` differs between them; `asciiLower('İ')` is `'İ'` everywhere).
 *
 * @param text - any string
 * @returns the string with `A-Z` mapped to `a-z`
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when `text` is not a string
 * @example asciiLower('High Ä') // 'high Ä'
 */
export function asciiLower(text: string): string {
  requireString(text, 'text');
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/**
 * Uppercases ASCII only (SPEC 0): `a`-`z` become `A`-`Z`, every other code point is kept.
 *
 * @param text - any string
 * @returns the string with `a-z` mapped to `A-Z`
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when `text` is not a string
 * @example asciiUpper('cve-2024-ß') // 'CVE-2024-ß'
 */
export function asciiUpper(text: string): string {
  requireString(text, 'text');
  return /[a-z]/.test(text) ? text.replace(/[a-z]+/g, (run) => run.toUpperCase()) : text;
}

/** ASCII whitespace of SPEC 0: U+0009 to U+000D and U+0020. */
function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * Trims ASCII whitespace only (U+0009 to U+000D and U+0020) from both ends (SPEC 0). Unlike
 * `String.prototype.trim`, a no-break space (U+00A0), U+2028 or U+FEFF is kept.
 *
 * @param text - any string
 * @returns the string without leading and trailing ASCII whitespace
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when `text` is not a string
 * @example asciiTrim('\t a \u00a0') // 'a \u00a0'
 */
export function asciiTrim(text: string): string {
  requireString(text, 'text');
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** `String.prototype.isWellFormed` where the runtime has it (internal). */
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * Tells whether a string is well-formed UTF-16: every high surrogate is followed by a low one and every
 * low surrogate follows a high one (SPEC 0: a lone surrogate is invalid input).
 *
 * @param text - any string
 * @returns the index of the first lone surrogate, or -1 when the string is well formed
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when `text` is not a string
 * @example findLoneSurrogate('a\ud800') // 1
 */
export function findLoneSurrogate(text: string): number {
  requireString(text, 'text');
  // The native check (ES2024, Node.js >= 20) answers the common case, well-formed text, many times faster
  // than the loop below, which then runs only to find where the first lone surrogate is.
  if (nativeIsWellFormed !== undefined && nativeIsWellFormed.call(text)) return -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/**
 * Throws unless a string is well-formed UTF-16 (SPEC 0).
 *
 * @param text - the string to check
 * @param path - where the string is in its input, for the message (`findings[2].description`)
 * @param code - the error code to raise (defaults to `CORE_MALFORMED_TEXT`)
 * @throws SubnetError `code`, naming the path and the index of the lone surrogate; `CORE_INVALID_ARGUMENT`
 *   when an argument is not a string
 * @example assertWellFormed('ok', 'sssa.verdict') // returns
 */
export function assertWellFormed(text: string, path: string, code: string = CORE_MALFORMED_TEXT): void {
  requireString(text, 'text');
  requireString(path, 'path');
  requireString(code, 'code');
  const at = findLoneSurrogate(text);
  if (at >= 0) {
    throw new SubnetError(code, `text holds a lone UTF-16 surrogate (U+${text.charCodeAt(at).toString(16).toUpperCase()}) at index ${at}`, {
      context: { path, value: `${text.slice(0, 32)}${text.length > 32 ? '...' : ''}`, index: at },
    });
  }
}
