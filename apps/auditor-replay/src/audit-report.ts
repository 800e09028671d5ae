import type { BundleAudit, Mismatch } from './audit-bundle.js';
import { isCommitCall } from './commit-call.js';
import { revealLines } from './reveal-audit.js';
import type { Equivocation } from './equivocation.js';
import { findEquivocations } from './equivocation.js';
import type { ValidatorCount } from './validator-hotkey.js';
import { shortHotkeys, validatorCounts } from './validator-hotkey.js';

/**
 * Exit codes of `auditor-replay verify`: 0 all match, 1 any mismatch, 2 invalid input (wins over 1).
 *
 * @example if (report.exit_code === EXIT_CODES.mismatch) alert()
 */
export const EXIT_CODES = Object.freeze({ ok: 0, mismatch: 1, invalid: 2 });

/** The whole verification report (`--json` prints exactly this object). */
export interface AuditReport {
  readonly report_version: 1;
  /** 0 every bundle matched; 1 at least one mismatch or equivocation; 2 at least one invalid bundle (takes precedence). */
  readonly exit_code: 0 | 1 | 2;
  readonly summary: {
    readonly bundles: number;
    readonly ok: number;
    readonly mismatched: number;
    readonly invalid: number;
    readonly mismatches: number;
    readonly equivocations: number;
    readonly epochs: readonly number[];
    /** The bundles of each validator hotkey they name, by outcome, ordered by hotkey. */
    readonly validators: readonly ValidatorCount[];
  };
  /** The validator audited (`--validator-hotkey`): a bundle of another is invalid (`AUDITOR_WRONG_VALIDATOR`); null when not given. */
  readonly expected_validator_hotkey: string | null;
  readonly bundles: readonly BundleAudit[];
  /** Different validly signed bundles of one validator for one (netuid, epoch) among the bundles given (SPEC E). */
  readonly equivocations: readonly Equivocation[];
}

/**
 * Assembles the report of a verification run and its exit code: 2 when any bundle is invalid input
 * (unreadable, malformed JSON, schema-invalid, inputs the pipeline rejects, a chain that cannot be read),
 * else 1 when any value differs or a validator equivocated ({@link findEquivocations}), else 0.
 *
 * @param audits - one audit per bundle, in the order they were given
 * @param options - `validatorHotkey`: the validator audited (`--validator-hotkey`), recorded in the report (the
 *   audits are failed by `otherValidator` before they come here)
 * @returns the frozen report
 * @example buildReport([audit]).exit_code // 0
 */
