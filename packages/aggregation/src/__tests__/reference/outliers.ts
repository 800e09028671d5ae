// Slow reference: the implementation before the performance rewrite (commit 5f1f640), kept verbatim for reference.test.ts; only import paths changed. Do not optimise.
import { checkArray, checkObject, checkOneOf, checkUnit } from '../../checks.js';
import { AGGREGATION_ERROR_CODES, fail } from '../../errors.js';
import { deepFreeze } from './order.js';

/** The outlier rule (SPEC C.3). */
export interface OutlierOptions {
  /** `modified_z` (default; MAD with the MeanAD fallback) or `zscore` (population sigma). */
  readonly method: 'modified_z' | 'zscore';
  /** |statistic| above this is an outlier: default 3.5 for `modified_z`, 2.0 for `zscore`. */
  readonly threshold: number;
}

/** Fewest evaluations for which outliers are looked for (SPEC C.3). */
export const MIN_EVALUATIONS_FOR_OUTLIERS = 3;
/** The consistency constant of the modified z-score, 0.6745 (SPEC C.3). */
export const MODIFIED_Z_CONSTANT = 0.6745;
/** The MeanAD fallback factor, 1.253314 (about sqrt(pi/2); SPEC C.3). */
export const MEAN_AD_FACTOR = 1.253314;

/** Which statistic decided (or why none did). */
export type OutlierBasis = 'mad' | 'mean_ad' | 'zscore' | 'too_few' | 'no_spread';

/** The outcome of {@link detectOutliers}. */
export interface OutlierResult {
  /** Per input index, true iff that score is an outlier. */
  readonly excluded: readonly boolean[];
  readonly explanation: {
    readonly method: OutlierOptions['method'];
    readonly threshold: number;
    readonly count: number;
    /** What the statistic was based on; `too_few` (< 3) and `no_spread` exclude nothing. */
    readonly basis: OutlierBasis;
    /** The median (modified z) or mean (z-score); null when too few. */
    readonly centre: number | null;
    /** MAD, 1.253314·MeanAD or sigma, the denominator actually used; null when too few. */
    readonly spread: number | null;
    /** Per input index, the statistic M_i or z_i (null when none was computed; ±Number.MAX_VALUE when it overflowed). */
    readonly statistics: readonly (number | null)[];
  };
}

/** Median of values sorted ascending; an even count gives the mean of the two middle values. */
export function medianOfSorted(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  const mid = n >> 1;
  if (n % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Finds outlier scores among one miner's evaluations (SPEC C.3). Modified z-score:
 * `M_i = 0.6745·(x_i − median) / MAD`, outlier iff |M_i| > threshold; when MAD = 0,
 * `M_i = (x_i − median) / (1.253314·MeanAD)`; when that is 0 too nothing is an outlier. `zscore`:
 * `z_i = (x_i − mean) / σ` with the population σ; σ = 0 excludes nothing. With fewer than 3 scores nothing
 * is an outlier. Sums (MeanAD, mean, variance) run over the scores sorted ascending, so the result does
 * not depend on input order.
 *
 * @param scores - scores in [0, 1]
 * @param options - method and threshold (> 0)
 * @returns per index whether it is an outlier, and the statistics
 * @throws SubnetError `AGGREGATION_INVALID_INPUT` for a score outside [0, 1] or a bad option
 * @example detectOutliers([0.8, 0.81, 0.79, 0.8, 0.1], { method: 'modified_z', threshold: 3.5 }).excluded
 * // [false, false, false, false, true]
 */
export function detectOutliers(scores: readonly number[], options: OutlierOptions): OutlierResult {
  checkArray(scores, 'scores');
  for (let i = 0; i < scores.length; i += 1) checkUnit(scores[i], `scores[${i}]`);
  checkOutlierOptions(options, 'options');
  return deepFreeze(detectOutliersUnchecked(scores, options));
}

/** Validates outlier options (internal). */
export function checkOutlierOptions(options: OutlierOptions, path: string): void {
  checkObject(options, path);
  checkOneOf(options.method, ['modified_z', 'zscore'], `${path}.method`);
  const t = options.threshold;
  if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) {
    fail(AGGREGATION_ERROR_CODES.invalidInput, 'expected a finite threshold > 0', `${path}.threshold`, t);
  }
}

/** {@link detectOutliers} without input checks (internal; inputs already validated). */
export function detectOutliersUnchecked(scores: readonly number[], options: OutlierOptions): OutlierResult {
  const n = scores.length;
  const none = (basis: OutlierBasis, centre: number | null, spread: number | null): OutlierResult => ({
    excluded: scores.map(() => false),
    explanation: {
      method: options.method,
      threshold: options.threshold,
      count: n,
      basis,
      centre,
      spread,
      statistics: scores.map(() => null),
    },
  });
  if (n < MIN_EVALUATIONS_FOR_OUTLIERS) return none('too_few', null, null);
  const sorted = Float64Array.from(scores).sort();
  let centre: number;
  let spread: number;
  let basis: OutlierBasis;
  let statistic: (x: number) => number;
  if (options.method === 'modified_z') {
    const median = medianOfSorted(sorted);
    const deviations = sorted.map((x) => Math.abs(x - median)).sort();
    const mad = medianOfSorted(deviations);
    centre = median;
    if (mad > 0) {
      basis = 'mad';
      spread = mad;
      statistic = (x) => (MODIFIED_Z_CONSTANT * (x - median)) / mad;
    } else {
      let total = 0;
      for (const d of deviations) total += d;
      const meanAd = total / n;
      spread = MEAN_AD_FACTOR * meanAd;
      if (!(spread > 0)) return none('no_spread', median, spread);
      basis = 'mean_ad';
      const denominator = spread;
      statistic = (x) => (x - median) / denominator;
    }
  } else {
    let total = 0;
    for (const x of sorted) total += x;
    const mean = total / n;
    let squares = 0;
    for (const x of sorted) squares += (x - mean) * (x - mean);
    const sigma = Math.sqrt(squares / n);
    centre = mean;
    spread = sigma;
    if (!(sigma > 0)) return none('no_spread', mean, sigma);
    basis = 'zscore';
    statistic = (x) => (x - mean) / sigma;
  }
  const raw = scores.map(statistic);
  // With a subnormal spread the quotient can overflow: the decision uses it as is (±Infinity is beyond any
  // threshold, as the exact value is), the explanation reports ±Number.MAX_VALUE so it stays finite JSON.
  const statistics = raw.map((m) => (m === Number.POSITIVE_INFINITY ? Number.MAX_VALUE : m === Number.NEGATIVE_INFINITY ? -Number.MAX_VALUE : m));
  return {
    excluded: raw.map((m) => Math.abs(m) > options.threshold),
    explanation: { method: options.method, threshold: options.threshold, count: n, basis, centre, spread, statistics },
  };
}
