/**
 * Converts a result of the scoring packages (camelCase TypeScript objects) to the snake_case wire form
 * the bundle stores: every object key that looks like a camelCase identifier (`stakeFraction`) becomes
 * snake_case (`stake_fraction`); other keys (hotkeys, verdicts such as `ALLOW`, task ids) are kept as
 * they are. Arrays keep their order; `undefined` properties are dropped (canonical JSON cannot hold
 * them). Deterministic and pure.
 *
 * @param value - a JSON-like value
 * @returns a fresh, frozen copy with snake_case keys
 * @example toWire({ stakeFraction: 0.5 }) // { stake_fraction: 0.5 }
 */
export function toWire(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map((item) => toWire(item)));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      // defineProperty: a key such as `__proto__` is data, never a prototype write (SPEC 0).
      Object.defineProperty(out, snakeKey(key), { value: toWire(item), enumerable: true, writable: true, configurable: true });
    }
    return Object.freeze(out);
  }
  return value;
}

function snakeKey(key: string): string {
  if (!/^[a-z][a-zA-Z0-9]*$/.test(key)) return key;
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Freezes a value and everything reachable from it (internal).
 *
 * @param value - a plain value
 * @returns the same value, frozen
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * Reads an own property of a data-keyed object, never through its prototype (internal): `constructor`
 * and `__proto__` are ordinary keys (SPEC 0).
 *
 * @param table - a plain object keyed by data
 * @param key - the key
 * @returns the value, or undefined when the object has no own property of that name
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
