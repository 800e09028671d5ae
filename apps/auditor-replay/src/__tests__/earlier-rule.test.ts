/// <reference lib="dom" />
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { buildBundle } from '@subnet/bundle';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { auditBundle, buildReport, downstreamMismatches, formatReport, runCli } from '../index.js';
import type { AuditReport, BundleAudit } from '../index.js';
import { signatureVerifier } from '../signature-verifier.js';
import { browserAvailable, launchBrowser, screenshotDir } from './browser.js';
import { captureIo } from './capture-io.js';
import { dryRun, earlierRuleBundle, epochInput, keys, resign, signedBundle } from './fixtures.js';
import type { Keys } from './fixtures.js';

/**
 * docs/spec.md G.4 "A hotkey missing from the metagraph takes no share of its challenge" changed what an
 * epoch computes: a bundle written before it, in which such a hotkey took weight that its uid mapping then
 * dropped (`result.aggregation.mapping.dropped`), recomputes differently today although nothing in it was
 * changed. The auditor says so as the root cause, with the dropped hotkeys and their claimed share, instead of
 * pointing at a miner's records or the claimed value.
 */

let k: Keys;
let verify: Awaited<ReturnType<typeof signatureVerifier>>;
let earlier: ReturnType<typeof earlierRuleBundle>;
let audit: BundleAudit;

beforeAll(async () => {
  k = await keys();
  verify = await signatureVerifier();
  // Miner 3 (term scores and a bounty record) left the metagraph before the close; its records stayed.
  earlier = earlierRuleBundle(k, { miners: 5, epoch: 2, deregistered: 3 });
  audit = auditBundle(earlier.signed, 'epoch-2.json', verify).audit;
});

const SPEC = 'docs/spec.md G.4';
const TITLE = 'A hotkey missing from the metagraph takes no share of its challenge';

describe('a bundle computed before the rule of spec G.4 "A hotkey missing from the metagraph"', () => {
  it('is intact and signed, with the inputs, stakes and metagraph of a current bundle: only its result differs', () => {
    const input = epochInput(k, { miners: 5, epoch: 2 });
    const current = buildBundle({ ...input, metagraph: input.metagraph.filter((n) => n.hotkey !== earlier.hotkey), submission: dryRun });
    const { result: claimed, ...rest } = earlier.signed.bundle;
    const { result: today, ...same } = current;
    expect(rest).toEqual(JSON.parse(JSON.stringify(same)));
    expect(claimed).not.toEqual(JSON.parse(JSON.stringify(today)));
    expect(auditBundle(JSON.parse(JSON.stringify(resign({ bundle: current }, k.validator))), 'today.json', verify).audit.status).toBe('ok');
    expect(audit.checks).toEqual({ schema: true, digest: true, signature: true, recompute: false, chain: null });
    const mapping = (claimed.aggregation as { mapping: { dropped: { hotkey: string; weight: number }[] } }).mapping;
    expect(mapping.dropped).toEqual([{ hotkey: earlier.hotkey, weight: earlier.share }]);
    expect(earlier.share).toBeGreaterThan(0);
  });

  it('the root cause is the rule change: kind "rule", the dropped hotkey and its claimed share, the spec section', () => {
    expect(audit.root_cause).toMatchObject({
      kind: 'rule',
      path: 'bundle.result.aggregation.mapping.dropped',
      record: null,
      rule: { spec: SPEC, title: TITLE, dropped: [{ hotkey: earlier.hotkey, weight: earlier.share }], share: earlier.share },
    });
    const sentence = audit.root_cause?.sentence ?? '';
    expect(sentence).toContain('computed under the earlier rule');
    expect(sentence).toContain(`${SPEC} "A hotkey missing from the metagraph takes no share of its challenge"`);
    expect(sentence).toContain(`${earlier.hotkey} (claimed share ${earlier.share})`);
    // The first differing value is still the first of the list; every other one follows it as downstream.
    const values = audit.mismatches.filter((m) => m.stage !== 'digest' && m.stage !== 'signature');
    expect(values[0]).toEqual(audit.root_cause?.mismatch);
    expect(downstreamMismatches(audit)).toHaveLength(values.length - 1);
  });

  it('the text report prints it as the root cause', () => {
    const text = formatReport(buildReport([audit]));
    expect(text).toContain(`  root cause: ${audit.root_cause?.sentence ?? '?'}\n`);
    expect(text).toContain(`root cause: the bundle was computed under the earlier rule of ${SPEC}`);
    expect(text).toContain('MISMATCH epoch-2.json (epoch 2');
  });

  it('a current bundle whose claimed mapping is edited to drop a hotkey is not taken for an earlier build', () => {
    const honest = signedBundle(k, { miners: 5, epoch: 2 }) as unknown as {
      bundle: { metagraph: { hotkey: string }[]; result: { aggregation: { mapping: { dropped: { hotkey: string; weight: number }[] } } } };
    };
    // A hotkey the metagraph lists, and one it does not list that the result names nowhere else: neither is
    // what an earlier build wrote (it dropped only unlisted hotkeys, each with the share it was allocated).
    const listed = honest.bundle.metagraph[4]!.hotkey;
    for (const hotkey of [listed, earlier.hotkey]) {
      const doc = JSON.parse(JSON.stringify(honest)) as typeof honest;
      doc.bundle.result.aggregation.mapping.dropped = [{ hotkey, weight: 0.125 }];
      const a = auditBundle(resign(doc, k.validator), 'edited.json', verify).audit;
      expect(a.checks).toMatchObject({ digest: true, signature: true, recompute: false });
      expect(a.root_cause).toMatchObject({ kind: 'result', path: 'bundle.result.aggregation.mapping.dropped[0]' });
      expect(a.root_cause?.rule).toBeUndefined();
    }
  });

  it("an earlier build's bundle whose metagraph is edited to list the dropped hotkey is not taken for one (that build dropped only unlisted hotkeys)", () => {
    const doc = JSON.parse(JSON.stringify(earlier.signed)) as { bundle: { metagraph: { hotkey: string; uid: number }[] } };
    const uid = Math.max(...doc.bundle.metagraph.map((n) => n.uid)) + 1;
    doc.bundle.metagraph.push({ hotkey: earlier.hotkey, uid });
    const a = auditBundle(resign(doc, k.validator), 'listed.json', verify).audit;
    expect(a.checks).toMatchObject({ digest: true, signature: true, recompute: false });
    expect(a.root_cause?.kind).not.toBe('rule');
    expect(a.root_cause?.rule).toBeUndefined();
  });
});

