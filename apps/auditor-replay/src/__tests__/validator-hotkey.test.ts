/// <reference lib="dom" />
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuditReport } from '../index.js';
import { readPublishedBundles, runCli, shortHotkeys, signatureVerifier } from '../index.js';
import { browserAvailable, launchBrowser } from './browser.js';
import { captureIo } from './capture-io.js';
import { keys, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';
import { listenLocal } from '@subnet/vitest-config/local-server';
import { tempDir } from '@subnet/vitest-config/temp-dir';

/**
 * A validator can serve another validator's honestly signed bundles: each verifies (its signature is by the
 * hotkey it names), so `verify` must say whose bundles passed, and `--validator-hotkey` must fail the others.
 */

let k: Keys;
let base: string;
let close: () => Promise<void>;
let alice: string;
let eve: string;
/** Epochs 1 and 2 signed by the validator (Alice), epoch 3 an honest bundle of another validator (Eve). */
const texts = new Map<number, string>();

beforeAll(async () => {
  k = await keys();
  alice = k.validator.address;
  eve = k.stranger.address;
  for (const epoch of [1, 2]) texts.set(epoch, JSON.stringify(signedBundle(k, { miners: 4, epoch })));
  texts.set(3, JSON.stringify(signedBundle({ validator: k.stranger, peers: k.peers, stranger: k.validator }, { miners: 4, epoch: 3 })));
  // A validator's API serving its own bundles for epochs 1 and 2 and another validator's for epoch 3.
  ({ url: base, close } = await listenLocal((request, response) => {
    const epoch = /^\/v1\/epochs\/(\d+)\/bundle$/.exec(request.url ?? '')?.[1];
    const body =
      request.url === '/v1/epochs'
        ? JSON.stringify({ epochs: [1, 2, 3].map((e) => ({ epoch: e, bundle: `/v1/epochs/${e}/bundle` })) })
        : texts.get(Number(epoch));
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  }));
});
afterAll(async () => {
  await close();
});

async function folder(): Promise<string> {
  const dir = tempDir('auditor-hotkey-');
  for (const [epoch, text] of texts) await writeFile(join(dir, `epoch-${epoch}.json`), text);
  return dir;
}

/** The rows of the text report's summary table, by their `source` cell, as column name -> cell. */
function tableRows(out: string): Map<string, Record<string, string>> {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => l.startsWith('epoch  status'));
  const header = lines[at]!.split(/\s{2,}/);
  const rows = new Map<string, Record<string, string>>();
  for (const line of lines.slice(at + 2)) {
    if (line === '') break;
    const cells = line.split(/\s{2,}/);
    const row = Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
    rows.set(row.source ?? '', row);
  }
  return rows;
}

