import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { runDemo } from '../demo.js';
import { BUILT_CLI, expectBuiltCli, tempDir } from './helpers.js';

/**
 * Ctrl-C in the middle of `subnet-validator demo` (the default run of `npm start`): the demo stops its validator and
 * devnet, removes the temporary folder it made (a half-run demo has no bundles to check), says so, and exits 130 as a
 * shell reports an interrupted command. Before, the process died at once and left `subnet-validator-demo-*` with its
 * SQLite files in the temporary folder. Runs the built binary (bin/subnet-validator.js -> dist/cli.js).
 */
const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = BUILT_CLI;

beforeAll(expectBuiltCli);

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  tmp?.cleanup();
});

interface Interrupted {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The demo's folder, from its `validator: ... SQLite <dir>/validator.sqlite` line. */
  readonly demoDir: string;
}

/** Starts the demo with TMPDIR set to `tmpdir`, sends `signal` once the validator is up, and waits for the exit. */
function interruptDemo(tmpdir: string, signal: NodeJS.Signals): Promise<Interrupted> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'demo'], {
      cwd: appDir,
      env: { ...process.env, TMPDIR: tmpdir },
    });
    let stdout = '';
    let stderr = '';
    let demoDir: string | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the demo did not start or stop in time:\n${stdout}\n${stderr}`));
    }, 90_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /SQLite (.+)\/validator\.sqlite\)/.exec(stdout);
      if (demoDir === undefined && match?.[1] !== undefined) {
        demoDir = match[1];
        child.kill(signal);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (demoDir === undefined) reject(new Error(`the demo ended before its validator started (${code}):\n${stdout}\n${stderr}`));
      else resolve({ code, stdout, stderr, demoDir });
    });
  });
}

describe('subnet-validator demo stopped by a signal', () => {
  it('SIGINT: stops, removes its temporary folder, says so on stderr and exits 130', async () => {
    tmp = tempDir();
    const run = await interruptDemo(tmp.dir, 'SIGINT');
    expect(run.demoDir.startsWith(join(tmp.dir, 'subnet-validator-demo-'))).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('demo stopped by SIGINT before its last epoch: nothing left behind');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(run.demoDir)).toBe(false);
    expect(readdirSync(tmp.dir).filter((name) => name.startsWith('subnet-validator-demo-'))).toEqual([]);
  }, 120_000);

  it('SIGTERM: the same, with 143', async () => {
    tmp = tempDir();
    const run = await interruptDemo(tmp.dir, 'SIGTERM');
    expect(run.code).toBe(143);
    expect(run.stderr).toContain('demo stopped by SIGTERM before its last epoch: nothing left behind');
    expect(existsSync(run.demoDir)).toBe(false);
  }, 120_000);
});

describe('runDemo stopped while it feeds an epoch', () => {
  it('stops its requests with the signal and does not report the interrupted epoch as fed', async () => {
    tmp = tempDir();
    const printed: string[] = [];
    const out = { write: (text: string) => printed.push(text) } as unknown as NodeJS.WritableStream;
    const controller = new AbortController();
    const reason = new Error('stopped by the test');
    // Aborted the moment the validator has answered the epoch's task registration, the first request of a feed:
    // the feed's record posts are still to be sent.
    const logger = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          if (line.includes('"path":"/v1/tasks"') && line.includes('"status":201')) controller.abort(reason);
        },
      },
    );
    const run = runDemo({ epochs: 1, out, dir: tmp.dir, logger, epochLength: 20, signal: controller.signal });
    await expect(run).rejects.toBe(reason);
    expect(controller.signal.aborted).toBe(true);
    expect(printed.join('')).toContain('validator: ');
    expect(printed.join('')).not.toMatch(/fed \d+ records/);
  }, 120_000);
});
