// What a fresh 5 x 20 group costs next to the two floors any implementation of it pays, measured in the
// same process on the same groups (the benchmark's `makeGroup`, JSON-parsed as a validator holds them):
//
//   - "touch + validate": read every field of the five documents, check each object's prototype and key
//     count and each string's type, length and well-formedness (no keying, no normal forms, no output);
//   - "28 one-shot hashes": node:crypto `hash('sha256', text, 'hex')` of 28 preimages of the same length
//     (a group has 28 distinct findings);
//   - `computeConsensus` of the BUILT package (dist), the whole group.
//
// Build first, then from packages/consensus: `node bench/fresh-floor.mjs` (POOL groups, default 1500, are
// cycled so the inputs are not in cache, as in the benchmark; ROUNDS interleaved rounds of MS ms CPU time;
// the fastest and the median round are printed).
import { hash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { cpuUsage } from 'node:process';

import { computeConsensus } from '../dist/index.js';

import { makeGroups, touch } from './groups.mjs';

const POOL = Number(process.env.POOL ?? 1500);
const ROUNDS = Number(process.env.ROUNDS ?? 25);
const MS = Number(process.env.MS ?? 40);
const groups = makeGroups(POOL).map((group) => group.members);
const preimages = groups.map((_, i) =>
  Array.from({ length: 28 }, (_, k) => `tool_poison|high|src/tools/file_${k % 7}.py#L${i * 100000 + k}-L${i * 100000 + k + 4}||tool_${k % 7}`),
);

let sink = 0;
const cpu = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1e3;
};
const cases = {
  'touch + validate every field': (i) => (sink += touch(groups[i % POOL])),
  '28 one-shot sha256 (hex)': (i) => {
    for (const p of preimages[i % POOL]) sink += hash('sha256', p, 'hex').length;
  },
  'computeConsensus (dist)': (i) => (sink += computeConsensus({ taskId: 't', members: groups[i % POOL] }).n),
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const next = Object.fromEntries(Object.keys(cases).map((k) => [k, 0]));
for (let r = -2; r < ROUNDS; r++) {
  for (const [name, run] of Object.entries(cases)) {
    const start = cpu();
    let n = 0;
    while (cpu() - start < MS) for (let k = 0; k < 20; k++, n++) run(next[name]++);
    if (r >= 0) times[name].push(((cpu() - start) * 1e3) / n);
  }
}
console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, node ${process.version}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
for (const [name, list] of Object.entries(times)) {
  list.sort((a, b) => a - b);
  console.log(`${name.padEnd(30)} fastest ${list[0].toFixed(1).padStart(6)} us   median ${list[list.length >> 1].toFixed(1).padStart(6)} us a group`);
}
if (sink === 0) console.log('(nothing computed)');
