/** Doubles at a boundary: -0, subnormals, the smallest normal, 1 ± one unit in the last place, the u16 bound, 2^53 ± 1. */
export declare const EDGE_NUMBERS: readonly number[];

/** Own keys named like `Object.prototype` members, a lone surrogate and the empty key: data, never a prototype. */
export declare const EDGE_KEYS: readonly string[];

/** Every (object, key) of a JSON-like value whose value is a number, and every plain object in it (not arrays). */
export declare function edgeSlots(value: unknown): { numbers: [Record<string, unknown>, string][]; objects: Record<string, unknown>[] };
