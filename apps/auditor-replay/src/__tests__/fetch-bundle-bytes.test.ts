import { existsSync } from 'node:fs';
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
let base: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url: base, close } = await listenLocal((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
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
});
