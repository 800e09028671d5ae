import type { BundleAudit, Mismatch } from './audit-bundle.js';

/**
 * Exit codes of `auditor-replay verify`: 0 all match, 1 any mismatch, 2 invalid input (wins over 1).
 *
 * @example if (report.exit_code === EXIT_CODES.mismatch) alert()
 */
export const EXIT_CODES = Object.freeze({ ok: 0, mismatch: 1, invalid: 2 });

/** The whole verification report (`--json` prints exactly this object). */
export interface AuditReport {
  readonly report_version: 1;
  /** 0 every bundle matched; 1 at least one mismatch; 2 at least one invalid bundle (takes precedence). */
  readonly exit_code: 0 | 1 | 2;
  readonly summary: {
    readonly bundles: number;
    readonly ok: number;
    readonly mismatched: number;
    readonly invalid: number;
    readonly mismatches: number;
    readonly epochs: readonly number[];
  };
  readonly bundles: readonly BundleAudit[];
}

/**
 * Assembles the report of a verification run and its exit code: 2 when any bundle is invalid input
 * (unreadable, malformed JSON, schema-invalid, or inputs the pipeline rejects), else 1 when any value
 * differs, else 0.
 *
 * @param audits - one audit per bundle, in the order they were given
 * @returns the frozen report
 * @example buildReport([audit]).exit_code // 0
 */
export function buildReport(audits: readonly BundleAudit[]): AuditReport {
  const invalid = audits.filter((a) => a.status === 'invalid').length;
  const mismatched = audits.filter((a) => a.status === 'mismatch').length;
  const epochs = [...new Set(audits.flatMap((a) => (a.epoch === null ? [] : [a.epoch])))].sort((a, b) => a - b);
  return Object.freeze({
    report_version: 1,
    exit_code: invalid > 0 ? EXIT_CODES.invalid : mismatched > 0 ? EXIT_CODES.mismatch : EXIT_CODES.ok,
    summary: Object.freeze({
      bundles: audits.length,
      ok: audits.filter((a) => a.status === 'ok').length,
      mismatched,
      invalid,
      mismatches: audits.reduce((n, a) => n + a.mismatches.length, 0),
      epochs: Object.freeze(epochs),
    }),
    bundles: Object.freeze([...audits]),
  });
}

/**
 * A value as JSON, shortened for a one-line report (full values are in `--json` and `--report`).
 *
 * @param value - any JSON value (`undefined` prints `(absent)`)
 * @param max - the longest output, default 120 characters
 * @returns the text
 * @example shortValue([1, 2]) // '[1,2]'
 */
export function shortValue(value: unknown, max = 120): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * One mismatch as one line: epoch, stage, miner, field, what differs, expected, claimed and the exact path.
 *
 * @param m - the mismatch
 * @returns the line
 * @example formatMismatch(m) // 'epoch 2 stage u16.weights miner 5F… (uid 4): differs; expected 9012, claimed 9019 [bundle.result.u16.weights[1]]'
 */
export function formatMismatch(m: Mismatch): string {
  const miner = m.miner === null ? '' : ` miner ${m.miner.hotkey ?? '?'}${m.miner.uid === null ? '' : ` (uid ${m.miner.uid})`}`;
  const field = m.field === '' ? '' : ` field ${m.field}`;
  const what = m.kind === 'missing' ? 'missing in the bundle' : m.kind === 'extra' ? 'not produced by the recomputation' : 'differs';
  return `epoch ${m.epoch ?? '?'} stage ${m.stage}${miner}${field}: ${what}; expected ${shortValue(m.expected)}, claimed ${shortValue(m.claimed)} [${m.path}]`;
}

/**
 * Pads a table of strings into aligned columns under a header and a rule.
 *
 * @param header - the column titles
 * @param rows - the cells, row by row
 * @returns the table text
 * @example formatTable(['epoch', 'status'], [['1', 'ok']])
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * The human-readable report: each bad bundle with its mismatches (at most `maxPerBundle` lines each, the
 * rest counted), then the summary table (one row per bundle) and the totals.
 *
 * @param report - the report
 * @param maxPerBundle - mismatch lines printed per bundle (default 20)
 * @returns text for stdout
 * @example console.log(formatReport(buildReport(audits)))
 */
export function formatReport(report: AuditReport, maxPerBundle = 20): string {
  const lines: string[] = [];
  for (const a of report.bundles) {
    if (a.status === 'ok') continue;
    if (a.status === 'invalid') {
      lines.push(`INVALID ${a.source}: [${a.error?.code ?? '?'}] ${a.error?.message ?? ''}`);
    } else {
      lines.push(`MISMATCH ${a.source} (epoch ${a.epoch ?? '?'}, ${a.mismatches.length} value(s)):`);
    }
    for (const m of a.mismatches.slice(0, maxPerBundle)) lines.push(`  ${formatMismatch(m)}`);
    if (a.mismatches.length > maxPerBundle) lines.push(`  … and ${a.mismatches.length - maxPerBundle} more (see --json or --report)`);
  }
  if (lines.length > 0) lines.push('');
  const yes = (v: boolean | null) => (v === null ? '-' : v ? 'ok' : 'FAIL');
  lines.push(
    formatTable(
      ['epoch', 'status', 'digest', 'signature', 'recompute', 'chain', 'mismatches', 'miners', 'source'],
      report.bundles.map((a) => [
        a.epoch === null ? '?' : String(a.epoch),
        a.status,
        yes(a.checks.digest),
        yes(a.checks.signature),
        yes(a.checks.recompute),
        yes(a.checks.chain),
        String(a.mismatches.length),
        a.weights === null ? '-' : String(a.weights.filter((w) => w.weight > 0).length),
        a.source,
      ]),
    ),
  );
  const s = report.summary;
  lines.push('');
  lines.push(`${s.bundles} bundle(s): ${s.ok} ok, ${s.mismatched} with mismatches (${s.mismatches} value(s)), ${s.invalid} invalid; exit ${report.exit_code}`);
  return lines.join('\n');
}
