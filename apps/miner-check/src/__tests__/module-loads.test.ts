/**
 * What a command loads: `term` checks a results file with `@subnet/bundle/records`, the record schemas without the
 * bundle's signing, so it starts without `@polkadot/*` (loading it took about half a second of a one-second run).
 */
import { join } from 'node:path';

import { packagesLoaded as loggedRun } from '@subnet/vitest-config/module-log';
import { beforeAll, describe, expect, it } from 'vitest';

import { appDir, cli, examples, requireBuiltCli } from './cli-support.js';

/** Runs node with the module log on, in the app's folder. */
const packagesLoaded = (args: readonly string[]) => loggedRun(args, { cwd: appDir });

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
