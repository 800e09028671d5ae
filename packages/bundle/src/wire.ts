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
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((item: unknown) => toWire(item)));
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = source[key];
    if (item === undefined) continue;
    const wire = snakeKey(key);
    // A key such as `__proto__` is data, never a prototype write (SPEC 0): it alone needs defineProperty,
    // which is several times slower than a plain store for every other key.
    if (wire === '__proto__') Object.defineProperty(out, wire, { value: toWire(item), enumerable: true, writable: true, configurable: true });
    else out[wire] = toWire(item);
  }
  return Object.freeze(out);
}

/** camelCase keys already converted; bounded, because keys can be data (hotkeys, ids). */
const snakeKeys = new Map<string, string>();
const SNAKE_KEYS_MAX = 4096;

function snakeKey(key: string): string {
  const known = snakeKeys.get(key);
  if (known !== undefined) return known;
  const wire = /^[a-z][a-zA-Z0-9]*$/.test(key) ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key;
  if (snakeKeys.size < SNAKE_KEYS_MAX) snakeKeys.set(key, wire);
  return wire;
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
