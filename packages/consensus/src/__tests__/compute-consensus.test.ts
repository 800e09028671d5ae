import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { canonicalFindingKey, computeConsensus } from '../index.js';
import type { ConsensusMemberInput, ConsensusResult } from '../index.js';

import { finding, hotkey, members, sssa } from './helpers.js';

const run = (docs: Record<string, unknown>[]): ConsensusResult => computeConsensus({ taskId: 't', members: members(docs) });
const caps = (...list: string[]) => sssa({ capabilities: list });
const byUid = (result: ConsensusResult, uid: number) => {
  const member = result.members.find((m) => m.uid === uid);
  if (member === undefined) throw new Error(`uid ${uid}`);
  return member;
};

function errorOf(fn: () => unknown): { code: string; path: unknown } {
  try {
    fn();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, path: error.context.path };
    throw error;
  }
  throw new Error('expected a throw');
}

describe('group size (SPEC B: consensus only when n >= 3)', () => {
  it.each([0, 1, 2])('n = %i: group, components and consensus are null; keys are still given', (n) => {
    const docs = Array.from({ length: n }, () => sssa({ findings: [finding('c', 'a.py')] }));
    const result = run(docs);
    expect(result.n).toBe(n);
    expect(result.group).toBeNull();
    expect(result.members).toHaveLength(n);
    for (const member of result.members) {
      expect(member.consensus).toBeNull();
      expect(member.components).toBeNull();
      expect(member.keys).toEqual([canonicalFindingKey(finding('c', 'a.py'))]);
    }
  });

  it('n = 3: consensus is a number', () => {
    const result = run([sssa(), sssa(), sssa()]);
    expect(result.members.map((m) => m.consensus)).toEqual([1, 1, 1]);
  });
});

describe('majority: strictly more than n/2 (SPEC B)', () => {
  it.each([
    [3, 2],
    [4, 3],
    [5, 3],
  ])('n = %i: an item needs %i reports', (n, needed) => {
    const reported = Array.from({ length: n }, (_, i) => (i < needed ? caps('x', 'y') : caps('y')));
    const justShort = Array.from({ length: n }, (_, i) => (i < needed - 1 ? caps('x', 'y') : caps('y')));
    expect(run(reported).group?.capabilities).toEqual(['x', 'y']);
    expect(run(justShort).group?.capabilities).toEqual(['y']);
    expect(run(reported).group?.majority).toBe(needed);
  });

  it('n = 4: two of four is not a majority', () => {
    const result = run([caps('x'), caps('x'), caps(), caps()]);
    expect(result.group?.capabilities).toEqual([]);
  });

  it('each member counts an item once, however often it lists it', () => {
    const f = finding('c', 'a.py#L1');
    const sameTwice = finding('c', 's9:a.py:1', { id: 'other' });
    const result = run([sssa({ findings: [f, sameTwice, f] }), sssa(), sssa()]);
    expect(result.group?.findingKeys).toEqual([]);
    expect(byUid(result, 1).keys).toEqual([canonicalFindingKey(f)]);
    expect(byUid(result, 1).components?.findingsPrecision).toBe(0);
  });
});

describe('findings recall and precision (SPEC B)', () => {
  const g1 = finding('c', 'a.py#L1');
  const g2 = finding('c', 'a.py#L2');
  const extra = finding('c', 'a.py#L3');

  it('recall = |M ∩ G| / |G| and precision = |M ∩ G| / |M|', () => {
    const result = run([sssa({ findings: [g1, extra] }), sssa({ findings: [g1, g2] }), sssa({ findings: [g1, g2] })]);
    const c = byUid(result, 1).components;
    expect(c?.findingsRecall).toBe(1 / 2);
    expect(c?.findingsPrecision).toBe(1 / 2);
  });

  it('recall is 1.0 when G is empty', () => {
    const result = run([sssa({ findings: [g1] }), sssa({ findings: [g2] }), sssa()]);
    expect(result.group?.findingKeys).toEqual([]);
    expect(byUid(result, 1).components?.findingsRecall).toBe(1);
    expect(byUid(result, 3).components?.findingsRecall).toBe(1);
  });

  it('precision of an empty M is 1.0 when G is empty', () => {
    const result = run([sssa(), sssa(), sssa({ findings: [g1] })]);
    expect(byUid(result, 1).components?.findingsPrecision).toBe(1);
    expect(byUid(result, 3).components?.findingsPrecision).toBe(0);
  });

  it('precision of an empty M is 0.0 when G is not empty', () => {
    const result = run([sssa(), sssa({ findings: [g1] }), sssa({ findings: [g1] })]);
    expect(byUid(result, 1).components?.findingsPrecision).toBe(0);
    expect(byUid(result, 1).components?.findingsRecall).toBe(0);
  });
});

