import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { formatPercent } from 'auditor-replay/pages';

import { explainCheck } from '../commands/explain.js';
import { runMinerCheck } from '../program.js';
import type { ProgramIo } from '../program.js';

/** The auditor's committed corpus: bundles written and signed by the validator's own pipeline, and tampered copies. */
const corpus = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'auditor-replay', 'test-corpus');
const honest = join(corpus, 'honest');

interface Explanation {
  miners: { hotkey: string; uid: number; u16: number }[];
  challenges: {
    id: string;
    aggregation: {
      miners: {
        hotkey: string;
        evaluations_used: { validator_hotkey: string; score: number }[];
        outliers_excluded: { validator_hotkey: string; statistic: number }[];
      }[];
    } | null;
  }[];
}
const bundles = readdirSync(honest)
  .filter((n) => n.endsWith('.json'))
  .map((n) => (JSON.parse(readFileSync(join(honest, n), 'utf8')) as { bundle: { epoch: number; result: { aggregation: Explanation } } }).bundle)
  .sort((a, b) => a.epoch - b.epoch);
const latest = bundles.at(-1)!;
const miner = latest.result.aggregation.miners.find((m) => m.u16 > 0 && m.uid !== 0)!;

function io(): ProgramIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { stdout: (t) => (out += t), stderr: (t) => (err += t), stdin: () => '', out: () => out, err: () => err };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'miner-check-explain-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("miner-check explain: the story of a miner's weight from a validator's published bundles", () => {
  it('--json: the weight per epoch and, for the newest epoch, the evaluations used and excluded exactly as the bundle explains them', async () => {
    const t = io();
    expect(await runMinerCheck(['explain', '--bundles', honest, '--hotkey', miner.hotkey, '--json'], t)).toBe(0);
    const out = JSON.parse(t.out()) as {
      epoch: number;
      history: { epoch: number; u16: number }[];
      story: {
        u16: number;
        uid: number;
        challenges: {
          id: string;
          consensus: { used: { validator_hotkey: string; score: number }[]; excluded: { validator_hotkey: string; m: number }[] } | null;
        }[];
      };
    };
    expect(out.epoch).toBe(latest.epoch);
    const expected = bundles.flatMap((b) => b.result.aggregation.miners.filter((m) => m.hotkey === miner.hotkey).map((m) => [b.epoch, m.u16]));
    expect(out.history.map((h) => [h.epoch, h.u16])).toEqual(expected);
    expect(out.story).toMatchObject({ u16: miner.u16, uid: miner.uid });
    for (const c of latest.result.aggregation.challenges) {
      const entry = c.aggregation?.miners.find((m) => m.hotkey === miner.hotkey);
      if (entry === undefined) continue;
      const told = out.story.challenges.find((x) => x.id === c.id)!.consensus!;
      expect(told.used.map((e) => [e.validator_hotkey, e.score])).toEqual(entry.evaluations_used.map((e) => [e.validator_hotkey, e.score]));
      expect(told.excluded.map((e) => [e.validator_hotkey, e.m])).toEqual(entry.outliers_excluded.map((e) => [e.validator_hotkey, e.statistic]));
    }
  });

  it('text: the weight table, then the story in words with the u16 value, from the latest bundle', async () => {
    const t = io();
    expect(await runMinerCheck(['explain', '--bundles', honest, '--hotkey', miner.hotkey], t)).toBe(0);
    expect(t.out()).toContain(`miner ${miner.hotkey}: weight in`);
    expect(t.out()).toContain(`why, epoch ${latest.epoch}`);
    expect(t.out()).toContain(`gets u16 weight ${miner.u16},`);
    expect(t.out()).toMatch(/Challenge \S+ \(\w+, alpha [\d.]+\): /);
  });

  it('decision (docs/spec.md G.42 (c), G.46 (a)): a bundle file over the 64 MiB a bundle may have by default is set aside naming its size, the limit and how to raise it (--max-bundle-bytes)', async () => {
    cpSync(honest, dir, { recursive: true });
    // A sparse file: its size is what is refused, before a byte of it is read.
    const big = join(dir, 'zz-big.json');
    writeFileSync(big, '');
    truncateSync(big, 64 * 1024 * 1024 + 1);
    const t = io();
    expect(await runMinerCheck(['explain', '--bundles', dir, '--hotkey', miner.hotkey, '--json'], t)).toBe(0);
    const out = JSON.parse(t.out()) as { set_aside: { source: string; code: string; message: string }[] };
    expect(out.set_aside).toEqual([
      {
        source: big,
        code: 'CORE_INPUT_TOO_LARGE',
        message: `${big} has 67108865 bytes, more than the limit of 67108864; the limit is --max-bundle-bytes 67108864: raise it (at most 268435456) to allow more`,
        attempts: null,
      },
    ]);
  });

  it('a tampered bundle next to honest ones is set aside (never used) and named', async () => {
    cpSync(honest, dir, { recursive: true });
    cpSync(join(corpus, 'tampered', 'changed-input.json'), join(dir, 'zz-tampered.json'));
    const t = io();
    expect(await runMinerCheck(['explain', '--bundles', dir, '--hotkey', miner.hotkey, '--json'], t)).toBe(0);
    const out = JSON.parse(t.out()) as { set_aside: { source: string; code: string }[]; history: unknown[] };
    expect(out.set_aside).toEqual([
      { source: join(dir, 'zz-tampered.json'), code: 'BUNDLE_DIGEST_MISMATCH', message: expect.any(String) as string, attempts: null },
    ]);
    expect(out.history).toHaveLength(bundles.filter((b) => b.result.aggregation.miners.some((m) => m.hotkey === miner.hotkey)).length);
  });

  it('text: a set-aside bundle says how many GETs it took once (in the message when the retries ran out, else after the URL)', () => {
    const used = bundles.map((bundle, i) => ({ source: `epoch-${i}.json`, bundle, problem: null, attempts: 1 }));
    const spent = {
      source: 'http://v/1',
      bundle: null,
      problem: { code: 'AUDITOR_FETCH_FAILED', message: 'GET http://v/1: HTTP 503 (after 4 attempts)' },
      attempts: 4,
    };
    const refused = { source: 'http://v/2', bundle: null, problem: { code: 'AUDITOR_FETCH_FAILED', message: 'GET http://v/2: HTTP 404' }, attempts: 2 };
    const lines = explainCheck({ bundles: [...used, spent, refused], hotkey: miner.hotkey }).text.split('\n');
    expect(lines.filter((l) => l.startsWith('set aside '))).toEqual([
      'set aside http://v/1: [AUDITOR_FETCH_FAILED] GET http://v/1: HTTP 503 (after 4 attempts)',
      'set aside http://v/2 (2 attempts): [AUDITOR_FETCH_FAILED] GET http://v/2: HTTP 404',
    ]);
  });

  it("text: the history shows a miner at uid 0 as uid 0, not '-' (no uid)", () => {
    const atZero = structuredClone(latest);
    const entry = atZero.result.aggregation.miners.find((m) => m.hotkey === miner.hotkey)!;
    expect(atZero.result.aggregation.miners.some((m) => m.uid === 0)).toBe(false);
    entry.uid = 0;
    const out = explainCheck({ bundles: [{ source: 'epoch.json', bundle: atZero, problem: null, attempts: null }], hotkey: miner.hotkey });
    expect((out.json.history as { uid: number | null }[]).map((h) => h.uid)).toEqual([0]);
    expect(out.text.split('\n')).toContain(
      `${String(atZero.epoch).padEnd(5)}  0    ${String(entry.u16).padEnd(5)}  ${formatPercent((out.json.history as { share: number }[])[0]!.share)}`,
    );
  });

  it('not found: names --epoch and the epoch (0 included) when one was asked for, else --hotkey and the hotkey', () => {
    const verified = bundles.map((bundle, i) => ({ source: `epoch-${i}.json`, bundle, problem: null, attempts: null }));
    const contextOf = (epoch?: number) => {
      try {
        explainCheck({ bundles: verified, hotkey: miner.hotkey, ...(epoch === undefined ? {} : { epoch }) });
      } catch (error) {
        return (error as { code: string; context: unknown }).context;
      }
      throw new Error('expected MINER_CHECK_MINER_NOT_FOUND');
    };
    // epoch 0 of the corpus scores no miner
    expect(contextOf(0)).toEqual({ path: '--epoch', value: 0 });
    const stranger = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
    let context: unknown;
    try {
      explainCheck({ bundles: verified, hotkey: stranger });
    } catch (error) {
      context = (error as { context: unknown }).context;
    }
    expect(context).toEqual({ path: '--hotkey', value: stranger });
  });

  it('--epoch with no bundle of that epoch: MINER_CHECK_EPOCH_NOT_FOUND leading with the epoch and the epochs there are, not the miner', async () => {
    const epochs = bundles.map((b) => b.epoch);
    expect(epochs).toEqual([0, 1, 2]);
    const t = io();
    expect(await runMinerCheck(['explain', '--bundles', honest, '--hotkey', miner.hotkey, '--epoch', '99', '--json'], t)).toBe(2);
    expect(JSON.parse(t.out())).toEqual({
      error: {
        code: 'MINER_CHECK_EPOCH_NOT_FOUND',
        message: '[MINER_CHECK_EPOCH_NOT_FOUND] no bundle of epoch 99: the bundles cover epochs 0–2 at --epoch (got 99)',
        path: '--epoch',
        value: '99',
      },
    });
    // A miner absent from an epoch that has a bundle is still MINER_CHECK_MINER_NOT_FOUND (epoch 0 scores no miner).
    const absent = io();
    expect(await runMinerCheck(['explain', '--bundles', honest, '--hotkey', miner.hotkey, '--epoch', '0', '--json'], absent)).toBe(2);
    expect((JSON.parse(absent.out()) as { error: { code: string } }).error.code).toBe('MINER_CHECK_MINER_NOT_FOUND');
  });

  it('--epoch with no bundle: gaps are listed compactly, and a bundle set aside is said with its reason', () => {
    const at = (epoch: number) => ({ ...latest, epoch });
    const verified = [0, 1, 2, 3, 5, 7, 8, 9].map((e) => ({ source: `epoch-${e}.json`, bundle: at(e), problem: null, attempts: null }));
    const messageOf = (input: Parameters<typeof explainCheck>[0]) => {
      try {
        explainCheck(input);
      } catch (error) {
        return [(error as { code: string }).code, (error as Error).message];
      }
      throw new Error('expected an error');
    };
    expect(messageOf({ bundles: verified, hotkey: miner.hotkey, epoch: 4 })).toEqual([
      'MINER_CHECK_EPOCH_NOT_FOUND',
      '[MINER_CHECK_EPOCH_NOT_FOUND] no bundle of epoch 4: the bundles cover epochs 0–3, 5, 7–9 at --epoch (got 4)',
    ]);
    const many = Array.from({ length: 12 }, (_, i) => ({ source: `e${i}.json`, bundle: at(i * 2), problem: null, attempts: null }));
    expect(messageOf({ bundles: many, hotkey: miner.hotkey, epoch: 99 })[1]).toContain('the bundles cover epochs 0, 2, 4, 6, …, 16, 18, 20, 22 at');
    const tampered = { source: 'zz.json', bundle: null, problem: { code: 'BUNDLE_DIGEST_MISMATCH', message: 'digest differs' }, attempts: null };
    expect(messageOf({ bundles: [verified[0]!, tampered], hotkey: miner.hotkey, epoch: 1 })[1]).toBe(
      '[MINER_CHECK_EPOCH_NOT_FOUND] no verified bundle of epoch 1: the verified bundles cover epoch 0 ' +
        '(1 set aside; the first: zz.json: [BUNDLE_DIGEST_MISMATCH] digest differs) at --epoch (got 1)',
    );
  });

  it('an unknown miner, a malformed hotkey and a missing folder are invalid input (exit 2)', async () => {
    const stranger = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
    const t = io();
    expect(await runMinerCheck(['explain', '--bundles', honest, '--hotkey', stranger, '--json'], t)).toBe(2);
    expect((JSON.parse(t.out()) as { error: { code: string } }).error.code).toBe('MINER_CHECK_MINER_NOT_FOUND');
    expect(await runMinerCheck(['explain', '--bundles', honest, '--hotkey', 'not-a-hotkey'], io())).toBe(2);
    expect(await runMinerCheck(['explain', '--bundles', join(dir, 'nope'), '--hotkey', miner.hotkey], io())).toBe(2);
  });
});

