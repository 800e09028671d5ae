import type { AuditReport } from './audit-report.js';
import { formatMismatch } from './audit-report.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A colour per series index (deterministic, spread around the hue circle). */
function colour(i: number): string {
  return `hsl(${(i * 137.508) % 360} 65% 42%)`;
}

/**
 * One self-contained HTML page for a verification run: summary, a table of bundles, an inline SVG chart
 * of each miner's u16 weight over the epochs (as a share of 65535), and every mismatch. Inline CSS and
 * SVG only, no script, no external asset; every value is HTML-escaped.
 *
 * @param report - the report of {@link buildReport}
 * @param title - the page title
 * @returns the HTML document
 * @example await writeFile('report.html', renderHtmlReport(report))
 */
export function renderHtmlReport(report: AuditReport, title = 'auditor-replay report'): string {
  const s = report.summary;
  const rows = report.bundles
    .map(
      (a) =>
        `<tr class="${a.status}"><td>${a.epoch ?? '?'}</td><td>${a.status}</td><td>${a.mismatches.length}</td><td>${escapeHtml(a.validator_hotkey ?? '')}</td><td>${escapeHtml(a.source)}</td></tr>`,
    )
    .join('\n');
  const mismatches = report.bundles.flatMap((a) =>
    [
      ...(a.error === null ? [] : [`<li class="invalid">${escapeHtml(`${a.source}: [${a.error.code}] ${a.error.message}`)}</li>`]),
      ...a.mismatches.map((m) => `<li>${escapeHtml(formatMismatch(m))}</li>`),
    ],
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}
h1{font-size:1.4rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
tr.mismatch td{background:#fde2e2}tr.invalid td{background:#fff3cd}
.verdict{font-weight:bold;padding:.4rem .8rem;display:inline-block}.v0{background:#d4edda}.v1{background:#f8d7da}.v2{background:#fff3cd}
ul.mm{font-family:ui-monospace,monospace;font-size:12px}svg text{font:11px sans-serif}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p class="verdict v${report.exit_code}">${report.exit_code === 0 ? 'All bundles verified' : report.exit_code === 1 ? 'Mismatches found' : 'Invalid input'}: ${s.bundles} bundle(s), ${s.ok} ok, ${s.mismatched} with mismatches (${s.mismatches} value(s)), ${s.invalid} invalid; exit ${report.exit_code}</p>
<h2>Weight per miner over the epochs</h2>
${renderChart(report)}
<h2>Bundles</h2>
<table><thead><tr><th>epoch</th><th>status</th><th>mismatches</th><th>validator</th><th>source</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Mismatches (${mismatches.length})</h2>
${mismatches.length === 0 ? '<p>None.</p>' : `<ul class="mm">\n${mismatches.join('\n')}\n</ul>`}
</body></html>
`;
}

/**
 * The inline SVG line chart of a report: x = epoch, y = u16 weight / 65535, one polyline per miner (a
 * miner absent from an epoch's vector counts 0 there), with a legend for up to 32 miners.
 *
 * @param report - the report
 * @returns SVG markup (and the legend), or a note when there is nothing to chart
 * @example renderChart(buildReport(audits)).startsWith('<svg') // true
 */
export function renderChart(report: AuditReport): string {
  const points = new Map<string, { label: string; values: Map<number, number> }>();
  for (const a of report.bundles) {
    if (a.epoch === null || a.weights === null) continue;
    for (const w of a.weights) {
      const key = w.hotkey ?? `uid ${w.uid}`;
      const series = points.get(key) ?? { label: `uid ${w.uid}${w.hotkey === null ? '' : ` ${w.hotkey.slice(0, 8)}…`}`, values: new Map<number, number>() };
      series.values.set(a.epoch, w.weight / 65535);
      points.set(key, series);
    }
  }
  const epochs = report.summary.epochs;
  if (points.size === 0 || epochs.length === 0) return '<p>No weights to chart.</p>';
  const width = 900;
  const height = 360;
  const left = 50;
  const bottom = 30;
  const first = epochs[0] ?? 0;
  const last = epochs[epochs.length - 1] ?? first;
  let max = 0;
  for (const s of points.values()) for (const v of s.values.values()) max = Math.max(max, v);
  const yMax = max > 0 ? max : 1;
  const x = (e: number) => left + (last === first ? (width - left - 10) / 2 : ((e - first) / (last - first)) * (width - left - 10));
  const y = (v: number) => height - bottom - (v / yMax) * (height - bottom - 10);
  const keys = [...points.keys()].sort();
  const lines = keys.map((key, i) => {
    const s = points.get(key);
    if (s === undefined) return '';
    const pts = epochs.map((e) => `${x(e).toFixed(1)},${y(s.values.get(e) ?? 0).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${colour(i)}" stroke-width="1.5" points="${pts}"><title>${escapeHtml(s.label)}</title></polyline>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) => `<line x1="${left}" x2="${width - 10}" y1="${y(f * yMax).toFixed(1)}" y2="${y(f * yMax).toFixed(1)}" stroke="#eee"/><text x="4" y="${(y(f * yMax) + 4).toFixed(1)}">${(f * yMax * 100).toFixed(1)}%</text>`,
  );
  const labels = [first, last].map((e) => `<text x="${x(e).toFixed(1)}" y="${height - 8}" text-anchor="middle">epoch ${e}</text>`);
  const legend = keys.length <= 32 ? `<p>${keys.map((k, i) => `<span style="color:${colour(i)}">■ ${escapeHtml(points.get(k)?.label ?? k)}</span>`).join(' ')}</p>` : `<p>${keys.length} miners (hover a line for its uid).</p>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="weight per miner over the epochs">
${ticks.join('\n')}
${lines.join('\n')}
${labels.join('\n')}
</svg>
${legend}`;
}
