import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { CANONICAL_JSON_MAX_DEPTH, canonicalJson, sameCanonicalJson } from '../index.js';

/** The definition sameCanonicalJson must agree with: equal canonical texts, and false when either cannot be written. */
function byText(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/** A copy of a value with one change somewhere (or none), keys reinserted in another order. */
function variant(value: unknown, pick: number, kind: number): unknown {
  let n = 0;
  const walk = (v: unknown): unknown => {
    const here = n++ === pick;
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return here && kind === 0 ? [...out, 0] : out;
    }
    if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v).reverse();
      const out: Record<string, unknown> = {};
      for (const [k, item] of entries) Object.defineProperty(out, k, { value: walk(item), enumerable: true, writable: true, configurable: true });
      if (here && kind === 1) out.extra = 1;
      return out;
    }
    if (!here) return v;
    const leaves: unknown[] = [typeof v === 'number' ? -v : 1, String(v), typeof v === 'number' ? BigInt(Math.trunc(v)) : null, v === 0 ? -0 : 2 ** 53 + 2];
    return leaves[kind % leaves.length];
  };
  return walk(value);
}

const value = fc.jsonValue({ maxDepth: 4 });

describe('sameCanonicalJson', () => {
  it('is true exactly when the canonical JSON texts are equal (values and their one-change variants)', () => {
    fc.assert(
      fc.property(value, fc.nat(40), fc.nat(7), (v, pick, kind) => {
        const w = variant(v, pick, kind);
        expect(sameCanonicalJson(v, w)).toBe(byText(v, w));
        expect(sameCanonicalJson(w, v)).toBe(byText(w, v));
        expect(sameCanonicalJson(v, v)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is true for key order, -0 and 0, and an integer beyond 2^53 against its decimal string or bigint', () => {
    expect(sameCanonicalJson({ a: 1, b: [2] }, { b: [2], a: 1 })).toBe(true);
    expect(sameCanonicalJson(-0, 0)).toBe(true);
    expect(sameCanonicalJson({ n: 2 ** 60 }, { n: '1152921504606846976' })).toBe(true);
    expect(sameCanonicalJson(2n ** 60n, 2 ** 60)).toBe(true);
  });

  it('is false for a missing or extra key, another key of the same count, a type change and a string against a number', () => {
    expect(sameCanonicalJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameCanonicalJson({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameCanonicalJson([1], { 0: 1 })).toBe(false);
    expect(sameCanonicalJson('1', 1)).toBe(false);
    expect(sameCanonicalJson(null, {})).toBe(false);
  });

  it('is false whenever either value cannot be written, even against itself', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const holey = [1, 2, 3];
    // eslint-disable-next-line @typescript-eslint/no-array-delete -- an array hole, on purpose
    delete holey[1];
    for (const bad of [Number.NaN, Infinity, undefined, { a: undefined }, holey, new Date(0), cyclic]) {
      expect(sameCanonicalJson(bad, bad)).toBe(false);
    }
  });

  it('is false for values nested deeper than canonical JSON writes, through lists as through objects', () => {
    const nest = (depth: number, wrap: (inner: unknown) => unknown): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < depth; i++) v = wrap(v);
      return v;
    };
    for (const wrap of [(inner: unknown) => [inner], (inner: unknown) => ({ a: inner })]) {
      const deepest = nest(CANONICAL_JSON_MAX_DEPTH, wrap);
      expect(() => canonicalJson(deepest)).not.toThrow();
      expect(sameCanonicalJson(deepest, nest(CANONICAL_JSON_MAX_DEPTH, wrap))).toBe(true);
      const tooDeep = nest(CANONICAL_JSON_MAX_DEPTH + 1, wrap);
      expect(() => canonicalJson(tooDeep)).toThrow();
      expect(sameCanonicalJson(tooDeep, nest(CANONICAL_JSON_MAX_DEPTH + 1, wrap))).toBe(false);
    }
  });

  it('keys are data: __proto__ and constructor compare as ordinary keys', () => {
    const a = JSON.parse('{"__proto__":{"x":1},"constructor":2}') as unknown;
    const b = JSON.parse('{"constructor":2,"__proto__":{"x":1}}') as unknown;
    const c = JSON.parse('{"constructor":2,"__proto__":{"x":2}}') as unknown;
    expect(sameCanonicalJson(a, b)).toBe(true);
    expect(sameCanonicalJson(a, c)).toBe(false);
  });

  it('counts only own enumerable keys, as Object.keys and canonical JSON do', () => {
    const hidden = (extra: Record<string, unknown>) => {
      const o: Record<string, unknown> = { x: 1 };
      for (const [k, v] of Object.entries(extra)) Object.defineProperty(o, k, { value: v, enumerable: false });
      return o;
    };
    expect(sameCanonicalJson({ x: 1 }, hidden({ y: 2 }))).toBe(true);
    expect(sameCanonicalJson(hidden({ y: 2 }), { x: 1 })).toBe(true);
    expect(sameCanonicalJson({ x: 1, y: 2 }, hidden({ y: 2 }))).toBe(false);
    expect(sameCanonicalJson(hidden({ y: 2 }), { x: 1, y: 2 })).toBe(false);
    expect(sameCanonicalJson({ y: 2, x: 1 }, { ...hidden({ z: 3 }), y: 2 })).toBe(true);
  });
});
