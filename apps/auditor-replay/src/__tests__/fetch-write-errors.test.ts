import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isSubnetError } from '@subnet/core';

import { fetchBundles, runCli } from '../index.js';
import { captureIo } from './capture-io.js';
import { keys, signedBundle } from './fixtures.js';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

/**
 * A local disk error while `fetch` writes (EACCES, ENOSPC/EFBIG, EROFS, a folder under a bundle's name, a path
 * under a regular file) is the auditor's own problem, not the validator's: asking the validator again cannot fix
 * it. It stops the run at once with `AUDITOR_WRITE_FAILED` naming the path and the OS code; no later epoch is
 * asked for and no file already in the folder is removed or changed. Each case writes to a real folder.
 */

const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** Whether a 0o555 folder refuses a new file here (it does not for root, whose writes ignore the mode bits). */
function chmodRefusesWrites(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'auditor-chmod-probe-'));
  try {
    chmodSync(dir, 0o555);
    writeFileSync(join(dir, 'probe'), '');
    return false;
  } catch {
    return true;
  } finally {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
}

const texts = new Map<number, string>();
const hits = new Map<string, number>();
/** The folder the `swap` route replaces with a regular file when epoch 2 is asked for (the disk changing under a run). */
let swapOut = '';
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const k = await keys();
  for (const epoch of [1, 2, 3]) texts.set(epoch, JSON.stringify(signedBundle(k, { miners: 4, epoch })));
  ({ url: base, close } = await listenLocal((request, response) => {
    const path = request.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const [, prefix = '', epoch = ''] = /^\/([a-z]+)\/v1\/epochs\/(\d+)\/bundle$/.exec(path) ?? [];
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(texts.get(Number(epoch)));
    if (prefix === 'swap' && epoch === '2') {
      // The folder goes away under the run (moved, with what it holds) and a regular file takes its name.
      rename(swapOut, `${swapOut}-moved`)
        .then(() => writeFile(swapOut, 'not a folder'))
        .then(answer, () => response.writeHead(500).end());
      return;
    }
    if (texts.has(Number(epoch))) answer();
    else response.writeHead(404).end();
  }));
});
afterAll(() => close());

/** What `fetch` threw, or a failure when it did not throw. */
async function thrown(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error('fetch did not stop');
}

