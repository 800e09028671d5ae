import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

import { printRatioTable, runPythonPeer, timeOurs } from '@subnet/bench-peer';
import type { RatioRow } from '@subnet/bench-peer';
import { bench, describe } from 'vitest';

import { HASH_IMPLEMENTATION, sha256Hex } from '#hash';

import { computeTaskConsensus, findingKeyPreimage } from '../index.js';
import type { ConsensusMemberInput } from '../index.js';

import { makeGroup } from './make-group.js';

// Issue 18 items 1 and 3: a Phylax-style consensus group in Python (pydantic-free, written from seed B and
// SPEC B) and ours, on the same fresh raw documents: validate + hash + score 5 members x 20 findings. Both
// outputs are compared for every group before any figure is printed.

const script = fileURLToPath(new URL('../../bench/peers/phylax_consensus.py', import.meta.url));
/** 300 groups with pairwise distinct findings: more distinct keys than our key memo holds, so every pass is cold. */
const POOL = 300;
const groups = Array.from({ length: POOL }, (_, i) => ({ task_id: `task-${i}`, members: makeGroup(5, 20, i + 1) }));

interface PeerGroup {
  readonly task_id: string;
  readonly keys: readonly string[];
  readonly members: readonly (readonly [number, number | null])[];
}

/** Characters of sentences read, so the reads cannot be optimised away. */
let sentences = 0;

function ours(group: { task_id: string; members: ConsensusMemberInput[] }, explain: boolean): PeerGroup {
  const result = computeTaskConsensus({ taskId: group.task_id, members: group.members, explain });
  // Sentences are written when first read: read them, so the second row pays for them.
  if (explain) for (const m of result.members) sentences += m.explanation?.findingsRecall.length ?? 0;
  return { task_id: result.taskId, keys: result.group?.findingKeys ?? [], members: result.members.map((m) => [m.uid, m.consensus] as const) };
}

/** Throws unless the peer scored every group exactly as we do (consensus equal to the last bit). */
function checkAgreement(peerOutput: unknown): void {
  const theirs = peerOutput as readonly PeerGroup[];
  if (!Array.isArray(theirs) || theirs.length !== groups.length) throw new Error('the Python peer returned no output per group');
  groups.forEach((group, i) => {
    const mine = JSON.stringify(ours(group, false));
    const peer = JSON.stringify(theirs[i]);
    if (mine !== peer) throw new Error(`ours and the Python peer disagree on ${group.task_id}:\n ours ${mine}\n peer ${peer}`);
  });
}

const peer = runPythonPeer({ script, input: groups, seconds: 1 });
if (peer.absent === undefined) checkAgreement(peer.output);

let next = 0;
const rows: RatioRow[] = [
  {
    name: `fresh raw group, validate + hash (${HASH_IMPLEMENTATION}) + score`,
    unit: '1 group of 5 x 20',
    peer,
    oursNsPerOp: timeOurs(() => ours(groups[next++ % POOL]!, false)),
  },
  {
    name: 'the same, and every sentence read (explanations)',
    unit: '1 group of 5 x 20',
    peer,
    oursNsPerOp: timeOurs(() => ours(groups[next++ % POOL]!, true)),
  },
];
// What hashing alone costs: each group's distinct key preimages hashed once each (as the scorer does), so
// the rest of the first row is validation, keying and scoring.
const preimages = groups.map((group) => [
  ...new Set(group.members.flatMap((m) => (m.sssa as { findings: unknown[] }).findings.map((f) => findingKeyPreimage(f)))),
]);
let nextHash = 0;
let hashed = 0;
const hashNs = timeOurs(() => {
  const list = preimages[nextHash++ % POOL]!;
  for (const p of list) hashed += sha256Hex(p).length;
});
console.log(`(${sentences} characters of explanations read, ${hashed} hex characters hashed)`);
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (figures on a loaded machine are slower; ratios are taken in the same run)`,
);
printRatioTable('SSSA consensus on fresh documents: Python Phylax-style replica vs @subnet/consensus', rows);
console.log(rows.map((row) => `${row.name}: ${Math.round(1e9 / row.oursNsPerOp)} groups/s/core (target >= 20,000)`).join('\n'));
console.log(
  `hashing alone (${HASH_IMPLEMENTATION} one-shot, the ${preimages[0]?.length ?? 0} distinct preimages of a group): ${(hashNs / 1000).toFixed(2)} us a group; ` +
    `the whole fresh group costs ${(rows[0]!.oursNsPerOp / hashNs).toFixed(1)}x that`,
);

describe('consensus on fresh documents (the peer table is printed above)', () => {
  let i = 0;
  bench('computeTaskConsensus, fresh raw 5 x 20, explain: false', () => {
    computeTaskConsensus({ taskId: 't', members: groups[i++ % POOL]!.members, explain: false });
  });
});
