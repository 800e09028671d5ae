import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { computeConsensus } from '../index.js';
import type { ConsensusMemberInput } from '../index.js';

import { finding, hotkey, sssa } from './helpers.js';

/** Small universes, so that members often agree and majorities form. */
const FINDINGS = [
  finding('tool_poison', 'tools/a.py#L1-L4'),
  finding('tool_poison', 'tools/a.py#L5'),
  finding('prompt_injection', 'manifest.json', { severity: 'critical' }),
  finding('dependency_cve', 'requirements.txt:3', { cve_ids: ['CVE-1', 'CVE-2'] }),
  finding('ssrf', 'tools/fetch.py#L9', { severity: 'medium' }),
];
const CAPABILITIES = ['fs.read', 'fs.write', 'net.http', 'tool:a'];
const DEPENDENCIES = [
  { package: 'requests', version: '2.19.1', cves: ['CVE-2018-18074'] },
  { package: 'requests', version: '2.19.1', cves: [] },
  { package: 'pyyaml', version: '5.3.1', cves: [] },
];
const RULES = [
  { resource: 'fs', action: 'read', pattern: '*' },
  { resource: 'net', action: 'allow', pattern: 'example.com' },
  { resource: 'proc', action: 'deny', pattern: '*' },
];

interface Doc {
  findings: number[];
  capabilities: string[];
  dependencies: number[];
  rules: number[];
  verdict: 'ALLOW' | 'BLOCK' | 'REVIEW';
  risk: number;
}

const indexes = (n: number) => fc.subarray(Array.from({ length: n }, (_, i) => i));
const docArb: fc.Arbitrary<Doc> = fc.record({
  findings: indexes(FINDINGS.length),
  capabilities: fc.subarray(CAPABILITIES),
  dependencies: indexes(DEPENDENCIES.length),
  rules: indexes(RULES.length),
  verdict: fc.constantFrom('ALLOW' as const, 'BLOCK' as const, 'REVIEW' as const),
  risk: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** Renders a doc; `variant` changes ids, descriptions and span prefixes (never the keys). */
function render(doc: Doc, variant: number): Record<string, unknown> {
  return sssa({
    verdict: doc.verdict,
    risk_score: doc.risk,
    findings: doc.findings.map((i) => {
      const f = FINDINGS[i]!;
      return { ...f, id: `v${variant}-${i}`, description: `variant ${variant}`, evidence_ref: `span-${variant}-${i}:${f.evidence_ref}` };
    }),
    capabilities: doc.capabilities,
    dependencies: doc.dependencies.map((i) => DEPENDENCIES[i]!),
    policy: { rules: doc.rules.map((i) => RULES[i]!) },
  });
}

const groupOf = (docs: readonly Doc[]): ConsensusMemberInput[] =>
  docs.map((doc, i) => ({ uid: 100 + i, hotkey: hotkey(i + 1), role: i < 3 ? 'primary' : 'auditor', sssa: render(doc, i) }));

const groupArb = fc.array(docArb, { minLength: 3, maxLength: 7 });

describe('consensus properties', () => {
  it('consensus is in [0, 1] and every component is in [0, 1]', () => {
    fc.assert(
      fc.property(groupArb, (docs) => {
        for (const member of computeConsensus({ taskId: 't', members: groupOf(docs) }).members) {
          expect(member.consensus).toBeGreaterThanOrEqual(0);
          expect(member.consensus).toBeLessThanOrEqual(1);
          for (const value of Object.values(member.components ?? {})) {
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(1);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is invariant to member order (bit for bit)', () => {
    fc.assert(
      fc.property(
        groupArb.chain((docs) => fc.tuple(fc.constant(docs), fc.shuffledSubarray(groupOf(docs), { minLength: docs.length }))),
        ([docs, shuffled]) => {
          expect(computeConsensus({ taskId: 't', members: shuffled })).toEqual(computeConsensus({ taskId: 't', members: groupOf(docs) }));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('is invariant to the order of findings (and of every other list) inside each SSSA', () => {
    fc.assert(
      fc.property(groupArb, fc.integer(), (docs, seed) => {
        // Rotate each list by a seed-dependent amount: a different order, the same sets.
        const rotate = <T>(list: T[], by: number): T[] => (list.length === 0 ? list : [...list.slice(by % list.length), ...list.slice(0, by % list.length)]);
        const reordered = docs.map((doc, i) => ({
          ...doc,
          findings: rotate([...doc.findings].reverse(), Math.abs(seed) + i),
          capabilities: rotate(doc.capabilities, Math.abs(seed) + 2 * i),
          dependencies: rotate([...doc.dependencies].reverse(), i),
          rules: rotate(doc.rules, Math.abs(seed)),
        }));
        expect(computeConsensus({ taskId: 't', members: groupOf(reordered) })).toEqual(computeConsensus({ taskId: 't', members: groupOf(docs) }));
      }),
      { numRuns: 100 },
    );
  });

  it('a member whose sets equal the group sets gets 1.0 on every set component', () => {
    fc.assert(
      fc.property(docArb, fc.array(docArb, { minLength: 1, maxLength: 3 }), (core, others) => {
        // others.length + 1 of the 2·others.length + 1 members (a strict majority) report exactly `core`'s
        // sets (each in its own spelling of ids and spans), so the group sets are exactly core's sets.
        const docs = [...Array.from({ length: others.length + 1 }, () => core), ...others];
        const result = computeConsensus({ taskId: 't', members: groupOf(docs) });
        const coreMember = result.members[0]!;
        expect(coreMember.keys).toEqual(result.group?.findingKeys);
        expect(coreMember.components).toMatchObject({
          findingsRecall: 1,
          findingsPrecision: 1,
          capabilitiesAgreement: 1,
          dependenciesAgreement: 1,
          policyAgreement: 1,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('adding a spurious finding never raises precision (and never changes the group set)', () => {
    fc.assert(
      fc.property(groupArb, fc.nat(), (docs, pick) => {
        const group = groupOf(docs);
        const who = pick % group.length;
        const before = computeConsensus({ taskId: 't', members: group });
        const target = group[who]!;
        const doc = target.sssa as { findings: unknown[] };
        const spurious = finding('spurious', `only-${who}.py#L1`);
        const after = computeConsensus({
          taskId: 't',
          members: group.map((m, i) => (i === who ? { ...target, sssa: { ...doc, findings: [...doc.findings, spurious] } } : m)),
        });
        expect(after.group?.findingKeys).toEqual(before.group?.findingKeys);
        const uid = target.uid;
        const precisionBefore = before.members.find((m) => m.uid === uid)?.components?.findingsPrecision;
        const precisionAfter = after.members.find((m) => m.uid === uid)?.components?.findingsPrecision;
        expect(precisionAfter).toBeLessThanOrEqual(precisionBefore!);
      }),
      { numRuns: 150 },
    );
  });
});
