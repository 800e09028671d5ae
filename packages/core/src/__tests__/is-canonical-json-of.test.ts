import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { canonicalJson, isCanonicalJsonOf } from '../index.js';

/** The definition: the canonical text equals the given text (false when the value cannot be written). */
function byDefinition(value: unknown, text: string): boolean {
  try {
    return canonicalJson(value) === text;
  } catch {
    return false;
  }
}

describe('isCanonicalJsonOf', () => {
  it('agrees with canonicalJson(value) === text for a value parsed from its own text, canonical or not', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, canonical) => {
        // Either the canonical text, or JSON.stringify's (insertion-order keys, big integers as numbers).
        const text = canonical ? canonicalJson(value) : JSON.stringify(value);
        const parsed = JSON.parse(text) as unknown;
        expect(isCanonicalJsonOf(parsed, text)).toBe(byDefinition(parsed, text));
        if (canonical) expect(isCanonicalJsonOf(parsed, text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is false for unsorted keys, a big integer written as a number, -0 and another text', () => {
    expect(isCanonicalJsonOf(JSON.parse('{"b":1,"a":2}'), '{"b":1,"a":2}')).toBe(false);
    expect(isCanonicalJsonOf({ n: 2 ** 60 }, '{"n":1152921504606846976}')).toBe(false);
    expect(isCanonicalJsonOf({ n: 2 ** 60 }, '{"n":"1152921504606846976"}')).toBe(true);
    expect(isCanonicalJsonOf(JSON.parse('[-0]'), '[-0]')).toBe(false);
    expect(isCanonicalJsonOf(JSON.parse('[-0]'), '[0]')).toBe(true);
    expect(isCanonicalJsonOf({ a: 1 }, '{"a":2}')).toBe(false);
  });

  it('orders keys by code point, not as Object.keys lists integer-like keys', () => {
    const parsed = JSON.parse('{"10":1,"2":2}') as unknown; // Object.keys gives ["2", "10"]
    expect(isCanonicalJsonOf(parsed, '{"10":1,"2":2}')).toBe(true);
    expect(isCanonicalJsonOf(parsed, '{"2":2,"10":1}')).toBe(false);
  });

  it('never trusts a toJSON method (JSON.stringify would call it), while a data key named toJSON is ordinary', () => {
    const withMethod = { a: 1, toJSON: () => 'x' };
    expect(isCanonicalJsonOf(withMethod, '"x"')).toBe(false);
    const parsed = JSON.parse('{"toJSON":1}') as unknown; // a data key named toJSON is an ordinary key
    expect(isCanonicalJsonOf(parsed, '{"toJSON":1}')).toBe(true);
  });

  it('is false for what canonical JSON rejects', () => {
    const holey = [1, 2];
    // eslint-disable-next-line @typescript-eslint/no-array-delete -- an array hole, on purpose
    delete holey[0];
    for (const bad of [{ a: undefined }, [Number.NaN], holey, new Date(0)]) expect(isCanonicalJsonOf(bad, JSON.stringify(bad))).toBe(false);
  });

  it('agrees with the definition on canonical texts cut, extended or changed at one place (the walk compares in place)', () => {
    const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\u0000', '\ud800', '\udfff', '\ud83d\ude00', '\u2028'));
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        anyText,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.constantFrom(2 ** 60, -0, true, false, null, 1e21, 5e-324),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(anyText, tie('v'), { maxKeys: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, fc.nat(), fc.integer({ min: 0, max: 3 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (v, at, how, c) => {
        const canonical = canonicalJson(v);
        const i = canonical.length === 0 ? 0 : at % canonical.length;
        const texts = [canonical, canonical.slice(0, i), `${canonical} `, `${canonical.slice(0, i)}${c}${canonical.slice(i + (how % 2))}`];
        for (const text of texts) expect(isCanonicalJsonOf(v, text), text).toBe(byDefinition(v, text));
        expect(isCanonicalJsonOf(v, canonical)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
