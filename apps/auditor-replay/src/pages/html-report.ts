import type { BundleAudit, Mismatch } from '../audit-bundle.js';
import type { AuditReport } from '../audit-report.js';
import { describeSubmission, formatMismatch, validatorCountText, verdict } from '../audit-report.js';
import type { MinerStory } from '../miner-story.js';
import { excludedRecords, explainMiner, minerHotkeys } from '../miner-story.js';
import { describeReveal } from '../reveal-audit.js';
import { escapeHtml, htmlDocument, minerAnchor } from './html.js';
import { renderMinerPage } from './miner-page.js';
import type { WeightSeries } from './weight-chart.js';
import { renderWeightChart } from './weight-chart.js';

/** Options of {@link renderHtmlReport}. */
export interface HtmlReportOptions {
  readonly title?: string;
  /** The parsed bundles by source (`signed.bundle`), for the per-miner pages; without them the report has no miner pages. */
  readonly bundles?: ReadonlyMap<string, unknown>;
  /** Story epochs kept per miner page (the latest ones; default 50), so a report over thousands of epochs stays small. */
  readonly maxStoriesPerMiner?: number;
}

function check(value: boolean | null): string {
  return `<td class="${value === null ? 'skip' : value ? 'ok' : 'fail'}">${verdict(value)}</td>`;
}

/** The mismatches of one bundle grouped by stage, in pipeline order (the root cause's stage first). */
function byStage(mismatches: readonly Mismatch[]): [string, Mismatch[]][] {
  const groups = new Map<string, Mismatch[]>();
  for (const m of mismatches) {
    const list = groups.get(m.stage) ?? [];
    list.push(m);
    groups.set(m.stage, list);
  }
  return [...groups.entries()];
}

function bundleSection(a: BundleAudit, i: number): string {
  const head = `<h3 id="bundle-${i}">Epoch ${a.epoch ?? '?'}: ${escapeHtml(a.source)} <span class="status">(${a.status})</span></h3>`;
  const checks = `<table class="checks"><thead><tr><th>schema</th><th>digest</th><th>signature</th><th>recompute</th><th>chain</th><th>mismatches</th></tr></thead><tbody><tr>${check(a.checks.schema)}${check(a.checks.digest)}${check(a.checks.signature)}${check(a.checks.recompute)}${check(a.checks.chain)}<td class="num mismatch-count">${a.mismatches.length}</td></tr></tbody></table>`;
  const facts = `<p>validator <span class="hk">${escapeHtml(a.validator_hotkey ?? '?')}</span>, netuid ${a.netuid ?? '?'}, digest <span class="hk">${escapeHtml(a.digest ?? '-')}</span>, ${escapeHtml(describeSubmission(a))}</p>`;
  // A SubnetError's message already starts with its `[CODE]`: the code is shown once, as in the text report.
  const code = a.error === null ? '' : `[${a.error.code}]`;
  const error =
    a.error === null ? '' : `<p class="invalid">Invalid: ${escapeHtml(a.error.message.startsWith(code) ? a.error.message : `${code} ${a.error.message}`)}</p>`;
  // Commit-reveal v4: the reveal the validator attests and, with --chain, what the chain shows.
  const reveal = a.reveal === undefined ? '' : `<p class="reveal">Reveal: ${escapeHtml(describeReveal(a.reveal))}</p>`;
  const unknown =
    a.chain_unknown === undefined
      ? ''
      : `<p class="chain-unknown">Chain unknown: [${escapeHtml(a.chain_unknown.code)}] ${escapeHtml(a.chain_unknown.message)}</p>`;
  const root =
    a.root_cause === null
      ? ''
      : `<div class="root"><strong>Root cause:</strong> ${escapeHtml(a.root_cause.sentence)}<br><span class="hk">${escapeHtml(formatMismatch(a.root_cause.mismatch))}</span></div>`;
  const groups = byStage(a.mismatches).map(
    ([stage, list], g) =>
      `<details class="stage"${g < 3 ? ' open' : ''}><summary>${escapeHtml(stage)} <span class="count">(${list.length})</span></summary><ul class="mm">${list.map((m) => `<li>${escapeHtml(formatMismatch(m))}</li>`).join('')}</ul></details>`,
  );
  return `<section class="bundle" data-source="${escapeHtml(a.source)}">${head}${checks}${facts}${reveal}${unknown}${error}${root}${groups.join('\n')}</section>`;
}

