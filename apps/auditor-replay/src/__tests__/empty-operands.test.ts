import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from '../index.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { captureIo } from './capture-io.js';

describe('auditor-replay verify: nothing to verify is invalid input, not a pass', () => {
  it('a folder holding no *.json file: exit 2 with AUDITOR_UNREADABLE naming the operand, never "0 bundle(s) ... exit 0"', async () => {
    const dir = tempDir('auditor-empty-', 'file');
    const empty = join(dir, 'bundles');
    await mkdir(empty);
    await writeFile(join(empty, 'notes.txt'), 'not a bundle');
    const t = captureIo();
    expect(await runCli(['verify', empty], t)).toBe(2);
    expect(t.err()).toContain('AUDITOR_UNREADABLE');
    expect(t.err()).toContain(
      `[AUDITOR_UNREADABLE] this folder holds no *.json bundle file; give the folder auditor-replay fetch --out wrote, or a validator's bundles.dir at BUNDLE[0]`,
    );
    expect(t.out()).not.toContain('exit 0');
  });

  it('a path that does not exist: AUDITOR_UNREADABLE naming it with the OS reason (ENOENT)', async () => {
    const missing = join(tempDir('auditor-empty-'), 'no-such-bundles');
    const t = captureIo();
    expect(await runCli(['verify', missing], t)).toBe(2);
    expect(t.err()).toContain(
      `[AUDITOR_UNREADABLE] cannot read ${missing}: ENOENT (no such file or directory); give a bundle file or a folder of them ` +
        `(the folder auditor-replay fetch --out wrote, or a validator's bundles.dir) at BUNDLE[0]`,
    );
  });

  it('an empty bundle file, or one of white space only, is AUDITOR_MALFORMED_JSON saying it is empty (not "Unexpected end of JSON input")', async () => {
    const dir = tempDir('auditor-empty-', 'file');
    const empty = join(dir, 'epoch-1.json');
    const blank = join(dir, 'epoch-2.json');
    await writeFile(empty, '');
    await writeFile(blank, ' \n');
    const t = captureIo();
    expect(await runCli(['verify', dir, '--json'], t)).toBe(2);
    const report = JSON.parse(t.out()) as { bundles: { source: string; error: { code: string; message: string } | null }[] };
    expect(report.bundles.map((b) => [b.source, b.error?.code, b.error?.message])).toEqual([
      [empty, 'AUDITOR_MALFORMED_JSON', `${empty} is empty: there is no JSON in it, so no signed bundle`],
      [blank, 'AUDITOR_MALFORMED_JSON', `${blank} holds only white space: there is no JSON in it, so no signed bundle`],
    ]);
  });
});