describe('miner-check explain --bundles URL (the validator API on 127.0.0.1)', () => {
  let server: Server;
  let url: string;
  /** Paths answered 503 once (a validator restarting), then as usual. */
  const failOnce = new Set<string>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (failOnce.delete(req.url ?? '')) {
        res.statusCode = 503;
        res.end('{}');
        return;
      }
      const m = /^\/v1\/epochs\/(\d+)\/bundle$/.exec(req.url ?? '');
      if (req.url === '/v1/epochs') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ epochs: bundles.map((b) => ({ epoch: b.epoch, status: 'submitted', bundle: `/v1/epochs/${b.epoch}/bundle` })) }));
      } else if (m !== null && readdirSync(honest).includes(`epoch-${m[1]}.json`)) {
        res.setHeader('content-type', 'application/json');
        res.end(readFileSync(join(honest, `epoch-${m[1]}.json`)));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => {
      server.listen(0, '127.0.0.1', resolve);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  });

  it('--epoch with no bundle at the URL: MINER_CHECK_EPOCH_NOT_FOUND naming the epochs read; past --last it says to raise --last', async () => {
    const none = io();
    expect(await runMinerCheck(['explain', '--bundles', url, '--hotkey', miner.hotkey, '--epoch', '99', '--json'], none)).toBe(2);
    expect((JSON.parse(none.out()) as { error: unknown }).error).toMatchObject({
      code: 'MINER_CHECK_EPOCH_NOT_FOUND',
      message: '[MINER_CHECK_EPOCH_NOT_FOUND] no bundle of epoch 99: the bundles cover epochs 0–2 at --epoch (got 99)',
    });
    const older = io();
    expect(await runMinerCheck(['explain', '--bundles', url, '--hotkey', miner.hotkey, '--epoch', '0', '--last', '2'], older)).toBe(2);
    expect(older.err()).toContain(
      'no bundle of epoch 0: the bundles cover epochs 1–2; only the newest 2 listed epochs were read (--last 2): raise --last to reach epoch 0',
    );
  });

  it('says each bundle it reads and each wait to ask again on stderr (not with --json), so a slow read is not silent', async () => {
    failOnce.add('/v1/epochs/1/bundle');
    const text = io();
    expect(await runMinerCheck(['explain', '--bundles', url, '--hotkey', miner.hotkey, '--retries', '1'], text)).toBe(0);
    expect(text.err().split('\n')).toEqual([
      'explain 1/3 epoch 0 ok',
      `explain: GET ${url}/v1/epochs/1/bundle: HTTP 503; asking again in 250 ms (attempt 2 of 2)`,
      'explain 2/3 epoch 1 ok',
      'explain 3/3 epoch 2 ok',
      '',
    ]);
    failOnce.add('/v1/epochs');
    const json = io();
    expect(await runMinerCheck(['explain', '--bundles', url, '--hotkey', miner.hotkey, '--retries', '1', '--json'], json)).toBe(0);
    expect(json.err()).toBe('');
    expect(failOnce.size).toBe(0);
  });

  it('reads the epoch list and each bundle over HTTP and tells the same story as from the folder', async () => {
    const fromUrl = io();
    const fromDir = io();
    expect(await runMinerCheck(['explain', '--bundles', url, '--hotkey', miner.hotkey, '--json'], fromUrl)).toBe(0);
    expect(await runMinerCheck(['explain', '--bundles', honest, '--hotkey', miner.hotkey, '--json'], fromDir)).toBe(0);
    expect((JSON.parse(fromUrl.out()) as { story: unknown }).story).toEqual((JSON.parse(fromDir.out()) as { story: unknown }).story);
  });
});
