// @ts-check
// Run by `pnpm bench` (through src/__benchmarks__/peer-consensus.bench.ts) with plain Node on the built
// package, as a user runs it: `@subnet/consensus` resolves to its `dist`, and `#hash` to node:crypto under
// the `node` condition. Vitest's module runner adds a cost to every call between source files (about a
// sixth of a fresh group here) and would measure itself. Run it alone with
// `pnpm --filter @subnet/consensus build && node packages/consensus/bench/peers.mjs`.
//
// Issue 18 items 1 and 3: a Phylax-style consensus group in Python (pydantic-free, written from seed B and
// SPEC B, bench/peers/phylax_consensus.py) and ours, on the same fresh raw documents: validate + hash +
// score 5 members x 20 findings. Both outputs are compared for every group before any figure is printed.
// Every figure is CPU time of its own process (time spent waiting for a core on a shared machine does not
// count), the fastest of interleaved rounds.
import { fileURLToPath } from 'node:url';

import { comparePeer, loadLine, printRatioTable, timeOurs } from '@subnet/bench-peer';
import { computeTaskConsensus, findingKeyPreimage } from '@subnet/consensus';

import { HASH_IMPLEMENTATION, sha256Hex } from '#hash';

import { makeGroups, touch } from './groups.mjs';

const script = fileURLToPath(new URL('./peers/phylax_consensus.py', import.meta.url));
/** 300 groups with pairwise distinct findings, cycled, so no group's documents are in cache. */
const POOL = 300;
const groups = makeGroups(POOL);

/** Characters of sentences read, so the reads cannot be optimised away. */
let sentences = 0;

/**
 * One group through our package, reduced to what the peer prints.
 * @param {{ task_id: string, members: any[] }} group
 * @param {boolean} explain
 */
function ours(group, explain) {
  const result = computeTaskConsensus({ taskId: group.task_id, members: group.members, explain });
  // Sentences are written when first read: read them, so the second row pays for them.
  if (explain) for (const m of result.members) sentences += m.explanation?.findingsRecall.length ?? 0;
  return { task_id: result.taskId, keys: result.group?.findingKeys ?? [], members: result.members.map((m) => [m.uid, m.consensus]) };
}

/**
 * Throws unless the peer scored every group exactly as we do (consensus equal to the last bit).
 * @param {unknown} peerOutput
 */
function checkAgreement(peerOutput) {
  if (!Array.isArray(peerOutput) || peerOutput.length !== groups.length) throw new Error('the Python peer returned no output per group');
  groups.forEach((group, i) => {
    const mine = JSON.stringify(ours(group, false));
    const peer = JSON.stringify(peerOutput[i]);
    if (mine !== peer) throw new Error(`ours and the Python peer disagree on ${group.task_id}:\n ours ${mine}\n peer ${peer}`);
  });
}

const unit = '1 group of 5 x 20';
let next = 0;
const at = () => /** @type {{ task_id: string, members: any[] }} */ (groups[next++ % POOL]);
const rows = [
  comparePeer({
    name: `fresh raw group, validate + hash (${HASH_IMPLEMENTATION}) + score`,
    unit,
    script,
    input: groups,
    ours: () => ours(at(), false),
    check: checkAgreement,
  }),
  comparePeer({ name: 'the same, and every sentence read (explanations)', unit, script, input: groups, ours: () => ours(at(), true), check: checkAgreement }),
];

// The two floors any implementation pays, on the same groups: hashing each group's distinct key
// preimages once (as the scorer does), and reading and checking every field of its documents.
const preimages = groups.map((group) => [...new Set(group.members.flatMap((m) => m.sssa.findings.map((/** @type {unknown} */ f) => findingKeyPreimage(f))))]);
let nextHash = 0;
let hashed = 0;
const hashOnly = () => {
  for (const p of /** @type {string[]} */ (preimages[nextHash++ % POOL])) hashed += sha256Hex(p).length;
};
let nextTouch = 0;
let touched = 0;
const touchOnly = () => {
  touched += touch(/** @type {{ members: any[] }} */ (groups[nextTouch++ % POOL]).members);
};
const whole = () => ours(at(), false);
/** @type {{ whole: number[], hash: number[], touch: number[] }} */
const rounds = { whole: [], hash: [], touch: [] };
for (let r = 0; r < 5; r++) {
  rounds.hash.push(timeOurs(hashOnly, 0.3, 'cpu'));
  rounds.touch.push(timeOurs(touchOnly, 0.3, 'cpu'));
  rounds.whole.push(timeOurs(whole, 0.3, 'cpu'));
}
/** @param {readonly number[]} xs */
const best = (xs) => Math.min(...xs);
/** @param {number} ns */
const us = (ns) => `${(ns / 1000).toFixed(1)} us`;
const count = preimages.reduce((n, list) => n + list.length, 0) / POOL;
const characters = preimages.reduce((n, list) => n + list.reduce((m, p) => m + p.length, 0), 0) / POOL;

printRatioTable('SSSA consensus on fresh documents: Python Phylax-style replica vs @subnet/consensus (built package)', rows);
console.log(rows.map((row) => `${row.name}: ${Math.round(1e9 / row.oursNsPerOp)} groups/s/core (target >= 20,000)`).join('\n'));
console.log(
  [
    `what one fresh group costs, CPU time, fastest of 5 interleaved rounds (load average ${loadLine()}):`,
    `  hashing alone (${HASH_IMPLEMENTATION} one-shot): ${us(best(rounds.hash))} for the ${count.toFixed(0)} distinct preimages of a group ` +
      `(${(characters / count).toFixed(0)} characters each, ${characters.toFixed(0)} a group); with nothing else to do that is ` +
      `${Math.round(1e9 / best(rounds.hash))} groups/s/core`,
    `  reading and checking every field of the 5 documents (types, prototypes, key counts, string lengths and well-formedness; ` +
      `no keys, no sets): ${us(best(rounds.touch))} (${(best(rounds.touch) / best(rounds.hash)).toFixed(2)}x hashing)`,
    `  the whole fresh group (validate + hash + score): ${us(best(rounds.whole))} = ${(best(rounds.whole) / best(rounds.hash)).toFixed(2)}x hashing, ` +
      `${Math.round(1e9 / best(rounds.whole))} groups/s/core; above the two floors: ${us(best(rounds.whole) - best(rounds.hash) - best(rounds.touch))} ` +
      '(recognising shared findings, keying new ones, items, sets and scoring)',
    `  (${sentences} characters of explanations read, ${hashed} hex characters of digests written, ${touched} findings read)`,
  ].join('\n'),
);
