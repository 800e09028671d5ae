import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { devHotkeyUri } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import { freePort, TOKEN, useTempDir } from './helpers.js';

/**
 * Ctrl-C while `subnet-validator run` starts (waiting up to 60 s for a chain that does not answer, or for a password):
 * before, the default signal handling ended the process with 130 and no word, and left the SQLite database and the
 * bundles folder the start had created, which a failed start removes (docs/spec.md G.10).
 */
const cli = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'cli.ts');
const t = useTempDir();

function interruptWhileConnecting(args: string[], signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=@subnet/source', cli, ...args], {
    env: { ...process.env, SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: TOKEN, SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: devHotkeyUri('devnet', 0) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let sent = false;
  proc.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    // The start is waiting for the chain: the storage and the bundles folder exist by now.
    if (!sent && stdout.includes('chain endpoint not reachable yet; retrying')) {
      sent = true;
      proc.kill(signal);
    }
  });
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 50_000);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a signal while run is starting', () => {
  for (const [signal, exit] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} while waiting for the chain: says so, exits ${exit}, and leaves nothing the start created`, async () => {
      const dir = join(t.dir, signal);
      mkdirSync(dir);
      const config = join(dir, 'validator.yaml');
      writeFileSync(
        config,
        [
          'netuid: 1',
          `chain: { endpoint: "ws://127.0.0.1:${await freePort()}" }`,
          'server: { port: 0 }',
          `database: { path: ${join(dir, 'data', 'validator.sqlite')} }`,
          `bundles: { dir: ${join(dir, 'bundles')} }`,
          'scoring:',
          '  pipeline: { min_validators: 1, min_stake_fraction: 0 }',
          '  challenges: [{ id: bounty, kind: bounty, alpha: 1 }]',
          '',
        ].join('\n'),
      );
      const run = await interruptWhileConnecting(['run', '--config', config], signal);
      expect(run.code).toBe(exit);
      const lines = run.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(lines.at(-1)).toMatchObject({
        level: 40,
        msg: `${signal} while starting, before the service listened: stopped, and what this start created is removed`,
      });
      expect(run.stderr).toBe('');
      expect(readdirSync(dir)).toEqual(['validator.yaml']);
      expect(existsSync(join(dir, 'data'))).toBe(false);
    }, 60_000);
  }
});
