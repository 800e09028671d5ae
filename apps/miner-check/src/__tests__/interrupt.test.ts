import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { appDir, cli, requireBuiltCli, runCli } from './cli-support.js';

/**
 * Ctrl-C during a run: miner-check has no signal handler, so SIGINT ends it at once by the signal (a shell reports
 * 130), and its README's exit table and --help say so. The long operation is `explain` reading a validator that never
 * answers (a local server that takes the request and says nothing).
 */
const servers: ReturnType<typeof createServer>[] = [];

beforeAll(() => {
  requireBuiltCli();
});

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('miner-check stopped by Ctrl-C (SIGINT)', () => {
  it('ends by the signal (130 in a shell) while explain waits on a validator, printing nothing', async () => {
    let asked!: () => void;
    const requested = new Promise<void>((resolve) => (asked = resolve));
    const server = createServer(() => {
      asked();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const child = spawn(process.execPath, [cli, 'explain', '--bundles', url, '--hotkey', '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'], { cwd: appDir });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.on('exit', (code, signal) => {
        resolve({ code, signal });
      });
    });
    await requested;
    child.kill('SIGINT');
    expect(await ended).toEqual({ code: null, signal: 'SIGINT' });
    expect(out).toBe('');
  });

  it('the README exit table and --help list 130 (SIGINT) and 143 (SIGTERM)', () => {
    const readme = readFileSync(join(appDir, 'README.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| 130 |'));
    expect(row).toMatch(/Ctrl-C \(SIGINT\)/);
    expect(row).toContain('143 for SIGTERM');
    const help = runCli(['--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('130 stopped by Ctrl-C (SIGINT ends it at once, printing nothing more; 143 for SIGTERM)');
  });
});
