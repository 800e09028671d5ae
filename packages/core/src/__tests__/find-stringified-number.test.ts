import { describe, expect, it } from 'vitest';

import { canonicalJson, findStringifiedNumber, stringifiedNumberMessage } from '../index.js';

describe('findStringifiedNumber (SPEC 0: integers beyond 2^53 are written as decimal strings)', () => {
  it('finds the first number canonical JSON writes as a string, with its path', () => {
    const value = JSON.parse('{"a":[1, {"__proto__": 9007199254740994}], "b": 1e21}') as unknown;
    expect(findStringifiedNumber(value, 'body')).toMatchObject({ path: 'body.a[1].__proto__', value: 2 ** 53 + 2 });
    expect(findStringifiedNumber([-1e300], 'x')).toMatchObject({ path: 'x[0]', value: -1e300 });
  });

  it('says why in one sentence every boundary uses: what canonical JSON does to it, the path and the number', () => {
    expect(findStringifiedNumber({ b: [1e21] }, 'body')?.message).toBe(
      'a number beyond 2^53 would be stored as a decimal string (canonical JSON), not as the number sent, at body.b[0] (got 1e+21)',
    );
    // A reader that keeps such an integer exact (a bigint) is refused with the same sentence, digits exact.
    expect(stringifiedNumberMessage('sssa.a', 2n ** 64n)).toBe(
      'a number beyond 2^53 would be stored as a decimal string (canonical JSON), not as the number sent, at sssa.a (got 18446744073709551616)',
    );
  });

  it('gives the reason without its place, for an error that adds the path and the number from its context', () => {
    const found = findStringifiedNumber({ b: [1e21] }, 'body');
    expect(found?.reason).toBe('a number beyond 2^53 would be stored as a decimal string (canonical JSON), not as the number sent');
    expect(found?.message).toBe(`${found?.reason ?? ''}, at body.b[0] (got 1e+21)`);
  });

  it('agrees with canonical JSON on the boundary: 2^53 stays a number, the next double does not', () => {
    for (const n of [2 ** 53, -(2 ** 53), 2 ** 53 + 2, 1.5, 5e-324, -0, 1e21, 0.1]) {
      const writtenAsString = canonicalJson([n]).startsWith('["');
      expect(findStringifiedNumber([n]) !== undefined, String(n)).toBe(writtenAsString);
    }
  });

  it('undefined when every number stays a number', () => {
    expect(findStringifiedNumber({ a: [1, 2.5, 'x', null, true, { b: 2 ** 53 }] })).toBeUndefined();
  });
});
