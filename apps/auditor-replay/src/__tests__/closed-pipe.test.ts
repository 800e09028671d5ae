import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runWithClosedStdout } from '@subnet/vitest-config/closed-pipe';
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
