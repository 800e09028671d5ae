import fc from 'fast-check';

/**
 * Test helpers shared by the canonical JSON writer's and scanner's property tests: hostile values and the
 * sizes `checkInputShape` limits, found by a plain walk (the reference; it imports nothing from `src/`).
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The sizes `checkInputShape` limits, walked plainly (keys count as strings); `depth` is the value's own depth. */
export function plainSizes(value: unknown, depth = 0): { depth: number; longestList: number; longestString: number; mostKeys: number; loneSurrogate: boolean } {
  const out = { depth: 0, longestList: 0, longestString: 0, mostKeys: 0, loneSurrogate: false };
  const visit = (v: unknown, d: number): void => {
    if (typeof v === 'string') {
      out.longestString = Math.max(out.longestString, v.length);
      if (LONE_SURROGATE.test(v)) out.loneSurrogate = true;
    } else if (Array.isArray(v)) {
      out.depth = Math.max(out.depth, d + 1);
      out.longestList = Math.max(out.longestList, v.length);
      for (const x of v) visit(x, d + 1);
    } else if (typeof v === 'object' && v !== null) {
      out.depth = Math.max(out.depth, d + 1);
      const keys = Object.keys(v);
      out.mostKeys = Math.max(out.mostKeys, keys.length);
      for (const k of keys) {
        visit(k, d + 1);
        visit((v as Record<string, unknown>)[k], d + 1);
      }
    }
  };
  visit(value, depth);
  return out;
}

/** Strings JSON writers get wrong: quotes, escapes, controls, UTF-8 length edges, lone surrogates, keys objects hold. */
export const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
  fc.constantFrom(
    '"',
    '\\',
    '/',
    '\u0000',
    '\u0008',
    '\u001f',
    '\u007f',
    '\u0080',
    '\u00e9',
    '\u07ff',
    '\u0800',
    '\ud800',
    '\udfff',
    '\ud83d\ude00',
    '\u2028',
    '\uffff',
  ),
  fc.constantFrom('__proto__', 'constructor', 'toString', '10', '2', ''),
);

/**
 * Hostile JSON values: those strings as values and keys, doubles, int32 edges, integers beyond 2^53, -0,
 * exponents, nested lists and objects; with `bigints`, also bigints (which `JSON.stringify` refuses).
 */
export function hostileValue(options: { bigints: boolean }): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      hostileText,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.integer({ min: -(2 ** 31) - 2, max: -(2 ** 31) + 2 }),
      fc.integer({ min: 2 ** 31 - 2, max: 2 ** 31 + 2 }),
      ...(options.bigints ? [fc.bigInt()] : []),
      fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 60, -(2 ** 60), -0, 0.1, 1e21, -1e21, 1e-7, 1e-6, 5e-324, 0.30000000000000004, true, false, null),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(hostileText, tie('v'), { maxKeys: 4 }),
    ),
  })).v;
}
