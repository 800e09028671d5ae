import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

/**
 * Ctrl-C during `verify --jobs 2 --report`, as the README says: the run ends at once by the signal, prints no verdict,
 * writes no report and leaves no temporary file beside it, and its worker process ends with it (a worker left behind
 * would keep a core busy after the user stopped the run). The built binary over copies of a corpus bundle.
 */
const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(appDir, 'bin', 'auditor-replay.js');
const honest = join(appDir, 'test-corpus', 'honest', 'epoch-1.json');

beforeAll(() => {
  expectBuiltCli(appDir);
});

/** The pids of `pid`'s children (`ps --ppid`). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('verify stopped by SIGINT', () => {
  it('ends by the signal after some bundles: no verdict, no report, no temporary file, no worker left', async () => {
    const dir = tempDir('auditor-verify-int-');
    const bundles = join(dir, 'bundles');
    execFileSync('mkdir', [bundles]);
    for (let i = 0; i < 400; i++) copyFileSync(honest, join(bundles, `epoch-copy-${i}.json`));
    const report = join(dir, 'audit.html');
    const child = spawn(process.execPath, [bin, 'verify', bundles, '--jobs', '2', '--report', report], { cwd: appDir });
    let stdout = '';
    let stderr = '';
    let workers: number[] = [];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.on('exit', (code, signal) => {
        resolve({ code, signal });
      });
    });
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        // Several bundles verified: the worker runs. Note it, then Ctrl-C.
        if (workers.length === 0 && (stderr.match(/\nverify /g) ?? []).length >= 5) {
          workers = childrenOf(child.pid ?? -1);
          child.kill('SIGINT');
          resolve();
        }
      });
    });
    const { code, signal } = await ended;
    expect([code, signal]).toEqual([null, 'SIGINT']);
    expect(workers.length).toBe(1);
    expect(stdout).toBe('');
    expect(readdirSync(dir)).toEqual(['bundles']);
    // The worker ends with its parent (its IPC channel closes); give it a moment.
    for (let i = 0; i < 50 && workers.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(workers.filter(alive)).toEqual([]);
  }, 60_000);
});
