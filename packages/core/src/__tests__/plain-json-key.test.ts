import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { plainJsonKey } from '../index.js';

describe('plainJsonKey', () => {
  it('is JSON.stringify of plain JSON values, and two values share a key only when they are equal (key order included)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const ka = plainJsonKey(a, Number.POSITIVE_INFINITY);
        const kb = plainJsonKey(b, Number.POSITIVE_INFINITY);
        // fc.jsonValue can hold -0, which has no key of its own.
        if (ka !== undefined) expect(ka).toBe(JSON.stringify(a));
        if (ka !== undefined && kb !== undefined && ka === kb) expect(JSON.parse(ka)).toStrictEqual(b);
      }),
      { numRuns: 500 },
    );
  });

  it('declines what JSON text would blur: -0, non-finite numbers, undefined, holes, inherited keys, class instances, functions, bigints, deep nesting', () => {
    const inherited = Object.create({ extra: 1 }) as Record<string, unknown>;
    const withInherited: Record<string, unknown> = {};
    Object.setPrototypeOf(withInherited, { extra: 1 });
    const holes: unknown[] = [1];
    holes[2] = 2;
    const deep = Array.from({ length: 70 }).reduce<unknown>((v) => [v], 1);
    for (const value of [
      -0,
      { a: -0 },
      Number.NaN,
      [Number.POSITIVE_INFINITY],
      { a: undefined },
      holes,
      inherited,
      withInherited,
      new Date(0),
      () => 1,
      1n,
      deep,
      [undefined],
    ]) {
      expect(plainJsonKey(value)).toBeUndefined();
    }
  });

  it('keeps data keys as data (__proto__, constructor) and tells key orders apart', () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}, "constructor": 2}') as unknown;
    expect(plainJsonKey(proto)).toBe('{"__proto__":{"x":1},"constructor":2}');
    expect(plainJsonKey({ a: 1, b: 2 })).not.toBe(plainJsonKey({ b: 2, a: 1 }));
  });

  it('declines a key longer than maxLength', () => {
    expect(plainJsonKey('x'.repeat(10), 5)).toBeUndefined();
    expect(plainJsonKey('xy', 5)).toBe('"xy"');
  });
});