function chartSeries(report: AuditReport): WeightSeries[] {
  const points = new Map<string, { uid: number | null; hotkey: string | null; values: Map<number, number> }>();
  for (const a of report.bundles) {
    if (a.epoch === null || a.weights === null) continue;
    for (const w of a.weights) {
      const key = w.hotkey ?? `uid ${w.uid}`;
      const series = points.get(key) ?? { uid: w.uid, hotkey: w.hotkey, values: new Map<number, number>() };
      series.values.set(a.epoch, w.weight / 65535);
      points.set(key, series);
    }
  }
  return [...points.values()].sort((a, b) => (a.uid ?? -1) - (b.uid ?? -1) || String(a.hotkey).localeCompare(String(b.hotkey)));
}

function minerPages(report: AuditReport, bundles: ReadonlyMap<string, unknown>, keep: number): { index: string; pages: string } {
  const stories = new Map<string, MinerStory[]>();
  for (const a of report.bundles) {
    const bundle = bundles.get(a.source);
    if (bundle === undefined || a.weights === null) continue;
    for (const hotkey of minerHotkeys(bundle)) {
      const list = stories.get(hotkey) ?? [];
      list.push(explainMiner(bundle, hotkey));
      stories.set(hotkey, list);
    }
  }
  const hotkeys = [...stories.keys()].sort();
  const rows = hotkeys.map((h) => {
    const list = (stories.get(h) ?? []).sort((x, y) => x.epoch - y.epoch);
    const last = list.at(-1);
    return `<tr><td class="num">${last?.uid ?? '-'}</td><td class="hk"><a href="#${minerAnchor(h)}">${escapeHtml(h)}</a></td><td class="num">${last?.u16 ?? '-'}</td><td class="num">${list.length}</td></tr>`;
  });
  const index = `<table class="miners"><thead><tr><th>uid</th><th>miner (open its page)</th><th>u16 at the latest epoch</th><th>epochs</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
  const pages = hotkeys.map((h) => renderMinerPage(h, (stories.get(h) ?? []).slice(-keep))).join('\n');
  return { index, pages };
}

/**
 * One self-contained HTML page for a verification run (inline CSS and SVG, no script, no external asset;
 * every value escaped): the verdict with counts that add up, a chart of each miner's u16 share over the
 * epochs whose labels all sit inside the SVG and whose legend shows every hotkey in full, the bundle table
 * with one column per check, every equivocation, one section per bundle (its checks, its root cause on top,
 * its mismatches grouped by stage) and, with the bundles, one page per miner (`#miner-<hotkey>`: its
 * weight over the epochs and, per epoch, the story of its weight in words and numbers).
 *
 * @param report - the report of `buildReport`
 * @param options - title; the parsed bundles by source for the miner pages
 * @returns the HTML document
 * @example await writeFile('report.html', renderHtmlReport(report, { bundles }))
 */
