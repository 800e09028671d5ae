import { compareCodePoints, isSubnetError } from '@subnet/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { canonicalFindingKey, computeConsensus, CONSENSUS_WEIGHTS, findingKeyPreimage, parseSssa, sssaSchema } from '../index.js';
import type { ConsensusMemberInput, ConsensusResult, Sssa } from '../index.js';

import { finding, hotkey, members, sssa } from './helpers.js';

/** Small universes with spelling variants, so that members agree, majorities form and keys coincide. */
const FINDINGS = [
  finding('tool_poison', 'tools/a.py#L1-L4'),
  finding(' Tool_Poison ', 's9:./tools//a.py:1-4', { severity: ' HIGH ' }),
  finding('tool_poison', 'tools/a.py#L5'),
  finding('prompt_injection', 'manifest.json', { severity: 'critical' }),
  finding('dependency_cve', 'requirements.txt:3', { cve_ids: ['CVE-2', 'cve-1', 'CVE-1'] }),
  finding('dependency_cve', 'requirements.txt#L3', { cve_ids: ['CVE-1', ' CVE-2'] }),
  finding('ssrf', 'tools/fetch.py#L9', { severity: 'medium' }),
];
const CAPABILITIES = ['fs.read', ' FS.Read ', 'fs.write', 'net.http', 'tool:a'];
const DEPENDENCIES = [
  { package: 'requests', version: '2.19.1', cves: ['CVE-2018-18074'] },
  { package: ' Requests ', version: '2.19.1 ', cves: ['cve-2018-18074 '] },
  { package: 'requests', version: '2.19.1', cves: [] },
  { package: 'pyyaml', version: '5.3.1', cves: ['CVE-2020-14343', 'CVE-2020-1747'] },
];
const RULES = [
  { resource: 'fs', action: 'read', pattern: '*' },
  { resource: 'FS', action: ' Read', pattern: '* ' },
  { resource: 'net', action: 'allow', pattern: 'example.com' },
  { resource: 'proc', action: 'deny', pattern: '*' },
];

const pick = <T>(list: readonly T[]) => fc.array(fc.constantFrom(...list), { maxLength: list.length + 1 });
const docArb = fc
  .record({
    findings: pick(FINDINGS),
    capabilities: pick(CAPABILITIES),
    dependencies: pick(DEPENDENCIES),
    rules: pick(RULES),
    verdict: fc.constantFrom('ALLOW', 'BLOCK', 'REVIEW'),
    risk: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((d) =>
    sssa({
      verdict: d.verdict,
      risk_score: d.risk,
      findings: d.findings,
      capabilities: d.capabilities,
      dependencies: d.dependencies,
      policy: { rules: d.rules },
    }),
  );
/** Documents plus, per member, whether it is handed over parsed (fast path) or raw. */
const groupArb = fc.array(fc.tuple(docArb, fc.boolean()), { minLength: 0, maxLength: 8 });

const rawGroup = (docs: readonly Record<string, unknown>[]): ConsensusMemberInput[] =>
  docs.map((doc, i) => ({ uid: (i * 7919) % 101, hotkey: hotkey(i + 1), role: i % 2 === 0 ? 'primary' : 'auditor', sssa: doc }));

function isDeeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeeplyFrozen);
}

/** SPEC 0 text rules written out: trim U+0009-U+000D and U+0020 only, fold A-Z / a-z only. */
const trim = (s: string) => s.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
const lower = (s: string) => trim(s).replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
const upper = (s: string) => trim(s).replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));

/** The result without the explanation sentences (the reference computes numbers and sets). */
function withoutSentences(result: ConsensusResult): unknown {
  return { ...result, members: result.members.map(({ explanation: _explanation, ...rest }) => rest) };
}

/**
 * The slow, obviously correct reference: SPEC section B written out with Sets and JSON tuple keys,
 * sharing nothing with the implementation but the schema, `canonicalFindingKey` and `findingKeyPreimage`.
 */
