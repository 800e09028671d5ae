import { SubnetError } from './errors.js';
import { formatPath } from './parse.js';
import { findLoneSurrogate } from './text.js';

/** Code raised when input nests deeper than {@link InputLimits.maxDepth}. */
export const CORE_INPUT_TOO_DEEP = 'CORE_INPUT_TOO_DEEP';
/** Code raised when a list, string or object of the input is larger than its limit. */
export const CORE_INPUT_TOO_LARGE = 'CORE_INPUT_TOO_LARGE';
/** Code raised when input holds something JSON cannot carry (a lone surrogate, NaN, a function, ...). */
export const CORE_INPUT_NOT_JSON = 'CORE_INPUT_NOT_JSON';

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
  readonly [key: string]: unknown;
}

function fail(code: string, summary: string, path: readonly PropertyKey[], label: string, value: unknown, limit?: number): never {
  throw new SubnetError<InputShapeErrorContext>(code, summary, {
    context: { path: formatPath(path, label), value, ...(limit === undefined ? {} : { limit }) },
  });
}

function preview(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/**
 * Checks the shape of untrusted JSON-like input before any schema sees it (SPEC 0 "Hostile shapes"):
 * nesting at most `maxDepth` containers, every array, string and object within its size limit, every
 * string and key well-formed UTF-16, and only JSON's values (plain objects, arrays, strings, finite
 * numbers, booleans, null). The walk is iterative, so input of any depth is rejected with a coded error,
 * never a stack overflow. Keys are read as data (`__proto__` and `constructor` are ordinary keys).
 *
 * @param value - the parsed input (for example from `JSON.parse`)
 * @param limits - the limits to apply (defaults to {@link DEFAULT_INPUT_LIMITS}; missing fields too)
 * @param label - the root's name in error paths (`sssa`, `record`)
 * @throws SubnetError `CORE_INPUT_TOO_DEEP`, `CORE_INPUT_TOO_LARGE` or `CORE_INPUT_NOT_JSON`, naming the path
 * @example checkInputShape(JSON.parse(body), { maxDepth: 64 }, 'sssa')
 */
export function checkInputShape(value: unknown, limits: Partial<InputLimits> = {}, label = ''): void {
  const max = { ...DEFAULT_INPUT_LIMITS, ...limits };
  // Each entry: the value, its path and how many containers enclose it.
  const stack: { value: unknown; path: PropertyKey[]; depth: number }[] = [{ value, path: [], depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: v, path, depth } = item;
    switch (typeof v) {
      case 'string': {
        if (v.length > max.maxStringLength) fail(CORE_INPUT_TOO_LARGE, `a string is longer than ${max.maxStringLength} characters (${v.length})`, path, label, preview(v), max.maxStringLength);
        const at = findLoneSurrogate(v);
        if (at >= 0) fail(CORE_INPUT_NOT_JSON, `a string holds a lone UTF-16 surrogate at index ${at}`, path, label, preview(v));
        continue;
      }
      case 'number':
        if (!Number.isFinite(v)) fail(CORE_INPUT_NOT_JSON, 'a number is not finite', path, label, v);
        continue;
      case 'boolean':
        continue;
      case 'object': {
        if (v === null) continue;
        if (depth + 1 > max.maxDepth) fail(CORE_INPUT_TOO_DEEP, `input nests deeper than ${max.maxDepth} levels`, path, label, Array.isArray(v) ? '[array]' : '[object]', max.maxDepth);
        if (Array.isArray(v)) {
          if (v.length > max.maxListLength) fail(CORE_INPUT_TOO_LARGE, `a list has more than ${max.maxListLength} elements (${v.length})`, path, label, `[${v.length} elements]`, max.maxListLength);
          for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i] as unknown, path: [...path, i], depth: depth + 1 });
          continue;
        }
        const proto: unknown = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) fail(CORE_INPUT_NOT_JSON, 'only plain objects are JSON', path, label, '[instance]');
        const keys = Object.keys(v);
        if (keys.length > max.maxObjectKeys) fail(CORE_INPUT_TOO_LARGE, `an object has more than ${max.maxObjectKeys} keys (${keys.length})`, path, label, `{${keys.length} keys}`, max.maxObjectKeys);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i] as string;
          if (key.length > max.maxStringLength) fail(CORE_INPUT_TOO_LARGE, `a key is longer than ${max.maxStringLength} characters (${key.length})`, path, label, preview(key), max.maxStringLength);
          if (findLoneSurrogate(key) >= 0) fail(CORE_INPUT_NOT_JSON, 'a key holds a lone UTF-16 surrogate', path, label, preview(key));
          stack.push({ value: (v as Record<string, unknown>)[key], path: [...path, key], depth: depth + 1 });
        }
        continue;
      }
      default:
        fail(CORE_INPUT_NOT_JSON, `${typeof v} is not a JSON value`, path, label, `[${typeof v}]`);
    }
  }
}
