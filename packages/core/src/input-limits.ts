import { invalidArgument } from './arguments.js';
import { CORE_ERROR_CODES } from './error-codes.js';
import { SubnetError } from './errors.js';
import { formatPath } from './parse.js';
import { findLoneSurrogate } from './text.js';

/** Code raised when input nests deeper than {@link InputLimits.maxDepth}. */
export const CORE_INPUT_TOO_DEEP = CORE_ERROR_CODES.inputTooDeep;
/** Code raised when a list, string or object of the input is larger than its limit. */
export const CORE_INPUT_TOO_LARGE = CORE_ERROR_CODES.inputTooLarge;
/** Code raised when input holds something JSON cannot carry (a lone surrogate, NaN, a function, ...). */
export const CORE_INPUT_NOT_JSON = CORE_ERROR_CODES.inputNotJson;

/** The deepest `maxDepth` a caller may configure (the walk recurses once per level). */
const MAX_CONFIGURABLE_DEPTH = 1024;

/** The size limits every boundary enforces before a schema runs (SPEC 0 "Hostile shapes"). */
export interface InputLimits {
  /** Containers (objects and arrays) nested inside each other, the outermost counting 1. SPEC 0: 64. */
  readonly maxDepth: number;
  /** Elements of one array. */
  readonly maxListLength: number;
  /** UTF-16 code units of one string (object keys included). */
  readonly maxStringLength: number;
  /** Own keys of one object. */
  readonly maxObjectKeys: number;
}

/** SPEC 0's depth (64) and this project's default size limits; every boundary may configure smaller ones. */
export const DEFAULT_INPUT_LIMITS: InputLimits = Object.freeze({
  maxDepth: 64,
  maxListLength: 100_000,
  maxStringLength: 1_048_576,
  maxObjectKeys: 10_000,
});

/** Context of the errors {@link checkInputShape} raises. */
export interface InputShapeErrorContext {
  readonly path: string;
  readonly value: unknown;
  /** The limit that was exceeded (for the `TOO_` codes). */
  readonly limit?: number;
  /** Which limit that is (for the `TOO_` codes), so a caller can name the option that sets it (`--max-list-length`). */
  readonly limitName?: keyof InputLimits;
  readonly [key: string]: unknown;
}