describe('verdict (SPEC B)', () => {
  const verdicts = (...list: string[]) => run(list.map((verdict) => sssa({ verdict })));

  it('group verdict = the most frequent verdict', () => {
    expect(verdicts('ALLOW', 'ALLOW', 'BLOCK').group?.verdict).toBe('ALLOW');
    expect(verdicts('BLOCK', 'REVIEW', 'BLOCK', 'ALLOW').group?.verdict).toBe('BLOCK');
  });

  it('a tie for most frequent gives REVIEW', () => {
    expect(verdicts('ALLOW', 'BLOCK', 'REVIEW').group?.verdict).toBe('REVIEW');
    expect(verdicts('ALLOW', 'ALLOW', 'BLOCK', 'BLOCK').group?.verdict).toBe('REVIEW');
    expect(verdicts('ALLOW', 'ALLOW', 'BLOCK', 'BLOCK', 'REVIEW').group?.verdict).toBe('REVIEW');
  });

  it('agreement: equal -> 1.0, member said REVIEW -> 0.5, else 0.0', () => {
    const result = verdicts('BLOCK', 'BLOCK', 'BLOCK', 'REVIEW', 'ALLOW');
    expect(result.members.map((m) => m.components?.verdictAgreement)).toEqual([1, 1, 1, 0.5, 0]);
  });

  it('a REVIEW group verdict (from a tie) gives 1.0 to REVIEW and 0.0 to the others', () => {
    const result = verdicts('ALLOW', 'ALLOW', 'BLOCK', 'BLOCK', 'REVIEW');
    expect(result.members.map((m) => m.components?.verdictAgreement)).toEqual([0, 0, 0, 0, 1]);
  });
});

describe('capabilities (SPEC B)', () => {
  it('strings are trimmed and lowercased; Jaccard |M ∩ G| / |M ∪ G|', () => {
    const result = run([caps(' FS.Read ', 'x', 'y'), caps('fs.read', 'net'), caps('fs.read', 'net')]);
    expect(result.group?.capabilities).toEqual(['fs.read', 'net']);
    expect(byUid(result, 1).components?.capabilitiesAgreement).toBe(1 / 4);
  });

  it('1.0 when both sets are empty', () => {
    expect(run([caps(), caps(), caps('x')]).members.map((m) => m.components?.capabilitiesAgreement)).toEqual([1, 1, 0]);
  });
});

describe('risk (SPEC B)', () => {
  it('the mean includes the member itself; agreement = max(0, 1 - |risk - mean|)', () => {
    const result = run([sssa({ risk_score: 0 }), sssa({ risk_score: 0 }), sssa({ risk_score: 0.9 })]);
    expect(result.group?.riskMean).toBeCloseTo(0.3, 15);
    expect(byUid(result, 1).components?.riskAgreement).toBeCloseTo(0.7, 15);
    expect(byUid(result, 3).components?.riskAgreement).toBeCloseTo(0.4, 15);
  });

  it('the seed example: 0.8 against a mean of 0.5 gives 0.7', () => {
    const result = run([sssa({ risk_score: 0.8 }), sssa({ risk_score: 0.35 }), sssa({ risk_score: 0.35 })]);
    expect(result.group?.riskMean).toBeCloseTo(0.5, 15);
    expect(byUid(result, 1).components?.riskAgreement).toBeCloseTo(0.7, 15);
  });

  it('SPEC B v1.1: the risk mean is summed in hotkey order, then divided by n (input and uid order change nothing)', () => {
    // Risks whose float sum depends on the order: (0.1 + 0.2) + 0.3 != (0.3 + 0.2) + 0.1.
    const group = [0.1, 0.2, 0.3].map((risk_score, i) => ({ uid: 10 - i, hotkey: hotkey(i + 1), role: 'primary' as const, sssa: sssa({ risk_score }) }));
    const byHotkey = [...group].sort((a, b) => (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0));
    let sum = 0;
    for (const m of byHotkey) sum += (m.sssa as { risk_score: number }).risk_score;
    const byUid = [...group].sort((a, b) => a.uid - b.uid);
    let uidSum = 0;
    for (const m of byUid) uidSum += (m.sssa as { risk_score: number }).risk_score;
    expect(sum).not.toBe(uidSum); // the two orders give different doubles here, so the rule is observable
    const forward = computeConsensus({ taskId: 't', members: group });
    const backward = computeConsensus({ taskId: 't', members: [...group].reverse() });
    expect(forward.group?.riskMean).toBe(sum / 3);
    expect(backward.group?.riskMean).toBe(sum / 3);
  });
});

