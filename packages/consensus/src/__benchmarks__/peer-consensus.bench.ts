import { fileURLToPath } from 'node:url';

import { DEFAULT_INPUT_LIMITS } from '@subnet/core';
import { comparePeer, loadLine, printRatioTable, timeOurs } from '@subnet/bench-peer';
import { bench, describe } from 'vitest';

import { HASH_IMPLEMENTATION, sha256Hex } from '#hash';

import { createFreshGroup, freshDocumentSets } from '../fresh-sets.js';
import { computeTaskConsensus, findingKeyPreimage } from '../index.js';
import type { ConsensusMemberInput } from '../index.js';

import { makeGroup } from './make-group.js';

// Issue 18 items 1 and 3: a Phylax-style consensus group in Python (pydantic-free, written from seed B and
// SPEC B) and ours, on the same fresh raw documents: validate + hash + score 5 members x 20 findings. Both
// outputs are compared for every group before any figure is printed. Every figure is CPU time of its own
// process (time spent waiting for a core on a shared machine does not count), the fastest of interleaved
// rounds.

const script = fileURLToPath(new URL('../../bench/peers/phylax_consensus.py', import.meta.url));
/** 300 groups with pairwise distinct findings: more distinct keys than our key memo holds, so every pass is cold. */
const POOL = 300;
// What a validator holds after parsing a request body (the peer reads the same JSON).
const groups = JSON.parse(JSON.stringify(Array.from({ length: POOL }, (_, i) => ({ task_id: `task-${i}`, members: makeGroup(5, 20, i + 1) })))) as {
  task_id: string;
  members: ConsensusMemberInput[];
}[];

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

const unit = '1 group of 5 x 20';
let next = 0;
const fresh = (): PeerGroup => ours(groups[next++ % POOL]!, false);
const rows = [
  comparePeer({ name: `fresh raw group, validate + hash (${HASH_IMPLEMENTATION}) + score`, unit, script, input: groups, ours: fresh, check: checkAgreement }),
  comparePeer({
    name: 'the same, and every sentence read (explanations)',
    unit,
    script,
    input: groups,
    ours: () => ours(groups[next++ % POOL]!, true),
    check: checkAgreement,
  }),
];

// What hashing alone costs: each group's distinct key preimages hashed once each (as the scorer does).
const preimages = groups.map((group) => [
  ...new Set(group.members.flatMap((m) => (m.sssa as { findings: unknown[] }).findings.map((f) => findingKeyPreimage(f)))),
]);
let nextHash = 0;
let hashed = 0;
const hashOnly = (): void => {
  const list = preimages[nextHash++ % POOL]!;
  for (const p of list) hashed += sha256Hex(p).length;
};
// Validation, keying and reduction to sets without any hashing: each group's documents once more through
// the one-pass path against tables that already hold every finding (nothing new to hash).
const filled = groups.map((group) => {
  const table = createFreshGroup();
  for (const m of group.members) freshDocumentSets(m.sssa, DEFAULT_INPUT_LIMITS, table);
  return { table, documents: group.members.map((m) => m.sssa) };
});
let nextValidation = 0;
const validationOnly = (): void => {
  const { table, documents } = filled[nextValidation++ % POOL]!;
  table.documents.clear(); // scoring reads it once per group; here the same tables serve every pass
  for (const document of documents) if (freshDocumentSets(document, DEFAULT_INPUT_LIMITS, table) === undefined) throw new Error('a valid document was refused');
};
const rounds = { whole: [] as number[], hash: [] as number[], validation: [] as number[] };
for (let r = 0; r < 5; r++) {
  rounds.hash.push(timeOurs(hashOnly, 0.3, 'cpu'));
  rounds.validation.push(timeOurs(validationOnly, 0.3, 'cpu'));
  rounds.whole.push(timeOurs(fresh, 0.3, 'cpu'));
}
const best = (xs: readonly number[]): number => Math.min(...xs);
const us = (ns: number): string => `${(ns / 1000).toFixed(1)} us`;
const count = preimages.reduce((n, list) => n + list.length, 0) / POOL;
const characters = preimages.reduce((n, list) => n + list.reduce((m, p) => m + p.length, 0), 0) / POOL;

printRatioTable('SSSA consensus on fresh documents: Python Phylax-style replica vs @subnet/consensus', rows);
console.log(rows.map((row) => `${row.name}: ${Math.round(1e9 / row.oursNsPerOp)} groups/s/core (target >= 20,000)`).join('\n'));
console.log(
  [
    `what one fresh group costs, CPU time, fastest of 5 interleaved rounds (load average ${loadLine()}):`,
    `  hashing alone (${HASH_IMPLEMENTATION} one-shot): ${us(best(rounds.hash))} for the ${count.toFixed(0)} distinct preimages of a group ` +
      `(${(characters / count).toFixed(0)} characters each, ${characters.toFixed(0)} a group); with nothing else to do that is ` +
      `${Math.round(1e9 / best(rounds.hash))} groups/s/core`,
    `  validate + key + reduce the 5 documents to sets, no hashing: ${us(best(rounds.validation))} (${(best(rounds.validation) / best(rounds.hash)).toFixed(2)}x hashing)`,
    `  the whole fresh group (validate + hash + score): ${us(best(rounds.whole))} = ${(best(rounds.whole) / best(rounds.hash)).toFixed(2)}x hashing, ` +
      `${Math.round(1e9 / best(rounds.whole))} groups/s/core`,
    `  (${sentences} characters of explanations read, ${hashed} hex characters of digests written)`,
  ].join('\n'),
);

describe('consensus on fresh documents (the peer table is printed above)', () => {
  let i = 0;
  bench('computeTaskConsensus, fresh raw 5 x 20, explain: false', () => {
    computeTaskConsensus({ taskId: 't', members: groups[i++ % POOL]!.members, explain: false });
  });
});