export function renderHtmlReport(report: AuditReport, options: HtmlReportOptions = {}): string {
  const title = options.title ?? 'auditor-replay report';
  const s = report.summary;
  const invalid = report.bundles.filter((a) => a.error !== null);
  const rows = report.bundles.map(
    (a, i) =>
      `<tr class="${a.status}"><td class="num">${a.epoch ?? '?'}</td><td class="status">${a.status}</td>${check(a.checks.schema)}${check(a.checks.digest)}${check(a.checks.signature)}${check(a.checks.recompute)}${check(a.checks.chain)}<td class="num">${a.mismatches.length}</td><td class="hk">${escapeHtml(a.validator_hotkey ?? '')}</td><td><a href="#bundle-${i}">${escapeHtml(a.source)}</a></td></tr>`,
  );
  const equivocations =
    report.equivocations.length === 0
      ? '<p>None.</p>'
      : report.equivocations
          .map(
            (e) =>
              `<div class="root equivocation"><strong>Equivocation:</strong> validator <span class="hk">${escapeHtml(e.validator_hotkey)}</span> signed ${e.bundles.length} different bundles for netuid ${e.netuid}, epoch ${e.epoch}:<ul class="mm">${e.bundles.map((b) => `<li>digest ${escapeHtml(b.digest)}: ${escapeHtml(b.sources.join(', '))}</li>`).join('')}</ul></div>`,
          )
          .join('\n');
  const excluded = [...(options.bundles?.entries() ?? [])].flatMap(([source, b]) => excludedRecords(b).map((e) => ({ source, ...e })));
  const excludedHtml =
    excluded.length === 0
      ? ''
      : `<h2>Records the validators excluded (${excluded.length})</h2><table class="excluded-records"><thead><tr><th>bundle</th><th>record</th><th>miner</th><th>code</th><th>reason</th></tr></thead><tbody>${excluded.map((e) => `<tr><td>${escapeHtml(e.source)}</td><td>${escapeHtml(e.record)}</td><td class="hk">${escapeHtml(e.miner_hotkey ?? '-')}</td><td>${escapeHtml(e.code)}</td><td>${escapeHtml(e.reason)}</td></tr>`).join('')}</tbody></table>`;
  const miners = options.bundles === undefined ? null : minerPages(report, options.bundles, options.maxStoriesPerMiner ?? 50);
  const verdictText = report.exit_code === 0 ? 'All bundles verified' : report.exit_code === 1 ? 'Mismatches found' : 'Invalid input';
  const body = `<div id="top"></div>
<h1>${escapeHtml(title)}</h1>
<p class="verdict v${report.exit_code}">${verdictText}: <span class="summary-bundles">${s.bundles}</span> bundle(s), ${s.ok} ok, ${s.mismatched} with mismatches (<span class="summary-mismatches">${s.mismatches}</span> value(s)), ${s.invalid} invalid, ${s.equivocations} equivocation(s); exit ${report.exit_code}</p>
${validatorsHtml(report)}
<nav><a href="#chart">weights</a><a href="#bundles">bundles</a><a href="#equivocations">equivocations</a><a href="#details">per bundle</a>${miners === null ? '' : '<a href="#miners">miners</a>'}</nav>
<h2 id="chart">Weight per miner over the epochs</h2>
${renderWeightChart(chartSeries(report), s.epochs, { links: miners !== null })}
<h2 id="bundles">Bundles</h2>
<table class="bundles"><thead><tr><th>epoch</th><th>status</th><th>schema</th><th>digest</th><th>signature</th><th>recompute</th><th>chain</th><th>mismatches</th><th>validator</th><th>source</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h2 id="equivocations">Equivocations (${report.equivocations.length})</h2>
${equivocations}
<h2 id="details">Per bundle: checks, root cause, mismatches by stage (<span class="total-mismatches">${s.mismatches}</span> value(s), ${invalid.length} invalid)</h2>
${report.bundles.map(bundleSection).join('\n')}
${excludedHtml}
${miners === null ? '' : `<h2 id="miners">Miners</h2>\n${miners.index}\n${miners.pages}`}`;
  return htmlDocument(title, body);
}

/** Whose bundles the report holds: the validator audited (`--validator-hotkey`) and each hotkey the bundles name, with its counts. */
function validatorsHtml(report: AuditReport): string {
  const expected = report.expected_validator_hotkey;
  const asked =
    expected === null ? '' : `<p class="expected-validator">Validator audited (--validator-hotkey): <span class="hk">${escapeHtml(expected)}</span></p>`;
  const items = report.summary.validators.map(
    (v) => `<li><span class="hk">${escapeHtml(v.validator_hotkey)}</span>: ${escapeHtml(validatorCountText(v, expected))}</li>`,
  );
  return `${asked}<ul class="validators">${items.join('')}</ul>`;
}
