// Values at the edges of a double and of JSON object keys, shared by the tests that hold a hand-written reader to
// its schema (aggregation's and bundle's fast paths): a reader that treats one of these differently from its schema
// scores or refuses an input differently depending on the path it takes.

/** Doubles at a boundary: -0, subnormals, the smallest normal, 1 ± one unit in the last place, the u16 bound, 2^53 ± 1. */
export const EDGE_NUMBERS = Object.freeze([
  -0,
  0,
  5e-324,
  -5e-324,
  2.2250738585072014e-308,
  0.5,
  1 - 2 ** -53,
  1,
  1 + 2 ** -52,
  1.5,
  2,
  65535,
  65536,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  Number.MAX_VALUE,
  -1,
]);

/** Own keys named like `Object.prototype` members, a lone surrogate and the empty key: data, never a prototype. */
export const EDGE_KEYS = Object.freeze(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '\ud800', '']);

/**
 * Every (object, key) of a JSON-like value whose value is a number, and every plain object in it (not arrays): the
 * places an edge test sets to an edge number or gives an edge key.
 */
export function edgeSlots(value, numbers = [], objects = []) {
  if (typeof value === 'object' && value !== null) {
    if (!Array.isArray(value)) objects.push(value);
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'number') numbers.push([value, key]);
      edgeSlots(inner, numbers, objects);
    }
  }
  return { numbers, objects };
}
