/** What `pnpm check` prints at its end: a row per package, one line per failure, and the totals. */
export interface TestSummary {
  rows: string[];
  failures: string[];
  passed: number;
  failed: number;
  skipped: number;
}

/** Sums the vitest reports (`.vitest/results.json`) of the package folders `dirs` under `root`. */
export declare function summariseResults(root: string, dirs: string[]): TestSummary;