describe('dependencies (SPEC B)', () => {
  const dep = (pkg: string, version: string, cves: string[] = []) => ({ package: pkg, version, cves });
  const deps = (...list: ReturnType<typeof dep>[]) => sssa({ dependencies: list });

  it('SPEC B v1.1: dependency CVE ids are trimmed (and uppercased): dep key = (package trimmed lowercase, version trimmed)', () => {
    const result = run([
      deps(dep(' Requests ', ' 2.19.1 ', ['cve-2018-18074'])),
      deps(dep('requests', '2.19.1', ['CVE-2018-18074'])),
      deps(dep('requests', '2.19.1', [' CVE-2018-18074 '])),
    ]);
    expect(result.group?.dependencies).toEqual([{ package: 'requests', version: '2.19.1' }]);
    expect(result.group?.cves).toEqual([{ package: 'requests', version: '2.19.1', cve: 'CVE-2018-18074' }]);
    expect(result.members.map((m) => m.components?.dependenciesAgreement)).toEqual([1, 1, 1]);
  });

  it('version is not lowercased: "1.0.0-RC1" and "1.0.0-rc1" are different dependencies', () => {
    const result = run([deps(dep('p', '1.0.0-RC1')), deps(dep('p', '1.0.0-RC1')), deps(dep('p', '1.0.0-rc1'))]);
    expect(result.group?.dependencies).toEqual([{ package: 'p', version: '1.0.0-RC1' }]);
    expect(byUid(result, 3).components?.dependenciesAgreement).toBe(0.5 * 0 + 0.5 * 1);
  });

  it('agreement = 0.5·deps_match + 0.5·cves_match', () => {
    const full = deps(dep('a', '1', ['CVE-1', 'CVE-2']), dep('b', '1'));
    const result = run([full, full, deps(dep('a', '1', ['CVE-1']))]);
    expect(byUid(result, 3).components?.dependenciesAgreement).toBe(0.5 * (1 / 2) + 0.5 * (1 / 2));
  });

  it('G_cves = majority CVE keys whose dependency is in G_deps; a minority dependency brings none', () => {
    // A CVE key is only ever reported with its dependency, so its dependency has at least as many reports:
    // a CVE on a dependency that 2 of 4 members list is never in G_cves, and costs the others nothing.
    const result = run([
      deps(dep('a', '1'), dep('z', '9', ['CVE-9'])),
      deps(dep('a', '1'), dep('z', '9', ['CVE-9'])),
      deps(dep('a', '1')),
      deps(dep('a', '1')),
    ]);
    expect(result.group?.dependencies).toEqual([{ package: 'a', version: '1' }]);
    expect(result.group?.cves).toEqual([]);
    expect(result.members.map((m) => m.components?.dependenciesAgreement)).toEqual([1, 1, 1, 1]);
  });

  it('deps_match is 1.0 when G_deps is empty and cves_match is 1.0 when G_cves is empty', () => {
    const result = run([deps(dep('a', '1', ['CVE-1'])), deps(dep('b', '1', ['CVE-2'])), deps()]);
    expect(result.group?.dependencies).toEqual([]);
    expect(result.members.map((m) => m.components?.dependenciesAgreement)).toEqual([1, 1, 1]);
  });
});

describe('policy (SPEC B)', () => {
  const rule = (resource: string, action: string, pattern: string) => ({ resource, action, pattern });
  const rules = (...list: ReturnType<typeof rule>[]) => sssa({ policy: { rules: list } });

  it('rule key = (resource trimmed lowercase, action trimmed lowercase, pattern trimmed); Jaccard', () => {
    const result = run([
      rules(rule(' FileSystem ', ' READ ', ' ./w/** '), rule('net', 'allow', 'x')),
      rules(rule('filesystem', 'read', './w/**')),
      rules(rule('filesystem', 'read', './w/**')),
    ]);
    expect(result.group?.policyRules).toEqual([rule('filesystem', 'read', './w/**')]);
    expect(byUid(result, 1).components?.policyAgreement).toBe(1 / 2);
  });

  it('pattern keeps its case: "*.PY" and "*.py" are different rules', () => {
    const result = run([rules(rule('fs', 'read', '*.PY')), rules(rule('fs', 'read', '*.py')), rules(rule('fs', 'read', '*.py'))]);
    expect(result.group?.policyRules).toEqual([rule('fs', 'read', '*.py')]);
    expect(byUid(result, 1).components?.policyAgreement).toBe(0);
  });

  it('1.0 when both sets are empty', () => {
    expect(run([rules(), rules(), rules(rule('a', 'b', 'c'))]).members.map((m) => m.components?.policyAgreement)).toEqual([1, 1, 0]);
  });
});

