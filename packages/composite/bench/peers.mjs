// @ts-check
// Run by `pnpm bench` (through src/__benchmarks__/peers.bench.ts) with plain Node on the built packages,
// as a user runs them: `@subnet/composite` and `@subnet/core` resolve to their `dist`.
import { fileURLToPath } from 'node:url';

import { printRatioTable, runPythonPeer, timeOurs } from '@subnet/bench-peer';
import {
  addTaskScores,
  compositeScore,
  createRollingWindow,
  emptyWindowState,
  parseWorkflowPlan,
  parseWorkflowTask,
  scoreWorkflow,
  windowScores,
} from '@subnet/composite';
import { encodeSs58 } from '@subnet/core';

const measured = 'built dist, plain Node';

// Issue 18 items 1, 4 and 5: C-SWON's composite scoring and rolling window, replicated in Python from the
// seed text (bench/peers/*.py), run next to ours on identical generated inputs. Both sides must give the
// same output before anything is timed; the table prints the peer's time, ours and the ratio.

/** @param {string} name */
const peerScript = (name) => fileURLToPath(new URL(`./peers/${name}`, import.meta.url));

/** A deterministic generator (no Math.random): a 32-bit LCG, values in [0, 1). */
/** @param {number} seed @returns {() => number} */
function lcg(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const NODES = 10;
const RECORDS = 1000;
const task = { task_id: 'bench', constraints: { max_budget_tao: 0.5, max_latency_seconds: 120 } };
const plan = {
  nodes: Array.from({ length: NODES }, (_, i) => ({ id: `node-${i}` })),
  edges: Array.from({ length: NODES - 1 }, (_, i) => ({ from: `node-${i}`, to: `node-${i + 1}` })),
  error_handling: {
    'node-0': { retry_count: 1, timeout_seconds: 30 },
    'node-3': { retry_count: 2, timeout_seconds: 5 },
    'node-7': { retry_count: 0, timeout_seconds: 10 },
  },
};

/** @returns {Record<string, unknown>[]} */
function records() {
  const next = lcg(42);
  return Array.from({ length: RECORDS }, () => {
    /** @type {{ node_id: string; attempt: number; status: string; seconds: number }[]} */
    const attempts = [];
    for (let n = 0; n < NODES; n++) {
      if (next() < 0.03) continue; // never attempted
      const tries = next() < 0.8 ? 1 : next() < 0.7 ? 2 : 3;
      for (let a = 1; a <= tries; a++) {
        const last = a === tries;
        const status = last ? (next() < 0.85 ? 'success' : 'failure') : next() < 0.5 ? 'failure' : 'timeout';
        attempts.push({ node_id: `node-${n}`, attempt: a, status, seconds: Math.round(next() * 1200) / 100 });
      }
    }
    return {
      output_quality_score: Math.round(next() * 1000) / 1000,
      actual_tao: Math.round(next() * 600) / 1000,
      actual_seconds: Math.round(next() * 2000) / 10,
      attempts,
    };
  });
}

/** @param {string} name @param {readonly unknown[]} ours @param {unknown} peer */
function sameNumbers(name, ours, peer) {
  const theirs = /** @type {readonly unknown[]} */ (peer);
  if (!Array.isArray(theirs) || theirs.length !== ours.length || ours.some((value, i) => JSON.stringify(value) !== JSON.stringify(theirs[i]))) {
    throw new Error(`${name}: the Python peer and ours disagree; nothing was timed`);
  }
}

/** @returns {import('@subnet/bench-peer').RatioRow[]} */
function compositeRows() {
  const raw = records();
  const parsedTask = parseWorkflowTask(task);
  const parsedPlan = parseWorkflowPlan(plan);
  const ours = raw.map((record) => compositeScore({ task: parsedTask, plan: parsedPlan, record }));
  const peer = runPythonPeer({ script: peerScript('composite_scoring.py'), input: { cases: raw.map((record) => ({ task, plan, record })) } });
  if (peer.absent === undefined) sameNumbers('composite scoring', ours, peer.output);
  const unit = `${RECORDS} raw ${NODES}-node records`;
  return [
    {
      name: 'validate + score raw records (compositeScore; task, plan parsed once)',
      unit,
      peer,
      oursNsPerOp: timeOurs(() => {
        let sum = 0;
        for (const record of raw) sum += compositeScore({ task: parsedTask, plan: parsedPlan, record });
        return sum;
      }),
    },
    {
      name: 'validate + score + explain, everything raw (scoreWorkflow)',
      unit,
      peer,
      oursNsPerOp: timeOurs(() => {
        let sum = 0;
        for (const record of raw) sum += scoreWorkflow({ task, plan, record }).score;
        return sum;
      }),
    },
  ];
}

const ADDS = 1_000_000;
const MINERS = 256;

/** @returns {import('@subnet/bench-peer').RatioRow[]} */
function windowRows() {
  const next = lcg(7);
  const hotkeys = Array.from({ length: MINERS }, (_, i) => encodeSs58(Uint8Array.from({ length: 32 }, (_, j) => (i * 13 + j * 5 + 1) & 0xff)));
  const uids = new Array(ADDS);
  const scores = new Array(ADDS);
  const entries = new Array(ADDS);
  for (let i = 0; i < ADDS; i++) {
    const uid = Math.floor(next() * MINERS);
    uids[i] = uid;
    scores[i] = Math.round(next() * 1e6) / 1e6;
    entries[i] = { uid, hotkey: hotkeys[uid], taskId: `t-${i % 5000}`, arrival: i, recordId: `r-${i}`, score: scores[i] };
  }
  const oneAtATime = () => {
    const window = createRollingWindow();
    for (let i = 0; i < ADDS; i++) window.add(entries[i]);
    return window;
  };
  const expected = oneAtATime()
    .scores()
    .map((w) => [w.uid, w.score, w.count]);
  const batch = windowScores(addTaskScores(emptyWindowState(), entries)).map((w) => [w.uid, w.score, w.count]);
  sameNumbers('rolling window (batch vs one at a time)', expected, batch);
  const peer = runPythonPeer({ script: peerScript('rolling_window.py'), input: { uids, scores }, seconds: 2 });
  if (peer.absent === undefined) sameNumbers('rolling window', expected, peer.output);
  const unit = `${ADDS.toLocaleString('en')} adds, ${MINERS} miners`;
  return [
    { name: 'rolling window, one add per call (createRollingWindow().add)', unit, peer, oursNsPerOp: timeOurs(oneAtATime, 2) },
    { name: 'rolling window, one batch (pure addTaskScores)', unit, peer, oursNsPerOp: timeOurs(() => addTaskScores(emptyWindowState(), entries), 2) },
  ];
}

const composite = compositeRows();
printRatioTable(`C-SWON composite scoring (Python replica) vs @subnet/composite (${measured}), same records`, composite);
const window = windowRows();
printRatioTable(`C-SWON rolling window (Python list) vs @subnet/composite (${measured}), same adds`, window);
for (const row of [...composite, ...window]) {
  const per = row.unit?.startsWith(String(RECORDS)) ? RECORDS : ADDS;
  const peerNs = row.peer.absent === undefined ? `, peer ${(row.peer.nsPerOp / per).toFixed(1)} ns` : '';
  console.log(
    `${row.name}: ours ${(row.oursNsPerOp / per).toFixed(1)} ns per ${per === RECORDS ? 'record' : 'add'} (${((per / row.oursNsPerOp) * 1e3).toFixed(2)} M/s)${peerNs}`,
  );
}