function preview(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** The walk's state: the limits, and the keys from the root to the value being checked (pushed and popped). */
interface Walk {
  readonly max: InputLimits;
  readonly label: string;
  readonly path: PropertyKey[];
}

function fail(walk: Walk, code: string, summary: string, value: unknown, limitName?: keyof InputLimits): never {
  throw new SubnetError<InputShapeErrorContext>(code, summary, {
    context: { path: formatPath(walk.path, walk.label), value, ...(limitName === undefined ? {} : { limit: walk.max[limitName], limitName }) },
  });
}

function checkLimits(limits: unknown): InputLimits {
  if (limits === undefined) return DEFAULT_INPUT_LIMITS;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
    invalidArgument('limits', 'limits must be an object of positive integers', limits);
  const max = { ...DEFAULT_INPUT_LIMITS };
  for (const field of ['maxDepth', 'maxListLength', 'maxStringLength', 'maxObjectKeys'] as const) {
    if (!Object.hasOwn(limits, field)) continue;
    const value: unknown = (limits as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) invalidArgument(`limits.${field}`, 'a limit must be an integer >= 1', value);
    max[field] = value;
  }
  if (max.maxDepth > MAX_CONFIGURABLE_DEPTH) invalidArgument('limits.maxDepth', `maxDepth is at most ${MAX_CONFIGURABLE_DEPTH}`, max.maxDepth);
  return max;
}

/**
 * Checks the shape of untrusted JSON-like input before any schema sees it (SPEC 0 "Hostile shapes"):
 * nesting at most `maxDepth` containers, every array, string and object within its size limit, every
 * string and key well-formed UTF-16, and only JSON's values (plain objects, arrays, strings, finite
 * numbers, booleans, null). The walk descends at most `maxDepth` levels (<= 1024) before it rejects, so
 * input of any depth is rejected with a coded error, never a stack overflow; it allocates no path until
 * it fails. Keys are read as data (`__proto__` and `constructor` are ordinary keys).
 *
 * @param value - the parsed input (for example from `JSON.parse`)
 * @param limits - the limits to apply (defaults to {@link DEFAULT_INPUT_LIMITS}; missing fields too)
 * @param label - the root's name in error paths (`sssa`, `record`)
 * @throws SubnetError `CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE` or `CORE_INPUT_NOT_JSON`, naming the path (the
 *   `TOO_` codes also the limit and its name in `context.limit` and `context.limitName`);
 *   `CORE_INVALID_ARGUMENT` when a limit is not an integer >= 1 (maxDepth <= 1024) or `label` is not a string
 * @example checkInputShape(JSON.parse(body), { maxDepth: 64 }, 'sssa')
 */
export function checkInputShape(value: unknown, limits: Partial<InputLimits> = {}, label = ''): void {
  if (typeof label !== 'string') invalidArgument('label', 'must be a string', label);
  walkValue({ max: checkLimits(limits), label, path: [] }, value, 0);
}

function walkValue(walk: Walk, v: unknown, depth: number): void {
  const max = walk.max;
  switch (typeof v) {
    case 'string': {
      if (v.length > max.maxStringLength)
        fail(walk, CORE_INPUT_TOO_LARGE, `a string is longer than ${max.maxStringLength} characters (${v.length})`, preview(v), 'maxStringLength');
      const at = findLoneSurrogate(v);
      if (at >= 0) fail(walk, CORE_INPUT_NOT_JSON, `a string holds a lone UTF-16 surrogate at index ${at}`, preview(v));
      return;
    }
    case 'number':
      if (!Number.isFinite(v)) fail(walk, CORE_INPUT_NOT_JSON, 'a number is not finite', v);
      return;
    case 'boolean':
      return;
    case 'object': {
      if (v === null) return;
      if (depth + 1 > max.maxDepth)
        fail(walk, CORE_INPUT_TOO_DEEP, `input nests deeper than ${max.maxDepth} levels`, Array.isArray(v) ? '[array]' : '[object]', 'maxDepth');
      const path = walk.path;
      if (Array.isArray(v)) {
        if (v.length > max.maxListLength)
          fail(walk, CORE_INPUT_TOO_LARGE, `a list has more than ${max.maxListLength} elements (${v.length})`, `[${v.length} elements]`, 'maxListLength');
        for (let i = 0; i < v.length; i++) {
          path.push(i);
          walkValue(walk, v[i], depth + 1);
          path.pop();
        }
        return;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) fail(walk, CORE_INPUT_NOT_JSON, 'only plain objects are JSON', '[instance]');
      const keys = Object.keys(v);
      if (keys.length > max.maxObjectKeys)
        fail(walk, CORE_INPUT_TOO_LARGE, `an object has more than ${max.maxObjectKeys} keys (${keys.length})`, `{${keys.length} keys}`, 'maxObjectKeys');
      for (const key of keys) {
        if (key.length > max.maxStringLength)
          fail(walk, CORE_INPUT_TOO_LARGE, `a key is longer than ${max.maxStringLength} characters (${key.length})`, preview(key), 'maxStringLength');
        if (findLoneSurrogate(key) >= 0) fail(walk, CORE_INPUT_NOT_JSON, 'a key holds a lone UTF-16 surrogate', preview(key));
        path.push(key);
        walkValue(walk, (v as Record<string, unknown>)[key], depth + 1);
        path.pop();
      }
      return;
    }
    default:
      fail(walk, CORE_INPUT_NOT_JSON, `${typeof v} is not a JSON value`, `[${typeof v}]`);
  }
}
