import { runWithClosedStderr, runWithClosedStdout } from '@subnet/vitest-config/closed-pipe';
import { beforeAll, describe, expect, it } from 'vitest';

import { appDir, cli, requireBuiltCli } from './cli-support.js';

beforeAll(requireBuiltCli);

describe('miner-check piped into a reader that stops early (`| head`)', () => {
  it.each([['--help'], ['score', '--help']])('`miner-check %s` ends quietly with 141 (as SIGPIPE would), no EPIPE stack', async (...args) => {
    const run = await runWithClosedStdout(process.execPath, [cli, ...args], { cwd: appDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(141);
  });
});

describe('miner-check whose standard error nobody reads any more (its reader closed it)', () => {
  it('a usage error still ends with 2, not 1 for the failed write of its message', async () => {
    const run = await runWithClosedStderr(process.execPath, [cli, 'score', '--no-such-flag'], { cwd: appDir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });
});