describe('verify names the validator that signed each bundle', () => {
  it('the text table has a short validator column and one summary line per validator with the full hotkey and its counts', async () => {
    const dir = await folder();
    const t = captureIo();
    // Every bundle is honestly signed by the hotkey it names: without --validator-hotkey all pass.
    expect(await runCli(['verify', dir], t)).toBe(0);
    const short = shortHotkeys([alice, eve]);
    const rows = tableRows(t.out());
    expect(rows.get(join(dir, 'epoch-1.json'))?.validator).toBe(short.get(alice));
    expect(rows.get(join(dir, 'epoch-3.json'))?.validator).toBe(short.get(eve));
    expect(short.get(alice)).toBe(`${alice.slice(0, 6)}…${alice.slice(-4)}`);
    expect(t.out()).toContain(`validator ${short.get(alice)} = ${alice}: 2 bundle(s), 2 ok, 0 with mismatches, 0 invalid`);
    expect(t.out()).toContain(`validator ${short.get(eve)} = ${eve}: 1 bundle(s), 1 ok, 0 with mismatches, 0 invalid`);
    // Two validators and no --validator-hotkey: the auditor is told to check whose bundles these are.
    expect(t.out()).toContain('bundles of 2 validators: pass --validator-hotkey to fail those of any validator but the one audited');
    // The table stays readable: no row wider than 120 columns besides the source path.
    for (const line of t
      .out()
      .split('\n')
      .filter((l) => l.includes(dir)))
      expect(line.replace(dir, '').length).toBeLessThanOrEqual(120);
  });

  it('--validator-hotkey: a bundle another validator signed is invalid (AUDITOR_WRONG_VALIDATOR, exit 2), with --jobs 2 too', async () => {
    const dir = await folder();
    for (const jobs of ['1', '2']) {
      const t = captureIo();
      expect(await runCli(['verify', dir, '--validator-hotkey', alice, '--jobs', jobs], t)).toBe(2);
      const rows = tableRows(t.out());
      expect(rows.get(join(dir, 'epoch-1.json'))?.status).toBe('ok');
      expect(rows.get(join(dir, 'epoch-3.json'))?.status).toBe('invalid');
      expect(t.out()).toContain(
        `INVALID ${join(dir, 'epoch-3.json')} (epoch 3): [AUDITOR_WRONG_VALIDATOR] the bundle is signed by validator ${eve}, not by ${alice} (--validator-hotkey)`,
      );
      // Its own checks all passed: the bundle is honest, only not the audited validator's.
      expect(t.out()).toContain('  checks: schema ok, digest ok, signature ok, recompute ok, chain -');
      expect(t.out()).toContain(
        `validator ${shortHotkeys([alice, eve]).get(eve)} = ${eve}: 1 bundle(s), 0 ok, 0 with mismatches, 1 invalid (not --validator-hotkey)`,
      );
      expect(t.out()).toContain(`: 2 bundle(s), 2 ok, 0 with mismatches, 0 invalid (--validator-hotkey)`);
    }
  });

  it('--json: each bundle names its validator_hotkey; the report names the hotkey asked for and counts per validator', async () => {
    const dir = await folder();
    const t = captureIo();
    expect(await runCli(['verify', dir, '--validator-hotkey', alice, '--json'], t)).toBe(2);
    const report = JSON.parse(t.out()) as AuditReport;
    expect(report.expected_validator_hotkey).toBe(alice);
    expect(report.bundles.map((b) => [b.epoch, b.validator_hotkey, b.status, b.error?.code ?? null])).toEqual([
      [1, alice, 'ok', null],
      [2, alice, 'ok', null],
      [3, eve, 'invalid', 'AUDITOR_WRONG_VALIDATOR'],
    ]);
    expect(report.bundles[2]?.error?.path).toBe('bundle.validator_hotkey');
    expect(report.summary.validators).toEqual([
      { validator_hotkey: alice, bundles: 2, ok: 2, mismatched: 0, invalid: 0 },
      { validator_hotkey: eve, bundles: 1, ok: 0, mismatched: 0, invalid: 1 },
    ]);
    expect(report.summary).toMatchObject({ bundles: 3, ok: 2, invalid: 1 });
  });

  it('only bundles of the hotkey asked for: exit 0, as without the option', async () => {
    const dir = tempDir('auditor-hotkey-');
    await writeFile(join(dir, 'epoch-1.json'), texts.get(1)!);
    const t = captureIo();
    expect(await runCli(['verify', dir, '--validator-hotkey', alice], t)).toBe(0);
    expect(t.out()).not.toContain('pass --validator-hotkey');
  });

  it('--validator-hotkey that is not an SS58 hotkey is a usage error (exit 2)', async () => {
    const dir = await folder();
    const t = captureIo();
    expect(await runCli(['verify', dir, '--validator-hotkey', 'not-a-hotkey'], t)).toBe(2);
    expect(t.err()).toContain('--validator-hotkey must be an SS58 hotkey, got "not-a-hotkey"');
  });
});

describe('shortHotkeys', () => {
  it('keeps 6 leading and 4 trailing characters, longer where two hotkeys would read the same', () => {
    const a = `5Grwva${'A'.repeat(36)}KutQY`;
    const b = `5Grwva${'B'.repeat(36)}KutQY`;
    const c = `5FHneW${'C'.repeat(36)}M694ty`;
    const short = shortHotkeys([a, b, c, a]);
    expect(short.get(c)).toBe('5FHneW…94ty');
    expect(short.get(a)).not.toBe(short.get(b));
    expect(short.get(a)).toBe(`5GrwvaA…KutQY`);
    expect(short.get(b)).toBe(`5GrwvaB…KutQY`);
    // Hotkeys equal but for the middle: each is shown whole rather than shortened to the same text.
    const m1 = `5Grwva${'A'.repeat(17)}x${'A'.repeat(18)}KutQY`;
    const m2 = `5Grwva${'A'.repeat(17)}y${'A'.repeat(18)}KutQY`;
    const both = shortHotkeys([m1, m2]);
    expect(both.get(m1)).not.toBe(both.get(m2));
  });
});

