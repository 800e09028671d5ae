import { requireString } from './arguments.js';
import { CANONICAL_JSON_MAX_DEPTH, compareCodePoints } from './canonical-json.js';

/**
 * What {@link scanCanonicalJson} measured of a canonical JSON text: the sizes `checkInputShape` limits, read
 * off the text (for a canonical text they are exactly those of the parsed value, as it has no duplicate keys).
 */
export interface CanonicalJsonTextShape {
  /** Containers nested inside each other, the outermost counting 1 (0 for a text that is one scalar). */
  readonly depth: number;
  /** Elements of the longest array. */
  readonly longestList: number;
  /** UTF-16 code units of the longest string or key, once decoded. */
  readonly longestString: number;
  /** Keys of the largest object. */
  readonly mostKeys: number;
  /** Whether a string or key holds a lone surrogate (canonical JSON writes it as `\udxxx`). */
  readonly loneSurrogate: boolean;
}

/** 2^53 in decimal: a bare integer longer than this, or as long and larger, is written as a string. */
const TWO_POW_53_TEXT = '9007199254740992';

/** Thrown inside the scan at the first byte that is not canonical; never escapes {@link scanCanonicalJson}. */
const NOT_CANONICAL = new Error('not canonical JSON');

// The scan's state (module level: one scan runs at a time, and it never calls out to user code).
let src = '';
let at = 0;
let depthSeen = 0;
let longestList = 0;
let longestString = 0;
let mostKeys = 0;
let loneSurrogate = false;
/** Whether the last string scanned held a backslash (its text is not its value). */
let escaped = false;
/**
 * Whether `text` (or its slice from `start` to `end`) is exactly the canonical JSON of the value it parses
 * to, that is `canonicalJson(JSON.parse(text)) === text`, checked by one pass over the characters without
 * parsing or writing anything: no white space; object keys strictly increasing by Unicode code point (so no
 * duplicate); numbers in their shortest round-trip form with no `-0` and no integer beyond 2^53 (canonical
 * JSON writes those as decimal strings); strings escaped exactly as `JSON.stringify` escapes them (`\"`,
 * `\\`, `\b\f\n\r\t`, other controls and lone surrogates as lowercase `\u00xx` / `\udxxx`, everything else
 * as itself); at most 128 nested containers. When it is, it also returns the sizes the input limits check.
 *
 * @param text - the text
 * @param start - where the JSON starts (default 0)
 * @param end - where it ends (default the text's length)
 * @returns the text's shape when it is canonical JSON, undefined when it is not
 * @throws SubnetError `CORE_INVALID_ARGUMENT` when `text` is not a string
 * @example scanCanonicalJson('{"a":[1,2],"b":"x"}')?.longestList // 2
 * @example scanCanonicalJson('{"b":1,"a":2}') // undefined: keys out of order
 */
export function scanCanonicalJson(text: string, start = 0, end = text.length): CanonicalJsonTextShape | undefined {
  requireString(text, 'text');
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end > text.length || start >= end) return undefined;
  return scan(text, start, end);
}

function scan(text: string, start: number, end: number): CanonicalJsonTextShape | undefined {
  src = end === text.length ? text : text.slice(0, end);
  at = start;
  depthSeen = 0;
  longestList = 0;
  longestString = 0;
  mostKeys = 0;
  loneSurrogate = false;
  try {
    scanValue(0);
    if (at !== end) return undefined;
    return Object.freeze({ depth: depthSeen, longestList, longestString, mostKeys, loneSurrogate });
  } catch (error) {
    if (error === NOT_CANONICAL) return undefined;
    throw error;
  } finally {
    src = '';
  }
}

function scanValue(depth: number): void {
  const c = src.charCodeAt(at);
  if (c === 0x22) {
    scanString();
    return;
  }
  if (c === 0x7b) {
    scanObject(depth);
    return;
  }
  if (c === 0x5b) {
    scanArray(depth);
    return;
  }
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    scanNumber();
    return;
  }
  if (c === 0x74 && src.startsWith('true', at)) at += 4;
  else if (c === 0x66 && src.startsWith('false', at)) at += 5;
  else if (c === 0x6e && src.startsWith('null', at)) at += 4;
  else throw NOT_CANONICAL;
}

function enter(depth: number): void {
  if (depth >= CANONICAL_JSON_MAX_DEPTH) throw NOT_CANONICAL;
  if (depth + 1 > depthSeen) depthSeen = depth + 1;
}

