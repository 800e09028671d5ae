/** The deepest nesting {@link plainJsonKey} walks before it declines. */
const MAX_DEPTH = 64;

function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      // -0 writes as "0": it would share a key with 0.
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i += 1) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      // `for...in` also sees inherited enumerable keys, which a schema reading `for...in` would see and the text would not.
      for (const key in value) if (!Object.hasOwn(value, key) || !isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A text that identifies a plain JSON value exactly, for memoising a pure parse of it (internal helper of
 * the scoring packages): `JSON.stringify` of the value when the value is plain JSON (plain objects and
 * arrays without holes or inherited keys, strings, finite numbers other than -0, booleans, null; at most 64
 * levels and `maxLength` characters), else undefined. Two values with the same key read the same to any
 * reader (same keys in the same order, same leaves), so a deterministic parse of one is the parse of the
 * other. Key order is part of the key. Values are read once, as data: an accessor that answers differently
 * on another read is not plain JSON, and the caller must not memoise input that may hold one.
 *
 * @param value - any value
 * @param maxLength - the longest key worth keeping (default 16,384 characters)
 * @returns the key, or undefined when the value is not plain JSON or too long
 * @example plainJsonKey({ a: [1, 'x'] }) // '{"a":[1,"x"]}'; plainJsonKey({ a: -0 }) // undefined
 */
export function plainJsonKey(value: unknown, maxLength = 16_384): string | undefined {
  if (!isPlainJson(value, 0)) return undefined;
  const text = JSON.stringify(value);
  return text.length <= maxLength ? text : undefined;
}
