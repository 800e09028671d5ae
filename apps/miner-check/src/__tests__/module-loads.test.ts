/**
 * What a command loads: `term` checks a results file with `@subnet/bundle/records`, the record schemas without the
 * bundle's signing, so it starts without `@polkadot/*` (loading it took about half a second of a one-second run).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';

import { appDir, cli, examples, requireBuiltCli } from './cli-support.js';

const register = join(appDir, 'src', '__tests__', 'module-log', 'register.mjs');

/** Runs node with the module log on, in the app's folder; returns the URLs of the packages it resolved. */
function packagesLoaded(args: readonly string[]): { code: number | null; packages: Set<string> } {
  const log = join(tempDir('miner-check-modules-'), 'modules.log');
  const result = spawnSync(process.execPath, ['--import', register, ...args], {
    cwd: appDir,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, MODULE_LOG: log },
  });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(urls.map((url) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]).filter((name): name is string => name !== undefined));
  return { code: result.status, packages };
}

describe('modules a command loads', () => {
  beforeAll(() => {
    requireBuiltCli();
  });

  it('the log sees @polkadot when @subnet/bundle itself is imported (the check below can fail)', () => {
    const run = packagesLoaded(['--input-type=module', '-e', "await import('@subnet/bundle');"]);
    expect(run.code).toBe(0);
    expect([...run.packages].some((name) => name.startsWith('@polkadot/'))).toBe(true);
  });

  it('term scores a results file without loading @polkadot', () => {
    const run = packagesLoaded([cli, 'term', '--results', join(examples, 'term', 'results.json'), '--total-tasks', '10']);
    expect(run.code).toBe(0);
    expect(run.packages.has('zod')).toBe(true);
    expect([...run.packages].filter((name) => name.startsWith('@polkadot/'))).toEqual([]);
  });
});
