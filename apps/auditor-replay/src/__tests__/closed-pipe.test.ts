import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runWithClosedStderr, runWithClosedStdout } from '@subnet/vitest-config/closed-pipe';
import { describe, expect, it } from 'vitest';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(appDir, 'bin', 'auditor-replay.js');

describe('auditor-replay piped into a reader that stops early (`| head`)', () => {
  it.each([['--help'], ['verify', '--help']])('`auditor-replay %s` ends quietly with 141 (as SIGPIPE would), no EPIPE stack', async (...args) => {
    expectBuiltCli(appDir);
    const run = await runWithClosedStdout(process.execPath, [bin, ...args], { cwd: appDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(141);
  });
});

describe('auditor-replay whose standard error nobody reads any more (its reader closed it)', () => {
  it('a usage error still ends with 2, not 1 for the failed write of its message', async () => {
    expectBuiltCli(appDir);
    const run = await runWithClosedStderr(process.execPath, [bin, 'verify', '--no-such-flag'], { cwd: appDir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });
});
