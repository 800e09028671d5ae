// Same-process A/B of two BUILT copies of the package on the benchmark's fresh 5 x 20 groups: on a VM whose
// speed drifts by a third between minutes, only alternated rounds in one process compare two versions.
// Build first, then from packages/consensus:
//
//   node bench/ab-fresh.mjs A/dist/index.js [B/dist/index.js]
//
// A is the baseline's build (say a clone at an older commit), B defaults to this package's dist. Both must score every group
// alike (JSON of the whole result, sentences included) before any timing. ROUNDS (default 30) pairs of
// MS ms (default 50) CPU-time rounds alternate A and B; POOL (default 300) groups with pairwise distinct
// findings are cycled, so every group is cold as in the benchmark. Prints each side's fastest, first
// quartile and median microseconds per group and the median (and quartiles) of the per-round ratios B/A.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const POOL = Number(process.env.POOL ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const MS = Number(process.env.MS ?? 50);
const here = fileURLToPath(new URL('..', import.meta.url));
const [aPath, bPath = `${here}dist/index.js`] = process.argv.slice(2);
if (aPath === undefined) {
  console.error('usage: node bench/ab-fresh.mjs A/dist/index.js [B/dist/index.js] (A: the baseline build)');
  process.exit(2);
}
const A = (await import(pathToFileURL(aPath).href)).computeTaskConsensus;
const B = (await import(pathToFileURL(bPath).href)).computeTaskConsensus;
const maker = `import { makeGroup } from './src/__benchmarks__/make-group.ts';
process.stdout.write(JSON.stringify(Array.from({ length: ${POOL} }, (_, i) => makeGroup(5, 20, i + 1))));`;
const groups = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', maker], { cwd: here, maxBuffer: 1 << 30, encoding: 'utf8' }),
);

for (let i = 0; i < POOL; i++) {
  const a = JSON.stringify(A({ taskId: 't', members: groups[i], explain: true }));
  const b = JSON.stringify(B({ taskId: 't', members: groups[i], explain: true }));
  if (a !== b) throw new Error(`A and B score group ${i} differently`);
}
const cpu = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1e3;
};
let sink = 0;
let next = 0;
const sides = { A, B };
const times = { A: [], B: [] };
for (let r = -2; r < ROUNDS; r++) {
  for (const [name, run] of Object.entries(sides)) {
    const start = cpu();
    let n = 0;
    while (cpu() - start < MS) for (let k = 0; k < 20; k++, n++) sink += run({ taskId: 't', members: groups[next++ % POOL], explain: false }).members.length;
    if (r >= 0) times[name].push(((cpu() - start) * 1e3) / n);
  }
}
const ratios = times.A.map((a, i) => times.B[i] / a).sort((x, y) => x - y);
const at = (list, q) => list[Math.floor(q * (list.length - 1))];
console.log(
  `A ${aPath}\nB ${bPath}\nload average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, ${ROUNDS} alternated rounds of ${MS} ms CPU`,
);
for (const [name, list] of Object.entries(times)) {
  list.sort((x, y) => x - y);
  console.log(`${name}: fastest ${list[0].toFixed(1)} us, q1 ${at(list, 0.25).toFixed(1)} us, median ${at(list, 0.5).toFixed(1)} us a group`);
}
console.log(
  `B/A per round: median ${at(ratios, 0.5).toFixed(3)} (q1 ${at(ratios, 0.25).toFixed(3)}, q3 ${at(ratios, 0.75).toFixed(3)})${sink === 0 ? ' (nothing computed)' : ''}`,
);
