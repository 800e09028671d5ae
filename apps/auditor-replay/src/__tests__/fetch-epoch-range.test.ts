import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isSubnetError } from '@subnet/core';

import { fetchBundles, MAX_FETCH_EPOCHS, runCli } from '../index.js';
import { captureIo } from './capture-io.js';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';

/**
 * docs/spec.md G.6, "One fetch asks for at most 100,000 epochs": a larger `--from/--to` range is refused before any
 * request or folder, with both flags and their values. Past `--total-timeout` every epoch left is still named, so an
 * unbounded range (`--to 9007199254740991`) was unbounded work and memory, however short the deadline.
 */

let hits = 0;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ url: base, close } = await listenLocal((_request, response) => {
    hits += 1;
    response.writeHead(404).end();
  }));
});
afterAll(() => close());

describe('fetch: one run asks for at most MAX_FETCH_EPOCHS epochs (docs/spec.md G.6)', () => {
  it('the cap is 100,000 epochs (about 14 years of 72-minute epochs)', () => {
    expect(MAX_FETCH_EPOCHS).toBe(100_000);
  });

  it('--from 0 --to 100000 (100,001 epochs) is AUDITOR_INVALID_OPTION naming both flags and values, before any request or folder', async () => {
    const dir = tempDir('auditor-range-');
    const out = join(dir, 'bundles');
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', base, '--from', '0', '--to', '100000', '--out', out, '--total-timeout', '1', '--quiet'], t)).toBe(2);
    expect(t.err()).toBe(
      'error: [AUDITOR_INVALID_OPTION] --from 0 --to 100000: the range holds 100001 epochs, more than the 100000 one fetch asks for (split it into several runs) at --from/--to (got {"from":0,"to":100000})\n',
    );
    expect(t.out()).toBe('');
    expect(hits).toBe(0);
    expect(existsSync(out)).toBe(false);
  });

  it('the largest range, --to 2^53 - 1, is refused at once (it used to name epochs without end past --total-timeout)', async () => {
    const t = captureIo(false);
    const out = join(tempDir('auditor-range-'), 'bundles');
    expect(await runCli(['fetch', '--validator', base, '--from', '0', '--to', '9007199254740991', '--out', out, '--total-timeout', '1', '--quiet'], t)).toBe(2);
    expect(t.err()).toContain('error: [AUDITOR_INVALID_OPTION] --from 0 --to 9007199254740991: the range holds 9007199254740992 epochs');
    expect(hits).toBe(0);
  });

  it('fetchBundles refuses the same range with a typed error; --to before --from is refused the same way', async () => {
    const outDir = tempDir('auditor-range-');
    for (const [from, to, why] of [
      [7, 7 + MAX_FETCH_EPOCHS, `the range holds ${MAX_FETCH_EPOCHS + 1} epochs`],
      [5, 4, '--to is before --from'],
    ] as const) {
      const error = await fetchBundles({ validator: base, from, to, outDir }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isSubnetError(error, 'AUDITOR_INVALID_OPTION')).toBe(true);
      expect((error as Error).message).toContain(`--from ${from} --to ${to}: ${why}`);
      expect((error as { context: unknown }).context).toEqual({ path: '--from/--to', value: { from, to } });
    }
    expect(hits).toBe(0);
  });

  it('exactly MAX_FETCH_EPOCHS epochs are asked for (the deadline then names each one not asked)', async () => {
    const outDir = tempDir('auditor-range-');
    const got = await fetchBundles({ validator: base, from: 5, to: 5 + MAX_FETCH_EPOCHS - 1, outDir, totalTimeoutMs: 1, retries: 0 });
    expect(got).toHaveLength(MAX_FETCH_EPOCHS);
    expect(got.at(-1)).toMatchObject({
      epoch: 5 + MAX_FETCH_EPOCHS - 1,
      status: 'failed',
      code: 'AUDITOR_FETCH_FAILED',
      error: `GET ${base}/v1/epochs/${4 + MAX_FETCH_EPOCHS}/bundle: not asked: the run passed its --total-timeout of 1 ms: raise it (at most 604800000) to wait longer`,
    });
  });
});
