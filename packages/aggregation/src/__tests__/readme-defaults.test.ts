import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { pipelineConfigSchema } from '../index.js';

/**
 * The README's "Defaults (SPEC C)" table is what a user configures against: each row's value must be what
 * `pipelineConfigSchema` fills in for an absent field.
 */
const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const camel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The table's rows, field -> the value cell's text. */
function defaultsTable(): Map<string, string> {
  const section = /^## Defaults \(SPEC C\)\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  return new Map([...section.matchAll(/^\| `([a-z0-9_]+)` \| (.+) \|$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

/** A cell as a value: its leading number, its first backticked literal, or its `key` value pairs. */
function cellValue(cell: string): unknown {
  const number = /^([0-9]+(?:\.[0-9]+)?)\b/.exec(cell);
  if (number !== null) return Number(number[1]);
  const pairs = [...cell.matchAll(/`([a-z0-9_]+)` ([^,]+?)(?:,|$)/g)];
  if (pairs.length > 1)
    return Object.fromEntries(pairs.map(([, key = '', value = '']) => [camel(key), /^[0-9.]+$/.test(value.trim()) ? Number(value) : value.trim()]));
  const literal = /^`([^`]+)`/.exec(cell)?.[1] ?? '';
  if (literal.startsWith('{')) return JSON.parse(literal.replace(/'/g, '"').replace(/([{,]\s*)([a-z_]+):/g, '$1"$2":')) as unknown;
  return literal;
}

describe('README: Defaults (SPEC C)', () => {
  it('each row is the value pipelineConfigSchema fills in for an absent field', () => {
    const rows = defaultsTable();
    expect([...rows.keys()]).toEqual(['min_validators', 'min_stake_fraction', 'outlier', 'normalisation', 'weight_cap', 'burn_uid', 'decay', 'u16_mode']);
    const parsed = pipelineConfigSchema.parse({}) as unknown as Record<string, unknown>;
    const stated = Object.fromEntries([...rows].map(([field, cell]) => [camel(field), cellValue(cell)]));
    expect(stated).toEqual(parsed);
  });

  it('the zscore threshold the outlier row names is the default for method zscore', () => {
    const zscore = /`zscore` defaults to ([0-9.]+)/.exec(defaultsTable().get('outlier') ?? '')?.[1];
    expect(zscore).toBeDefined();
    expect(pipelineConfigSchema.parse({ outlier: { method: 'zscore' } }).outlier.threshold).toBe(Number(zscore));
  });
});