function scanArray(depth: number): void {
  enter(depth);
  at++;
  if (src.charCodeAt(at) === 0x5d) {
    at++;
    return;
  }
  let n = 0;
  for (;;) {
    scanValue(depth + 1);
    n++;
    const c = src.charCodeAt(at++);
    if (c === 0x2c) continue;
    if (c !== 0x5d) throw NOT_CANONICAL;
    if (n > longestList) longestList = n;
    return;
  }
}

function scanObject(depth: number): void {
  enter(depth);
  at++;
  if (src.charCodeAt(at) === 0x7d) {
    at++;
    return;
  }
  let n = 0;
  let previousStart = -1;
  let previousEnd = -1;
  let previousEscaped = false;
  for (;;) {
    if (src.charCodeAt(at) !== 0x22) throw NOT_CANONICAL;
    const keyStart = at;
    scanString();
    const keyEnd = at;
    if (previousStart >= 0 && !keyAfter(previousStart, previousEnd, previousEscaped, keyStart, keyEnd, escaped)) throw NOT_CANONICAL;
    previousStart = keyStart;
    previousEnd = keyEnd;
    previousEscaped = escaped;
    if (src.charCodeAt(at++) !== 0x3a) throw NOT_CANONICAL;
    scanValue(depth + 1);
    n++;
    const c = src.charCodeAt(at++);
    if (c === 0x2c) continue;
    if (c !== 0x7d) throw NOT_CANONICAL;
    if (n > mostKeys) mostKeys = n;
    return;
  }
}

/**
 * Whether the key quoted at [b, bEnd) comes strictly after the one at [a, aEnd) by code point. Compared on
 * the text while neither holds an escape and the first difference is below the surrogates (where code unit
 * order is code point order); otherwise on the decoded keys.
 */
function keyAfter(a: number, aEnd: number, aEscaped: boolean, b: number, bEnd: number, bEscaped: boolean): boolean {
  if (!aEscaped && !bEscaped) {
    // Both quoted, so the closing quote ends the shorter one: compare inside the quotes.
    const la = aEnd - a - 2;
    const lb = bEnd - b - 2;
    const n = la < lb ? la : lb;
    let i = 1;
    while (i <= n && src.charCodeAt(a + i) === src.charCodeAt(b + i)) i++;
    if (i > n) return lb > la;
    const ca = src.charCodeAt(a + i);
    const cb = src.charCodeAt(b + i);
    if (ca < 0xd800 && cb < 0xd800) return cb > ca;
  }
  return compareCodePoints(JSON.parse(src.slice(a, aEnd)) as string, JSON.parse(src.slice(b, bEnd)) as string) < 0;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** A lowercase hex digit's value, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Scans a string from its opening quote; `escaped` tells whether it held a backslash. */
function scanString(): void {
  // Up to the first character that is a quote, a backslash, a control or a surrogate (past the end, NaN stops
  // it too): when that is the closing quote, no escape, control or surrogate came before it and the text is
  // the value. A loop over the codes, cheaper than a regular expression for the short strings of a bundle.
  const from = at + 1;
  let e = from;
  let c = src.charCodeAt(e);
  while (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) c = src.charCodeAt(++e);
  if (c === 0x22) {
    const length = e - from;
    at = e + 1;
    escaped = false;
    if (length > longestString) longestString = length;
    return;
  }
  let i = at + 1;
  let length = 0;
  let hasEscape = false;
  for (;;) {
    const c = src.charCodeAt(i);
    if (c === 0x22) break;
    if (c !== c) throw NOT_CANONICAL; // NaN: past the end
    if (c < 0x20) throw NOT_CANONICAL; // a raw control character is not JSON
    if (c === 0x5c) {
      hasEscape = true;
      const e = src.charCodeAt(i + 1);
      if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        i += 2;
      } else if (e === 0x75) {
        const d0 = hexDigit(src.charCodeAt(i + 2));
        const d1 = hexDigit(src.charCodeAt(i + 3));
        const d2 = hexDigit(src.charCodeAt(i + 4));
        const d3 = hexDigit(src.charCodeAt(i + 5));
        if ((d0 | d1 | d2 | d3) < 0) throw NOT_CANONICAL;
        const unit = (d0 << 12) | (d1 << 8) | (d2 << 4) | d3;
        i += 6;
        if (unit < 0x20) {
          // JSON.stringify writes these five with their short escapes.
          if (unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d) throw NOT_CANONICAL;
        } else if (unit >= 0xd800 && unit <= 0xdfff) {
          // Only a lone surrogate is escaped: a high one followed by a low one (escaped or not) is a pair,
          // which JSON.stringify writes as itself; a low one after a high one is the same pair seen from its end.
          if (unit <= 0xdbff) {
            if (src.charCodeAt(i) === 0x5c && src.charCodeAt(i + 1) === 0x75) {
              const next = parseInt(src.slice(i + 2, i + 6), 16);
              if (isLowSurrogate(next)) throw NOT_CANONICAL;
            } else if (isLowSurrogate(src.charCodeAt(i))) throw NOT_CANONICAL;
          }
          loneSurrogate = true;
        } else throw NOT_CANONICAL; // any other character is written as itself
      } else throw NOT_CANONICAL; // `\/` and anything else
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate written as itself must be the high half of a pair followed by its low half.
      if (c > 0xdbff || !isLowSurrogate(src.charCodeAt(i + 1))) throw NOT_CANONICAL;
      i += 2;
      length++;
    } else i++;
    length++;
  }
  at = i + 1;
  escaped = hasEscape;
  if (length > longestString) longestString = length;
}

