import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runWithClosedStderr, runWithClosedStdout } from '@subnet/vitest-config/closed-pipe';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { BUILT_CLI, expectBuiltCli, useTempDir } from './helpers.js';

beforeAll(expectBuiltCli);
const t = useTempDir();

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BUILT_CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
}

describe('subnet-validator CLI', () => {
  it('ends quietly with 141 (as SIGPIPE would) when its output pipe is closed early (`| head`), no EPIPE stack', async () => {
    const file = join(t.dir, 'piped.yaml');
    const run = await runWithClosedStdout(process.execPath, [BUILT_CLI, 'init', '--config', file]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(141);
    expect(readFileSync(file, 'utf8')).toContain('# subnet-validator configuration.');
  });

  it('whose standard error nobody reads any more (its reader closed it) still ends a refused run with 2, not 1 for the failed write', async () => {
    const file = join(t.dir, 'unread.yaml');
    expect(run(['init', '--config', file]).status).toBe(0);
    const refused = await runWithClosedStderr(process.execPath, [BUILT_CLI, 'run', '--config', file], {
      env: { ...process.env, SUBNET_VALIDATOR_SCORING__PIPELINE__WEIGHT_CAP: '7' },
    });
    expect(refused.code).toBe(2);
    expect((await runWithClosedStderr(process.execPath, [BUILT_CLI, '--no-such-flag'])).code).toBe(2);
  });

  it('init writes the commented default configuration; run refuses a bad value, naming it, with exit code 2', () => {
    const file = join(t.dir, 'validator.yaml');
    const init = run(['init', '--config', file]);
    expect(init.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('# subnet-validator configuration.');
    const bad = run(['run', '--config', file], { SUBNET_VALIDATOR_SCORING__PIPELINE__WEIGHT_CAP: '7' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('VALIDATOR_INVALID_CONFIG');
    expect(bad.stderr).toContain('scoring.pipeline.weight_cap');
  }, 90_000);

  it('run with an empty SUBNET_VALIDATOR_ variable names the variable and says it reads as null (exit 2), not only the key of the file', () => {
    const file = join(t.dir, 'empty-variable.yaml');
    const init = run(['init', '--config', file]);
    expect(init.status).toBe(0);
    const bad = run(['run', '--config', file], {
      SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'token-that-must-stay-secret',
      SUBNET_VALIDATOR_WALLET__PASSWORD_FILE: '',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      'error: [VALIDATOR_INVALID_CONFIG] invalid configuration: Invalid input: expected string, received null (set by the environment variable ' +
        'SUBNET_VALIDATOR_WALLET__PASSWORD_FILE, which is empty: an empty value reads as YAML null; unset it or give it a value) at wallet.password_file (got null)\n',
    );
  }, 90_000);

  it('run with an empty config file says the file is empty and what to set (exit 2); the environment alone still completes it', () => {
    const file = join(t.dir, 'empty.yaml');
    writeFileSync(file, '# settings come from the environment\n');
    const empty = run(['run', '--config', file]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(
      new RegExp(
        `^error: \\[VALIDATOR_INVALID_CONFIG\\] the config file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is empty, and neither the environment nor a flag sets the 2 settings it needs: netuid .*SUBNET_VALIDATOR_NETUID.*; scoring .*SUBNET_VALIDATOR_SCORING`,
      ),
    );
    // Every required setting from the environment: the configuration resolves and the start goes on to the wallet,
    // which the temporary home does not hold (exit 1, not the configuration's 2).
    const init = run(['init', '--config', '-']);
    const scoring = JSON.stringify((parseYaml(init.stdout) as { scoring: unknown }).scoring);
    const started = run(['run', '--config', file], {
      HOME: t.dir,
      SUBNET_VALIDATOR_NETUID: '1',
      SUBNET_VALIDATOR_SCORING: scoring,
      SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'token-that-must-stay-secret',
      SUBNET_VALIDATOR_SERVER__PORT: '0',
      SUBNET_VALIDATOR_DATABASE__PATH: join(t.dir, 'env.sqlite'),
      SUBNET_VALIDATOR_BUNDLES__DIR: join(t.dir, 'env-bundles'),
      SUBNET_VALIDATOR_CHAIN__COMMIT_STORE: join(t.dir, 'env-commits.json'),
    });
    expect([started.status, started.stderr]).toEqual([1, expect.stringContaining('WALLET_KEYFILE_NOT_FOUND')]);
    expect(started.stdout).toContain('"msg":"starting"');
  }, 90_000);

  it('run with an unknown key beside the executor token and the key URI names the key and prints neither secret (exit 2)', () => {
    const file = join(t.dir, 'unknown-key.yaml');
    writeFileSync(file, 'netuid: 1\nserver: { port: 0, bogus: 1 }\nvalidator: { hotkey_uri: "//Secret//Uri" }\n');
    const bad = run(['run', '--config', file], { SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'token-that-must-stay-secret' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('[VALIDATOR_INVALID_CONFIG]');
    // The unknown key's own value is shown, not the section beside it (which holds the token).
    expect(bad.stderr).toContain('Unrecognized key: "bogus" at server (got 1)');
    expect(bad.stderr).not.toContain('token-that-must-stay-secret');
    const section = join(t.dir, 'unknown-key-validator.yaml');
    writeFileSync(section, 'netuid: 1\nvalidator: { hotkey_uri: "//Secret//Uri", extra: 1 }\n');
    const leak = run(['run', '--config', section], { SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: 'token-that-must-stay-secret' });
    expect(leak.status).toBe(2);
    expect(leak.stderr).toContain('Unrecognized key: "extra" at validator');
    expect(leak.stderr).not.toContain('//Secret//Uri');
  }, 90_000);
});