describe.runIf(browserAvailable())('the HTML report in headless Chromium: whose bundles passed', () => {
  it('the verdict names the hotkey asked for, one line per validator, and the other validator’s bundle row is invalid with its code', async () => {
    const dir = await folder();
    const file = join(tempDir('auditor-hotkey-html-'), 'report.html');
    expect(await runCli(['verify', dir, '--validator-hotkey', alice, '--report', file, '--json'], captureIo())).toBe(2);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(file).href);
      const shown = await page.evaluate(() => ({
        expected: document.querySelector('.expected-validator')?.textContent ?? null,
        validators: Array.from(document.querySelectorAll('.validators li')).map((li) => li.textContent),
        rows: Array.from(document.querySelectorAll('table.bundles tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)),
        invalid: Array.from(document.querySelectorAll('section.bundle p.invalid')).map((p) => p.textContent),
      }));
      expect(shown.expected).toBe(`Validator audited (--validator-hotkey): ${alice}`);
      expect(shown.validators).toEqual([
        `${alice}: 2 bundle(s), 2 ok, 0 with mismatches, 0 invalid (--validator-hotkey)`,
        `${eve}: 1 bundle(s), 0 ok, 0 with mismatches, 1 invalid (not --validator-hotkey)`,
      ]);
      const epoch3 = shown.rows.find((r) => r[0] === '3');
      expect(epoch3?.[1]).toBe('invalid');
      expect(epoch3).toContain(eve);
      expect(shown.invalid).toEqual([
        `Invalid: [AUDITOR_WRONG_VALIDATOR] the bundle is signed by validator ${eve}, not by ${alice} (--validator-hotkey) at bundle.validator_hotkey (got "${eve}")`,
      ]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('readPublishedBundles with validatorHotkey (miner-check explain --validator-hotkey)', () => {
  it('from a validator URL: another validator’s verified bundle is set aside (AUDITOR_WRONG_VALIDATOR), the validator’s own are used', async () => {
    const verify = await signatureVerifier();
    const read = await readPublishedBundles(base, { verify, validatorHotkey: alice });
    const url = `${base}/v1/epochs/3/bundle`;
    expect(
      read.map((b) => [b.source, b.bundle === null ? null : (b.bundle as { validator_hotkey: string }).validator_hotkey, b.problem?.code ?? null]),
    ).toEqual([
      [`${base}/v1/epochs/1/bundle`, alice, null],
      [`${base}/v1/epochs/2/bundle`, alice, null],
      [url, null, 'AUDITOR_WRONG_VALIDATOR'],
    ]);
    expect(read[2]?.problem?.message).toBe(
      `[AUDITOR_WRONG_VALIDATOR] GET ${url}: the bundle is signed by validator "${eve}", not by ${alice} (--validator-hotkey) at --bundles (got "${url}")`,
    );
    // Without it, every verified bundle is used, whoever signed it.
    expect((await readPublishedBundles(base, { verify })).map((b) => b.problem)).toEqual([null, null, null]);
  });

  it('from a folder: the file of another validator is set aside, naming the file and both hotkeys', async () => {
    const dir = await folder();
    const read = await readPublishedBundles(dir, { verify: await signatureVerifier(), validatorHotkey: alice });
    const file = join(dir, 'epoch-3.json');
    expect(read.map((b) => b.problem?.code ?? null)).toEqual([null, null, 'AUDITOR_WRONG_VALIDATOR']);
    expect(read[2]?.problem?.message).toBe(
      `[AUDITOR_WRONG_VALIDATOR] ${file}: the bundle is signed by validator "${eve}", not by ${alice} (--validator-hotkey) at bundle.validator_hotkey (got "${eve}")`,
    );
  });
});