/**
 * Scans a number. Integers are canonical as written when they have no leading zero, are not `-0` and are at
 * most 2^53 in magnitude; anything with a fraction or an exponent must be its own shortest round-trip form.
 */
function scanNumber(): void {
  const start = at;
  let i = at;
  if (src.charCodeAt(i) === 0x2d) i++;
  const digitsStart = i;
  let c = src.charCodeAt(i);
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    i++;
    for (c = src.charCodeAt(i); c >= 0x30 && c <= 0x39; c = src.charCodeAt(i)) i++;
  } else throw NOT_CANONICAL;
  const intEnd = i;
  c = src.charCodeAt(i);
  if (c !== 0x2e && c !== 0x65 && c !== 0x45) {
    at = i;
    const digits = intEnd - digitsStart;
    if (digits === 1 && src.charCodeAt(digitsStart) === 0x30 && digitsStart > start) throw NOT_CANONICAL; // -0
    if (digits < 16) return;
    if (digits > 16 || src.slice(digitsStart, intEnd) > TWO_POW_53_TEXT) throw NOT_CANONICAL;
    return;
  }
  if (c === 0x2e) {
    i++;
    const fractionStart = i;
    c = src.charCodeAt(i);
    if (!(c >= 0x30 && c <= 0x39)) throw NOT_CANONICAL;
    for (; c >= 0x30 && c <= 0x39; c = src.charCodeAt(i)) i++;
    if (c !== 0x65 && c !== 0x45 && shortestFixed(digitsStart, intEnd, fractionStart, i)) {
      at = i;
      return;
    }
  }
  if (c === 0x65 || c === 0x45) {
    // String writes a lowercase `e`, and `e+` only for integers beyond 2^53, which canonical JSON quotes.
    if (c === 0x45) throw NOT_CANONICAL;
    i++;
    c = src.charCodeAt(i);
    if (c === 0x2b) throw NOT_CANONICAL;
    if (c === 0x2d) c = src.charCodeAt(++i);
    if (!(c >= 0x30 && c <= 0x39)) throw NOT_CANONICAL;
    for (; c >= 0x30 && c <= 0x39; c = src.charCodeAt(i)) i++;
  }
  at = i;
  const token = src.slice(start, i);
  const x = Number(token);
  if (String(x) !== token || (Number.isInteger(x) && Math.abs(x) > 2 ** 53)) throw NOT_CANONICAL;
}

/**
 * Whether a fixed-point number (`int.fraction`, no exponent) is its own shortest round-trip form without
 * converting it: at most 15 significant digits (any two decimals that short are different doubles, so no
 * shorter or other form of as many digits reads back as the same one), no trailing zero in the fraction,
 * and at most 5 zeros after `0.` (from 10^-7 down, `String` writes an exponent). Others are converted.
 */
function shortestFixed(intStart: number, intEnd: number, fractionStart: number, end: number): boolean {
  if (src.charCodeAt(end - 1) === 0x30) return false;
  let significant = end - fractionStart;
  if (intEnd - intStart === 1 && src.charCodeAt(intStart) === 0x30) {
    let zeros = 0;
    while (src.charCodeAt(fractionStart + zeros) === 0x30) zeros++;
    if (zeros > 5) return false;
    significant -= zeros;
  } else significant += intEnd - intStart;
  return significant <= 15;
}
