import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

import { example, jsonOf, requireBuiltCli, runCli, scratchFile } from './cli-support.js';

beforeAll(requireBuiltCli);

const self = example('sssa', 'sssa.json');
const peers = example('sssa', 'peers.json');
const BLOCK = `0x${'ab'.repeat(32)}`;

describe('miner-check sssa on the seed B worked example (this miner = P1)', () => {
  it('reproduces the seed components and the exact sum 0.957', () => {
    const run = runCli(['sssa', '--sssa', self, '--peers', peers, '--json']);
    expect(run.code).toBe(0);
    const out = jsonOf(run);
    expect(Object.keys(out).sort()).toEqual(['canonical_keys', 'components', 'consensus', 'group']);
    // Seed B, P1: recall 3/3, precision 3/3, verdict 1, capabilities 5/6, risk 0.92, dependencies 1, policy 0.80
    const expected = 0.3 * 1 + 0.15 * 1 + 0.15 * 1 + 0.15 * (5 / 6) + 0.1 * 0.92 + 0.1 * 1 + 0.05 * 0.8;
    expect(out.consensus).toBeCloseTo(expected, 12);
    expect(out.consensus).toBeCloseTo(0.957, 12);
    const c = out.components as Record<string, number>;
    expect(Object.keys(c).sort()).toEqual([
      'capabilities_agreement',
      'dependencies_agreement',
      'findings_precision',
      'findings_recall',
      'policy_agreement',
      'risk_agreement',
      'verdict_agreement',
    ]);
    expect(c.findings_recall).toBe(1);
    expect(c.findings_precision).toBe(1);
    expect(c.verdict_agreement).toBe(1);
    expect(c.capabilities_agreement).toBeCloseTo(5 / 6, 12);
    expect(c.risk_agreement).toBeCloseTo(0.92, 12);
    expect(c.dependencies_agreement).toBe(1);
    expect(c.policy_agreement).toBeCloseTo(0.8, 12);
    const group = out.group as Record<string, unknown>;
    expect(group.n).toBe(5);
    expect(group.majority).toBe(3);
    expect(group.verdict).toBe('BLOCK');
    expect(group.finding_keys).toHaveLength(3);
  });

  it('prints each finding canonical key with the text it hashes', () => {
    const out = jsonOf(runCli(['sssa', '--sssa', self, '--json']));
    const keys = out.canonical_keys as { id: string; key: string; preimage: string }[];
    expect(keys.map((k) => k.id)).toEqual(['p1-f1', 'p1-f2', 'p1-f3']);
    // The span id p1-span-02 is dropped, `:3` becomes #L3-L3, the CVE id is uppercased.
    expect(keys[1]!.preimage).toBe('dependency_cve|high|requirements.txt#L3-L3|CVE-2018-18074|requests==2.19.1');
    for (const k of keys) expect(k.key).toMatch(/^[0-9a-f]{64}$/);
    // Without peers there is no group: consensus, components and group are null.
    expect(out.consensus).toBeNull();
    expect(out.components).toBeNull();
    expect(out.group).toBeNull();
  });

  it('with fewer than 3 SSSAs in all, consensus stays null (neutral factor)', () => {
    const onePeer = scratchFile('peers.json', JSON.stringify((JSON.parse(readFileSync(peers, 'utf8')) as unknown[]).slice(0, 1)));
    const run = runCli(['sssa', '--sssa', self, '--peers', onePeer]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/consensus is computed only for 3 or more/);
  });

  it('shows the verification group draw, the same on every run', () => {
    const args = [
      'sssa',
      '--sssa',
      self,
      '--block-hash',
      BLOCK,
      '--task-id',
      'task-mcp-filebox-0001',
      '--candidates',
      example('sssa', 'candidates.json'),
      '--json',
    ];
    const first = jsonOf(runCli(args));
    const second = jsonOf(runCli(args));
    expect(first.verification_group).toEqual(second.verification_group);
    const group = first.verification_group as { primaries: { reputation: number }[]; auditors: unknown[]; excluded: { reason: string }[] };
    // top-3 by reputation among the eligible (0.91, 0.84, 0.77), then 2 auditors drawn from the rest
    expect(group.primaries.map((p) => p.reputation)).toEqual([0.91, 0.84, 0.77]);
    expect(group.auditors).toHaveLength(2);
    // reputation 0.12 is below the default 0.2 minimum
    expect(group.excluded.map((e) => e.reason)).toEqual(['reputation_below_minimum']);
  });
});

describe('miner-check sssa on broken input', () => {
  it('an unknown verdict: exit 2 naming sssa.verdict', () => {
    const doc = JSON.parse(readFileSync(self, 'utf8')) as { sssa: Record<string, unknown> };
    doc.sssa.verdict = 'MAYBE';
    const run = runCli(['sssa', '--sssa', scratchFile('sssa.json', JSON.stringify(doc)), '--json']);
    expect(run.code).toBe(2);
    const error = jsonOf(run).error as Record<string, unknown>;
    expect(error.code).toBe('CONSENSUS_INVALID_SSSA');
    expect(error.path).toBe('sssa.verdict');
  });

  it('a risk score outside [0, 1]: exit 2 naming the field', () => {
    const doc = JSON.parse(readFileSync(self, 'utf8')) as { sssa: Record<string, unknown> };
    doc.sssa.risk_score = 1.5;
    const run = runCli(['sssa', '--sssa', scratchFile('sssa.json', JSON.stringify(doc))]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^miner-check: \[CONSENSUS_INVALID_SSSA\] .* at sssa\.risk_score \(got 1\.5\)\n$/);
  });

  it('a draw with only some of its flags: exit 2', () => {
    const run = runCli(['sssa', '--sssa', self, '--block-hash', BLOCK]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('MINER_CHECK_INVALID_ARGUMENT');
  });

  it('an unknown role: exit 2 (usage)', () => {
    expect(runCli(['sssa', '--sssa', self, '--role', 'boss']).code).toBe(2);
  });
});
