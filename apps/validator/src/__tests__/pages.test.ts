/// <reference lib="dom" />
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqliteStorage } from '../sqlite-storage.js';
import { startValidator } from '../service.js';
import type { ValidatorService } from '../service.js';
// Browser-test support shared with the auditor's page tests (Debian's chromium driven by puppeteer-core).
import { browserAvailable, clippedSvgLabels, launchBrowser, screenshotDir } from '../../../auditor-replay/src/__tests__/browser.js';
import { fakeChain, keys, silent, tempDir, testConfig, TOKEN } from './helpers.js';

/** Bundles written and signed by the validator's own pipeline (the auditor's committed corpus). */
const appDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const honest = join(appDir, '..', 'auditor-replay', 'test-corpus', 'honest');

interface Miner {
  hotkey: string;
  uid: number;
  u16: number;
}
type Signed = {
  bundle: { epoch: number; submission: { status: string; block: string | null }; result: { u16: unknown; aggregation: { miners: Miner[] } } } & Record<
    string,
    unknown
  >;
  digest: string;
};

const signed = readdirSync(honest)
  .filter((n) => n.endsWith('.json'))
  .map((n) => JSON.parse(readFileSync(join(honest, n), 'utf8')) as Signed)
  .sort((a, b) => a.bundle.epoch - b.bundle.epoch);
const latest = signed.at(-1)!;
const excludedMiner = latest.bundle.result.aggregation.miners.find((m) => m.uid !== 0)!.hotkey;

let service: ValidatorService | undefined;
let cleanup: () => void;
let url: string;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  const storage = openSqliteStorage(join(t.dir, 'validator.sqlite'));
  // Written as this version writes a database: with the epoch length its numbers use (a database holding epochs but no
  // length is one from an earlier version, checked against the head at start: epoch-numbering.ts).
  await storage.claimEpochLength(10);
  for (const s of signed) {
    // The newest bundle also lists an excluded record (an optional field of newer bundles): the pages render it when present.
    const doc =
      s === latest
        ? {
            ...s,
            bundle: {
              ...s.bundle,
              excluded: [
                {
                  code: 'BUNDLE_RECORD_DUPLICATE',
                  sentence: 'a second result for the same task in one epoch',
                  record_id: 'term-x-1',
                  miner_hotkey: excludedMiner,
                },
              ],
            },
          }
        : s;
    await storage.claimEpoch(s.bundle.epoch, {
      status: 'submitted',
      submission: JSON.stringify(s.bundle.submission),
      bundle: JSON.stringify(doc),
      digest: s.digest,
      u16: JSON.stringify(s.bundle.result.u16),
    });
  }
  await storage.claimEpoch(latest.bundle.epoch + 1, {
    status: 'failed',
    submission: JSON.stringify({
      status: 'failed',
      block: null,
      extrinsic_hash: null,
      call: null,
      error: { code: 'CHAIN_SETTING_WEIGHTS_TOO_FAST', message: 'rate limit' },
    }),
  });
  await storage.close();
  // The chain is past the stored epochs (a head below them refuses the start: epoch-numbering.ts).
  const chain = fakeChain(await keys());
  chain.headBlock = BigInt((latest.bundle.epoch + 2) * 10);
  service = await startValidator({ config: testConfig(t.dir), chain, logger: silent, autoTick: false });
  url = service.url;
});
afterAll(async () => {
  // The folder goes also when the start failed (no service to stop).
  try {
    await service?.stop();
  } finally {
    cleanup();
  }
});

