/**
 * What `run` loads before it refuses a configuration: the configuration is checked with `@subnet/bundle/epoch-config`
 * and `@subnet/chain/networks` before the service is imported, so a mistake in it is reported without loading
 * `@polkadot/*` or a storage driver (that took about 2 s of a run that only printed the mistake).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { packagesLoaded } from '@subnet/vitest-config/module-log';
import { beforeAll, describe, expect, it } from 'vitest';

import { BUILT_CLI, expectBuiltCli, useTempDir } from './helpers.js';

const appDir = fileURLToPath(new URL('../..', import.meta.url));
const t = useTempDir();

/** The packages a refused `run` must not load: the chain client, the signing keys and the storage drivers. */
const heavy = (packages: Set<string>): string[] => [...packages].filter((name) => name.startsWith('@polkadot/') || name === 'better-sqlite3' || name === 'pg');

describe('subnet-validator run with a bad configuration', () => {
  beforeAll(expectBuiltCli);

  it('the log sees @polkadot and the drivers when the service is imported (the checks below can fail)', () => {
    const run = packagesLoaded(['--input-type=module', '-e', "await import('@subnet/chain'); await import('better-sqlite3');"], { cwd: appDir });
    expect(run.code, run.stderr).toBe(0);
    expect(heavy(run.packages)).toContain('@polkadot/api');
    expect(heavy(run.packages)).toContain('better-sqlite3');
  });

  it.each([
    ['an invalid chain endpoint', 'netuid: 1\nchain: { endpoint: "http://127.0.0.1:9944" }\n', 'chain.endpoint'],
    ['an invalid scoring section', 'netuid: 1\nscoring: { pipeline: { weight_cap: 7 } }\n', 'scoring.pipeline.weight_cap'],
    ['a misspelt key', 'netuid: 1\nserver: { prot: 9000 }\n', '"prot" (did you mean "port"?)'],
  ])('%s is refused (exit 2, the key named) without loading @polkadot or a storage driver', (what, yaml, key) => {
    const file = join(t.dir, `${what.replace(/\W/g, '-')}.yaml`);
    writeFileSync(file, yaml);
    const run = packagesLoaded([BUILT_CLI, 'run', '--config', file], {
      cwd: appDir,
      env: { SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'a-token-of-16-characters-or-more' },
    });
    expect(run.stderr).toContain('VALIDATOR_INVALID_CONFIG');
    expect(run.stderr).toContain(key);
    expect(run.code).toBe(2);
    expect(run.packages.has('zod')).toBe(true);
    expect(heavy(run.packages)).toEqual([]);
  });
});
