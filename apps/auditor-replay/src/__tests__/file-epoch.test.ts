import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir } from '@subnet/vitest-config/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';

import type { SignatureVerifier } from '@subnet/bundle';

import { signatureVerifier, verifyBundles } from '../index.js';
import { epochOfFileName } from '../file-epoch.js';

/**
 * A file's name is the claim a folder makes about what it holds (docs/spec.md G.15): `fetch` names each file by the
 * epoch it asked for and refuses an answer of another epoch. A folder whose epoch-0.json was a copy of epoch-1.json
 * verified as three ok bundles, exit 0, and epoch 0 was never checked. Such a file is now invalid with
 * AUDITOR_WRONG_EPOCH naming both epochs; names that claim no epoch are not read as a claim.
 */

const honest = fileURLToPath(new URL('../../test-corpus/honest/', import.meta.url));
let verify: SignatureVerifier;
beforeAll(async () => {
  verify = await signatureVerifier();
});

const rows = (report: Awaited<ReturnType<typeof verifyBundles>>, dir: string) =>
  report.bundles.map((b) => [b.source.slice(dir.length + 1), b.epoch, b.status, b.error?.code ?? null]);

describe('verify: a file named for another epoch than its bundle (docs/spec.md G.15)', () => {
  it("epoch-0.json holding epoch 1's bundle is invalid with AUDITOR_WRONG_EPOCH, its checks kept; exit 2", async () => {
    const dir = tempDir('auditor-file-epoch-');
    for (const n of [1, 2]) copyFileSync(join(honest, `epoch-${n}.json`), join(dir, `epoch-${n}.json`));
    copyFileSync(join(honest, 'epoch-1.json'), join(dir, 'epoch-0.json'));
    const report = await verifyBundles([dir], { verify });
    expect(rows(report, dir)).toEqual([
      ['epoch-0.json', 1, 'invalid', 'AUDITOR_WRONG_EPOCH'],
      ['epoch-1.json', 1, 'ok', null],
      ['epoch-2.json', 2, 'ok', null],
    ]);
    const wrong = report.bundles[0]!;
    expect(wrong.error).toEqual({
      code: 'AUDITOR_WRONG_EPOCH',
      message:
        "[AUDITOR_WRONG_EPOCH] the file's name says epoch 0, but it holds the bundle of epoch 1 (a file named epoch-<n>.json holds epoch n's bundle, as fetch saves it) at bundle.epoch (got 1)",
      path: 'bundle.epoch',
    });
    expect(wrong.checks).toMatchObject({ schema: true, digest: true, signature: true, recompute: true });
    expect(report.exit_code).toBe(2);
  });

  it('the names fetch saves under are read (epoch-<n>.<sha256>.json too); other names claim no epoch', async () => {
    const dir = tempDir('auditor-file-epoch-');
    const bytes = readFileSync(join(honest, 'epoch-2.json'));
    const sha = createHash('sha256').update(bytes).digest('hex');
    copyFileSync(join(honest, 'epoch-2.json'), join(dir, `epoch-2.${sha}.json`));
    copyFileSync(join(honest, 'epoch-2.json'), join(dir, `epoch-3.${sha}.json`));
    copyFileSync(join(honest, 'epoch-2.json'), join(dir, 'latest.json'));
    copyFileSync(join(honest, 'epoch-2.json'), join(dir, 'epoch-02.json'));
    const report = await verifyBundles([dir], { verify });
    expect(rows(report, dir)).toEqual([
      ['epoch-02.json', 2, 'ok', null],
      [`epoch-2.${sha}.json`, 2, 'ok', null],
      [`epoch-3.${sha}.json`, 2, 'invalid', 'AUDITOR_WRONG_EPOCH'],
      ['latest.json', 2, 'ok', null],
    ]);
    expect([epochOfFileName('a/epoch-7.json'), epochOfFileName('epoch-7.JSON'), epochOfFileName('epoch-07.json'), epochOfFileName('epoch-7.abc.json')]).toEqual(
      [7, undefined, undefined, undefined],
    );
  });
});