describe('fetch: a local disk error stops the run (AUDITOR_WRITE_FAILED), naming the path and the OS code', () => {
  it.skipIf(!chmodRefusesWrites())(
    'a read-only folder (chmod 0555): EACCES at the first new file; later epochs not asked; the file already there kept',
    async () => {
      const outDir = tempDir('auditor-write-');
      await writeFile(join(outDir, 'epoch-1.json'), texts.get(1)!);
      await chmod(outDir, 0o555);
      try {
        const error = await thrown(fetchBundles({ validator: `${base}/ro`, from: 1, to: 3, outDir, retries: 3, backoffMs: 1 }));
        expect(isSubnetError(error, 'AUDITOR_WRITE_FAILED')).toBe(true);
        const file = join(outDir, 'epoch-2.json');
        expect((error as Error).message).toBe(
          `[AUDITOR_WRITE_FAILED] cannot write ${file}: EACCES (permission denied); a local disk error, so fetch stopped (files already written are kept as they are) at --out (got ${JSON.stringify(file)})`,
        );
        expect((error as { context: unknown }).context).toEqual({ path: '--out', value: file, osCode: 'EACCES' });
      } finally {
        await chmod(outDir, 0o755);
      }
      expect(hits.get('/ro/v1/epochs/2/bundle')).toBe(1);
      expect(hits.get('/ro/v1/epochs/3/bundle')).toBeUndefined();
      expect(await readdir(outDir)).toEqual(['epoch-1.json']);
      expect(await readFile(join(outDir, 'epoch-1.json'), 'utf8')).toBe(texts.get(1));
    },
  );

  it('a folder under an epoch file name (EISDIR): the CLI exits 2 at once, nothing beside it, nothing later asked for', async () => {
    const outDir = tempDir('auditor-write-');
    await mkdir(join(outDir, 'epoch-2.json'));
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/dir`, '--from', '1', '--to', '3', '--out', outDir, '--quiet'], t)).toBe(2);
    const file = join(outDir, 'epoch-2.json');
    expect(t.err()).toBe(
      `error: [AUDITOR_WRITE_FAILED] cannot write ${file}: EISDIR (illegal operation on a directory); a local disk error, so fetch stopped (files already written are kept as they are) at --out (got ${JSON.stringify(file)})\n`,
    );
    expect(hits.get('/dir/v1/epochs/2/bundle')).toBe(1);
    expect(hits.get('/dir/v1/epochs/3/bundle')).toBeUndefined();
    expect((await readdir(outDir)).sort()).toEqual(['epoch-1.json', 'epoch-2.json']);
    expect(await readFile(join(outDir, 'epoch-1.json'), 'utf8')).toBe(texts.get(1));
    expect((await stat(file)).isDirectory()).toBe(true);
    expect(await readdir(file)).toEqual([]);
  });

  it('a named pipe under an epoch file name: never opened (it held the run forever), the CLI exits 2 naming it, nothing later asked for', async () => {
    const outDir = tempDir('auditor-write-');
    const file = join(outDir, 'epoch-2.json');
    execFileSync('mkfifo', [file]);
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/fifo`, '--from', '1', '--to', '3', '--out', outDir, '--quiet'], t)).toBe(2);
    expect(t.err()).toBe(
      `error: [AUDITOR_WRITE_FAILED] cannot write ${file}: a named pipe (FIFO) holds the name (not a regular file, so not read or replaced); a local disk error, so fetch stopped (files already written are kept as they are) at --out (got ${JSON.stringify(file)})\n`,
    );
    expect(hits.get('/fifo/v1/epochs/2/bundle')).toBe(1);
    expect(hits.get('/fifo/v1/epochs/3/bundle')).toBeUndefined();
    expect((await readdir(outDir)).sort()).toEqual(['epoch-1.json', 'epoch-2.json']);
    expect((await stat(file)).isFIFO()).toBe(true);
  }, 20_000);

  it('--out under a regular file (ENOTDIR, as root too): refused before any request; the file unchanged', async () => {
    const dir = tempDir('auditor-write-');
    const plain = join(dir, 'plain');
    await writeFile(plain, 'mine');
    const out = join(plain, 'bundles');
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/under`, '--from', '1', '--to', '2', '--out', out, '--quiet'], t)).toBe(2);
    expect(t.err()).toBe(
      `error: [AUDITOR_WRITE_FAILED] cannot write ${out}: ENOTDIR (not a directory); a local disk error, so fetch stopped (files already written are kept as they are) at --out (got ${JSON.stringify(out)})\n`,
    );
    expect([...hits.keys()].filter((p) => p.startsWith('/under/'))).toEqual([]);
    expect(await readFile(plain, 'utf8')).toBe('mine');
  });

  it('--out naming a regular file (EEXIST from mkdir): says it is a file, not a folder, before any request; the file unchanged', async () => {
    const dir = tempDir('auditor-write-');
    const plain = join(dir, 'bundles.json');
    await writeFile(plain, 'mine');
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', `${base}/plain-out`, '--from', '1', '--to', '2', '--out', plain, '--quiet'], t)).toBe(2);
    expect(t.err()).toBe(
      `error: [AUDITOR_WRITE_FAILED] cannot write ${plain}: EEXIST (file already exists); --out names a file, not a folder: ` +
        `give --out a folder (it is created when missing), so fetch stopped at --out (got ${JSON.stringify(plain)})\n`,
    );
    expect([...hits.keys()].filter((p) => p.startsWith('/plain-out/'))).toEqual([]);
    expect(await readFile(plain, 'utf8')).toBe('mine');
  });

  it('the folder replaced by a regular file mid-run (ENOTDIR, as root too): not retried as a network failure; stops at once', async () => {
    const dir = tempDir('auditor-write-');
    swapOut = join(dir, 'out');
    const error = await thrown(fetchBundles({ validator: `${base}/swap`, from: 1, to: 3, outDir: swapOut, retries: 3, backoffMs: 1 }));
    expect(isSubnetError(error, 'AUDITOR_WRITE_FAILED')).toBe(true);
    expect((error as { context: unknown }).context).toEqual({ path: '--out', value: join(swapOut, 'epoch-2.json'), osCode: 'ENOTDIR' });
    expect(hits.get('/swap/v1/epochs/2/bundle')).toBe(1);
    expect(hits.get('/swap/v1/epochs/3/bundle')).toBeUndefined();
    // What was written before the error is where it was (moved with its folder), unchanged.
    expect(await readdir(`${swapOut}-moved`)).toEqual(['epoch-1.json']);
    expect(await readFile(join(`${swapOut}-moved`, 'epoch-1.json'), 'utf8')).toBe(texts.get(1));
    expect(await readFile(swapOut, 'utf8')).toBe('not a folder');
  });

  it('a disk that fills mid-file (EFBIG under ulimit -f, as root too; the built binary): stops at once, leaves no truncated file', async () => {
    expectBuiltCli(appDir);
    const outDir = tempDir('auditor-write-');
    await writeFile(join(outDir, 'epoch-1.json'), texts.get(1)!);
    expect(Buffer.byteLength(texts.get(2)!)).toBeGreaterThan(4096);
    // bash counts `ulimit -f` in KiB: a file may not grow past 4 KiB; Node ignores SIGXFSZ, so the write fails with EFBIG.
    const script = `ulimit -f 4; exec "$0" "$@"`;
    const args = [join(appDir, 'bin', 'auditor-replay.js'), 'fetch', '--validator', `${base}/full`, '--from', '1', '--to', '3', '--out', outDir, '--quiet'];
    const result = await new Promise<{ code: number | string | null | undefined; stderr: string }>((resolve) => {
      execFile('bash', ['-c', script, process.execPath, ...args], { timeout: 20_000 }, (error, _stdout, stderr) => {
        resolve({ code: error === null ? 0 : error.code, stderr });
      });
    });
    const file = join(outDir, 'epoch-2.json');
    expect(result.stderr).toBe(
      `error: [AUDITOR_WRITE_FAILED] cannot write ${file}: EFBIG (file too large); a local disk error, so fetch stopped (files already written are kept as they are) at --out (got ${JSON.stringify(file)})\n`,
    );
    expect(result.code).toBe(2);
    expect(hits.get('/full/v1/epochs/2/bundle')).toBe(1);
    expect(hits.get('/full/v1/epochs/3/bundle')).toBeUndefined();
    expect(await readdir(outDir)).toEqual(['epoch-1.json']);
    expect(await readFile(join(outDir, 'epoch-1.json'), 'utf8')).toBe(texts.get(1));
  }, 30_000);
});