export function buildReport(audits: readonly BundleAudit[], options: { readonly validatorHotkey?: string } = {}): AuditReport {
  const invalid = audits.filter((a) => a.status === 'invalid').length;
  const mismatched = audits.filter((a) => a.status === 'mismatch').length;
  const epochs = [...new Set(audits.flatMap((a) => (a.epoch === null ? [] : [a.epoch])))].sort((a, b) => a - b);
  const equivocations = findEquivocations(audits);
  return Object.freeze({
    report_version: 1,
    exit_code: invalid > 0 ? EXIT_CODES.invalid : mismatched > 0 || equivocations.length > 0 ? EXIT_CODES.mismatch : EXIT_CODES.ok,
    summary: Object.freeze({
      bundles: audits.length,
      ok: audits.filter((a) => a.status === 'ok').length,
      mismatched,
      invalid,
      mismatches: audits.reduce((n, a) => n + a.mismatches.length, 0),
      equivocations: equivocations.length,
      epochs: Object.freeze(epochs),
      validators: validatorCounts(audits),
    }),
    expected_validator_hotkey: options.validatorHotkey ?? null,
    bundles: Object.freeze([...audits]),
    equivocations,
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
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** How a check's verdict prints: `ok`, `FAIL`, or `-` when it was not run. */
export function verdict(value: boolean | null): string {
  return value === null ? '-' : value ? 'ok' : 'FAIL';
}

/**
 * One line with the verdict of each check of a bundle, in the order they run.
 *
 * @param a - the bundle's audit
 * @returns e.g. `schema ok, digest FAIL, signature ok, recompute FAIL, chain -`
 * @example formatChecks(audit)
 */
export function formatChecks(a: BundleAudit): string {
  const c = a.checks;
  return `schema ${verdict(c.schema)}, digest ${verdict(c.digest)}, signature ${verdict(c.signature)}, recompute ${verdict(c.recompute)}, chain ${verdict(c.chain)}`;
}

/**
 * How a bundle's weights went to the chain, in words: submitted in which block, or why nothing is on chain
 * to compare (a dry run, a failure, an epoch closed too late (`missed`), an interrupted submission the chain
 * never included (`not_landed`)), with the bundle's error code.
 *
 * @param a - the bundle's audit
 * @returns e.g. `missed: closed too late to submit, nothing sent [VALIDATOR_EPOCH_MISSED]`
 * @example describeSubmission(audit)
 */
export function describeSubmission(a: BundleAudit): string {
  const s = a.submission;
  if (s === null) return 'submission unknown (the bundle did not parse)';
  const code = s.code === null ? '' : ` [${s.code}]`;
  switch (s.status) {
    case 'submitted':
      return isCommitCall(s.call)
        ? `committed in block ${a.submission_block ?? '?'} (${s.call ?? ''}): the weights reach the chain at the reveal${a.reveal?.chain?.block == null ? ', so the chain check does not compare them after the commit block' : `; followed to block ${a.reveal.chain.block}`}`
        : `submitted in block ${a.submission_block ?? '?'}`;
    case 'dry_run':
      return 'dry run: computed, not submitted';
    case 'missed':
      return `missed: closed too late to submit, nothing sent${code}`;
    case 'not_landed':
      return `not landed: an interrupted submission the chain never included, not resubmitted${code}`;
    default:
      return `not submitted (${s.status})${code}`;
  }
}

/** The submission cell of the summary table: the status, with the block when submitted. */
function submissionCell(a: BundleAudit): string {
  if (a.submission === null) return '-';
  return a.submission.status === 'submitted' && a.submission_block !== null ? `submitted@${a.submission_block}` : a.submission.status;
}

/**
 * The value mismatches of a bundle after its root cause: every recomputed or chain value that differs,
 * without the digest and signature checks (shown as verdicts) and without the root cause's own value.
 *
 * @param a - the bundle's audit
 * @returns the downstream mismatches in pipeline order
 * @example downstreamMismatches(audit).length // 'N downstream values'
 */
export function downstreamMismatches(a: BundleAudit): readonly Mismatch[] {
  const root = a.root_cause?.mismatch;
  return a.mismatches.filter((m) => m.stage !== 'digest' && m.stage !== 'signature' && !(root !== undefined && m.path === root.path && m.stage === root.stage));
}

/**
 * The human-readable report. For each bundle that is not ok: the verdict of each check (schema, digest,
 * signature, recomputation, chain), the digest and signature failures, then the root cause first (the
 * earliest value the recomputation does not reproduce and the configuration value or input record behind
 * it), then "N downstream values follow" and at most `maxPerBundle` of them (all with `Infinity`). Then
 * every equivocation, the summary table (one row per bundle) and the totals.
 *
 * @param report - the report
 * @param maxPerBundle - downstream lines printed per bundle (default 20; `Infinity` for `--all`)
 * @returns text for stdout
 * @example console.log(formatReport(buildReport(audits)))
 */
export function formatReport(report: AuditReport, maxPerBundle = 20): string {
  const lines: string[] = [];
  for (const a of report.bundles) {
    if (a.status === 'ok') continue;
    if (a.status === 'invalid') {
      // A SubnetError's message already starts with its `[CODE]`: print the code once.
      const code = `[${a.error?.code ?? '?'}]`;
      const message = a.error?.message ?? '';
      lines.push(`INVALID ${a.source}${a.epoch === null ? '' : ` (epoch ${a.epoch})`}: ${message.startsWith(code) ? message : `${code} ${message}`}`);
    } else {
      lines.push(`MISMATCH ${a.source} (epoch ${a.epoch ?? '?'}, validator ${a.validator_hotkey ?? '?'})`);
    }
    lines.push(`  checks: ${formatChecks(a)}`);
    for (const m of a.mismatches) {
      if (m.stage === 'digest') lines.push(`  digest: the document claims ${shortValue(m.claimed)}, the bundle's sha256 is ${shortValue(m.expected)}`);
      if (m.stage === 'signature') lines.push(`  signature: ${shortValue(m.claimed, 40)} is not ${shortValue(m.expected)}`);
    }
    if (a.root_cause !== null) {
      lines.push(`  root cause: ${a.root_cause.sentence}`);
      lines.push(`    first differing value: ${formatMismatch(a.root_cause.mismatch)}`);
    }
    const downstream = downstreamMismatches(a);
    if (downstream.length > 0) {
      const shown = Math.min(downstream.length, maxPerBundle);
      const label = a.root_cause === null ? 'value(s) differ' : 'downstream value(s) follow';
      lines.push(`  ${downstream.length} ${label}${shown < downstream.length ? ` (showing ${shown}; --all or --json for every one)` : ''}:`);
      for (const m of downstream.slice(0, shown)) lines.push(`    ${formatMismatch(m)}`);
    }
  }
  for (const e of report.equivocations) {
    lines.push(`EQUIVOCATION validator ${e.validator_hotkey} netuid ${e.netuid} epoch ${e.epoch}: ${e.bundles.length} different signed bundles`);
    for (const b of e.bundles) lines.push(`  digest ${b.digest}: ${b.sources.join(', ')}`);
  }
  // Commit-reveal v4: the reveal each bundle's attestation states, and what the chain shows (reveal-audit.ts).
  lines.push(...revealLines(report.bundles));
  // A chain check the chain can no longer answer, with why (not a failure: `chain -`).
  for (const a of report.bundles)
    if (a.chain_unknown !== undefined) lines.push(`CHAIN UNKNOWN epoch ${a.epoch ?? '?'} ${a.source}: [${a.chain_unknown.code}] ${a.chain_unknown.message}`);
  if (lines.length > 0) lines.push('');
  const short = shortHotkeys(report.summary.validators.map((v) => v.validator_hotkey));
  lines.push(
    formatTable(
      ['epoch', 'status', 'submission', 'schema', 'digest', 'signature', 'recompute', 'chain', 'mismatches', 'miners', 'validator', 'source'],
      report.bundles.map((a) => [
        a.epoch === null ? '?' : String(a.epoch),
        a.status,
        submissionCell(a),
        verdict(a.checks.schema),
        verdict(a.checks.digest),
        verdict(a.checks.signature),
        verdict(a.checks.recompute),
        verdict(a.checks.chain),
        String(a.mismatches.length),
        a.weights === null ? '-' : String(a.weights.filter((w) => w.weight > 0).length),
        a.validator_hotkey === null ? '-' : (short.get(a.validator_hotkey) ?? a.validator_hotkey),
        a.source,
      ]),
    ),
  );
  const s = report.summary;
  lines.push('');
  lines.push(...validatorLines(report, short));
  lines.push(
    `${s.bundles} bundle(s): ${s.ok} ok, ${s.mismatched} with mismatches (${s.mismatches} value(s)), ${s.invalid} invalid, ${s.equivocations} equivocation(s); exit ${report.exit_code}`,
  );
  return lines.join('\n');
}

/**
 * The lines naming whose bundles the report holds: per validator hotkey its short form in the table, the full
 * hotkey and its counts, marked against `--validator-hotkey` when given; a note when bundles of several validators
 * were verified without it, or when none is of the validator asked for.
 *
 * @param report - the report
 * @param short - hotkey -> its short form in the table (`shortHotkeys`)
 * @returns the lines
 * @example validatorLines(report, shortHotkeys(['5Grw…'])) // ['validator 5Grwva…utQY = 5Grw…: 2 bundle(s), 2 ok, ...']
 */
export function validatorLines(report: AuditReport, short: ReadonlyMap<string, string>): string[] {
  const expected = report.expected_validator_hotkey;
  const lines = report.summary.validators.map(
    (v) => `validator ${short.get(v.validator_hotkey) ?? v.validator_hotkey} = ${v.validator_hotkey}: ${validatorCountText(v, expected)}`,
  );
  if (expected === null && report.summary.validators.length > 1)
    lines.push(`bundles of ${report.summary.validators.length} validators: pass --validator-hotkey to fail those of any validator but the one audited`);
  if (expected !== null && !report.summary.validators.some((v) => v.validator_hotkey === expected))
    lines.push(`no bundle of validator ${expected} (--validator-hotkey)`);
  return lines;
}

/**
 * One validator's counts in words, marked against the validator audited.
 *
 * @param v - the validator's counts
 * @param expected - the validator audited (`--validator-hotkey`), or null
 * @returns e.g. `2 bundle(s), 2 ok, 0 with mismatches, 0 invalid (--validator-hotkey)`
 * @example validatorCountText(report.summary.validators[0], null)
 */
export function validatorCountText(v: ValidatorCount, expected: string | null): string {
  const mark = expected === null ? '' : v.validator_hotkey === expected ? ' (--validator-hotkey)' : ' (not --validator-hotkey)';
  return `${v.bundles} bundle(s), ${v.ok} ok, ${v.mismatched} with mismatches, ${v.invalid} invalid${mark}`;
}
