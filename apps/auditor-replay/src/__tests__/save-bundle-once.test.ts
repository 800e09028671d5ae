import { execFileSync } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { saveBundle } from '../save-bundle.js';

// Counted, not replaced: every call runs the real `stat`.
vi.mock('node:fs/promises', { spy: true });

/**
 * `fetch --out` compares an answer with the file already under the epoch's name before it saves it beside (docs/spec.md
 * G.13, G.28). It looked at that name with `stat` and then again to compare (and once more to read the kept file's
 * digest): now once, and what is read after it is read through a non-blocking handle, so a name that changed since
 * it was looked at is never waited for (G.29.b).
 */
const DIGEST = 'ab'.repeat(32);
let dir: string;
beforeEach(async () => {
  dir = await fsp.mkdtemp(join(tmpdir(), 'auditor-save-once-'));
  vi.mocked(fsp.stat).mockClear();
});
afterEach(async () => {
  vi.mocked(fsp.stat).mockReset();
  await fsp.rm(dir, { recursive: true, force: true });
});

const statsOf = (file: string): number => vi.mocked(fsp.stat).mock.calls.filter(([path]) => path === file).length;

describe('saveBundle looks at the epoch file once (G.29.b)', () => {
  it('a file holding the same bytes and a newline (a bundles.dir file) is found with one stat and nothing is written', async () => {
    const answer = Buffer.from(`{"bundle":{"epoch":5},"digest":"${DIGEST}"}`);
    const file = join(dir, 'epoch-5.json');
    await fsp.writeFile(file, `${answer.toString()}\n`);
    expect(await saveBundle(dir, 5, answer, JSON.parse(answer.toString()))).toEqual({ file });
    expect(statsOf(file)).toBe(1);
    expect(await fsp.readdir(dir)).toEqual(['epoch-5.json']);
  });

  it('a file holding other bytes of the same digest is compared and its digest read with one stat; the answer is saved beside', async () => {
    const answer = Buffer.from(`{"bundle":{"epoch":5},"digest":"${DIGEST}"}`);
    const file = join(dir, 'epoch-5.json');
    await fsp.writeFile(file, `{ "bundle": { "epoch": 5 }, "digest": "${DIGEST}" }`);
    const saved = await saveBundle(dir, 5, answer, JSON.parse(answer.toString()));
    expect(saved).toEqual({ file: expect.stringMatching(/epoch-5\.[0-9a-f]{64}\.json$/) as unknown, beside: { file, sameDigest: true } });
    expect(statsOf(file)).toBe(1);
    expect(await fsp.readFile(saved.file ?? '', 'utf8')).toBe(answer.toString());
  });

  it('a name turned into a named pipe right after it was looked at is not waited for: the answer is saved beside, the pipe left', async () => {
    const answer = Buffer.from(`{"bundle":{"epoch":5},"digest":"${DIGEST}"}`);
    const file = join(dir, 'epoch-5.json');
    await fsp.writeFile(file, `${answer.toString()}\n`);
    const real = (await vi.importActual<typeof fsp>('node:fs/promises')).stat;
    // The race, made certain: the file is replaced by a pipe no one writes as soon as its stat has answered.
    vi.mocked(fsp.stat).mockImplementationOnce((async (path: string) => {
      const info = await real(path);
      await fsp.rm(path);
      execFileSync('mkfifo', [path]);
      return info;
    }) as never);
    const saved = await saveBundle(dir, 5, answer, JSON.parse(answer.toString()));
    expect(saved).toEqual({ file: expect.stringMatching(/epoch-5\.[0-9a-f]{64}\.json$/) as unknown, beside: { file, sameDigest: false } });
    expect((await real(file)).isFIFO()).toBe(true);
  }, 10_000);
});
