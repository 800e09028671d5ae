// Profiling driver for one hot path: fresh 5 x 20 groups through the BUILT package (dist), as a validator
// runs it. Build first, then, from packages/consensus:
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile-fresh.mjs [--explain]
//   node bench/summarise-profile.mjs /tmp/prof/*.cpuprofile 30 [functionName]
//
// The groups come from the benchmark's own `makeGroup` (TypeScript), built in a child process through tsx,
// so neither tsx nor its loader thread runs in the profiled process. Prints CPU time per group. POOL (default 300) groups with pairwise distinct findings are cycled; SECONDS_CPU
// (default 3) sets how long it runs.
import { execFileSync } from 'node:child_process';
import { cpuUsage } from 'node:process';
import { fileURLToPath } from 'node:url';

import { computeTaskConsensus } from '../dist/index.js';

const POOL = Number(process.env.POOL ?? 300);
const SECONDS = Number(process.env.SECONDS_CPU ?? 3);
const explain = process.argv.includes('--explain');
const maker = `import { makeGroup } from './src/__benchmarks__/make-group.ts';
process.stdout.write(JSON.stringify(Array.from({ length: ${POOL} }, (_, i) => ({ taskId: 'task-' + i, members: makeGroup(5, 20, i + 1) }))));`;
const text = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', maker], {
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  maxBuffer: 1 << 30,
  encoding: 'utf8',
});
// What a validator holds after parsing request bodies.
const groups = JSON.parse(text);

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
