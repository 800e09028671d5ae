import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { canonicalJson, scanCanonicalJson } from '../index.js';
import { hostileValue as hostileValueOf, plainSizes } from './hostile-json.js';

/** The definition: the text parses, and the canonical JSON of what it parses to is the text itself. */
function byDefinition(text: string): boolean {
  try {
    return canonicalJson(JSON.parse(text)) === text;
  } catch {
    return false;
  }
}

const hostileValue = hostileValueOf({ bigints: false });

describe('scanCanonicalJson', () => {
  it('accepts exactly what canonicalJson(JSON.parse(text)) === text accepts, for canonical and JSON.stringify texts', () => {
    fc.assert(
      fc.property(hostileValue, (value) => {
        const canonical = canonicalJson(value);
        expect(scanCanonicalJson(canonical), canonical).toBeDefined();
        const plain = JSON.stringify(value);
        expect(scanCanonicalJson(plain) !== undefined, plain).toBe(byDefinition(plain));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the definition on canonical texts cut, extended or changed at one place', () => {
    const oneChar = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom(' ', '"', '\\', ',', ':', '0', '-', '.', 'e', 'E', '+', '}', ']', 'u'),
    );
    fc.assert(
      fc.property(hostileValue, fc.nat(), fc.integer({ min: 0, max: 2 }), oneChar, (value, at, how, c) => {
        const canonical = canonicalJson(value);
        const i = at % (canonical.length + 1);
        const texts = [
          canonical.slice(0, i),
          `${canonical} `,
          `${canonical.slice(0, i)}${c}${canonical.slice(i)}`, // inserted
          `${canonical.slice(0, i)}${c}${canonical.slice(i + 1)}`, // replaced
          `${canonical.slice(0, i)}${canonical.slice(i + 1 + how)}`, // deleted
        ];
        for (const text of texts) if (text.length > 0) expect(scanCanonicalJson(text) !== undefined, JSON.stringify(text)).toBe(byDefinition(text));
      }),
      { numRuns: 4000 },
    );
  });

  it('reads the sizes the input limits check off the text, as a walk of the parsed value finds them', () => {
    fc.assert(
      fc.property(hostileValue, (value) => {
        const text = canonicalJson(value);
        expect(scanCanonicalJson(text)).toEqual(plainSizes(JSON.parse(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes numbers only in their shortest round-trip form, without -0 or a bare integer beyond 2^53', () => {
    for (const ok of [
      '0',
      '-1',
      '100',
      '0.1',
      '-1.5',
      '0.000001',
      '1e-7',
      '1.5e-7',
      '5e-324',
      '0.30000000000000004',
      '9007199254740992',
      '-9007199254740992',
      '123456789012345.6',
    ]) {
      expect(scanCanonicalJson(ok), ok).toBeDefined();
      expect(byDefinition(ok), ok).toBe(true);
    }
    for (const bad of [
      '-0',
      '-0.0',
      '1.0',
      '1.50',
      '01',
      '0.0000001',
      '1E-7',
      '1e21',
      '1e+21',
      '9007199254740993',
      '9007199254740994',
      '10000000000000000',
      '0.1000000000000000055',
      '.5',
      '1.',
      '+1',
      '1e-07',
    ]) {
      expect(scanCanonicalJson(bad), bad).toBeUndefined();
      expect(byDefinition(bad), bad).toBe(false);
    }
    expect(scanCanonicalJson('"1000000000000000000000"')).toBeDefined(); // how 1e21 is written
  });

  it('takes strings only escaped as JSON.stringify escapes them (lone surrogates escaped, pairs as themselves)', () => {
    const ok = [
      '"\\"\\\\"',
      '"\\b\\f\\n\\r\\t"',
      '"\\u0000\\u001f"',
      '"\u007f\u2028/"',
      '"\\ud800"',
      '"\\udc00x"',
      '"\\ud800A"',
      '"\ud83d\ude00"',
      '"\\ud800\\ud800"',
    ];
    const bad = [
      '"\\/"',
      '"\\u0041"',
      // the five controls JSON.stringify writes with short escapes, each in its \u form
      '"\\u0008"',
      '"\\u0009"',
      '"\\u000a"',
      '"\\u000c"',
      '"\\u000d"',
      '"\\u001F"',
      '"\\uD800"',
      '"\\ud83d\\ude00"',
      '"\\ud83d\ude00"',
      '"\ud800"',
      '"\udc00"',
      '"\\x41"',
      '"a',
      '"\u0001"',
    ];
    for (const text of ok) {
      expect(scanCanonicalJson(text), text).toBeDefined();
      expect(byDefinition(text), text).toBe(true);
    }
    for (const text of bad) {
      expect(scanCanonicalJson(text), text).toBeUndefined();
      expect(byDefinition(text), text).toBe(false);
    }
    expect(scanCanonicalJson('["\\ud800"]')?.loneSurrogate).toBe(true);
    expect(scanCanonicalJson('["\ud83d\ude00"]')).toEqual({ depth: 1, longestList: 1, longestString: 2, mostKeys: 0, loneSurrogate: false });
  });

  it('takes object keys strictly increasing by code point: no duplicate, __proto__ and integer-like keys as data', () => {
    expect(scanCanonicalJson('{"a":1,"b":2}')).toBeDefined();
    expect(scanCanonicalJson('{"b":1,"a":2}')).toBeUndefined();
    expect(scanCanonicalJson('{"a":1,"a":1}')).toBeUndefined(); // JSON.parse keeps one
    expect(scanCanonicalJson('{"__proto__":{"x":1},"a":1}')).toBeDefined();
    expect(byDefinition('{"__proto__":{"x":1},"a":1}')).toBe(true);
    expect(scanCanonicalJson('{"10":1,"2":2}')).toBeDefined(); // code point order, not Object.keys order
    expect(scanCanonicalJson('{"\uffff":1,"\ud83d\ude00":2}')).toBeDefined(); // U+FFFF before U+1F600
    expect(scanCanonicalJson('{"\ud83d\ude00":2,"\uffff":1}')).toBeUndefined();
    expect(scanCanonicalJson('{"\\"":1,"!":2}')).toBeUndefined(); // '"' (0x22) sorts after '!' (0x21): decoded, not as written
    expect(scanCanonicalJson('{"!":2,"\\"":1}')).toBeDefined();
    expect(scanCanonicalJson('{"a":1,"a\\u0000":2}')).toBeDefined(); // a prefix first
  });

  it('takes no white space and at most 128 nested containers, and scans the slice it is given', () => {
    for (const text of [' {}', '{} ', '{ }', '[1, 2]', '{"a" :1}', '\n[]']) expect(scanCanonicalJson(text), text).toBeUndefined();
    expect(scanCanonicalJson('['.repeat(128) + ']'.repeat(128))?.depth).toBe(128);
    expect(scanCanonicalJson('['.repeat(129) + ']'.repeat(129))).toBeUndefined();
    expect(byDefinition('['.repeat(129) + ']'.repeat(129))).toBe(false);
    expect(scanCanonicalJson('x{"a":[1]}y', 1, 10)?.longestList).toBe(1);
    expect(scanCanonicalJson('{"a":[1]}y', 0, 9)).toBeDefined();
    expect(scanCanonicalJson('{"a":[1]}', 0, 8)).toBeUndefined();
    expect(scanCanonicalJson('')).toBeUndefined();
    expect(() => scanCanonicalJson(1 as unknown as string)).toThrow(expect.objectContaining({ code: 'CORE_INVALID_ARGUMENT' }) as Error);
  });
});
