import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_BUNDLE_LIMITS, MAX_BUNDLE_BYTES } from 'auditor-replay/pages';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';

import { runMinerCheck } from '../program.js';

/**
 * docs/spec.md G.46 (a): `miner-check explain` reads bundles up to `--max-bundle-bytes`, auditor-replay verify's option
 * with its default (64 MiB) and largest value (256 MiB), from a validator URL (each answer, refused while it is read)
 * and from a folder (each file, before it is read); a refusal says how to raise it. Before, the cap was 64 MiB, fixed.
 */
const honest = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'auditor-replay', 'test-corpus', 'honest');
const files = new Map(
  readdirSync(honest)
    .filter((n) => n.endsWith('.json'))
    .map((n) => [Number(/\d+/.exec(n)![0]), readFileSync(join(honest, n))] as const),
);
const epochs = [...files.keys()].sort((a, b) => a - b);
/** The largest bundle is over the limit, every other one within it (the second largest is exactly the limit). */
const sizes = epochs.map((e) => files.get(e)!.byteLength).sort((a, b) => b - a);
const limit = sizes[1]!;
const over = epochs.find((e) => files.get(e)!.byteLength > limit)!;
const kept = epochs.filter((e) => e !== over);
type Doc = { bundle: { result: { aggregation: { miners: { hotkey: string; u16: number }[] } } } };
const doc = (e: number) => JSON.parse(files.get(e)!.toString('utf8')) as Doc;
const miner = doc(kept.at(-1)!).bundle.result.aggregation.miners.find((m) => m.u16 > 0)!.hotkey;
/** The epochs of these whose bundle has the miner (its history). */
const withMiner = (of: readonly number[]) => of.filter((e) => doc(e).bundle.result.aggregation.miners.some((m) => m.hotkey === miner));

let base: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url: base, close } = await listenLocal((request, response) => {
    const json = (text: string | Buffer) => response.writeHead(200, { 'content-type': 'application/json' }).end(text);
    if (request.url === '/v1/epochs') {
      json(JSON.stringify({ epochs: epochs.map((epoch) => ({ epoch, bundle: `/v1/epochs/${epoch}/bundle` })) }));
      return;
    }
    const bytes = files.get(Number(/^\/v1\/epochs\/(\d+)\/bundle$/.exec(request.url ?? '')?.[1] ?? -1));
    if (bytes === undefined) response.writeHead(404).end();
    else json(bytes);
  }));
});
afterAll(() => close());

interface Explained {
  history: { epoch: number }[];
  set_aside: { source: string; code: string; message: string; attempts: number | null }[];
  error?: { code: string; message: string; path: string };
}

async function explain(args: readonly string[]): Promise<{ code: number; json: Explained; out: string }> {
  let out = '';
  const code = await runMinerCheck(['explain', '--hotkey', miner, ...args], { stdout: (t) => (out += t), stderr: () => undefined, stdin: () => '' });
  return { code, json: (args.includes('--json') ? JSON.parse(out) : {}) as Explained, out };
}

const hint = `the limit is --max-bundle-bytes ${limit}: raise it (at most 268435456) to allow more`;

describe('decision (docs/spec.md G.46 (a)): explain --max-bundle-bytes is the largest bundle read, from a URL and from a folder', () => {
  it('from a URL: an answer over it is set aside while it is read, saying how to raise it; the others are used', async () => {
    const got = await explain(['--bundles', base, '--max-bundle-bytes', String(limit), '--json']);
    expect(got.code).toBe(0);
    const url = `${base}/v1/epochs/${over}/bundle`;
    expect(got.json.set_aside).toEqual([
      {
        source: url,
        code: 'AUDITOR_FETCH_FAILED',
        message: `[AUDITOR_FETCH_FAILED] GET ${url}: the answer is larger than ${limit} bytes; ${hint} at --bundles (got ${JSON.stringify(url)})`,
        attempts: 1,
      },
    ]);
    expect(got.json.history.map((h) => h.epoch)).toEqual(withMiner(kept));
  });

  it('from a folder: a file over it is set aside before it is read, saying how to raise it; the others are used', async () => {
    const dir = tempDir('miner-check-bundle-bytes-');
    cpSync(honest, dir, { recursive: true });
    const got = await explain(['--bundles', dir, '--max-bundle-bytes', String(limit), '--json']);
    expect(got.code).toBe(0);
    const file = join(dir, `epoch-${over}.json`);
    expect(got.json.set_aside).toEqual([
      {
        source: file,
        code: 'CORE_INPUT_TOO_LARGE',
        message: `${file} has ${files.get(over)!.byteLength} bytes, more than the limit of ${limit}; ${hint}`,
        attempts: null,
      },
    ]);
    expect(got.json.history.map((h) => h.epoch)).toEqual(withMiner(kept));
  });

  it("verify's default and bounds: every bundle is used without it; 0 and 268435457 are refused (exit 2) naming the option", async () => {
    expect(DEFAULT_BUNDLE_LIMITS.maxBytes).toBe(64 * 1024 * 1024);
    expect(MAX_BUNDLE_BYTES).toBe(256 * 1024 * 1024);
    const all = await explain(['--bundles', base, '--json']);
    expect(all.json.set_aside).toEqual([]);
    expect(all.json.history.map((h) => h.epoch)).toEqual(withMiner(epochs));
    expect(withMiner(epochs)).toContain(over);
    for (const value of ['0', '268435457']) {
      const got = await explain(['--bundles', base, '--max-bundle-bytes', value, '--json']);
      expect(got.code).toBe(2);
      expect(got.json.error).toMatchObject({
        path: '--max-bundle-bytes',
        code: 'MINER_CHECK_INVALID_ARGUMENT',
        message: `[MINER_CHECK_INVALID_ARGUMENT] expected an integer from 1 to 268435456 at --max-bundle-bytes (got ${JSON.stringify(value)})`,
      });
    }
  });

  it('--help teaches it, with the default and the largest value auditor-replay verify takes', async () => {
    const got = await explain(['--help']);
    expect(got.code).toBe(0);
    expect(got.out.replace(/\s+/g, ' ')).toContain(
      `--max-bundle-bytes <n> largest bundle in bytes, as auditor-replay verify's: a validator's answer over it is set aside while it is read, a file of the folder before it is read (default ${DEFAULT_BUNDLE_LIMITS.maxBytes}, at most ${MAX_BUNDLE_BYTES})`,
    );
  });
});
