import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuditReport } from '../index.js';
import { runCli } from '../index.js';
import { keys, signedBundle } from './fixtures.js';
import { listenLocal, REFUSED_PORT } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { captureIo } from './capture-io.js';

let dir: string;
let goodDir: string;
let badDir: string;
const texts = new Map<number, string>();

beforeAll(async () => {
  const k = await keys();
  dir = tempDir('auditor-cli-', 'file');
  goodDir = join(dir, 'good');
  badDir = join(dir, 'bad');
  await Promise.all([goodDir, badDir].map((d) => import('node:fs/promises').then((fs) => fs.mkdir(d))));
  for (const epoch of [1, 2, 10]) {
    const text = JSON.stringify(signedBundle(k, { miners: 5, epoch }));
    texts.set(epoch, text);
    await writeFile(join(goodDir, `epoch-${epoch}.json`), text);
  }
  const tampered = JSON.parse(texts.get(2) ?? '') as { bundle: { result: { u16: { weights: number[] } } } };
  tampered.bundle.result.u16.weights[1] = (tampered.bundle.result.u16.weights[1] ?? 0) + 7;
  await writeFile(join(badDir, 'epoch-2.json'), JSON.stringify(tampered));
  await writeFile(join(badDir, 'epoch-3.json'), '{"bundle": ');
});

