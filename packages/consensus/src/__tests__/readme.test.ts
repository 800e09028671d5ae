import { expect, it } from 'vitest';

import { computeConsensus, emission, selectVerificationGroup } from '../index.js';

// The README's quick start, verbatim in substance; expected values worked by hand (consensus) and with
// the README's Python reference (the draw).
const doc = (verdict: string, risk: number, refs: string[], capabilities: string[]) => ({
  verdict,
  risk_score: risk,
  findings: refs.map((ref, i) => ({
    id: `f${i}`,
    category: 'tool_poison',
    severity: 'high',
    description: 'poisoned tool',
    evidence_ref: ref,
    cve_ids: [],
    target_pattern: 'getfile',
  })),
  capabilities,
  dependencies: [{ package: 'requests', version: '2.19.1', cves: ['CVE-2018-18074'] }],
  policy: { rules: [{ resource: 'network', action: 'deny', pattern: '*' }] },
});

it('README quick start gives the numbers the README shows', () => {
  const result = computeConsensus({
    taskId: 'task-1',
    members: [
      {
        uid: 1,
        hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
        role: 'primary',
        sssa: doc('BLOCK', 0.8, ['s1:tools/getfile.py#L12-L18'], ['fs.read', 'tool:getfile']),
      },
      {
        uid: 2,
        hotkey: '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
        role: 'primary',
        sssa: doc('BLOCK', 0.7, ['tools\\getfile.py:12-18'], ['FS.Read', 'tool:getfile']),
      },
      { uid: 3, hotkey: '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y', role: 'auditor', sssa: doc('REVIEW', 0.3, [], ['fs.read']) },
    ],
  });
  // risk mean 0.6: uid 1 = 0.30 + 0.15 + 0.15 + 0.15 + 0.10·0.8 + 0.10 + 0.05; uid 3 = 0.15·0.5 + 0.15·0.5 + 0.10·0.7 + 0.10 + 0.05
  expect(result.members.map((m) => m.consensus)).toEqual([expect.closeTo(0.98, 12), expect.closeTo(0.99, 12), expect.closeTo(0.37, 12)]);
  const auditor = result.members[2]!;
  const paid = emission({ compositeQ: 0.9, baseWeight: 1, tierMultiplier: 1, earlyBonus: 1, role: auditor.role, consensus: auditor.consensus, bootstrap: 1 });
  expect(paid.emission).toBeCloseTo(0.9 * 0.6 * 0.37, 12);
  const reputation = [0.9, 0.4, 0.6];
  const group = selectVerificationGroup({
    candidates: result.members.map(({ uid, hotkey }, i) => ({ uid, hotkey, reputation: reputation[i]! })),
    blockHash: `0x${'11'.repeat(32)}`,
    taskId: 'task-2',
    k: 1,
    m: 1,
  });
  expect(group.members.map((m) => [m.uid, m.role])).toEqual([
    [1, 'primary'],
    [2, 'auditor'],
  ]);
  expect(result.members[2]!.explanation!.verdictAgreement).toBe(
    'the group verdict is BLOCK (ALLOW 0, BLOCK 2, REVIEW 1); you said REVIEW, which earns half credit',
  );
});
