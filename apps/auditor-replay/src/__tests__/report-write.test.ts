import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

/**
 * `verify --report FILE` that cannot be written is the user's disk, not a bug of the auditor: AUDITOR_WRITE_FAILED at
 * `--report` naming the path and the OS code (it was AUDITOR_INTERNAL with Node's bare ENOENT text), found before any
 * bundle is verified when the folder is wrong, and a write that fails midway (a full disk) leaves neither half a report
 * nor a temporary file, and an earlier report as it was. Runs the built binary (bin/auditor-replay.js -> dist/cli.js).
 */
const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(appDir, 'bin', 'auditor-replay.js');
const bundles = join(appDir, 'test-corpus', 'honest');

beforeAll(() => {
  expectBuiltCli(appDir);
});

/** Runs the built CLI, under `ulimit -f <kib>` when given (bash counts KiB; Node ignores SIGXFSZ, so a write fails with EFBIG). */
function run(args: readonly string[], fileLimitKib?: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const node = [process.execPath, bin, ...args];
  const [command, argv] = fileLimitKib === undefined ? [node[0]!, node.slice(1)] : ['bash', ['-c', `ulimit -f ${fileLimitKib}; exec "$0" "$@"`, ...node]];
  return new Promise((resolve) => {
    execFile(command, argv, { cwd: appDir, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe('verify --report that cannot be written', () => {
  it('a folder that does not exist: AUDITOR_WRITE_FAILED at --report with ENOENT, before any bundle is verified (exit 2)', async () => {
    const missing = join(tempDir('auditor-report-'), 'no-such-folder', 'audit.html');
    const text = await run(['verify', bundles, '--report', missing]);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain(`error: [AUDITOR_WRITE_FAILED] cannot write ${missing}: ENOENT (no such file or directory)`);
    expect(text.stderr).toContain(`at --report (got "${missing}")`);
    expect(text.stderr).not.toContain('verify 1/');
    const json = await run(['verify', bundles, '--report', missing, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ exit_code: 2, error: { code: 'AUDITOR_WRITE_FAILED' } });
  });

  it('a folder as the file: EISDIR, the folder untouched', async () => {
    const folder = tempDir('auditor-report-');
    const r = await run(['verify', bundles, '--report', folder]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: [AUDITOR_WRITE_FAILED] cannot write ${folder}: EISDIR`);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a disk that fills during the write (EFBIG under ulimit -f): exit 2, the earlier report kept whole, no temporary file', async () => {
    const folder = tempDir('auditor-report-');
    const report = join(folder, 'audit.html');
    writeFileSync(report, '<p>the earlier report</p>');
    const r = await run(['verify', bundles, '--report', report], 16);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: [AUDITOR_WRITE_FAILED] cannot write ${report}: EFBIG`);
    expect(r.stderr).not.toContain('AUDITOR_INTERNAL');
    expect(readFileSync(report, 'utf8')).toBe('<p>the earlier report</p>');
    expect(readdirSync(folder)).toEqual(['audit.html']);
  });

  it('a report that can be written is written whole (exit 0)', async () => {
    const folder = tempDir('auditor-report-');
    const report = join(folder, 'audit.html');
    const r = await run(['verify', bundles, '--report', report]);
    expect(r.code).toBe(0);
    expect(readFileSync(report, 'utf8')).toMatch(/<\/html>\s*$/);
    expect(readdirSync(folder)).toEqual(['audit.html']);
  });
});