describe('auditor-replay verify', () => {
  it('a directory of honest bundles: exit 0, a summary row per bundle in epoch order, plain progress lines on a non-TTY stderr', async () => {
    const t = captureIo(false);
    expect(await runCli(['verify', goodDir], t)).toBe(0);
    const rows = t
      .out()
      .split('\n')
      .filter((l) => /^\d+\s+ok/.test(l));
    expect(rows.map((r) => r.split(/\s+/)[0])).toEqual(['1', '2', '10']);
    expect(t.out()).toContain('3 bundle(s): 3 ok, 0 with mismatches (0 value(s)), 0 invalid, 0 equivocation(s); exit 0');
    expect(t.err().split('\n').filter(Boolean)).toEqual([
      `verify 1/3 ${join(goodDir, 'epoch-1.json')} ok`,
      `verify 2/3 ${join(goodDir, 'epoch-2.json')} ok`,
      `verify 3/3 ${join(goodDir, 'epoch-10.json')} ok`,
    ]);
  });

  it('a TTY stderr gets a redrawn progress bar, cleared at the end', async () => {
    const t = captureIo(true);
    expect(await runCli(['verify', goodDir], t)).toBe(0);
    expect(t.err()).toContain('\r\x1b[2K[##########--------------------] 1/3 ');
    expect(t.err()).toContain('[##############################] 3/3 ');
    expect(t.err().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('--json prints one JSON object, the same report, and no progress', async () => {
    const t = captureIo(false);
    expect(await runCli(['verify', goodDir, '--json'], t)).toBe(0);
    const report = JSON.parse(t.out()) as AuditReport;
    expect(report.exit_code).toBe(0);
    expect(report.summary).toMatchObject({ bundles: 3, ok: 3, mismatched: 0, invalid: 0, epochs: [1, 2, 10] });
    expect(t.err()).toBe('');
  });

  it('a mismatch exits 1 and names epoch, stage, miner, expected and claimed', async () => {
    const t = captureIo(false);
    expect(await runCli(['verify', join(badDir, 'epoch-2.json'), '--json'], t)).toBe(1);
    const report = JSON.parse(t.out()) as AuditReport;
    const original = (JSON.parse(texts.get(2) ?? '') as { bundle: { result: { u16: { uids: number[]; weights: number[] } } } }).bundle.result.u16;
    const m = report.bundles[0]?.mismatches.find((x) => x.stage === 'u16.weights');
    expect(m).toMatchObject({ epoch: 2, path: 'bundle.result.u16.weights[1]', expected: original.weights[1], claimed: (original.weights[1] ?? 0) + 7 });
    expect(m?.miner?.uid).toBe(original.uids[1]);
    const text = captureIo(false);
    expect(await runCli(['verify', join(badDir, 'epoch-2.json')], text)).toBe(1);
    expect(text.out()).toContain(`epoch 2 stage u16.weights miner `);
    expect(text.out()).toContain(`expected ${original.weights[1]}, claimed ${(original.weights[1] ?? 0) + 7}`);
  });

  it('invalid input exits 2 (malformed JSON, a path that does not exist, a bad option), and 2 wins over 1', async () => {
    const t = captureIo(false);
    expect(await runCli(['verify', badDir], t)).toBe(2);
    expect(t.out()).toContain('AUDITOR_MALFORMED_JSON');
    const missing = captureIo(false);
    expect(await runCli(['verify', join(dir, 'nope')], missing)).toBe(2);
    expect(missing.err()).toContain('AUDITOR_UNREADABLE');
    expect(await runCli(['verify', goodDir, '--netuid', 'x'], captureIo())).toBe(2);
    expect(await runCli(['verify', goodDir, '--netuid', '1'], captureIo())).toBe(2); // --netuid without --chain
  });

  it('--report writes one self-contained HTML page: a weight chart line per miner and every mismatch', async () => {
    const file = join(dir, 'report.html');
    expect(await runCli(['verify', goodDir, join(badDir, 'epoch-2.json'), '--report', file], captureIo())).toBe(1);
    const html = await readFile(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).toContain('<svg');
    // 5 miners + the burn uid 0 carry weight.
    expect(html.match(/<polyline /g)?.length).toBeGreaterThanOrEqual(5);
    expect(html).toContain('stage u16.weights');
    expect(html).not.toMatch(/<script|<link|src="http|href="http|url\(/);
  });

  it('--help on every subcommand shows an example', async () => {
    for (const sub of [[], ['verify'], ['fetch']]) {
      const t = captureIo();
      expect(await runCli([...sub, '--help'], t)).toBe(0);
      expect(t.out()).toMatch(/Examples?:\n\s+\$ auditor-replay /);
    }
  });
});

describe('auditor-replay fetch (a real HTTP server on 127.0.0.1)', () => {
  let base: string;
  let close: () => Promise<void>;
  const hits = new Map<string, number>();
  beforeAll(async () => {
    ({ url: base, close } = await listenLocal((req, res) => {
      const url = req.url ?? '';
      hits.set(url, (hits.get(url) ?? 0) + 1);
      const m = /^\/v1\/epochs\/(\d+)\/bundle$/.exec(url);
      const epoch = Number(m?.[1]);
      if (epoch === 2 && hits.get(url) === 1) {
        res.writeHead(503).end('busy');
        return;
      }
      if (epoch === 7) return; // never answers: the client times out
      const text = texts.get(epoch);
      if (text === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"BUNDLE_NOT_FOUND"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    }));
  });
  afterAll(() => close());

  it('downloads every epoch as served (retrying a 503), then the download verifies clean', async () => {
    const out = join(dir, 'fetched');
    const t = captureIo(false);
    expect(await runCli(['fetch', '--validator', base, '--from', '1', '--to', '2', '--out', out], t)).toBe(0);
    expect(hits.get('/v1/epochs/2/bundle')).toBe(2);
    expect((await readdir(out)).sort()).toEqual(['epoch-1.json', 'epoch-2.json']);
    expect(await readFile(join(out, 'epoch-2.json'), 'utf8')).toBe(texts.get(2));
    expect(t.err()).toContain('fetch 2/2 epoch 2 saved');
    expect(t.out()).toContain('2/2 bundle(s) saved');
    expect(await runCli(['verify', out], captureIo())).toBe(0);
  });

  it('a missing epoch (404) and a silent server (timeout, retried) are reported clearly; exit 1', async () => {
    const t = captureIo(false);
    const code = await runCli(
      ['fetch', '--validator', base, '--from', '6', '--to', '7', '--out', join(dir, 'partial'), '--timeout', '150', '--retries', '1'],
      t,
    );
    expect(code).toBe(1);
    expect(t.out()).toContain(`epoch 6: not_found: GET ${base}/v1/epochs/6/bundle: 404 (no bundle for epoch 6)`);
    // docs/spec.md G.42 (c): the failure ends with the option that set the limit, its value and its most.
    expect(t.out()).toContain(
      `epoch 7: failed: [AUDITOR_FETCH_FAILED] GET ${base}/v1/epochs/7/bundle: no answer within 150 ms (after 2 attempts); the limit is --timeout 150: raise it (at most 3600000) to wait longer\n`,
    );
    expect(hits.get('/v1/epochs/7/bundle')).toBe(2);
  });

  it('an unreachable validator (connection refused) fails with the network error and one sentence saying so, exit 2; bad options exit 2', async () => {
    const port = REFUSED_PORT; // nothing listens there
    const t = captureIo(false);
    expect(
      await runCli(
        ['fetch', '--validator', `http://127.0.0.1:${port}`, '--from', '1', '--to', '1', '--out', join(dir, 'none'), '--retries', '0', '--quiet'],
        t,
      ),
    ).toBe(2);
    expect(t.out()).toContain(
      `epoch 1: failed: [AUDITOR_FETCH_FAILED] GET http://127.0.0.1:${port}/v1/epochs/1/bundle: fetch failed (ECONNREFUSED) (after 1 attempt)\n` +
        `the validator at http://127.0.0.1:${port} refused the connection (is it running? is the URL right?)\n`,
    );
    expect(t.err()).toBe('');
    expect(await runCli(['fetch', '--validator', base, '--from', '5', '--to', '4', '--out', dir], captureIo())).toBe(2);
    expect(await runCli(['fetch', '--validator', 'ftp://x', '--from', '1', '--to', '1', '--out', dir], captureIo())).toBe(2);
    expect(await runCli(['fetch', '--from', '1', '--to', '1', '--out', dir], captureIo())).toBe(2);
  });
});