function reference(group: readonly ConsensusMemberInput[]): unknown {
  const preimages = new Map<string, string>();
  const ms = group
    .map((m) => {
      const doc: Sssa = sssaSchema.parse(m.sssa);
      for (const f of doc.findings) preimages.set(canonicalFindingKey(f), findingKeyPreimage(f));
      const deps = doc.dependencies.map((d) => [lower(d.package), trim(d.version)]);
      return {
        uid: m.uid,
        hotkey: m.hotkey,
        role: m.role,
        verdict: doc.verdict,
        risk: doc.risk_score,
        keys: new Set(doc.findings.map((f) => canonicalFindingKey(f))),
        caps: new Set(doc.capabilities.map((c) => lower(c))),
        deps: new Set(deps.map((d) => JSON.stringify(d))),
        cves: new Set(doc.dependencies.flatMap((d, i) => d.cves.map((c) => JSON.stringify([...deps[i]!, upper(c)])))),
        rules: new Set(doc.policy.rules.map((r) => JSON.stringify([lower(r.resource), lower(r.action), trim(r.pattern)]))),
      };
    })
    .sort((a, b) => a.uid - b.uid);
  const n = ms.length;
  const sortedKeys = (s: Set<string>) => [...s].sort();
  if (n < 3)
    return {
      taskId: 't',
      taskType: null,
      n,
      group: null,
      members: ms.map((m) => ({ uid: m.uid, hotkey: m.hotkey, role: m.role, consensus: null, components: null, keys: sortedKeys(m.keys) })),
    };
  const majority = Math.floor(n / 2) + 1;
  const maj = (sets: Set<string>[]) => new Set([...new Set(sets.flatMap((s) => [...s]))].filter((x) => sets.filter((s) => s.has(x)).length >= majority));
  const G = {
    keys: maj(ms.map((m) => m.keys)),
    caps: maj(ms.map((m) => m.caps)),
    deps: maj(ms.map((m) => m.deps)),
    cves: new Set<string>(),
    rules: maj(ms.map((m) => m.rules)),
  };
  for (const c of maj(ms.map((m) => m.cves))) if (G.deps.has(JSON.stringify((JSON.parse(c) as string[]).slice(0, 2)))) G.cves.add(c);
  const inter = (a: Set<string>, b: Set<string>) => [...a].filter((x) => b.has(x)).length;
  const cover = (a: Set<string>, b: Set<string>) => (b.size === 0 ? 1 : inter(a, b) / b.size);
  const jac = (a: Set<string>, b: Set<string>) => (a.size + b.size - inter(a, b) === 0 ? 1 : inter(a, b) / (a.size + b.size - inter(a, b)));
  const counts = { ALLOW: 0, BLOCK: 0, REVIEW: 0 };
  let riskSum = 0;
  for (const m of ms) counts[m.verdict] += 1;
  // SPEC B v1.1: summed in hotkey order.
  for (const m of [...ms].sort((a, b) => compareCodePoints(a.hotkey, b.hotkey))) riskSum += m.risk;
  const top = Math.max(counts.ALLOW, counts.BLOCK, counts.REVIEW);
  const leaders = (['ALLOW', 'BLOCK', 'REVIEW'] as const).filter((v) => counts[v] === top);
  const verdict = leaders.length === 1 ? leaders[0]! : 'REVIEW';
  const riskMean = riskSum / n;
  const tuples = (s: Set<string>) =>
    [...s].map((x) => JSON.parse(x) as string[]).sort((a, b) => a.reduce((c, _, i) => c || compareCodePoints(a[i]!, b[i]!), 0));
  const W = CONSENSUS_WEIGHTS;
  return {
    taskId: 't',
    taskType: null,
    n,
    group: {
      n,
      majority,
      findingKeys: sortedKeys(G.keys),
      findings: sortedKeys(G.keys).map((key) => ({ key, preimage: preimages.get(key) })),
      verdict,
      verdictCounts: counts,
      capabilities: [...G.caps].sort(compareCodePoints),
      riskMean,
      dependencies: tuples(G.deps).map(([p, v]) => ({ package: p, version: v })),
      cves: tuples(G.cves).map(([p, v, c]) => ({ package: p, version: v, cve: c })),
      policyRules: tuples(G.rules).map(([r, a, p]) => ({ resource: r, action: a, pattern: p })),
    },
    members: ms.map((m) => {
      const recall = G.keys.size === 0 ? 1 : inter(m.keys, G.keys) / G.keys.size;
      const precision = m.keys.size === 0 ? (G.keys.size === 0 ? 1 : 0) : inter(m.keys, G.keys) / m.keys.size;
      const verdictAgreement = m.verdict === verdict ? 1 : m.verdict === 'REVIEW' ? 0.5 : 0;
      const caps = jac(m.caps, G.caps);
      const risk = Math.max(0, 1 - Math.abs(m.risk - riskMean));
      const deps = 0.5 * cover(m.deps, G.deps) + 0.5 * cover(m.cves, G.cves);
      const policy = jac(m.rules, G.rules);
      const sum =
        W.findingsRecall * recall +
        W.findingsPrecision * precision +
        W.verdictAgreement * verdictAgreement +
        W.capabilitiesAgreement * caps +
        W.riskAgreement * risk +
        W.dependenciesAgreement * deps +
        W.policyAgreement * policy;
      return {
        uid: m.uid,
        hotkey: m.hotkey,
        role: m.role,
        consensus: Math.min(1, Math.max(0, sum)),
        components: {
          findingsRecall: recall,
          findingsPrecision: precision,
          verdictAgreement,
          capabilitiesAgreement: caps,
          riskAgreement: risk,
          dependenciesAgreement: deps,
          policyAgreement: policy,
        },
        keys: sortedKeys(m.keys),
      };
    }),
  };
}

function errorOf(fn: () => unknown): { code: string; path: unknown } {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path };
    throw error;
  }
  throw new Error('expected a throw');
}