async function get(path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe("the validator's read-only pages on its HTTP port (issue 19, item 5)", () => {
  it('GET /pages lists every epoch with its status and submission, and the latest weights with full hotkeys', async () => {
    const page = await get('/pages');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    for (const s of signed)
      expect(page.text).toMatch(
        new RegExp(
          `<tr><td class="num">${s.bundle.epoch}</td><td class="status">submitted</td><td>submitted</td><td class="num">${s.bundle.submission.block}</td>`,
        ),
      );
    expect(page.text).toContain('<td>failed (CHAIN_SETTING_WEIGHTS_TOO_FAST)</td>');
    for (const m of latest.bundle.result.aggregation.miners) expect(page.text).toContain(`>${m.hotkey}</a></td><td class="num u16">${m.u16}</td>`);
  });

  it('read-only and secret-free: no script, form or input; no token or key URI; writes to the pages are refused', async () => {
    const pages = ['/pages', `/pages/miners/${excludedMiner}`, '/pages/excluded'];
    for (const path of pages) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.text).not.toMatch(/<script|<form|<input|<button/i);
      expect(page.text).not.toContain(TOKEN);
      expect(page.text).not.toContain('//Alice');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      for (const method of ['POST', 'PUT', 'DELETE'])
        expect((await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBeGreaterThanOrEqual(400);
    }
  });

  it('a miner page for an unknown miner is 404, a malformed hotkey or epoch 400', async () => {
    expect((await get('/pages/miners/5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty')).status).toBe(404);
    expect((await get('/pages/miners/nope')).status).toBe(400);
    expect((await get(`/pages/miners/${excludedMiner}?epoch=x`)).status).toBe(400);
  });
});

describe('decision (docs/spec.md G.42 (a)): an epoch in a path or a query has one spelling', () => {
  const epoch = signed[1]!.bundle.epoch;
  const minerPage = (query: string): string => `/pages/miners/${excludedMiner}?epoch=${query}`;

  it('GET /v1/epochs/{n}/bundle serves the decimal spelling and refuses a leading zero as it refuses a non-number', async () => {
    const served = await get(`/v1/epochs/${epoch}/bundle`);
    expect(served.status).toBe(200);
    expect((JSON.parse(served.text) as Signed).digest).toBe(signed[1]!.digest);
    expect((await get('/v1/epochs/0/bundle')).status).toBe(200);
    for (const n of [`0${epoch}`, `000${epoch}`, '00']) {
      const refused = await get(`/v1/epochs/${n}/bundle`);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toEqual({
        error: {
          code: 'INVALID_EPOCH',
          message: `the epoch is written with a leading zero (write ${Number(n)}: an epoch has one spelling) at params.n (got "${n}")`,
          path: 'params.n',
        },
      });
    }
    const other = JSON.parse((await get('/v1/epochs/abc/bundle')).text) as { error: { code: string; message: string } };
    expect(other.error).toEqual({
      code: 'INVALID_EPOCH',
      message: 'the epoch is a non-negative integer in 1-15 decimal digits without a leading zero at params.n (got "abc")',
      path: 'params.n',
    });
  });

  it('GET /pages/miners/:hotkey?epoch=N shows the decimal spelling and refuses a leading zero as it refuses a non-number, naming ?epoch= and the value', async () => {
    const shown = await get(minerPage(String(epoch)));
    expect(shown.status).toBe(200);
    for (const n of [`0${epoch}`, '00']) {
      const refused = await get(minerPage(n));
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('<title>bad epoch</title>');
      expect(refused.text).toContain(
        `the epoch is written with a leading zero (write ${Number(n)}: an epoch has one spelling) at ?epoch= (got &quot;${n}&quot;)`,
      );
    }
    const other = await get(minerPage('x'));
    expect(other.status).toBe(400);
    expect(other.text).toContain('<title>bad epoch</title>');
    expect(other.text).toContain('the epoch is a non-negative integer in 1-15 decimal digits without a leading zero at ?epoch= (got &quot;x&quot;)');
  });
});

const run = browserAvailable();

describe.runIf(run)("the validator's pages in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('the overview, a miner page and the excluded records: the numbers of the bundles, no clipped chart label', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${url}/pages`);
    expect(await clippedSvgLabels(page)).toEqual([]);
    const u16 = await page.$$eval('table.latest-weights tbody tr', (trs) =>
      trs.map((tr) => [tr.querySelector('td.hk')?.textContent, Number(tr.querySelector('td.u16')?.textContent)]),
    );
    expect(u16).toEqual(latest.bundle.result.aggregation.miners.map((m) => [m.hotkey, m.u16]));
    await page.screenshot({ path: join(screenshotDir(appDir), 'validator-overview.png'), fullPage: true });

    const miner = latest.bundle.result.aggregation.miners.find((m) => m.hotkey === excludedMiner)!;
    await page.goto(`${url}/pages/miners/${miner.hotkey}`);
    expect(await clippedSvgLabels(page)).toEqual([]);
    const story = await page.evaluate(() => {
      const open = document.querySelector('details.epoch-story[open]');
      return {
        epoch: Number(open?.getAttribute('data-epoch')),
        u16: Number(open?.querySelector('td.u16')?.textContent),
        excluded: Array.from(open?.querySelectorAll('table.excluded-records td') ?? []).map((td) => td.textContent),
      };
    });
    expect(story).toEqual({
      epoch: latest.bundle.epoch,
      u16: miner.u16,
      excluded: ['term-x-1', 'BUNDLE_RECORD_DUPLICATE', 'a second result for the same task in one epoch'],
    });
    await page.screenshot({ path: join(screenshotDir(appDir), 'validator-miner.png'), fullPage: true });

    await page.goto(`${url}/pages/excluded`);
    const rows = await page.$$eval('table.excluded-records tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)),
    );
    expect(rows).toEqual([
      [String(latest.bundle.epoch), 'term-x-1', excludedMiner, 'BUNDLE_RECORD_DUPLICATE', 'a second result for the same task in one epoch'],
    ]);
    await page.screenshot({ path: join(screenshotDir(appDir), 'validator-excluded.png'), fullPage: true });
    await page.close();
  });
});
