// Profiling driver for one hot path: fresh 5 x 20 groups through the BUILT package (dist), as a validator
// runs it. Build first, then, from packages/consensus:
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile-fresh.mjs [--explain]
//   node bench/summarise-profile.mjs /tmp/prof/*.cpuprofile 30 [functionName]
//
// The groups come from `bench/groups.mjs` (the benchmark's own `makeGroup`, built in a child process, so
// neither tsx nor its loader thread runs in the profiled process). Prints CPU time per group. POOL (default
// 300) groups with pairwise distinct findings are cycled; SECONDS_CPU (default 3) sets how long it runs.
import { cpuUsage } from 'node:process';

import { computeTaskConsensus } from '../dist/index.js';

import { makeGroups } from './groups.mjs';

const POOL = Number(process.env.POOL ?? 300);
const SECONDS = Number(process.env.SECONDS_CPU ?? 3);
const explain = process.argv.includes('--explain');
// What a validator holds after parsing request bodies.
const groups = makeGroups(POOL).map((group) => ({ taskId: group.task_id, members: group.members }));

let sink = 0;
let n = 0;
const start = cpuUsage();
const spent = () => {
  const u = cpuUsage(start);
  return (u.user + u.system) / 1e6;
};
while (spent() < SECONDS) {
  for (let k = 0; k < 100; k++) {
    const group = groups[n++ % POOL];
    const result = computeTaskConsensus({ taskId: group.taskId, members: group.members, explain });
    for (const m of result.members) sink += explain ? m.explanation.findingsRecall.length : m.consensus;
  }
}
const t = spent();
console.log(`${n} groups in ${t.toFixed(2)} s CPU: ${((t / n) * 1e6).toFixed(1)} us a group, ${Math.round(n / t)} groups/s/core (${sink.toFixed(0)})`);
