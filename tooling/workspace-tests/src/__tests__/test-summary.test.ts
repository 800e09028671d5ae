/**
 * The closing summary of `pnpm check` (tooling/scripts/test-summary.mjs) on a real vitest report: a failure nested one
 * describe deep counts once, and the lines at the end name every failed test and every file that failed outside its
 * tests, with the first line of the error. (It counted the failed file and describe as failures too: one test read as
 * "3 failed", and the log's end did not say which.)
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { summariseResults } from '../../../scripts/test-summary.mjs';
import { root } from '../workspace.js';

const fixture = join(root, 'tooling', 'workspace-tests', 'fixtures', 'test-summary');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

it('counts a nested failure once, a file that failed outside its tests once, and names each with its error', () => {
  try {
    const run = spawnSync(process.execPath, [vitest, 'run', '--root', fixture, '--maxWorkers=1'], {
      cwd: fixture,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    const summary = summariseResults(root, [fixture]);
    expect([summary.passed, summary.failed, summary.skipped]).toEqual([2, 3, 0]);
    expect(summary.rows).toEqual([`  ${'summary-fixture'.padEnd(28)}     2 passed   3 failed   0 skipped`]);
    const at = 'tooling/workspace-tests/fixtures/test-summary/src';
    expect(summary.failures).toHaveLength(3);
    expect(summary.failures).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^  ${at}/nested\\.check\\.ts > one describe deep fails with a message of its own: AssertionError: a failure nested one describe deep: expected 'the fixture value' to be 'another value'`,
        ),
      ),
    );
    expect(summary.failures).toContainEqual(`  ${at}/load-error.check.ts: the fixture file fails while it loads`);
    expect(summary.failures).toContainEqual(expect.stringMatching(new RegExp(`^  ${at}/hook-error\\.check\\.ts: .*the fixture afterAll fails`)));
  } finally {
    rmSync(join(fixture, '.vitest'), { recursive: true, force: true });
  }
});
