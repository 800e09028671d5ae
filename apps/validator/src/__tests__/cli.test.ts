import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runWithClosedStdout } from '@subnet/vitest-config/closed-pipe';
import { beforeAll, describe, expect, it } from 'vitest';

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