describe('validated fast path: documents returned by parseSssa are not validated again', () => {
  it('parsed documents (any mix) give a result deep-equal, bit for bit, to raw documents and to the slow reference; both deeply frozen', () => {
    fc.assert(
      fc.property(groupArb, (entries) => {
        const raw = rawGroup(entries.map(([doc]) => doc));
        const mixed = raw.map((m, i) => (entries[i]![1] ? { ...m, sssa: parseSssa(m.sssa) } : m));
        const fromRaw: ConsensusResult = computeConsensus({ taskId: 't', members: raw });
        const fromParsed = computeConsensus({ taskId: 't', members: mixed });
        // toEqual compares numbers with Object.is: equal to the last bit.
        expect(fromParsed).toEqual(fromRaw);
        expect(withoutSentences(fromRaw)).toEqual(reference(raw));
        // Scoring a parsed group a second time (cached sets) changes nothing.
        expect(computeConsensus({ taskId: 't', members: mixed })).toEqual(fromRaw);
        expect(isDeeplyFrozen(fromRaw)).toBe(true);
        expect(isDeeplyFrozen(fromParsed)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('the 5 x 20 benchmark group gives the same result parsed or raw, and the reference result', async () => {
    const { makeGroup } = await import('../__benchmarks__/make-group.js');
    const raw = makeGroup(5, 20, 3);
    const parsed = raw.map((m) => ({ ...m, sssa: parseSssa(m.sssa) }));
    const expected = reference(raw);
    expect(withoutSentences(computeConsensus({ taskId: 't', members: raw }))).toEqual(expected);
    expect(withoutSentences(computeConsensus({ taskId: 't', members: parsed }))).toEqual(expected);
  });

  it('parseSssa returns a frozen document (every schema-built object and array) and gives back a document it returned as is', () => {
    const vendor = { anything: [1, 2] };
    const doc = parseSssa({
      ...sssa({
        findings: [finding('c', 'a.py', { cve_ids: ['CVE-1'] })],
        dependencies: [{ package: 'p', version: '1', cves: ['CVE-1'] }],
        policy: { rules: [{ resource: 'fs', action: 'read', pattern: '*' }] },
      }),
      skill: { name: 's' },
      x_vendor: vendor,
    });
    for (const part of [
      doc,
      doc.findings,
      doc.findings[0],
      doc.findings[0]?.cve_ids,
      doc.capabilities,
      doc.dependencies,
      doc.dependencies[0],
      doc.dependencies[0]?.cves,
      doc.policy,
      doc.policy.rules,
      doc.policy.rules[0],
      doc.skill,
    ]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(() => {
      (doc as { risk_score: number }).risk_score = 2;
    }).toThrow(TypeError);
    expect(parseSssa(doc)).toBe(doc);
    // The values of unknown fields are the caller's: kept as given, not frozen.
    expect(doc.x_vendor).toBe(vendor);
    expect(Object.isFrozen(vendor)).toBe(false);
  });

  it.each([
    ['a spread copy', (doc: Sssa) => ({ ...doc, risk_score: 1.5 }), 'members[1].sssa.risk_score'],
    ['a structuredClone copy', (doc: Sssa) => Object.assign(structuredClone(doc), { verdict: 'allow' }), 'members[1].sssa.verdict'],
    [
      'a JSON copy with a nested change',
      (doc: Sssa) => {
        const copy = JSON.parse(JSON.stringify(doc)) as { findings: { severity: string }[] };
        copy.findings[0]!.severity = 'urgent';
        return copy;
      },
      'members[1].sssa.findings[0].severity',
    ],
  ])('a mutated copy of a parsed document is validated again: %s', (_, mutate, path) => {
    const group = members([sssa(), sssa({ findings: [finding('c', 'a.py')] }), sssa()]);
    const parsed = parseSssa(group[1]!.sssa);
    expect(computeConsensus({ taskId: 't', members: group.map((m, i) => (i === 1 ? { ...m, sssa: parsed } : m)) }).n).toBe(3);
    group[1] = { ...group[1]!, sssa: mutate(parsed) };
    expect(errorOf(() => computeConsensus({ taskId: 't', members: group }))).toEqual({ code: 'CONSENSUS_INVALID_SSSA', path });
  });

  it('a valid changed copy of a parsed document is scored as changed (no cached sets leak to the copy)', () => {
    const docs = [sssa({ verdict: 'BLOCK' }), sssa({ verdict: 'BLOCK' }), sssa({ verdict: 'BLOCK', capabilities: ['fs.read'] })];
    const parsed = docs.map((doc) => parseSssa(doc));
    const group = members(parsed);
    expect(computeConsensus({ taskId: 't', members: group }).members[2]?.components?.capabilitiesAgreement).toBe(0);
    group[2] = { ...group[2]!, sssa: { ...parsed[2]!, capabilities: [] } };
    expect(computeConsensus({ taskId: 't', members: group }).members[2]?.components?.capabilitiesAgreement).toBe(1);
  });

  it('the group shell is still validated for parsed documents (CONSENSUS_INVALID_GROUP naming the field)', () => {
    const group = members([sssa(), sssa(), sssa()]).map((m) => ({ ...m, sssa: parseSssa(m.sssa) }));
    group[2] = { ...group[2]!, hotkey: group[0]!.hotkey };
    expect(errorOf(() => computeConsensus({ taskId: 't', members: group }))).toEqual({ code: 'CONSENSUS_INVALID_GROUP', path: 'members[2].hotkey' });
  });
});
