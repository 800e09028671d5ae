import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { parseJsonText } from '../json-text.js';
import { pyFloatRepr, pyStrRepr } from '../py-repr.js';
import { validatePy } from '../py-validate.js';
import { pyJsonDumps } from '../python-json.js';

describe('Python float repr (AXON.md 4: fixed notation for -4 < p <= 16, else d.ddde±XX)', () => {
  it.each([
    [1, '1.0'],
    [100, '100.0'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [-0, '-0.0'],
    [2.5e-7, '2.5e-07'],
    [12345678901234567000, '1.2345678901234567e+19'],
    [Infinity, 'inf'],
    [NaN, 'nan'],
  ])('%d -> %s', (x, text) => {
    expect(pyFloatRepr(x)).toBe(text);
  });

  it('round-trips: Number(repr) is the same double', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => Object.is(Number(pyFloatRepr(x)), x)));
  });
});

describe('Python str repr', () => {
  it('quotes, escapes and non-printables as CPython', () => {
    expect(pyStrRepr("it's")).toBe('"it\'s"');
    expect(pyStrRepr('say "hi"')).toBe('\'say "hi"\'');
    expect(pyStrRepr('a\\b\u0001\u007f\u00a0\u200b\u{1F680}')).toBe("'a\\\\b\\x01\\x7f\\xa0\\u200b\u{1F680}'");
  });
});

describe('lossless JSON as json.loads reads it', () => {
  it('keeps big integers, 1.0 vs 1, key order, and the last value of a duplicate key in its first place', () => {
    const node = parseJsonText('{"b": 9007199254740993, "2": 1.0, "b": 3, "n": NaN}');
    expect(node.kind === 'object' ? [...node.entries.keys()] : []).toEqual(['b', '2', 'n']);
    expect(pyJsonDumps(validatePy(node, 'any', 'x'))).toBe('{"b": 3, "2": 1.0, "n": NaN}');
    expect(pyJsonDumps(validatePy(parseJsonText('9007199254740993'), 'int', 'x'))).toBe('9007199254740993');
  });

  it('refuses trailing garbage and unterminated strings', () => {
    expect(() => parseJsonText('{} x')).toThrow(expect.objectContaining({ code: 'AXON_INVALID_JSON' }));
    expect(() => parseJsonText('"abc')).toThrow(expect.objectContaining({ code: 'AXON_INVALID_JSON' }));
  });

  it('json.dumps ensure_ascii writes non-ASCII as \\u escapes (surrogate pairs for astral)', () => {
    expect(pyJsonDumps({ t: 'str', v: 'é\u{1F680}' })).toBe('"\\u00e9\\ud83d\\ude80"');
    expect(pyJsonDumps({ t: 'str', v: 'é' }, 'compact')).toBe('"é"');
  });
});
