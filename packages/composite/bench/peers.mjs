// @ts-check
// Run by `pnpm bench` (through src/__benchmarks__/peers.bench.ts) with plain Node on the built packages,
// as a user runs them: `@subnet/composite` and `@subnet/core` resolve to their `dist`.
import { fileURLToPath } from 'node:url';

import { comparePeer, printRatioTable } from '@subnet/bench-peer';
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

/**
 * Records as a validator holds them: parsed from JSON text (an HTTP body), as the Python peer's are.
 * @returns {Record<string, unknown>[]}
 */
function records() {
  return JSON.parse(JSON.stringify(generated()));
}

/** @returns {Record<string, unknown>[]} */
function generated() {
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
  const parsedPlan = parseWorkflowPlan(JSON.parse(JSON.stringify(plan)));
  const expected = raw.map((record) => compositeScore({ task: parsedTask, plan: parsedPlan, record }));
  const unit = `${RECORDS} raw ${NODES}-node records`;
  const script = peerScript('composite_scoring.py');
  const input = { cases: raw.map((record) => ({ task, plan, record })) };
  /** @param {unknown} output */
  const check = (output) => sameNumbers('composite scoring', expected, output);
  return [
    comparePeer({
      name: 'validate + score raw records (compositeScore; task, plan parsed once)',
      unit,
      script,
      input,
      check,
      ours: () => {
        let sum = 0;
        for (const record of raw) sum += compositeScore({ task: parsedTask, plan: parsedPlan, record });
        return sum;
      },
      // A microsecond a record is easily shifted by a neighbour on a shared machine: more, longer rounds.
      rounds: 9,
      seconds: 0.5,
    }),
    comparePeer({
      name: 'validate + score + explain, everything raw (scoreWorkflow)',
      unit,
      script,
      input,
      check,
      ours: () => {
        let sum = 0;
        for (const record of raw) sum += scoreWorkflow({ task, plan, record }).score;
        return sum;
      },
    }),
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
  const inPlace = createRollingWindow();
  inPlace.addMany(entries);
  sameNumbers(
    'rolling window (in-place batch vs one at a time)',
    expected,
    inPlace.scores().map((w) => [w.uid, w.score, w.count]),
  );
  const unit = `${ADDS.toLocaleString('en')} adds, ${MINERS} miners`;
  const script = peerScript('rolling_window.py');
  const input = { uids, scores };
  /** @param {unknown} output */
  const check = (output) => sameNumbers('rolling window', expected, output);
  return [
    comparePeer({ name: 'rolling window, one add per call (createRollingWindow().add)', unit, script, input, check, ours: oneAtATime, rounds: 3, seconds: 1 }),
    comparePeer({
      name: 'rolling window, one batch (pure addTaskScores)',
      unit,
      script,
      input,
      check,
      ours: () => addTaskScores(emptyWindowState(), entries),
      rounds: 3,
      seconds: 1,
    }),
    comparePeer({
      name: 'rolling window, one batch in place (createRollingWindow().addMany)',
      unit,
      script,
      input,
      check,
      ours: () => createRollingWindow().addMany(entries),
      rounds: 3,
      seconds: 1,
    }),
  ];
}

const composite = compositeRows();
printRatioTable(`C-SWON composite scoring (Python replica) vs @subnet/composite (${measured}), same records`, composite);
const window = windowRows();
printRatioTable(`C-SWON rolling window (Python list) vs @subnet/composite (${measured}), same adds`, window);
console.log('\nPer record / per add (targets: >= 1 M raw 10-node records/s/core; <= 0.2 us per add at 10^6 adds):');
for (const row of [...composite, ...window]) {
  const per = row.unit?.startsWith(String(RECORDS)) ? RECORDS : ADDS;
  const peerNs = row.peer.absent === undefined ? `, peer ${(row.peer.nsPerOp / per).toFixed(1)} ns` : '';
  console.log(
    `- ${row.name}: ours ${(row.oursNsPerOp / per).toFixed(1)} ns per ${per === RECORDS ? 'record' : 'add'} (${((per / row.oursNsPerOp) * 1e3).toFixed(2)} M/s)${peerNs}`,
  );
}
