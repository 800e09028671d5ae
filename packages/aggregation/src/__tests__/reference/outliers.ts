/**
 * SPEC C.3 read literally (reference only). Only with >= 3 scores. Modified z: M_i = 0.6745·(x_i − median)
 * / MAD; MAD = 0 → M_i = (x_i − median) / (1.253314·MeanAD); that 0 too → nothing. Median of an even count
 * is the mean of the two middle values. zscore: population σ, σ = 0 → nothing. Excluded iff |stat| > t.
 * Decision G.4: the sums (MeanAD, mean, variance) run over the values sorted ascending.
 */
export interface ReferenceOutliers {
  readonly excluded: readonly boolean[];
  /** Per score, its statistic; null when none was computed. */
  readonly statistics: readonly (number | null)[];
  readonly basis: 'too_few' | 'no_spread' | 'mad' | 'mean_ad' | 'zscore';
}

function ascending(values: readonly number[]): number[] {
  // Float64Array's sort is numeric and puts -0 before +0.
  return Array.from(Float64Array.from(values).sort());
}

function median(values: readonly number[]): number {
  const s = ascending(values);
  const n = s.length;
  return n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

function sumLeftToRight(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total = total + v;
  return total;
}

export function referenceOutliers(scores: readonly number[], method: 'modified_z' | 'zscore', threshold: number): ReferenceOutliers {
  const n = scores.length;
  const none = (basis: ReferenceOutliers['basis']): ReferenceOutliers => ({ excluded: scores.map(() => false), statistics: scores.map(() => null), basis });
  if (n < 3) return none('too_few');
  let statistic: (x: number) => number;
  let basis: ReferenceOutliers['basis'];
  if (method === 'modified_z') {
    const med = median(scores);
    const deviations = scores.map((x) => Math.abs(x - med));
    const mad = median(deviations);
    if (mad > 0) {
      basis = 'mad';
      statistic = (x) => (0.6745 * (x - med)) / mad;
    } else {
      const meanAd = sumLeftToRight(ascending(deviations)) / n;
      const spread = 1.253314 * meanAd;
      if (!(spread > 0)) return none('no_spread');
      basis = 'mean_ad';
      statistic = (x) => (x - med) / spread;
    }
  } else {
    const sorted = ascending(scores);
    const mean = sumLeftToRight(sorted) / n;
    const sigma = Math.sqrt(sumLeftToRight(sorted.map((x) => (x - mean) * (x - mean))) / n);
    if (!(sigma > 0)) return none('no_spread');
    basis = 'zscore';
    statistic = (x) => (x - mean) / sigma;
  }
  const statistics = scores.map(statistic);
  return { excluded: statistics.map((m) => Math.abs(m) > threshold), statistics, basis };
}
