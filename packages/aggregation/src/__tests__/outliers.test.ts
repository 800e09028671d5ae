import { describe, expect, it } from 'vitest';

import { AGGREGATION_ERROR_CODES, detectOutliers } from '../index.js';
import { expectError } from './helpers.js';

const MZ = { method: 'modified_z', threshold: 3.5 } as const;
const Z = { method: 'zscore', threshold: 2.0 } as const;

describe('SPEC C.3 outliers', () => {
  it('modified z-score: M_i = 0.6745·(x − median)/MAD, excluded iff |M| > 3.5', () => {
    // sorted 0.1, 0.79, 0.8, 0.8, 0.81: median 0.8; deviations 0.7, 0.01, 0, 0, 0.01 -> MAD 0.01 (approx)
    const scores = [0.8, 0.81, 0.79, 0.8, 0.1];
    const r = detectOutliers(scores, MZ);
    expect(r.excluded).toEqual([false, false, false, false, true]);
    expect(r.explanation.basis).toBe('mad');
    expect(r.explanation.centre).toBe(0.8);
    const mad = r.explanation.spread as number;
    expect(mad).toBe(Math.abs(0.81 - 0.8));
    expect(r.explanation.statistics[4]).toBe((0.6745 * (0.1 - 0.8)) / mad);
  });

  it('a score exactly at the threshold is kept (strictly greater is excluded)', () => {
    // median 0.5, MAD = median(|0|,|0|,|0.2|,|0.2|) over [0.3,0.5,0.5,0.7]: deviations 0,0,0.2,0.2 -> MAD 0.1
    // use threshold = |M| of 0.7 exactly
    const scores = [0.3, 0.5, 0.5, 0.7];
    const probe = detectOutliers(scores, MZ);
    const m = Math.abs(probe.explanation.statistics[3] as number);
    expect(detectOutliers(scores, { method: 'modified_z', threshold: m }).excluded[3]).toBe(false);
  });

  it('median of an even count is the mean of the two middle values', () => {
    const r = detectOutliers([0.2, 0.4, 0.6, 1.0], MZ);
    expect(r.explanation.centre).toBe((0.4 + 0.6) / 2);
  });

  it('MAD = 0 falls back to (x − median)/(1.253314·MeanAD)', () => {
    // median 0.5, deviations [0,0,0,0,0.5] -> MAD 0, MeanAD 0.1, denominator 0.1253314, M = 3.989... > 3.5
    const r = detectOutliers([0.5, 0.5, 0.5, 0.5, 1.0], MZ);
    expect(r.explanation.basis).toBe('mean_ad');
    expect(r.explanation.spread).toBe(1.253314 * (0.5 / 5));
    expect(r.explanation.statistics[4]).toBe(0.5 / (1.253314 * 0.1));
    expect(r.excluded).toEqual([false, false, false, false, true]);
  });

  it('MAD = 0 and MeanAD = 0 excludes nothing', () => {
    const r = detectOutliers([0.7, 0.7, 0.7], MZ);
    expect(r.explanation.basis).toBe('no_spread');
    expect(r.excluded).toEqual([false, false, false]);
  });

  it('only with >= 3 evaluations: two wildly different scores are both kept', () => {
    const r = detectOutliers([0, 1], MZ);
    expect(r.explanation.basis).toBe('too_few');
    expect(r.excluded).toEqual([false, false]);
  });

  it('zscore alternative: population sigma, threshold 2.0', () => {
    const scores = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.0];
    const r = detectOutliers(scores, Z);
    const mean = 5.5 / 10; // summed ascending: nine 0.5 then 1.0
    const sigma = Math.sqrt((9 * (0.5 - mean) ** 2 + (1 - mean) ** 2) / 10);
    expect(r.explanation.centre).toBeCloseTo(mean, 15);
    expect(r.explanation.spread).toBeCloseTo(sigma, 15); // 0.15; z of 1.0 is 3
    expect(r.excluded[9]).toBe(true);
    expect(r.excluded.slice(0, 9).every((x) => !x)).toBe(true);
  });

  it('zscore with sigma = 0 excludes nothing', () => {
    expect(detectOutliers([0.4, 0.4, 0.4, 0.4], Z).explanation.basis).toBe('no_spread');
  });

  it('decision: a statistic that overflows (subnormal MAD) still excludes, and is reported as ±Number.MAX_VALUE', () => {
    const r = detectOutliers([1, 5e-324, 0], MZ);
    expect(r.explanation.spread).toBe(5e-324);
    expect((0.6745 * (1 - 5e-324)) / 5e-324).toBe(Number.POSITIVE_INFINITY);
    expect(r.excluded).toEqual([true, false, false]);
    expect(r.explanation.statistics[0]).toBe(Number.MAX_VALUE);
  });

  it('decision: outlier sums (MeanAD, mean, variance) run over the values sorted ascending, so the result does not depend on input order', () => {
    const a = detectOutliers([0.9, 0.1, 0.5, 0.52, 0.48], MZ);
    const b = detectOutliers([0.48, 0.52, 0.5, 0.1, 0.9], MZ);
    expect(b.explanation.centre).toBe(a.explanation.centre);
    expect(b.explanation.spread).toBe(a.explanation.spread);
    expect([b.excluded[4], b.excluded[3], b.excluded[2], b.excluded[1], b.excluded[0]]).toEqual([
      a.excluded[0],
      a.excluded[1],
      a.excluded[2],
      a.excluded[3],
      a.excluded[4],
    ]);
  });

  it('rejects a score outside [0, 1], NaN and a non-positive threshold', () => {
    expectError(() => detectOutliers([0.5, 1.5], MZ), AGGREGATION_ERROR_CODES.invalidInput, 'scores[1]');
    expectError(() => detectOutliers([Number.NaN], MZ), AGGREGATION_ERROR_CODES.invalidInput, 'scores[0]');
    expectError(() => detectOutliers([0.5], { method: 'modified_z', threshold: 0 }), AGGREGATION_ERROR_CODES.invalidInput, 'options.threshold');
  });
});
