import { describe, expect, it } from 'vitest';

import { computeConsensus } from '../index.js';
import type { ConsensusComponents, ConsensusMemberInput, MemberConsensus } from '../index.js';

import example from './fixtures/worked-example.json' with { type: 'json' };

/**
 * Seed B's worked example, rebuilt from five real SSSA documents (fixtures/worked-example.json). The
 * expected values are the seed's (and, for P2, P3, A1 which the seed does not print, worked by hand in the
 * README). Decimal literals such as 0.92 have no exact binary form, and 1 - |0.72 - 0.8| is
 * 0.9199999999999999 in doubles, so component and sum checks use toBeCloseTo with 12 digits: tight
 * enough to tell 0.957 from any other two-decimal-rounding of the seed, loose enough for one ulp.
 */
const DIGITS = 12;

/** The three canonical keys of the seed's table; sha256 computed outside this code (python3 hashlib). */
const TOOL_POISON_GETFILE = 'e51566bbeccd430e931e2e5ff6882f25c92d8456e35813ca9250e48083182408';
const DEPENDENCY_CVE_REQUESTS = 'd34111404bd94ed7200d410db4b19bb0c8ae42473d781f7eac323756231a2144';
const PROMPT_INJECTION_MANIFEST = '15f82c59be47d388cd77849d16691168741f687752d9edd98ae5a7c67987cbdc';

const result = computeConsensus({ taskId: example.task_id, members: example.members as ConsensusMemberInput[] });
const uidOf = (name: string): number => {
  const member = example.members.find((m) => m.name === name);
  if (member === undefined) throw new Error(name);
  return member.uid;
};
const memberNamed = (name: string): MemberConsensus => {
  const member = result.members.find((m) => m.uid === uidOf(name));
  if (member === undefined) throw new Error(name);
  return member;
};

function expectComponents(name: string, expected: ConsensusComponents): void {
  const { components } = memberNamed(name);
  expect(components).not.toBeNull();
  for (const [component, value] of Object.entries(expected) as [keyof ConsensusComponents, number][]) {
    expect(components?.[component], `${name}.${component}`).toBeCloseTo(value, DIGITS);
  }
}

describe('seed B worked example', () => {
  it('group consensus set = the three findings each reported by at least 3 of 5', () => {
    expect(result.group?.majority).toBe(3);
    expect(result.group?.findingKeys).toEqual([TOOL_POISON_GETFILE, DEPENDENCY_CVE_REQUESTS, PROMPT_INJECTION_MANIFEST].sort());
  });

  it('per-member keys match the seed table (Y/N per canonical key)', () => {
    const table: Record<string, [boolean, boolean, boolean]> = {
      P1: [true, true, true],
      P2: [true, true, false],
      P3: [true, true, true],
      A1: [true, true, false],
      A2: [true, false, true],
    };
    for (const [name, [tool, dep, prompt]] of Object.entries(table)) {
      const { keys } = memberNamed(name);
      expect(keys.includes(TOOL_POISON_GETFILE), `${name} tool_poison`).toBe(tool);
      expect(keys.includes(DEPENDENCY_CVE_REQUESTS), `${name} dependency_cve`).toBe(dep);
      expect(keys.includes(PROMPT_INJECTION_MANIFEST), `${name} prompt_injection`).toBe(prompt);
    }
  });

  it('P1: recall 3/3, precision 3/3, verdict 1, capabilities 5/6, risk 0.92, dependencies 1.0, policy 0.80', () => {
    expectComponents('P1', {
      findingsRecall: 1,
      findingsPrecision: 1,
      verdictAgreement: 1,
      capabilitiesAgreement: 5 / 6,
      riskAgreement: 0.92,
      dependenciesAgreement: 1,
      policyAgreement: 0.8,
    });
  });

  it('A2: recall 2/3, precision 2/2, verdict 1, capabilities 5/6, risk 0.85, dependencies 0.50, policy 0.50', () => {
    expectComponents('A2', {
      findingsRecall: 2 / 3,
      findingsPrecision: 1,
      verdictAgreement: 1,
      capabilitiesAgreement: 5 / 6,
      riskAgreement: 0.85,
      dependenciesAgreement: 0.5,
      policyAgreement: 0.5,
    });
  });

  it('exact sums: P1 = 0.957, A2 = 0.785 (SPEC B: 0.83 in the seed is 5/6)', () => {
    expect(memberNamed('P1').consensus).toBeCloseTo(0.957, DIGITS);
    expect(memberNamed('A2').consensus).toBeCloseTo(0.785, DIGITS);
  });

  it('the seed prints 0.95 and 0.78: the exact sums cut to two decimals', () => {
    const cut = (x: number | null) => Math.floor((x ?? Number.NaN) * 100) / 100;
    expect(cut(memberNamed('P1').consensus)).toBe(0.95);
    expect(cut(memberNamed('A2').consensus)).toBe(0.78);
  });

  it('the members the seed does not print (values worked by hand in the README)', () => {
    expectComponents('P2', {
      findingsRecall: 2 / 3,
      findingsPrecision: 1,
      verdictAgreement: 1,
      capabilitiesAgreement: 1,
      riskAgreement: 0.98,
      dependenciesAgreement: 1,
      policyAgreement: 1,
    });
    expectComponents('P3', {
      findingsRecall: 1,
      findingsPrecision: 1,
      verdictAgreement: 1,
      capabilitiesAgreement: 1,
      riskAgreement: 0.95,
      dependenciesAgreement: 1,
      policyAgreement: 1,
    });
    expectComponents('A1', {
      findingsRecall: 2 / 3,
      findingsPrecision: 2 / 3,
      verdictAgreement: 0.5,
      capabilitiesAgreement: 1,
      riskAgreement: 1,
      dependenciesAgreement: 1,
      policyAgreement: 1,
    });
    expect(memberNamed('P2').consensus).toBeCloseTo(0.898, DIGITS);
    expect(memberNamed('P3').consensus).toBeCloseTo(0.995, DIGITS);
    expect(memberNamed('A1').consensus).toBeCloseTo(0.775, DIGITS);
  });

  it('group sets of the example', () => {
    expect(result.group).toMatchObject({
      n: 5,
      verdict: 'BLOCK',
      verdictCounts: { ALLOW: 0, BLOCK: 4, REVIEW: 1 },
      capabilities: ['fs.read', 'fs.write', 'net.http', 'tool:getfile', 'tool:listdir', 'tool:search'],
      dependencies: [
        { package: 'pyyaml', version: '5.3.1' },
        { package: 'requests', version: '2.19.1' },
      ],
      cves: [{ package: 'requests', version: '2.19.1', cve: 'CVE-2018-18074' }],
      policyRules: [
        { resource: 'filesystem', action: 'deny', pattern: '~/.ssh/**' },
        { resource: 'filesystem', action: 'read', pattern: './workspace/**' },
        { resource: 'network', action: 'allow', pattern: 'api.example.com' },
        { resource: 'process', action: 'deny', pattern: '*' },
      ],
    });
    expect(result.group?.riskMean).toBeCloseTo(0.8, DIGITS);
  });
});
