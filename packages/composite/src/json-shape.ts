import { DEFAULT_INPUT_LIMITS } from '@subnet/core';

import { isWellFormedText } from './well-formed-text.js';

const LIMITS = DEFAULT_INPUT_LIMITS;

/** Whether an object key passes SPEC 0's limits (length, well-formed UTF-16). */
export function keyOk(key: string): boolean {
  return key.length <= LIMITS.maxStringLength && isWellFormedText(key);
}

/** Whether a string passes SPEC 0's limits (length, well-formed UTF-16). */
export function textOk(text: string): boolean {
  return text.length <= LIMITS.maxStringLength && isWellFormedText(text);
}

/** Whether `value` is a plain object (prototype Object.prototype or null), as `checkInputShape` demands. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Internal, the fast path's shape check: true iff `checkInputShape` (core, default limits) accepts
 * `value` found inside `enclosing` containers. Recursion is bounded by the depth limit (64), so it
 * cannot overflow the stack; it builds no path (the slow path names the path when this says no).
 */
export function jsonShapeOk(value: unknown, enclosing: number): boolean {
  switch (typeof value) {
    case 'string':
      return textOk(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object': {
      if (value === null) return true;
      if (enclosing + 1 > LIMITS.maxDepth) return false;
      if (Array.isArray(value)) {
        if (value.length > LIMITS.maxListLength) return false;
        for (let i = 0; i < value.length; i++) if (!jsonShapeOk(value[i], enclosing + 1)) return false;
        return true;
      }
      if (!isPlainObject(value)) return false;
      const keys = Object.keys(value);
      if (keys.length > LIMITS.maxObjectKeys) return false;
      for (const key of keys) if (!keyOk(key) || !jsonShapeOk(value[key], enclosing + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * Whether `Object.prototype` has no enumerable property, so that a `for...in` over a plain object walks
 * exactly its own keys (what `Object.keys` lists) without allocating a key list. A polluted prototype
 * sends every input to the zod path.
 */
export function prototypeIsClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}
