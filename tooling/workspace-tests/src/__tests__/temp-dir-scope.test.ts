/**
 * `tempDir(prefix, 'file')` folders are removed after their file's tests in every file of a run, not only the first:
 * test files share one module graph per worker, so the temp-dir module is evaluated once (the preset's setup file
 * registers the removal for each file). Runs vitest on a fixture of three such files and checks /tmp afterwards.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { root } from '../workspace.js';

const fixture = join(root, 'tooling', 'workspace-tests', 'fixtures', 'temp-dir-scope');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

it("removes every file's `file`-scoped temp folders after that file, in a run of several files", () => {
  const logDir = mkdtempSync(join(tmpdir(), 'temp-dir-scope-log-'));
  try {
    const log = join(logDir, 'made.log');
    const run = spawnSync(process.execPath, [vitest, 'run', '--root', fixture, '--maxWorkers=1', '--reporter=dot'], {
      cwd: fixture,
      encoding: 'utf8',
      env: { ...process.env, TEMP_DIR_SCOPE_LOG: log },
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const made = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(made).toHaveLength(3);
    expect(made.filter((dir) => existsSync(dir))).toEqual([]);
  } finally {
    rmSync(logDir, { recursive: true, force: true });
    rmSync(join(fixture, '.vitest'), { recursive: true, force: true });
  }
});
