/**
 * Internal: the shape tests the hand-written readers (`fast-records.ts`, `fast-validator-set.ts`,
 * `epoch-inputs.ts`) make before reading a wire value's fields. They accept what the zod schemas accept
 * and nothing more: a plain object or list (own prototype the ordinary one), and keys as zod's `for...in`
 * sees them (own or inherited, enumerable). Anything they decline goes to the schemas, which name the field.
 */

/** A plain object: not null, not a list, its prototype `Object.prototype`. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** A plain list: an array whose prototype is `Array.prototype`. */
export function isPlainList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

/**
 * How many enumerable keys (own or inherited, as `for...in` sees them) `value` has when every one is in
 * `names`; -1 as soon as one is not.
 */
export function keyCount(value: Record<string, unknown>, names: ReadonlySet<string>): number {
  let n = 0;
  for (const key in value) {
    if (!names.has(key)) return -1;
    n += 1;
  }
  return n;
}