describe('the CLI: --json and the HTML report in headless Chromium', () => {
  let dir: string;
  let report: AuditReport;
  let file: string;

  beforeAll(async () => {
    dir = tempDir('auditor-earlier-rule-', 'file');
    await mkdir(join(dir, 'bundles'));
    await writeFile(join(dir, 'bundles', 'epoch-2.json'), JSON.stringify(earlier.signed));
    await writeFile(join(dir, 'bundles', 'epoch-3.json'), JSON.stringify(signedBundle(k, { miners: 5, epoch: 3 })));
    file = join(dir, 'report.html');
    const t = captureIo(false);
    expect(await runCli(['verify', join(dir, 'bundles'), '--json', '--report', file], t)).toBe(1);
    report = JSON.parse(t.out()) as AuditReport;
  });

  it("--json: the root cause of the earlier build's bundle with the rule, in numbers", () => {
    const a = report.bundles.find((b) => b.epoch === 2);
    expect(a?.root_cause).toEqual(JSON.parse(JSON.stringify(audit.root_cause)));
    expect(a?.root_cause?.rule).toEqual({ spec: SPEC, title: TITLE, dropped: [{ hotkey: earlier.hotkey, weight: earlier.share }], share: earlier.share });
    expect(report.bundles.find((b) => b.epoch === 3)?.status).toBe('ok');
  });

  describe.runIf(browserAvailable())('the HTML report', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser.close();
    });

    it("the bundle's section shows the rule as its root cause, the hotkey in full with its claimed share", async () => {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      await page.goto(pathToFileURL(file).href);
      const roots = await page.evaluate(() =>
        Array.from(document.querySelectorAll('section.bundle')).map((s) => ({
          source: s.getAttribute('data-source'),
          root: s.querySelector('div.root')?.textContent ?? null,
        })),
      );
      const section = roots.find((r) => r.source?.endsWith('epoch-2.json'));
      expect(section?.root).toContain(`Root cause: ${audit.root_cause?.sentence ?? '?'}`);
      expect(section?.root).toContain(`${earlier.hotkey} (claimed share ${earlier.share})`);
      expect(roots.find((r) => r.source?.endsWith('epoch-3.json'))?.root).toBeNull();
      await page.screenshot({ path: join(screenshotDir(), 'earlier-rule.png'), fullPage: true });
      await page.close();
    });
  });
});
