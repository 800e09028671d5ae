import { describe, expect, it } from 'vitest';

import { CANONICAL_JSON_MAX_DEPTH, canonicalJson } from '../canonical-json.js';
import { isSubnetError } from '../errors.js';
import { checkInputShape } from '../input-limits.js';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return isSubnetError(e) ? e.code : `untyped: ${String(e)}`;
  }
}

describe('SPEC 0: input nests at most 64 levels', () => {
  it('accepts 64 nested containers and rejects 65 with CORE_INPUT_TOO_DEEP', () => {
    expect(
      codeOf(() => {
        checkInputShape(nested(64));
      }),
    ).toBeUndefined();
    expect(
      codeOf(() => {
        checkInputShape(nested(65));
      }),
    ).toBe('CORE_INPUT_TOO_DEEP');
  });

  it('rejects 100,000 levels parsed from text with a coded error, not a stack overflow', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const value: unknown = JSON.parse(text);
    expect(
      codeOf(() => {
        checkInputShape(value, {}, 'record');
      }),
    ).toBe('CORE_INPUT_TOO_DEEP');
  });

  it('names the path of the container that is too deep', () => {
    expect(() => {
      checkInputShape({ a: [{ b: nested(3) }] }, { maxDepth: 4 }, 'sssa');
    }).toThrow(/sssa\.a\[0\]\.b\[0\]/);
  });
});

describe('SPEC 0: every list and string has a configured size limit', () => {
  it('each TOO_ error names the limit it exceeded and its value (context.limitName, context.limit), so a CLI can name its option', () => {
    const contextOf = (value: unknown, limits: Parameters<typeof checkInputShape>[1]) => {
      try {
        checkInputShape(value, limits);
      } catch (error) {
        return (error as { context: Record<string, unknown> }).context;
      }
      return undefined;
    };
    const pick = (c: Record<string, unknown> | undefined) => [c?.limitName, c?.limit];
    expect(pick(contextOf([1, 2, 3], { maxListLength: 2 }))).toEqual(['maxListLength', 2]);
    expect(pick(contextOf({ a: 'xyz' }, { maxStringLength: 2 }))).toEqual(['maxStringLength', 2]);
    expect(pick(contextOf({ xyz: 1 }, { maxStringLength: 2 }))).toEqual(['maxStringLength', 2]);
    expect(pick(contextOf({ a: 1, b: 2 }, { maxObjectKeys: 1 }))).toEqual(['maxObjectKeys', 1]);
    expect(pick(contextOf([[[]]], { maxDepth: 2 }))).toEqual(['maxDepth', 2]);
    expect(contextOf(['\ud800'], {})).not.toHaveProperty('limitName');
  });

  it('rejects a list, a string, a key and an object over their limits', () => {
    expect(
      codeOf(() => {
        checkInputShape([1, 2, 3], { maxListLength: 2 });
      }),
    ).toBe('CORE_INPUT_TOO_LARGE');
    expect(
      codeOf(() => {
        checkInputShape({ a: 'xyz' }, { maxStringLength: 2 });
      }),
    ).toBe('CORE_INPUT_TOO_LARGE');
    expect(
      codeOf(() => {
        checkInputShape({ xyz: 1 }, { maxStringLength: 2 });
      }),
    ).toBe('CORE_INPUT_TOO_LARGE');
    expect(
      codeOf(() => {
        checkInputShape({ a: 1, b: 2 }, { maxObjectKeys: 1 });
      }),
    ).toBe('CORE_INPUT_TOO_LARGE');
    expect(
      codeOf(() => {
        checkInputShape({ a: [1, 2], b: 'xy' }, { maxListLength: 2, maxStringLength: 2, maxObjectKeys: 2 });
      }),
    ).toBeUndefined();
  });
});

describe('SPEC 0: hostile shapes', () => {
  it('reads __proto__ and constructor keys as data and checks what they hold', () => {
    const parsed: unknown = JSON.parse('{"__proto__":{"x":"\\ud800"},"constructor":1}');
    expect(
      codeOf(() => {
        checkInputShape(parsed);
      }),
    ).toBe('CORE_INPUT_NOT_JSON');
    const deep: unknown = JSON.parse(`{"__proto__":${'['.repeat(70)}${']'.repeat(70)}}`);
    expect(
      codeOf(() => {
        checkInputShape(deep);
      }),
    ).toBe('CORE_INPUT_TOO_DEEP');
  });

  it('rejects lone surrogates in strings and keys, non-finite numbers and non-JSON values', () => {
    expect(
      codeOf(() => {
        checkInputShape({ a: 'x\ud800' });
      }),
    ).toBe('CORE_INPUT_NOT_JSON');
    expect(
      codeOf(() => {
        checkInputShape({ ['\udc00']: 1 });
      }),
    ).toBe('CORE_INPUT_NOT_JSON');
    expect(
      codeOf(() => {
        checkInputShape({ a: Number.NaN });
      }),
    ).toBe('CORE_INPUT_NOT_JSON');
    expect(
      codeOf(() => {
        checkInputShape({ a: () => 1 });
      }),
    ).toBe('CORE_INPUT_NOT_JSON');
    expect(
      codeOf(() => {
        checkInputShape({ a: new Date(0) });
      }),
    ).toBe('CORE_INPUT_NOT_JSON');
  });
});

describe('SPEC 0: canonical JSON fails with a coded error on anything too deep', () => {
  it(`serialises ${CANONICAL_JSON_MAX_DEPTH} levels and rejects one more with CORE_CANONICAL_JSON_TOO_DEEP`, () => {
    expect(canonicalJson(nested(CANONICAL_JSON_MAX_DEPTH)).length).toBeGreaterThan(CANONICAL_JSON_MAX_DEPTH);
    expect(codeOf(() => canonicalJson(nested(CANONICAL_JSON_MAX_DEPTH + 1)))).toBe('CORE_CANONICAL_JSON_TOO_DEEP');
  });

  it('rejects 4,000 levels with the same coded error (the depth that used to raise a RangeError)', () => {
    expect(codeOf(() => canonicalJson(nested(4000)))).toBe('CORE_CANONICAL_JSON_TOO_DEEP');
  });
});
