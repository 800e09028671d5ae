import { canonicalJson } from '@subnet/core';

/** One difference between the recomputed (expected) and the claimed value of a bundle. */
export interface JsonDifference {
  /** Exact path into the claimed document, e.g. `result.aggregation.challenges[1].cap.mass`. */
  readonly path: string;
  /** Path segments (keys and claimed-array indices; a missing element has the expected index). */
  readonly segments: readonly (string | number)[];
  /** `value`: both present and different; `missing`: expected but absent in the claim; `extra`: claimed only. */
  readonly kind: 'value' | 'missing' | 'extra';
  /** The recomputed value (absent for `extra`). */
  readonly expected?: unknown;
  /** The claimed value (absent for `missing`). */
  readonly claimed?: unknown;
}

/**
 * Keys that identify an element of a list, tried in this order: a list whose elements all carry one of them
 * with unique values (in both documents) is matched by that key, not by index.
 *
 * @example IDENTITY_KEYS.includes('hotkey') // true
 */
export const IDENTITY_KEYS = Object.freeze(['id', 'challenge_id', 'hotkey', 'miner_hotkey', 'record_id', 'task_id', 'uid'] as const);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The identity key shared by every element of both lists, with unique values in each, or undefined. */
function identityKey(a: readonly unknown[], b: readonly unknown[]): string | undefined {
  if (a.length === 0 && b.length === 0) return undefined;
  for (const key of IDENTITY_KEYS) {
    if (uniqueBy(a, key) && uniqueBy(b, key)) return key;
  }
  return undefined;
}

function uniqueBy(list: readonly unknown[], key: string): boolean {
  const seen = new Set<string>();
  for (const item of list) {
    if (!isObject(item)) return false;
    const value = item[key];
    if (typeof value !== 'string' && typeof value !== 'number') return false;
    const k = `${typeof value}:${String(value)}`;
    if (seen.has(k)) return false;
    seen.add(k);
  }
  return true;
}

/**
 * Formats path segments as `a.b[2].c` (keys that are not identifiers are quoted).
 *
 * @param segments - keys and indices
 * @returns the path text
 * @example formatJsonPath(['result', 'u16', 'weights', 3]) // 'result.u16.weights[3]'
 */
export function formatJsonPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/**
 * Compares two JSON values exactly, value by value, by canonical JSON (SPEC 0): object keys are compared
 * as sets, leaves by their canonical bytes (so `0.30000000000000004` and `0.3` differ), lists whose
 * elements all carry a unique identity key ({@link IDENTITY_KEYS}: challenge id, hotkey, record id, uid)
 * are matched by that key so that one missing miner does not shift every later one, other lists by index.
 * Pure: no scoring, only structural comparison.
 *
 * @param expected - the recomputed value
 * @param claimed - the value the bundle claims
 * @param base - path segments to prefix (e.g. `['result']`)
 * @returns every difference, in document order of the claim (expected-only entries after)
 * @example diffJson({ a: [1, 2] }, { a: [1, 3] }, ['result'])[0].path // 'result.a[1]'
 */
export function diffJson(expected: unknown, claimed: unknown, base: readonly (string | number)[] = []): readonly JsonDifference[] {
  const out: JsonDifference[] = [];
  walk(expected, claimed, [...base], out);
  return Object.freeze(out);
}

function push(out: JsonDifference[], segments: (string | number)[], kind: JsonDifference['kind'], expected: unknown, claimed: unknown): void {
  const seg = Object.freeze([...segments]);
  out.push(
    Object.freeze({
      path: formatJsonPath(seg),
      segments: seg,
      kind,
      ...(kind === 'extra' ? {} : { expected }),
      ...(kind === 'missing' ? {} : { claimed }),
    }),
  );
}

function walk(expected: unknown, claimed: unknown, segments: (string | number)[], out: JsonDifference[]): void {
  if (Array.isArray(expected) && Array.isArray(claimed)) {
    const key = identityKey(expected, claimed);
    if (key === undefined) {
      const n = Math.max(expected.length, claimed.length);
      for (let i = 0; i < n; i++) {
        segments.push(i);
        if (i >= claimed.length) push(out, segments, 'missing', expected[i], undefined);
        else if (i >= expected.length) push(out, segments, 'extra', undefined, claimed[i]);
        else walk(expected[i], claimed[i], segments, out);
        segments.pop();
      }
      return;
    }
    const byKey = new Map<string, { item: unknown; index: number }>();
    expected.forEach((item, index) => byKey.set(keyOf(item, key), { item, index }));
    const seen = new Set<string>();
    claimed.forEach((item, index) => {
      const k = keyOf(item, key);
      seen.add(k);
      segments.push(index);
      const match = byKey.get(k);
      if (match === undefined) push(out, segments, 'extra', undefined, item);
      else walk(match.item, item, segments, out);
      segments.pop();
    });
    for (const [k, { item, index }] of byKey) {
      if (seen.has(k)) continue;
      segments.push(index);
      push(out, segments, 'missing', item, undefined);
      segments.pop();
    }
    if (expected.length === claimed.length && expected.some((e, i) => keyOf(e, key) !== keyOf(claimed[i], key)) && sameMembers(expected, claimed, key)) {
      // Same members in another order: the canonical bytes differ, so the list order itself is a difference.
      push(
        out,
        segments,
        'value',
        expected.map((e) => keyOf(e, key, true)),
        claimed.map((c) => keyOf(c, key, true)),
      );
    }
    return;
  }
  if (isObject(expected) && isObject(claimed)) {
    const keys = new Set([...Object.keys(claimed), ...Object.keys(expected)]);
    for (const k of [...keys].sort()) {
      segments.push(k);
      // Own keys only: keys are data (SPEC 0), so a claimed `toString` or `__proto__` is an extra key, not a
      // member of Object.prototype to compare with (a function canonical JSON cannot write).
      if (!Object.hasOwn(claimed, k)) push(out, segments, 'missing', expected[k], undefined);
      else if (!Object.hasOwn(expected, k)) push(out, segments, 'extra', undefined, claimed[k]);
      else walk(expected[k], claimed[k], segments, out);
      segments.pop();
    }
    return;
  }
  if (!sameLeaf(expected, claimed)) push(out, segments, 'value', expected, claimed);
}

/**
 * Canonical-JSON equality of two values that are not both lists nor both objects. Fast path: a finite
 * safe number, a string, a boolean or null has the same canonical bytes as another exactly when the two
 * are `===` (shortest round-trip doubles are one-to-one; 0 and -0 both print `0`). Anything else (integers
 * beyond 2^53, which canonical JSON writes as decimal strings; mixed kinds) goes through `canonicalJson`.
 */
function sameLeaf(a: unknown, b: unknown): boolean {
  if (typeof a === typeof b && simpleLeaf(a) && simpleLeaf(b)) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

function simpleLeaf(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Math.abs(v) <= Number.MAX_SAFE_INTEGER);
}

function keyOf(item: unknown, key: string, raw?: true): string {
  const value = (item as Record<string, unknown>)[key];
  return raw ? String(value) : `${typeof value}:${String(value)}`;
}

function sameMembers(a: readonly unknown[], b: readonly unknown[], key: string): boolean {
  const sa = a.map((x) => keyOf(x, key)).sort();
  const sb = b.map((x) => keyOf(x, key)).sort();
  return sa.length === sb.length && sa.every((x, i) => x === sb[i]);
}
