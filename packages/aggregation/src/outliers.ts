import { checkArray, checkObject, checkOneOf, checkUnit } from './checks.js';
import { AGGREGATION_ERROR_CODES, fail } from './errors.js';
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

/** The rule one set of scores gives (internal): what the statistic is based on and its centre and divisor. */
export interface OutlierRule {
  readonly basis: OutlierBasis;
  /** Median (modified z) or mean (z-score); null when too few. */
  readonly centre: number | null;
  /** MAD, 1.253314·MeanAD or σ; null when too few. */
  readonly spread: number | null;
}

/**
 * The outlier rule of `count` scores held in `scores[0..count)` (internal, allocation-free apart from the
 * returned rule). `sorted` and `deviations` are scratch buffers of at least `count` entries. The arithmetic
 * is exactly that of {@link detectOutliers}: typed-array sort ascending, sums over the sorted values.
 */
export function outlierRule(
  scores: Float64Array,
  count: number,
  method: OutlierOptions['method'],
  sorted: Float64Array,
  deviations: Float64Array,
): OutlierRule {
  if (count < MIN_EVALUATIONS_FOR_OUTLIERS) return { basis: 'too_few', centre: null, spread: null };
  if (method === 'modified_z') {
    // The usual case (MAD > 0) needs only two order statistics: selection, no sort. The fallback sums the
    // sorted deviations, so it sorts (below).
    const mad = madBySelection(scores, count, sorted, deviations);
    if (mad !== null) return { basis: 'mad', centre: mad.median, spread: mad.mad };
  }
  const s = sorted.subarray(0, count);
  for (let i = 0; i < count; i += 1) s[i] = scores[i] as number;
  s.sort();
  if (method === 'modified_z') {
    const median = medianOfSorted(s);
    // |x − median| over the sorted scores falls to 0 and rises again (rounding is monotone), so merging the
    // two runs gives the deviations sorted ascending, the same array a sort would give (no -0 among them).
    let left = 0;
    while (left < count && (s[left] as number) < median) left += 1;
    let l = left - 1;
    let r = left;
    for (let k = 0; k < count; k += 1) {
      const dl = l >= 0 ? Math.abs((s[l] as number) - median) : Number.POSITIVE_INFINITY;
      const dr = r < count ? Math.abs((s[r] as number) - median) : Number.POSITIVE_INFINITY;
      if (dr <= dl) {
        deviations[k] = dr;
        r += 1;
      } else {
        deviations[k] = dl;
        l -= 1;
      }
    }
    const mid = count >> 1;
    const mad = count % 2 === 1 ? (deviations[mid] as number) : ((deviations[mid - 1] as number) + (deviations[mid] as number)) / 2;
    if (mad > 0) return { basis: 'mad', centre: median, spread: mad };
    let total = 0;
    for (let i = 0; i < count; i += 1) total += deviations[i] as number;
    const meanAd = total / count;
    const spread = MEAN_AD_FACTOR * meanAd;
    return { basis: spread > 0 ? 'mean_ad' : 'no_spread', centre: median, spread };
  }
  let total = 0;
  for (let i = 0; i < count; i += 1) total += s[i] as number;
  const mean = total / count;
  let squares = 0;
  for (let i = 0; i < count; i += 1) squares += ((s[i] as number) - mean) * ((s[i] as number) - mean);
  const sigma = Math.sqrt(squares / count);
  return { basis: sigma > 0 ? 'zscore' : 'no_spread', centre: mean, spread: sigma };
}

/**
 * The statistic of score `x` under a rule whose basis is `mad`, `mean_ad` or `zscore` (internal). It may be
 * ±Infinity when the spread is subnormal; the decision uses it as is.
 */
export function outlierStatistic(rule: OutlierRule, x: number): number {
  const centre = rule.centre as number;
  const spread = rule.spread as number;
  return rule.basis === 'mad' ? (MODIFIED_Z_CONSTANT * (x - centre)) / spread : (x - centre) / spread;
}

