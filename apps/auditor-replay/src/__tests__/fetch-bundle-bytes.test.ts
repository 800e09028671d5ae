import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from '../index.js';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';

import { captureIo } from './capture-io.js';

/**
 * docs/spec.md G.46 (a): `fetch` reads a validator's answer up to `--max-bundle-bytes`, verify's option with verify's
 * default (64 MiB) and largest value (256 MiB), and a refusal ends with how to raise it. Before, the cap was 64 MiB,
 * fixed: an auditor who raised `verify --max-bundle-bytes` could not fetch the bundle verify would take.
 */
const body = JSON.stringify({ padding: 'x'.repeat(10_000) });
const size = Buffer.byteLength(body);
const digest = 'ab'.repeat(32);
/** Epoch 7's answer: a signed bundle's digest in few bytes. */
const small = JSON.stringify({ bundle: {}, digest });
let base: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url: base, close } = await listenLocal((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(request.url === '/v1/epochs/7/bundle' ? small : body);
  }));
});
afterAll(() => close());

interface FetchJson {
  exit_code: number;
  sources: { epochs: { status: string; code: string | null; error: string | null }[] }[];
}

async function fetchWith(extra: readonly string[]): Promise<{ code: number; out: FetchJson | undefined; err: string; dir: string }> {
  const dir = tempDir('auditor-fetch-bytes-');
  const t = captureIo(false);
  const code = await runCli(['fetch', '--validator', base, '--from', '1', '--to', '1', '--out', dir, '--retries', '0', '--json', ...extra], t);
  return { code, out: JSON.parse(t.out()) as FetchJson, err: t.err(), dir };
}

describe('decision (docs/spec.md G.46 (a)): fetch --max-bundle-bytes sets the largest answer, as verify --max-bundle-bytes sets the largest file', () => {
  it('an answer over the limit is not saved, and the refusal says how to raise the limit and how far', async () => {
    const got = await fetchWith(['--max-bundle-bytes', String(size - 1)]);
    expect(got.code).toBe(1);
    expect(got.out?.sources[0]?.epochs[0]).toEqual({
      epoch: 1,
      status: 'failed',
      code: 'AUDITOR_FETCH_FAILED',
      file: null,
      attempts: 1,
      error: `GET ${base}/v1/epochs/1/bundle: the answer is larger than ${size - 1} bytes; the limit is --max-bundle-bytes ${size - 1}: raise it (at most 268435456) to allow more`,
      validator_hotkey: null,
      beside: null,
      embargo: null,
    });
    expect(existsSync(join(got.dir, 'epoch-1.json'))).toBe(false);
  });

  it('an answer of exactly the limit is saved', async () => {
    const got = await fetchWith(['--max-bundle-bytes', String(size)]);
    expect(got.code).toBe(0);
    expect(got.out?.sources[0]?.epochs[0]).toMatchObject({ status: 'saved', code: null, file: join(got.dir, 'epoch-1.json') });
  });

  it("verify's bounds: 1 to 268435456 in decimal digits; 0 and 268435457 are refused naming the option", async () => {
    for (const value of ['0', '268435457']) {
      const got = await fetchWith(['--max-bundle-bytes', value]);
      expect(got.code).toBe(2);
      expect(got.err).toContain(`--max-bundle-bytes must be an integer in [1, 268435456], got "${value}"`);
    }
  });

  it('--help teaches it: the option, its default and its largest value', async () => {
    const t = captureIo(false);
    expect(await runCli(['fetch', '--help'], t)).toBe(0);
    const help = t.out().replace(/\s+/g, ' ');
    expect(help).toContain('--max-bundle-bytes <n> largest answer in bytes, refused while it is read (default 67108864, at most 268435456;');
    expect(help).toContain('an answer over --max-bundle-bytes (default 67108864, at most 268435456) is refused while it is read');
  });

  it('the file already in --out is read for its digest up to --max-bundle-bytes too: over 64 MiB it is compared whole when the limit allows it', async () => {
    const dir = tempDir('auditor-fetch-bytes-');
    // The same digest in 64 MiB and 10 bytes: a bundle the raised limit lets fetch and verify read.
    const head = `{"bundle":{},"digest":"${digest}","padding":"`;
    const keptSize = 64 * 1024 * 1024 + 10;
    await writeFile(join(dir, 'epoch-7.json'), `${head}${' '.repeat(keptSize - head.length - 2)}"}`);
    const run = async (extra: readonly string[]) => {
      const t = captureIo(false);
      await runCli(['fetch', '--validator', base, '--from', '7', '--to', '7', '--out', dir, '--retries', '0', '--json', ...extra], t);
      return (JSON.parse(t.out()) as { sources: { epochs: { status: string; beside: { same_digest: boolean } | null }[] }[] }).sources[0]?.epochs[0];
    };
    expect(await run(['--max-bundle-bytes', String(keptSize)])).toMatchObject({ status: 'saved', beside: { same_digest: true } });
    // At the default, the kept file is over the limit and not read: it is not said to hold the same bundle.
    expect(await run([])).toMatchObject({ status: 'saved', beside: { same_digest: false } });
  }, 60_000);
});
