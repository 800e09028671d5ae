import { AXON_ERROR_CODES, axonError } from './errors.js';
import type { PyType, PyValue } from './py-value.js';
import { PY_NONE } from './py-value.js';

function bad(path: string, expected: string, value: unknown): never {
  throw axonError(AXON_ERROR_CODES.invalidValue, `expected ${expected}`, path, value);
}

/**
 * The entries of a dict or model value: a Map (keys as strings, in order) or a plain object (own enumerable keys,
 * `__proto__` included as data). Anything else (a list, a string, a number, a function, a `Date`, a `Set`, a typed
 * array, a class instance) has no Python dict to become and is refused, never read as an empty dict.
 */
function entriesOf(value: unknown, path: string): [string, unknown][] {
  if (value instanceof Map) return [...(value as Map<unknown, unknown>)].map(([k, v]) => [String(k), v]);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return Object.entries(value);
  }
  return bad(path, 'a plain object or Map', value);
}

/**
 * Converts a JS value to the Python value of a declared type: `int` from a safe integer or bigint, `float`
 * from a number, `str`, `bool`, arrays, plain objects or Maps (key order kept), `null`/`undefined` for optionals.
 * Under `any`, a bigint or safe integer is an `int` and other numbers are `float`s; a value with no Python
 * counterpart (a function, a symbol, a `Date`, a `Set`, a typed array, a class instance) is refused.
 *
 * @param value - the JS value
 * @param type - the declared type
 * @param path - where it is, for errors
 * @returns the Python value
 * @throws SubnetError `AXON_INVALID_VALUE` naming the path and the value
 * @example toPy([1, 0.5], { list: 'float' }, 'weights')
 */
export function toPy(value: unknown, type: PyType, path: string): PyValue {
  if (typeof type === 'object' && 'optional' in type) return value === null || value === undefined ? PY_NONE : toPy(value, type.optional, path);
  switch (type) {
    case 'str':
      return typeof value === 'string' ? { t: 'str', v: value } : bad(path, 'a string', value);
    case 'bool':
      return typeof value === 'boolean' ? { t: 'bool', v: value } : bad(path, 'a boolean', value);
    case 'int':
      if (typeof value === 'bigint') return { t: 'int', v: value };
      return typeof value === 'number' && Number.isSafeInteger(value) ? { t: 'int', v: BigInt(value) } : bad(path, 'a safe integer or bigint', value);
    case 'float':
      return typeof value === 'number' ? { t: 'float', v: value } : bad(path, 'a number', value);
    case 'any':
      if (value === null || value === undefined) return PY_NONE;
      if (typeof value === 'bigint') return { t: 'int', v: value };
      // A number is an int only when it is a safe integer, as for a declared `int`: 1e300 or 2 ** 53 is a float,
      // as Python reads it from JSON, not a 301-digit int that the number never held exactly.
      if (typeof value === 'number') return Number.isSafeInteger(value) ? { t: 'int', v: BigInt(value) } : { t: 'float', v: value };
      if (typeof value === 'string' || typeof value === 'boolean') return toPy(value, typeof value === 'string' ? 'str' : 'bool', path);
      if (Array.isArray(value)) return { t: 'list', v: value.map((x, i) => toPy(x, 'any', `${path}[${i}]`)) };
      return { t: 'dict', v: new Map(entriesOf(value, path).map(([k, x]) => [k, toPy(x, 'any', `${path}.${k}`)])) };
  }
  if ('list' in type) return Array.isArray(value) ? { t: 'list', v: value.map((x, i) => toPy(x, type.list, `${path}[${i}]`)) } : bad(path, 'an array', value);
  if ('dict' in type) return { t: 'dict', v: new Map(entriesOf(value, path).map(([k, x]) => [k, toPy(x, type.dict, `${path}.${k}`)])) };
  const fields = new Map(entriesOf(value, path));
  return { t: 'dict', v: new Map(type.model.map(([name, t]) => [name, toPy(fields.get(name), t, `${path}.${name}`)])) };
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Converts a Python value back to JS: `None` → `null`, `int` → number when safe else bigint, `float` → number,
 * `list` → array, `dict` → a null-prototype object (keys are data).
 *
 * @param value - the Python value
 * @returns the JS value
 * @example fromPy({ t: 'int', v: 14n }) // 14
 */
export function fromPy(value: PyValue): unknown {
  switch (value.t) {
    case 'none':
      return null;
    case 'int':
      return value.v >= MIN_SAFE && value.v <= MAX_SAFE ? Number(value.v) : value.v;
    case 'list':
      return value.v.map(fromPy);
    case 'dict': {
      const out = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of value.v) out[k] = fromPy(v);
      return out;
    }
    default:
      return value.v;
  }
}
