// Summarises a V8 .cpuprofile (node --cpu-prof) by self time:
//   node bench/summarise-profile.mjs <file.cpuprofile> [top = 30] [functionName]
// With a function name it also lists that function's hottest lines (its positionTicks; with inlining on,
// a caller's lines include the code inlined into it).
import { readFileSync } from 'node:fs';

const [file, topArg, fn] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node bench/summarise-profile.mjs <file.cpuprofile> [top] [functionName]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const frame = byId.get(profile.samples[i]).callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').at(-1)}:${frame.lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 30))) {
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
}
if (fn !== undefined) {
  const lines = new Map();
  for (const node of profile.nodes) {
    if (node.callFrame.functionName !== fn) continue;
    for (const tick of node.positionTicks ?? []) lines.set(tick.line, (lines.get(tick.line) ?? 0) + tick.ticks);
  }
  console.log(`\n${fn}, hottest lines (samples):`);
  for (const [line, ticks] of [...lines.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  line ${line}: ${ticks}`);
}