/** ±Infinity reported as ±Number.MAX_VALUE, so the explanation stays finite JSON (internal). */
export function reportedStatistic(m: number): number {
  return m === Number.POSITIVE_INFINITY ? Number.MAX_VALUE : m === Number.NEGATIVE_INFINITY ? -Number.MAX_VALUE : m;
}

/**
 * Moves the k-th smallest of `a[0..n)` to `a[k]`, smaller-or-equal values before it and greater-or-equal
 * after (quickselect, median-of-three pivot; compares with `<`, so -0 and 0 count as equal).
 */
function selectInPlace(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // Median of three to a[mid], then Hoare partition around it.
    if ((a[mid] as number) < (a[lo] as number)) swap(a, mid, lo);
    if ((a[hi] as number) < (a[lo] as number)) swap(a, hi, lo);
    if ((a[hi] as number) < (a[mid] as number)) swap(a, hi, mid);
    const pivot = a[mid] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i += 1;
      while (pivot < (a[j] as number)) j -= 1;
      if (i <= j) {
        swap(a, i, j);
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k] as number;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}

/** The median of `a[0..n)` by selection (reorders `a`); `negativeZeros` fixes the sign of a zero. */
function medianBySelection(a: Float64Array, n: number, negativeZeros: number): number {
  const mid = n >> 1;
  const upper = withSortedSign(selectInPlace(a, n, mid), mid, negativeZeros);
  if (n % 2 === 1) return upper;
  let lower = a[0] as number;
  for (let i = 1; i < mid; i += 1) if ((a[i] as number) > lower) lower = a[i] as number;
  return (withSortedSign(lower, mid - 1, negativeZeros) + upper) / 2;
}

/** A sort puts every -0 before every +0: the k-th sorted value is -0 iff it is a zero and k < #(-0). */
function withSortedSign(x: number, k: number, negativeZeros: number): number {
  return x === 0 ? (k < negativeZeros ? -0 : 0) : x;
}

/**
 * Median and MAD of `scores[0..count)` by selection, exactly the values the sorted computation gives; null
 * when the MAD is 0 (the caller then needs the sorted deviations).
 */
function madBySelection(scores: Float64Array, count: number, work: Float64Array, deviations: Float64Array): { median: number; mad: number } | null {
  let negativeZeros = 0;
  for (let i = 0; i < count; i += 1) {
    const x = scores[i] as number;
    work[i] = x;
    if (x === 0 && 1 / x < 0) negativeZeros += 1;
  }
  const median = medianBySelection(work, count, negativeZeros);
  for (let i = 0; i < count; i += 1) deviations[i] = Math.abs((scores[i] as number) - median);
  const mad = medianBySelection(deviations, count, 0);
  return mad > 0 ? { median, mad } : null;
}

/** {@link detectOutliers} without input checks (internal; inputs already validated). */
export function detectOutliersUnchecked(scores: readonly number[], options: OutlierOptions): OutlierResult {
  const n = scores.length;
  const rule = outlierRule(Float64Array.from(scores), n, options.method, new Float64Array(n), new Float64Array(n));
  const decides = rule.basis === 'mad' || rule.basis === 'mean_ad' || rule.basis === 'zscore';
  const excluded: boolean[] = [];
  const statistics: (number | null)[] = [];
  for (let i = 0; i < n; i += 1) {
    if (decides) {
      // With a subnormal spread the quotient can overflow: the decision uses it as is (±Infinity is beyond
      // any threshold, as the exact value is), the explanation reports ±Number.MAX_VALUE.
      const m = outlierStatistic(rule, scores[i] as number);
      excluded.push(Math.abs(m) > options.threshold);
      statistics.push(reportedStatistic(m));
    } else {
      excluded.push(false);
      statistics.push(null);
    }
  }
  return {
    excluded,
    explanation: { method: options.method, threshold: options.threshold, count: n, basis: rule.basis, centre: rule.centre, spread: rule.spread, statistics },
  };
}
