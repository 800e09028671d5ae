import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { devHotkeyUri, startDevnet } from '@subnet/devnet';
import type { Devnet } from '@subnet/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tempDir, TOKEN } from './helpers.js';

const cli = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'cli.ts');

/** What `subnet-validator run` printed and how it ended, or that it was still running after `ms` (then killed). */
interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stillRunning: boolean;
}

/** Runs the CLI as an operator would, as a child process; kills it if it has not exited after `ms`. */
function runCli(args: string[], env: Record<string, string>, ms: number): Promise<RunResult> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=@subnet/source', cli, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    let stillRunning = false;
    const timer = setTimeout(() => {
      stillRunning = true;
      proc.kill('SIGKILL');
    }, ms);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, stillRunning });
    });
  });
}

describe('subnet-validator run: start-up checks (a real devnet, the CLI as a child process)', () => {
  let devnet: Devnet;
  const t = tempDir();
  beforeAll(async () => {
    devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 20, weightsSetRateLimit: 0n, blockTime: 100 });
  });
  afterAll(async () => {
    await devnet.stop();
    t.cleanup();
  });

  it('a bundles.dir that cannot be written stops start-up with VALIDATOR_INVALID_CONFIG naming it (exit 2), before storage is opened', async () => {
    // A regular file where the folder should be: mkdir fails with ENOTDIR, for root too.
    const blocker = join(t.dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const database = join(t.dir, 'bundles-check.sqlite');
    const config = join(t.dir, 'bundles-check.yaml');
    writeFileSync(
      config,
      [
        'netuid: 1',
        `chain: { endpoint: ${devnet.url}, poll_ms: 200 }`,
        'server: { port: 0 }',
        `database: { path: ${database} }`,
        `bundles: { dir: ${join(blocker, 'bundles')} }`,
        'scoring:',
        '  pipeline: { min_validators: 1, min_stake_fraction: 0 }',
        '  challenges: [{ id: bounty, kind: bounty, alpha: 1 }]',
        '',
      ].join('\n'),
    );
    const env = { SUBNET_VALIDATOR_SERVER__EXECUTOR_TOKEN: TOKEN, SUBNET_VALIDATOR_VALIDATOR__HOTKEY_URI: devHotkeyUri('devnet', 0) };
    // Before the check the service started, reported ready and submitted every epoch while each close failed at
    // its bundle file ("epoch loop step failed", ENOTDIR): it was still running here after 15 s (two epochs).
    const run = await runCli(['run', '--config', config], env, 15_000);
    expect(run.stillRunning).toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: \[VALIDATOR_INVALID_CONFIG\] cannot write to the bundles folder \(ENOTDIR: /);
    expect(run.stderr).toContain('set bundles.dir (or --bundles-dir) to a folder this process can write at bundles.dir');
    expect(run.stderr).toContain(join(blocker, 'bundles'));
    expect(existsSync(database)).toBe(false);
  }, 60_000);
});
