import { execFile, execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';

import { keys, signedBundle } from './fixtures.js';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

/**
 * A folder of bundles comes from whoever published it (a tarball, a git repository, an rsync of a validator's
 * `bundles.dir`), and `verify` reads every `*.json` entry in it (docs/spec.md G.13). An entry that is not a regular
 * file, such as a named pipe that no one writes or a link to `/dev/zero`, used to be opened and read like a file:
 * the pipe held the run forever (its open blocks the event loop, so not even SIGINT's handler ran) and the device
 * filled half a gigabyte of memory before failing with "Invalid string length". Each is now refused unread with
 * AUDITOR_UNREADABLE naming the file and what it is, and the folder's bundles are still verified.
 *
 * The CLI runs in a child process (the built binary, bin/auditor-replay.js -> dist/cli.js) with a time limit, so a run that hangs fails the test
 * instead of hanging the test worker.
 */

const appDir = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(appDir, 'bin', 'auditor-replay.js');

interface Run {
  readonly code: number | string | null;
  readonly stdout: string;
  readonly stderr: string;
}

function verify(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, 'verify', ...args, '--json'], { cwd: appDir, timeout: 20_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error.code ?? error.signal ?? null), stdout, stderr });
    });
  });
}

interface JsonReport {
  readonly exit_code: number;
  readonly bundles: readonly { source: string; status: string; epoch: number | null; error: { code: string; message: string } | null }[];
}

let dir: string;
beforeAll(async () => {
  expectBuiltCli(appDir);
  dir = tempDir('auditor-entries-', 'file');
  const k = await keys();
  writeFileSync(join(dir, 'epoch-1.json'), JSON.stringify(signedBundle(k, { miners: 4, epoch: 1 })));
});

describe('verify: folder entries that are not regular files (docs/spec.md G.13)', () => {
  it('a named pipe no one writes is refused unread with AUDITOR_UNREADABLE; the run ends and still verifies the bundle beside it', async () => {
    const folder = join(dir, 'fifo');
    execFileSync('mkdir', [folder]);
    execFileSync('cp', [join(dir, 'epoch-1.json'), join(folder, 'epoch-1.json')]);
    execFileSync('mkfifo', [join(folder, 'epoch-2.json')]);
    const run = await verify([folder]);
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.bundles.map((b) => [b.source.slice(folder.length + 1), b.status, b.error?.code ?? null])).toEqual([
      ['epoch-1.json', 'ok', null],
      ['epoch-2.json', 'invalid', 'AUDITOR_UNREADABLE'],
    ]);
    expect(report.bundles[1]?.error?.message).toBe(
      `cannot read ${join(folder, 'epoch-2.json')}: it is a named pipe (FIFO), not a regular file; a bundle is read from a regular file only, so nothing was read`,
    );
  });

  it('a link to a device (/dev/zero, endless) is refused unread, naming the device, instead of filling memory', async () => {
    const folder = join(dir, 'device');
    execFileSync('mkdir', [folder]);
    execFileSync('cp', [join(dir, 'epoch-1.json'), join(folder, 'epoch-1.json')]);
    symlinkSync('/dev/zero', join(folder, 'epoch-3.json'));
    const run = await verify([folder, '--jobs', '2']);
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.bundles.map((b) => [b.source.slice(folder.length + 1), b.status, b.error?.code ?? null])).toEqual([
      ['epoch-1.json', 'ok', null],
      ['epoch-3.json', 'invalid', 'AUDITOR_UNREADABLE'],
    ]);
    expect(report.bundles[1]?.error?.message).toBe(
      `cannot read ${join(folder, 'epoch-3.json')}: it is a character device, not a regular file; a bundle is read from a regular file only, so nothing was read`,
    );
  });

  it('a link to a regular file is read as that file (a link inside the folder, such as latest.json, keeps working)', async () => {
    const folder = join(dir, 'link');
    execFileSync('mkdir', [folder]);
    execFileSync('cp', [join(dir, 'epoch-1.json'), join(folder, 'epoch-1.json')]);
    symlinkSync('epoch-1.json', join(folder, 'latest.json'));
    const run = await verify([folder]);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as JsonReport;
    expect([run.code, report.bundles.map((b) => [b.source.slice(folder.length + 1), b.status, b.epoch])]).toEqual([
      0,
      [
        ['epoch-1.json', 'ok', 1],
        ['latest.json', 'ok', 1],
      ],
    ]);
  });
});
