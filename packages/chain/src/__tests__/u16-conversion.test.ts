import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { chainUpscale } from '../chain-upscale.js';
import { convertToU16 } from '../u16-conversion.js';

const vectors = JSON.parse(readFileSync(new URL('./fixtures/sdk-weight-utils.json', import.meta.url), 'utf8')) as Record<
  string,
  { uids: number[]; weights: number[]; result: [number[], number[]] }
>;

describe('u16 conversion through @subnet/aggregation toU16 (SPEC C.10)', () => {
  for (const name of ['convert_bankers_rounding_1_6', 'convert_tiny_filtered', 'convert_with_zero']) {
    it(`max mode matches the Python SDK vector ${name}`, () => {
      const v = vectors[name]!;
      const out = convertToU16(
        v.uids.map((u, i) => [u, v.weights[i]!] as const),
        'max',
      );
      expect([out.uids, out.values]).toEqual(v.result);
    });
  }
  it('sum mode sums to exactly 65535 and drops zeros', () => {
    const out = convertToU16(
      [
        [0, 1],
        [1, 1],
        [2, 1],
        [3, 0],
      ],
      'sum',
    );
    expect(out.uids).toEqual([0, 1, 2]);
    expect(out.values).toEqual([21845, 21845, 21845]);
  });
  it('rejects a negative weight as CHAIN_INVALID_INPUT', () => {
    expect(() => convertToU16([[0, -1]], 'sum')).toThrow(/CHAIN_INVALID_INPUT/);
  });
});

describe('chain max-upscale (vec_u16_max_upscale_to_u16)', () => {
  it('keeps a vector whose max is 65535', () => {
    expect(chainUpscale([65535, 10922, 1])).toEqual([65535, 10922, 1]);
  });
  it('scales a sum-mode vector so its max becomes 65535', () => {
    expect(chainUpscale([21845, 21845, 21845])).toEqual([65535, 65535, 65535]);
    expect(chainUpscale([1, 2])).toEqual([32768, 65535]);
    expect(chainUpscale([0, 0])).toEqual([0, 0]);
  });
});
