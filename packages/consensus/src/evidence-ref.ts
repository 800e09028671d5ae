import { asciiTrim, SubnetError } from '@subnet/core';

import { CONSENSUS_ERROR_CODES } from './errors.js';
import { isWellFormed } from './text-rules.js';

/** The UTF-16 code units the range grammar reads. */
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const L = 0x4c;

/** A line range found at the end of a reference: its two bounds as digit strings and where it starts. */
interface RangeMatch {
  readonly a: string;
  readonly b: string | undefined;
  readonly start: number;
}

/** Where the run of ASCII digits that ends just before `end` starts (`end` when there is none). */
function digitsBefore(text: string, end: number): number {
  let at = end;
  while (at > 0) {
    const c = text.charCodeAt(at - 1);
    if (c < 0x30 || c > 0x39) break;
    at--;
  }
  return at;
}

/**
 * The line range at the very end of `text`, as the regular expressions `#L(\d+)(?:-L(\d+))?$` and then
 * `:(\d+)(?:-(\d+))?$` (digits ASCII) would find it, without running them: `#L<a>-L<b>`, `#L<a>`,
 * `:<a>-<b>`, `:<a>`, tried in that order. `evidence-ref.test.ts` checks it against those expressions.
 */
function rangeAtEnd(text: string): RangeMatch | undefined {
  const end = text.length;
  const last = digitsBefore(text, end);
  if (last === end) return undefined;
  const tail = text.slice(last);
  // #L<a>-L<b>
  if (last >= 2 && text.charCodeAt(last - 1) === L && text.charCodeAt(last - 2) === DASH) {
    const first = digitsBefore(text, last - 2);
    if (first < last - 2 && first >= 2 && text.charCodeAt(first - 1) === L && text.charCodeAt(first - 2) === HASH) {
      return { a: text.slice(first, last - 2), b: tail, start: first - 2 };
    }
  }
  // #L<a>
  if (last >= 2 && text.charCodeAt(last - 1) === L && text.charCodeAt(last - 2) === HASH) return { a: tail, b: undefined, start: last - 2 };
  // :<a>-<b>
  if (last >= 1 && text.charCodeAt(last - 1) === DASH) {
    const first = digitsBefore(text, last - 1);
    if (first < last - 1 && first >= 1 && text.charCodeAt(first - 1) === COLON) return { a: text.slice(first, last - 1), b: tail, start: first - 1 };
  }
  // :<a>
  if (last >= 1 && text.charCodeAt(last - 1) === COLON) return { a: tail, b: undefined, start: last - 1 };
  return undefined;
}

/** Outcome of normalising an evidence reference without throwing. */
export type EvidenceRefOutcome = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly message: string };

/** Drops leading zeros from a decimal digit string ("007" -> "7", "0" stays "0"). */
function canonicalLine(digits: string): string {
  let at = 0;
  while (at < digits.length - 1 && digits.charCodeAt(at) === 0x30) at++;
  return at === 0 ? digits : digits.slice(at);
}

/** Compares two canonical decimal strings as integers of any size. */
function lineGreater(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

function normalise(ref: string): EvidenceRefOutcome {
  if (!isWellFormed(ref)) return { ok: false, message: 'the reference holds a lone UTF-16 surrogate' };
  // 1. trim (ASCII whitespace, SPEC 0); a span id before the first ':' (no '/' and no '.') is dropped with its ':'.
  let text = asciiTrim(ref);
  const colon = text.indexOf(':');
  if (colon >= 0) {
    const head = text.slice(0, colon);
    if (!head.includes('/') && !head.includes('.')) text = text.slice(colon + 1);
  }
  // 2. split off a line range at the end.
  let range = '';
  const match = rangeAtEnd(text);
  if (match !== undefined) {
    const a = canonicalLine(match.a);
    const b = match.b === undefined ? a : canonicalLine(match.b);
    if (lineGreater(a, b)) return { ok: false, message: `the line range starts after it ends (${a} > ${b})` };
    range = `#L${a}-L${b}`;
    text = text.slice(0, match.start);
  }
  // 3. the path: backslashes to '/', leading './' removed, repeated '/' collapsed.
  let path = text.includes('\\') ? text.replace(/\\/g, '/') : text;
  while (path.startsWith('./')) path = path.slice(2);
  if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
  if (path === '') return { ok: false, message: 'the path is empty' };
  // 4. path#La-Lb, or just the path.
  return { ok: true, value: path + range };
}

/**
 * Normalises an evidence reference without throwing (used by the schema and the key).
 *
 * @param ref - the raw `evidence_ref`
 * @returns the normalised form, or why it cannot be normalised
 */
export function tryNormaliseEvidenceRef(ref: string): EvidenceRefOutcome {
  return normalise(ref);
}

/**
 * Normalises a finding's `evidence_ref` as SPEC section B prescribes, so that two miners pointing at the
 * same lines of the same file write the same text:
 *
 * 1. trim (ASCII whitespace only, SPEC 0); if the text before the first `:` contains neither `/` nor `.`, it is a per-miner span id: drop
 *    it and the `:`;
 * 2. split off a line range `#L<a>` / `#L<a>-L<b>`, or `:<a>` / `:<a>-<b>`, at the end; a single line `a`
 *    becomes `a-a`; leading zeros are dropped; `a > b` is invalid;
 * 3. the path: backslashes become `/`, leading `./` are removed, runs of `/` collapse to one;
 * 4. the result is `path#La-Lb`, or just `path` without a range.
 *
 * @param ref - the raw `evidence_ref`
 * @returns the normalised reference
 * @throws SubnetError `CONSENSUS_INVALID_EVIDENCE_REF` when `ref` is not a string, holds a lone
 *   surrogate, the range has a > b or the path is empty (path `evidence_ref`, value the raw reference)
 * @example
 * normaliseEvidenceRef('p1-span-7:.\\tools\\getfile.py:12') // 'tools/getfile.py#L12-L12'
 */
export function normaliseEvidenceRef(ref: string): string {
  if (typeof ref !== 'string') {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidEvidenceRef, 'an evidence reference must be a string', {
      context: { path: 'evidence_ref', value: ref },
    });
  }
  const outcome = tryNormaliseEvidenceRef(ref);
  if (!outcome.ok) {
    throw new SubnetError(CONSENSUS_ERROR_CODES.invalidEvidenceRef, `invalid evidence reference: ${outcome.message}`, {
      context: { path: 'evidence_ref', value: ref },
    });
  }
  return outcome.value;
}
