import { describe, expect, it } from 'vitest';

import { computeConsensus, findingKeyPreimage } from '../index.js';
import type { ConsensusMemberInput } from '../index.js';

import example from './fixtures/worked-example.json' with { type: 'json' };
import { finding, members, sssa } from './helpers.js';

const getfile = (ref: string) => finding('tool_poison', ref, { target_pattern: 'getfile' });

describe('explanations a miner can act on (issue 14 item 7)', () => {
  it("the group's finding keys come with their preimages", () => {
    const docs = [0, 1, 2].map(() => sssa({ findings: [getfile('s1:tools/getfile.py#L12-L18')] }));
    const result = computeConsensus({ taskId: 't', members: members(docs) });
    expect(result.group?.findings).toEqual([{ key: result.group?.findingKeys[0], preimage: 'tool_poison|high|tools/getfile.py#L12-L18||getfile' }]);
    expect(result.group?.findings[0]?.preimage).toBe(findingKeyPreimage(getfile('tools/getfile.py#L12-L18')));
  });

  it('a member that reported other lines for the agreed finding is told both ranges', () => {
    const docs = [
      sssa({ findings: [getfile('a:tools/getfile.py#L12-L18')] }),
      sssa({ findings: [getfile('b:tools/getfile.py:12-18')] }),
      sssa({ findings: [getfile('c:tools/getfile.py#L12-L19')] }),
    ];
    const third = computeConsensus({ taskId: 't', members: members(docs) }).members[2]!;
    expect(third.explanation?.findingsRecall).toBe(
      'you reported 0 of the 1 findings the group agreed on: the group agreed on tools/getfile.py#L12-L18 (tool_poison, high, target getfile), you reported L12-L19',
    );
    expect(third.explanation?.findingsPrecision).toBe(
      '0 of your 1 findings are in the group set; not agreed by a majority: tools/getfile.py#L12-L19 (tool_poison, high, target getfile), reported by 1 of 3',
    );
  });

  it('every member of a scored group gets one sentence per component; n < 3 gets none', () => {
    const five = computeConsensus({ taskId: 'mcp', members: example.members as ConsensusMemberInput[] });
    for (const m of five.members) expect(Object.keys(m.explanation ?? {}).sort()).toEqual(Object.keys(m.components ?? {}).sort());
    const a2 = five.members.find((m) => m.uid === example.members.find((x) => x.name === 'A2')!.uid)!;
    expect(a2.explanation?.dependenciesAgreement).toMatch(/^you reported \d+ of the group's \d+ dependencies and \d+ of its \d+ CVE annotations/);
    expect(a2.explanation?.verdictAgreement).toMatch(/^the group verdict is BLOCK \(ALLOW \d, BLOCK \d, REVIEW \d\); you said /);
    const two = computeConsensus({ taskId: 't', members: members([sssa(), sssa()]) });
    expect(two.members.map((m) => m.explanation)).toEqual([null, null]);
  });

  it('verdict, capability, risk and policy sentences name the values', () => {
    const docs = [
      sssa({ verdict: 'BLOCK', risk_score: 0.8, capabilities: ['fs.read', 'net.http'], policy: { rules: [{ resource: 'fs', action: 'read', pattern: '*' }] } }),
      sssa({ verdict: 'BLOCK', risk_score: 0.8, capabilities: ['fs.read', 'net.http'], policy: { rules: [{ resource: 'fs', action: 'read', pattern: '*' }] } }),
      sssa({ verdict: 'REVIEW', risk_score: 0.2, capabilities: ['fs.read', 'proc.exec'], policy: { rules: [] } }),
    ];
    const e = computeConsensus({ taskId: 't', members: members(docs) }).members[2]!.explanation!;
    expect(e.verdictAgreement).toBe('the group verdict is BLOCK (ALLOW 0, BLOCK 2, REVIEW 1); you said REVIEW, which earns half credit');
    expect(e.capabilitiesAgreement).toBe(
      "you share 1 of the 3 capabilities in your set and the group's together; the group agreed on net.http, which you did not report; you reported proc.exec, which the group did not agree on",
    );
    expect(e.riskAgreement).toBe('your risk_score 0.2 is 0.4 from the group mean 0.6');
    expect(e.policyAgreement).toBe(
      "you share 0 of the 1 policy rules in your set and the group's together; the group agreed on fs read *, which you did not report",
    );
  });
});

describe('explain: false (hot paths)', () => {
  it('leaves every explanation null and every number identical', () => {
    const docs = example.members as ConsensusMemberInput[];
    const full = computeConsensus({ taskId: 'mcp', members: docs });
    const bare = computeConsensus({ taskId: 'mcp', members: docs, explain: false });
    expect(bare.members.map((m) => m.explanation)).toEqual([null, null, null, null, null]);
    expect(bare.members.map((m) => [m.consensus, m.components])).toEqual(full.members.map((m) => [m.consensus, m.components]));
    expect(bare.group).toEqual(full.group);
  });
});

describe('sentences are written when first read', () => {
  it('the same frozen explanation is returned on every read, and JSON, spreads and structuredClone see it', () => {
    const member = computeConsensus({ taskId: 'mcp', members: example.members as ConsensusMemberInput[] }).members[0]!;
    expect(typeof Object.getOwnPropertyDescriptor(member, 'explanation')?.get).toBe('function');
    const first = member.explanation;
    expect(member.explanation).toBe(first);
    expect(Object.isFrozen(member)).toBe(true);
    expect(Object.isFrozen(first)).toBe(true);
    expect((JSON.parse(JSON.stringify(member)) as { explanation: unknown }).explanation).toEqual(first);
    expect({ ...member }.explanation).toBe(first);
    expect(structuredClone(member).explanation).toEqual(first);
  });
});