describe('consensus sum', () => {
  it('is the seven-term weighted sum, left to right', () => {
    const g = finding('c', 'a.py#L1');
    const result = run([
      sssa({ findings: [g, finding('c', 'b.py')], verdict: 'REVIEW', risk_score: 1, capabilities: ['x'] }),
      sssa({ findings: [g], verdict: 'BLOCK', risk_score: 0, capabilities: ['y'] }),
      sssa({ findings: [g], verdict: 'BLOCK', risk_score: 0.5, capabilities: ['y'] }),
    ]);
    const member = byUid(result, 1);
    const c = member.components;
    expect(c).toEqual({
      findingsRecall: 1,
      findingsPrecision: 0.5,
      verdictAgreement: 0.5,
      capabilitiesAgreement: 0,
      riskAgreement: 0.5,
      dependenciesAgreement: 1,
      policyAgreement: 1,
    });
    expect(member.consensus).toBe(0.3 * 1 + 0.15 * 0.5 + 0.15 * 0.5 + 0.15 * 0 + 0.1 * 0.5 + 0.1 * 1 + 0.05 * 1);
  });

  it('is clamped to 1 when all seven components are 1 (the weights sum to 1 up to rounding)', () => {
    const result = run([sssa(), sssa(), sssa()]);
    for (const member of result.members) expect(member.consensus).toBe(1);
  });
});

describe('result shape', () => {
  it('members are sorted by uid whatever the input order; group sets are sorted', () => {
    const docs = members([caps('b', 'a'), caps('a', 'b'), caps('b', 'a')]);
    const result = computeConsensus({ taskId: 't', members: [docs[2]!, docs[0]!, docs[1]!] });
    expect(result.members.map((m) => m.uid)).toEqual([1, 2, 3]);
    expect(result.group?.capabilities).toEqual(['a', 'b']);
  });

  it('is deeply frozen', () => {
    const result = run([caps('a'), caps('a'), sssa({ findings: [finding('c', 'a.py')] })]);
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.group)).toBe(true);
    expect(Object.isFrozen(result.group?.capabilities)).toBe(true);
    expect(Object.isFrozen(result.members[2])).toBe(true);
    expect(Object.isFrozen(result.members[2]?.components)).toBe(true);
    expect(Object.isFrozen(result.members[2]?.keys)).toBe(true);
  });

  it('echoes uid, hotkey, role and taskId', () => {
    const result = computeConsensus({ taskId: 'task-9', members: members([sssa(), sssa(), sssa(), sssa()]) });
    expect(result.taskId).toBe('task-9');
    expect(result.members[3]).toMatchObject({ uid: 4, hotkey: hotkey(4), role: 'auditor' });
  });
});

describe('invalid groups', () => {
  const three = (): ConsensusMemberInput[] => members([sssa(), sssa(), sssa()]);

  it('a duplicate uid is CONSENSUS_INVALID_GROUP naming members[i].uid', () => {
    const group = three();
    group[2] = { ...group[2]!, uid: 1 };
    expect(errorOf(() => computeConsensus({ taskId: 't', members: group }))).toEqual({
      code: 'CONSENSUS_INVALID_GROUP',
      path: 'members[2].uid',
    });
  });

  it('a duplicate hotkey is CONSENSUS_INVALID_GROUP naming members[i].hotkey', () => {
    const group = three();
    group[1] = { ...group[1]!, hotkey: hotkey(1) };
    expect(errorOf(() => computeConsensus({ taskId: 't', members: group }))).toEqual({
      code: 'CONSENSUS_INVALID_GROUP',
      path: 'members[1].hotkey',
    });
  });

  it.each([
    ['members[0].uid', (g: ConsensusMemberInput[]) => ({ ...g[0]!, uid: 70000 })],
    ['members[0].hotkey', (g: ConsensusMemberInput[]) => ({ ...g[0]!, hotkey: '5notavalidss58' })],
    ['members[0].role', (g: ConsensusMemberInput[]) => ({ ...g[0]!, role: 'validator' as never })],
  ])('a bad member field is CONSENSUS_INVALID_GROUP naming %s', (path, mutate) => {
    const group = three();
    group[0] = mutate(group);
    expect(errorOf(() => computeConsensus({ taskId: 't', members: group }))).toEqual({ code: 'CONSENSUS_INVALID_GROUP', path });
  });

  it('a blank taskId is CONSENSUS_INVALID_GROUP naming taskId', () => {
    expect(errorOf(() => computeConsensus({ taskId: ' ', members: three() }))).toEqual({
      code: 'CONSENSUS_INVALID_GROUP',
      path: 'taskId',
    });
  });

  it('an invalid SSSA is CONSENSUS_INVALID_SSSA naming members[i].sssa.<field>', () => {
    const group = three();
    group[1] = { ...group[1]!, sssa: sssa({ findings: [finding('c', 'a.py', { severity: 'urgent' })] }) };
    expect(errorOf(() => computeConsensus({ taskId: 't', members: group }))).toEqual({
      code: 'CONSENSUS_INVALID_SSSA',
      path: 'members[1].sssa.findings[0].severity',
    });
  });
});
