import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  asciiLower,
  asciiTrim,
  asciiUpper,
  assertWellFormed,
  checkInputShape,
  compareCodePoints,
  decodeSs58,
  encodeSs58,
  findLoneSurrogate,
  formatPath,
  isSubnetError,
  parseInput,
  sha256Hex,
} from '../index.js';

function codeOf(fn: () => unknown): { code?: string; path?: unknown } {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path };
    return { code: `not coded: ${String(error)}` };
  }
  return {};
}

describe('issue 14 item 6: every exported core function checks its arguments (coded, never coerced)', () => {
  it.each([
    ['asciiLower(42)', () => asciiLower(42 as never), 'text'],
    ['asciiUpper(null)', () => asciiUpper(null as never), 'text'],
    ['asciiTrim(undefined)', () => asciiTrim(undefined as never), 'text'],
    ['findLoneSurrogate({})', () => findLoneSurrogate({} as never), 'text'],
    [
      'assertWellFormed(1, "p")',
      () => {
        assertWellFormed(1 as never, 'p');
      },
      'text',
    ],
    [
      'assertWellFormed("x", 2)',
      () => {
        assertWellFormed('x', 2 as never);
      },
      'path',
    ],
    ['compareCodePoints("a", 1)', () => compareCodePoints('a', 1 as never), 'b'],
    ['sha256Hex([1, 2])', () => sha256Hex([1, 2] as never), 'input'],
    ['decodeSs58(5)', () => decodeSs58(5 as never), 'address'],
    ['encodeSs58("key")', () => encodeSs58('key' as never), 'publicKey'],
    ['formatPath("a.b")', () => formatPath('a.b' as never), 'segments'],
    ['parseInput({}, 1, "X")', () => parseInput({} as never, 1, 'X'), 'schema'],
    ['parseInput(schema, 1, 7)', () => parseInput(z.number(), 1, 7 as never), 'code'],
    [
      'checkInputShape(x, { maxDepth: 0 })',
      () => {
        checkInputShape({}, { maxDepth: 0 });
      },
      'limits.maxDepth',
    ],
    [
      'checkInputShape(x, { maxDepth: 1e6 })',
      () => {
        checkInputShape({}, { maxDepth: 1e6 });
      },
      'limits.maxDepth',
    ],
    [
      'checkInputShape(x, { maxListLength: 1.5 })',
      () => {
        checkInputShape({}, { maxListLength: 1.5 });
      },
      'limits.maxListLength',
    ],
    [
      'checkInputShape(x, "64")',
      () => {
        checkInputShape({}, '64' as never);
      },
      'limits',
    ],
    [
      'checkInputShape(x, {}, 3)',
      () => {
        checkInputShape({}, {}, 3 as never);
      },
      'label',
    ],
  ])('%s is CORE_INVALID_ARGUMENT', (_name, fn, path) => {
    expect(codeOf(fn)).toEqual({ code: 'CORE_INVALID_ARGUMENT', path });
  });
});

describe('compareCodePoints (SPEC 0: keys sorted by code point)', () => {
  /** The rule written out plainly: compare the arrays of code points the string iterator yields. */
  function reference(a: string, b: string): number {
    const x = Array.from(a, (c) => c.codePointAt(0)!);
    const y = Array.from(b, (c) => c.codePointAt(0)!);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  }
  const unit = fc.constantFrom('a', 'b', 'é', '\uFFFF', '\uE000', '\uD83D', '\uDE00', '\uD83D\uDE00', '\uD800\uDC00', '\uDBFF\uDFFF', 'z');
  const text = fc.array(unit, { maxLength: 5 }).map((parts) => parts.join(''));

  it('agrees in sign with a reference over code points, lone surrogates included', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(reference(a, b)));
      }),
      { numRuns: 3000 },
    );
  });

  it('puts U+FFFF before U+1F600 (code units would not)', () => {
    expect(compareCodePoints('\uFFFF', '\u{1F600}')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'a')).toBe(0);
  });
});
