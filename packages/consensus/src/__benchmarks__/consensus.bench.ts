import { cpus, loadavg } from 'node:os';

import { bench, describe } from 'vitest';

import { canonicalFindingKey, computeConsensus, emission, normaliseEvidenceRef, parseSssa, selectVerificationGroup } from '../index.js';
import type { ConsensusMemberInput } from '../index.js';

import { makeGroup } from './make-group.js';

// Name the machine next to the table (vitest prints hz = operations per second).
console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, node ${process.version}, ` +
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
);

/** The same group with every document parsed once by `parseSssa` (the validated fast path). */
const parsed = (group: readonly ConsensusMemberInput[]): ConsensusMemberInput[] => group.map((m) => ({ ...m, sssa: parseSssa(m.sssa) }));

/** A pool of groups with pairwise distinct findings: cycling through it keeps the key memo cold. */
function pool(members: number, findings: number, size: number): ConsensusMemberInput[][] {
  return Array.from({ length: size }, (_, i) => makeGroup(members, findings, i + 1));
}

// Through vitest's module runner, on the source: relative figures between rows. The >= 20,000 groups/s/core
// target is measured on the built package by bench/peers.mjs (peer-consensus.bench.ts).
describe('computeConsensus, 5 members x 20 findings (source, through vitest)', () => {
  const same = makeGroup(5, 20);
  const sameParsed = parsed(same);
  bench('parsed documents (parseSssa once, then scored: the fast path)', () => {
    computeConsensus({ taskId: 't', members: sameParsed });
  });
  bench('raw documents, same group again (validated every time, warm key memo)', () => {
    computeConsensus({ taskId: 't', members: same });
  });
  const cold = pool(5, 20, 1500);
  let i = 0;
  bench('raw documents, fresh findings every group (cold key memo)', () => {
    computeConsensus({ taskId: 't', members: cold[i++ % cold.length]! });
  });
  let j = 0;
  bench('parseSssa x5 then computeConsensus, fresh findings (cold: parse + first scoring)', () => {
    computeConsensus({ taskId: 't', members: parsed(cold[j++ % cold.length]!) });
  });
});

describe('scaling with members (20 findings each)', () => {
  for (const members of [3, 5, 9, 17, 33]) {
    const group = makeGroup(members, 20);
    const groupParsed = parsed(group);
    bench(`${members} members, parsed`, () => {
      computeConsensus({ taskId: 't', members: groupParsed });
    });
    bench(`${members} members, raw`, () => {
      computeConsensus({ taskId: 't', members: group });
    });
  }
});

describe('scaling with findings (5 members)', () => {
  for (const findings of [5, 20, 80, 320]) {
    const group = makeGroup(5, findings);
    const groupParsed = parsed(group);
    bench(`${findings} findings per member, parsed`, () => {
      computeConsensus({ taskId: 't', members: groupParsed });
    });
    bench(`${findings} findings per member, raw`, () => {
      computeConsensus({ taskId: 't', members: group });
    });
  }
});

describe('building blocks', () => {
  const finding = {
    id: 'f',
    category: 'tool_poison',
    severity: 'high',
    description: 'd',
    evidence_ref: 'span-1:tools/getfile.py#L12-L18',
    cve_ids: ['CVE-2024-0002', 'CVE-2024-0001'],
    target_pattern: 'getfile',
  };
  bench('canonicalFindingKey (memoised sha256)', () => {
    canonicalFindingKey(finding);
  });
  let n = 0;
  bench('normaliseEvidenceRef (fresh string each time)', () => {
    normaliseEvidenceRef(`span-${n++}:.\\tools\\\\getfile.py:12-18`);
  });
  bench('emission', () => {
    emission({ compositeQ: 0.8, baseWeight: 1, tierMultiplier: 1.5, earlyBonus: 1, role: 'auditor', consensus: 0.785, bootstrap: 1 });
  });
  const candidates = makeGroup(256, 0).map(({ uid, hotkey }) => ({ uid, hotkey }));
  const reputations = Object.fromEntries(candidates.map((c, i) => [c.hotkey, ((i * 37) % 100) / 100]));
  let t = 0;
  bench('selectVerificationGroup, 256 candidates', () => {
    selectVerificationGroup({ candidates, reputations, blockHash: `0x${'ab'.repeat(32)}`, taskId: `task-${t++}` });
  });
});
