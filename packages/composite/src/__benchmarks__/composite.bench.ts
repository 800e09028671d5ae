import { cpus } from 'node:os';

import { encodeSs58 } from '@subnet/core';
import { bench, describe } from 'vitest';

import {
  addTaskScore,
  addTaskScores,
  compositeScore,
  emptyWindowState,
  parseExecutionRecord,
  parseWorkflowPlan,
  parseWorkflowTask,
  scoreWorkflow,
  windowScores,
  type TaskScoreEntry,
  type WindowState,
} from '../index.js';

// Throughput is reported, not gated. `hz` is calls per second; batch benches say how many entries a call adds.
console.log(`machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, node ${process.version}`);

function workflow(n: number) {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `node-${i}` }));
  const edges = nodes.slice(1).map((node, i) => ({ from: `node-${i}`, to: node.id }));
  const error_handling = { 'node-0': { retry_count: 1, timeout_seconds: 30 } };
  // Every node succeeds; node-0 needs one (declared) retry: n + 1 attempts.
  const attempts: { node_id: string; attempt: number; status: 'success' | 'failure'; seconds: number }[] = nodes.map((node) => ({
    node_id: node.id,
    attempt: 1,
    status: 'success',
    seconds: 2,
  }));
  attempts[0] = { node_id: 'node-0', attempt: 1, status: 'failure', seconds: 2 };
  attempts.push({ node_id: 'node-0', attempt: 2, status: 'success', seconds: 3 });
  const raw = {
    task: { task_id: `bench-${n}`, constraints: { max_budget_tao: 1, max_latency_seconds: 600 } },
    plan: { nodes, edges, error_handling },
    record: { output_quality_score: 0.9, actual_tao: 0.25, actual_seconds: 2 * n + 1, attempts },
  };
  const parsed = { task: parseWorkflowTask(raw.task), plan: parseWorkflowPlan(raw.plan), record: parseExecutionRecord(raw.record) };
  return { raw, parsed };
}

const sizes = [1, 10, 100] as const;
const workflows = new Map(sizes.map((n) => [n, workflow(n)]));

// Scoring one record takes well under a microsecond, close to the timer's own cost, so every scoring
// bench runs LOOP calls per iteration: records per second = hz x LOOP.
const LOOP = 1000;

for (const n of sizes) {
  const { raw, parsed } = workflows.get(n)!;
  const withRawRecord = { task: parsed.task, plan: parsed.plan, record: raw.record };
  describe(`score ${LOOP} ${n}-node records per call (records/s = hz x ${LOOP})`, () => {
    bench('compositeScore, pre-parsed (hot path, no allocation)', () => {
      for (let i = 0; i < LOOP; i++) compositeScore(parsed);
    });
    bench('scoreWorkflow, pre-parsed (frozen result + explanation)', () => {
      for (let i = 0; i < LOOP; i++) scoreWorkflow(parsed);
    });
    bench('scoreWorkflow, pre-parsed task + plan, raw record (record validated per call)', () => {
      for (let i = 0; i < LOOP; i++) scoreWorkflow(withRawRecord);
    });
    bench('scoreWorkflow, all raw (everything validated per call)', () => {
      for (let i = 0; i < LOOP; i++) scoreWorkflow(raw);
    });
  });
}

describe('parse cost (10 nodes), paid once per value', () => {
  const { raw } = workflows.get(10)!;
  bench('parseExecutionRecord (11 attempts)', () => {
    parseExecutionRecord(raw.record);
  });
  bench('parseWorkflowPlan (10 nodes, 9 edges, DAG checks, compile)', () => {
    parseWorkflowPlan(raw.plan);
  });
  bench('parseWorkflowTask', () => {
    parseWorkflowTask(raw.task);
  });
});

const hotkeys = Array.from({ length: 256 }, (_, i) => encodeSs58(Uint8Array.from({ length: 32 }, (_, j) => (i * 13 + j * 5 + 1) & 0xff)));

/** A state with `miners` miners, each holding `filled` scores (arrivals 0..filled-1). */
function filledState(miners: number, filled: number): WindowState {
  const entries: TaskScoreEntry[] = [];
  for (let k = 0; k < filled; k++) {
    for (let uid = 0; uid < miners; uid++) entries.push({ uid, hotkey: hotkeys[uid]!, taskId: `t-${k}`, arrival: k, score: ((k * 7 + uid) % 10) / 10 });
  }
  return addTaskScores(emptyWindowState(), entries);
}

describe('window: one addTaskScore, 1 miner, by window fill (flat = O(1) in history)', () => {
  for (const filled of [1, 10, 50, 100, 1000]) {
    const state = filledState(1, filled);
    const next: TaskScoreEntry = { uid: 0, hotkey: hotkeys[0]!, taskId: 'next', arrival: filled, score: 0.5 };
    bench(`${filled} scores added before (${Math.min(filled, 100)} held)`, () => {
      addTaskScore(state, next);
    });
  }
});

describe('window: one addTaskScore into a full window, by miner count (copies the miner index once)', () => {
  for (const miners of [1, 16, 256]) {
    const state = filledState(miners, 100);
    const next: TaskScoreEntry = { uid: 0, hotkey: hotkeys[0]!, taskId: 'next', arrival: 100, score: 0.5 };
    bench(`${miners} miners`, () => {
      addTaskScore(state, next);
    });
  }
});

describe('window: addTaskScores batch of 1,000 entries (per entry = time / 1000), full windows', () => {
  for (const miners of [1, 16, 256]) {
    const state = filledState(miners, 100);
    const batch: TaskScoreEntry[] = Array.from({ length: 1000 }, (_, i) => ({
      uid: i % miners,
      hotkey: hotkeys[i % miners]!,
      taskId: `b-${i}`,
      arrival: 1000 + i,
      score: (i % 10) / 10,
    }));
    bench(`${miners} miners`, () => {
      addTaskScores(state, batch);
    });
  }
});

describe('window: windowScores (reads every held score)', () => {
  for (const miners of [1, 256]) {
    const state = filledState(miners, 100);
    bench(`${miners} miners x 100 scores`, () => {
      windowScores(state);
    });
  }
});
