import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { useKeys, useService } from './helpers.js';

/**
 * The Grafana dashboard in the repository (grafana/validator-dashboard.json) must only chart metrics a
 * running validator serves: every PromQL expression's metric names are checked against GET /metrics.
 */

const dashboardPath = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'grafana', 'validator-dashboard.json');

interface Panel {
  readonly title?: string;
  readonly type: string;
  readonly targets?: readonly { readonly expr: string }[];
  readonly panels?: readonly Panel[];
}

/** PromQL words that are not metric names: aggregations, functions (followed by `(`), keywords. */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'and', 'or', 'unless']);

/**
 * The metric names an expression reads: identifiers not followed by `(` (functions) once strings, label
 * matchers `{...}`, grouping clauses `by (...)`, range selectors `[...]` and Grafana variables are removed.
 */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names: string[] = [];
  for (const m of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const after = stripped.slice(m.index + m[0].length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(m[0])) continue;
    names.push(m[0]);
  }
  return names;
}

/** Sample names /metrics serves: each `# TYPE` family, with `_bucket`, `_sum` and `_count` for histograms. */
function servedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = m as unknown as [string, string, string];
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

function panelsOf(list: readonly Panel[]): Panel[] {
  return list.flatMap((p) => [p, ...panelsOf(p.panels ?? [])]);
}

const validator = useService(useKeys());

describe('Grafana dashboard (issue 17, item 8)', () => {
  it('the PromQL name extraction reads metric names, not functions, labels, keywords or variables (worked examples)', () => {
    expect(metricNames('histogram_quantile(0.95, sum by (le, outcome) (rate(a_bucket{job=~"$job", x="y{z}"}[$__rate_interval])))')).toEqual(['a_bucket']);
    expect(metricNames('sum(rate(a_total[5m])) / sum(rate(b_count[5m])) and on (instance) c')).toEqual(['a_total', 'b_count', 'c']);
  });

  it('has panels for records by reason, epoch close duration, submissions by outcome, lease holder and takeovers, and reveal confirmations', () => {
    const dashboard = JSON.parse(readFileSync(dashboardPath, 'utf8')) as { panels: Panel[] };
    const exprs = panelsOf(dashboard.panels).flatMap((p) => (p.targets ?? []).map((target) => target.expr));
    const used = new Set(exprs.flatMap(metricNames));
    for (const name of [
      'validator_records_rejected_total',
      'validator_epoch_duration_seconds_bucket',
      'validator_submissions_total',
      'validator_lease_holder',
      'validator_lease_takeovers_total',
      'validator_reveal_confirmations_total',
    ])
      expect(used, name).toContain(name);
    expect(exprs.some((e) => /by \([^)]*reason/.test(e) && e.includes('validator_records_rejected_total'))).toBe(true);
    expect(exprs.some((e) => /by \([^)]*outcome/.test(e) && e.includes('validator_submissions_total'))).toBe(true);
  });

  it('every metric an expression reads is served by GET /metrics of a running validator', async () => {
    const dashboard = JSON.parse(readFileSync(dashboardPath, 'utf8')) as { panels: Panel[] };
    const response = await fetch(`${validator.url}/metrics`);
    expect(response.status).toBe(200);
    const served = servedNames(await response.text());
    expect(served.size).toBeGreaterThan(5);
    const unknown: string[] = [];
    for (const panel of panelsOf(dashboard.panels)) {
      for (const target of panel.targets ?? []) {
        for (const name of metricNames(target.expr)) if (!served.has(name)) unknown.push(`${panel.title ?? '?'}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
