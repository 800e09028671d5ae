/// <reference lib="dom" />
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Bundle, SignedBundle } from '@subnet/bundle';

import type { AuditReport } from '../index.js';
import { minerAnchor, runCli } from '../index.js';
import { browserAvailable, clippedSvgLabels, launchBrowser, screenshotDir } from './browser.js';
import { attestedText, committedBundleText, keys, signedBundle } from './fixtures.js';
import { captureIo } from './capture-io.js';

const run = browserAvailable();

let browser: Browser;
let dir: string;
let reportUrl: string;
let report: AuditReport;
const bundles = new Map<number, Bundle>();

describe.runIf(run)('the HTML report in headless Chromium (issue 19, items 4 and 7)', () => {
  beforeAll(async () => {
    const k = await keys();
    dir = await mkdtemp(join(tmpdir(), 'auditor-pages-'));
    await mkdir(join(dir, 'bundles'));
    for (const epoch of [1, 2, 3, 4, 10]) {
      if (epoch === 4) {
        // Epoch 4 was committed timelocked: its bundle is served with the validator's signed reveal outcome.
        const close = committedBundleText(k, { miners: 6, epoch });
        bundles.set(epoch, close.bundle);
        await writeFile(join(dir, 'bundles', `epoch-${epoch}.json`), attestedText(k, close));
        continue;
      }
      const signed: SignedBundle = signedBundle(k, { miners: 6, epoch });
      bundles.set(epoch, signed.bundle);
      const doc = JSON.parse(JSON.stringify(signed)) as { bundle: { inputs: { term_results: { results: { tests_passed: number }[] }[] } } };
      // Epoch 3 carries one changed input record: a root cause and its downstream values.
      if (epoch === 3) doc.bundle.inputs.term_results[2]!.results.find((r) => r.tests_passed > 0)!.tests_passed -= 1;
      await writeFile(join(dir, 'bundles', `epoch-${epoch}.json`), JSON.stringify(doc));
    }
    const file = join(dir, 'report.html');
    const t = captureIo();
    expect(await runCli(['verify', join(dir, 'bundles'), '--report', file, '--json'], t)).toBe(1);
    report = JSON.parse(t.out()) as AuditReport;
    reportUrl = pathToFileURL(file).href;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the report page: counts that agree with the verification, one section per bundle with its checks, the root cause on top', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(reportUrl);
    const shown = await page.evaluate(() => ({
      summary: Number(document.querySelector('.summary-mismatches')?.textContent),
      total: Number(document.querySelector('.total-mismatches')?.textContent),
      perBundle: Array.from(document.querySelectorAll('section.bundle .mismatch-count')).map((td) => Number(td.textContent)),
      items: Array.from(document.querySelectorAll('section.bundle')).map((s) => s.querySelectorAll('ul.mm li').length),
      checks: Array.from(document.querySelectorAll('section.bundle table.checks tbody td')).map((td) => td.textContent),
      firstAfterChecks: Array.from(document.querySelectorAll('section.bundle')).map(
        (s) => s.querySelector('table.checks ~ div.root, table.checks ~ details')?.className ?? null,
      ),
    }));
    expect(shown.summary).toBe(report.summary.mismatches);
    expect(shown.total).toBe(report.summary.mismatches);
    expect(shown.perBundle).toEqual(report.bundles.map((a) => a.mismatches.length));
    expect(shown.items).toEqual(report.bundles.map((a) => a.mismatches.length));
    const tampered = report.bundles.findIndex((a) => a.epoch === 3);
    expect(shown.checks.slice(tampered * 6, tampered * 6 + 5)).toEqual(['ok', 'FAIL', 'ok', 'FAIL', '-']);
    expect(shown.firstAfterChecks[tampered]).toBe('root');
    await page.screenshot({ path: join(screenshotDir(), 'report.png'), fullPage: true });
    await page.close();
  });

  it("shows the reveal a timelocked bundle's validator attests, in words, in that bundle's section only", async () => {
    const page = await browser.newPage();
    await page.goto(reportUrl);
    const reveals = await page.evaluate(() =>
      Array.from(document.querySelectorAll('section.bundle')).map((s) => s.querySelector('p.reveal')?.textContent ?? null),
    );
    const attested = report.bundles.findIndex((a) => a.epoch === 4);
    expect(report.bundles[attested]?.reveal).toMatchObject({ verified: true });
    expect(reveals[attested]).toBe('Reveal: revealed in block 131 (attested by the validator)');
    expect(reveals.filter((r) => r !== null)).toHaveLength(1);
    await page.close();
  });

  it('the chart: every label inside the SVG, an epoch label for each epoch, every hotkey in full in the legend', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(reportUrl);
    expect(await clippedSvgLabels(page)).toEqual([]);
    const labels = await page.$eval('svg.weight-chart', (svg) => Array.from(svg.querySelectorAll('text.x-label')).map((t) => t.textContent));
    expect(labels).toEqual(report.summary.epochs.map((e) => `epoch ${e}`));
    const legend = await page.$eval('table.legend', (table) => Array.from(table.querySelectorAll('td.hk')).map((td) => td.textContent));
    const expected = bundles
      .get(10)!
      .result.u16.uids.map((uid) => (bundles.get(10)!.metagraph as { hotkey: string; uid: number }[]).find((n) => n.uid === uid)!.hotkey);
    expect([...legend].sort()).toEqual([...expected].sort());
    await page.close();
  });

  it("each miner's page: its u16 weight per epoch and, for the chosen epoch, the evaluations used with their numbers, as the bundle says", async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const b = bundles.get(10)!;
    const aggregation = b.result.aggregation as {
      miners: { hotkey: string; u16: number }[];
      challenges: { id: string; aggregation: { miners: { hotkey: string; evaluations_used: { validator_hotkey: string; score: number }[] }[] } | null }[];
    };
    for (const [i, miner] of aggregation.miners.entries()) {
      await page.goto(`${reportUrl}#${minerAnchor(miner.hotkey)}`);
      const seen = await page.evaluate((anchor) => {
        const section = document.getElementById(anchor);
        const visible = section !== null && getComputedStyle(section).display !== 'none';
        const open = section?.querySelector('details.epoch-story[open]');
        return {
          visible,
          epoch: Number(open?.getAttribute('data-epoch')),
          u16: Number(open?.querySelector('td.u16')?.textContent),
          history: Array.from(section?.querySelectorAll('table.history tbody tr') ?? []).map((tr) =>
            Array.from(tr.querySelectorAll('td')).map((td) => td.textContent),
          ),
          used: Array.from(open?.querySelectorAll('table.evaluations tbody tr:not(.excluded)') ?? []).map((tr) => [
            tr.querySelectorAll('td')[1]?.textContent,
            Number(tr.querySelectorAll('td')[2]?.textContent),
          ]),
        };
      }, minerAnchor(miner.hotkey));
      expect(seen.visible).toBe(true);
      expect(seen.epoch).toBe(10);
      expect(seen.u16).toBe(miner.u16);
      // One history row per epoch of the bundles, with the u16 each bundle's explanation gives this miner.
      const history = [...bundles.entries()].map(([e, bb]) => [
        String(e),
        String((bb.result.aggregation as typeof aggregation).miners.find((m) => m.hotkey === miner.hotkey)!.u16),
      ]);
      expect(seen.history.map((r) => [r[0], r[2]])).toEqual(history);
      const term = aggregation.challenges.find((c) => c.id === 'term')!.aggregation!.miners.find((m) => m.hotkey === miner.hotkey)!;
      expect(seen.used.map(([v]) => v)).toEqual(term.evaluations_used.map((e) => e.validator_hotkey));
      for (const [j, e] of term.evaluations_used.entries()) expect(seen.used[j]![1]).toBeCloseTo(e.score, 5);
      expect(await clippedSvgLabels(page)).toEqual([]);
      if (i === 0) await page.screenshot({ path: join(screenshotDir(), 'miner-page.png'), fullPage: true });
    }
    await page.close();
  });
});
