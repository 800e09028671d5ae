import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { listenLocal } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

/**
 * Ctrl-C while `fetch` writes a bundle: the file it was writing is removed before the process ends, so no truncated
 * `epoch-<n>.json` is left for the next `fetch` to keep (it never overwrites) and for `verify` to refuse as malformed.
 * The built binary fetches one large answer (48 MB of valid JSON, under the 64 MiB cap) from a real HTTP server on
 * 127.0.0.1; the test watches the folder and sends SIGINT once the file exists but is not whole.
 */
const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(appDir, 'bin', 'auditor-replay.js');
const SIZE = 48 * 1024 * 1024;
const body = Buffer.concat([Buffer.from('{"bundle":{"epoch":1},"pad":"'), Buffer.alloc(SIZE, 0x61), Buffer.from('"}')]);

let base: string;
let close: () => Promise<void>;
beforeAll(async () => {
  expectBuiltCli(appDir);
  ({ url: base, close } = await listenLocal((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.byteLength }).end(body);
  }));
});
afterAll(async () => {
  await close();
});

/** Runs `fetch` of epoch 1 into `out` and sends SIGINT when `epoch-1.json` is there but shorter than the answer. */
function interruptMidWrite(out: string): Promise<{ caught: boolean; signal: NodeJS.Signals | null; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'fetch', '--validator', base, '--from', '1', '--to', '1', '--out', out, '--quiet'], { cwd: appDir });
    let caught = false;
    const file = join(out, 'epoch-1.json');
    const watch = setInterval(() => {
      let size = -1;
      try {
        size = statSync(file).size;
      } catch {
        return;
      }
      if (size < body.byteLength && !caught) {
        caught = true;
        child.kill('SIGINT');
      }
    }, 1);
    child.on('exit', (code, signal) => {
      clearInterval(watch);
      resolve({ caught, signal, code });
    });
  });
}

describe('fetch interrupted while it writes a bundle', () => {
  it('SIGINT mid-write: the process ends by the signal and leaves no truncated epoch file', async () => {
    // The write takes tens of milliseconds; a run whose write was over before the watcher saw it is tried again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const out = tempDir('auditor-fetch-int-');
      const run = await interruptMidWrite(out);
      if (!run.caught) continue;
      expect(run.signal ?? run.code).toMatch(/^(SIGINT|130)$/);
      const left = readdirSync(out).map((name) => ({ name, size: statSync(join(out, name)).size }));
      expect(left.filter((f) => f.size !== body.byteLength)).toEqual([]);
      return;
    }
    throw new Error('the write was never caught in progress in 5 runs');
  }, 120_000);
});
