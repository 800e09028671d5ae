// The closing summary of `pnpm check`, read from each package's vitest JSON report (`.vitest/results.json`).
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The first line of an error text (a failure's stack starts with its message), at most 300 characters. */
function firstLine(text) {
  const line =
    String(text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/**
 * Sums the vitest reports of `dirs` (package folders under `root`): a row per package, the totals, and one line per
 * failure naming the file, the test and the first line of its error, so a log read from its end says what failed.
 *
 * A failed test makes its file and every describe around it failed suites too in vitest's report; those are not added
 * to the count (one failure nested one describe deep read as "3 failed"). A file that failed with no failed test in it
 * (an import error, a failing `beforeAll` or `afterAll`, a worker that died) counts as one failure.
 *
 * @param {string} root
 * @param {string[]} dirs
 * @returns {{ rows: string[], failures: string[], passed: number, failed: number, skipped: number }}
 */
export function summariseResults(root, dirs) {
  const summary = { rows: [], failures: [], passed: 0, failed: 0, skipped: 0 };
  for (const dir of dirs) {
    const file = join(dir, '.vitest', 'results.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
    const passed = report.numPassedTests ?? 0;
    const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    let failed = report.numFailedTests ?? 0;
    for (const result of report.testResults ?? []) {
      const where = relative(root, result.name);
      const failedHere = (result.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failedHere) summary.failures.push(`  ${where} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
      if (failedHere.length === 0 && result.status === 'failed') {
        failed += 1;
        summary.failures.push(`  ${where}: ${firstLine(result.message) || 'the file failed outside its tests (an import or a hook)'}`);
      }
    }
    summary.rows.push(`  ${name.padEnd(28)} ${String(passed).padStart(5)} passed ${String(failed).padStart(3)} failed ${String(skipped).padStart(3)} skipped`);
    summary.passed += passed;
    summary.failed += failed;
    summary.skipped += skipped;
  }
  return summary;
}
