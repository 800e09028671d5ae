// Peer benchmarks: a Python replica and our code on identical input, outputs compared before timing,
// figures printed as a ratio measured in the same run. Used by the packages' `pnpm bench`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const harness = join(dirname(fileURLToPath(import.meta.url)), 'peer_harness.py');
let pythonVersions;

function python() {
  if (pythonVersions !== undefined) return pythonVersions;
  const probe = spawnSync('python3', ['-c', 'import sys\ntry:\n import numpy; n=numpy.__version__\nexcept Exception: n=""\nprint(sys.version.split()[0], n)'], {
    encoding: 'utf8',
  });
  if (probe.status !== 0) pythonVersions = null;
  else {
    const [py, np] = probe.stdout.trim().split(' ');
    pythonVersions = { python: py, numpy: np === undefined || np === '' ? null : np };
  }
  return pythonVersions;
}

export function machineLine() {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const py = python();
  const peer = py === null ? 'python3 absent' : `Python ${py.python}${py.numpy === null ? ' (numpy absent)' : `, numpy ${py.numpy}`}`;
  return `machine: ${cpu} x${cpus().length}, Node.js ${process.version}, ${peer}`;
}

export function runPythonPeer({ script, input, seconds = 1, needs = [] }) {
  const py = python();
  if (py === null) return { absent: 'peer absent: python3 is not installed (apt-get install python3 python3-numpy)' };
  if (needs.includes('numpy') && py.numpy === null) return { absent: 'peer absent: numpy is not installed (apt-get install python3-numpy)' };
  const dir = mkdtempSync(join(tmpdir(), 'subnet-bench-peer-'));
  try {
    const inputFile = join(dir, 'input.json');
    const outputFile = join(dir, 'output.json');
    writeFileSync(inputFile, JSON.stringify(input));
    const env = { ...process.env };
    // Benchmarks against numpy run its fastest kernel (tests never change these).
    delete env.OPENBLAS_CORETYPE;
    delete env.OPENBLAS_L2_SIZE;
    const run = spawnSync('python3', [harness, script, inputFile, outputFile, String(seconds)], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) return { absent: `peer failed: ${(run.stderr || run.stdout || '').trim().split('\n').slice(-3).join(' | ')}` };
    const result = JSON.parse(readFileSync(outputFile, 'utf8'));
    return { output: result.output, nsPerOp: result.ns_per_op, peakRssKb: result.peak_rss_kb };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function timeOurs(fn, seconds = 1) {
  const warmEnd = process.hrtime.bigint() + BigInt(Math.round(seconds * 0.3e9));
  let sink;
  while (process.hrtime.bigint() < warmEnd) sink = fn();
  let calls = 0;
  let batch = 1;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  for (;;) {
    for (let i = 0; i < batch; i++) sink = fn();
    calls += batch;
    const elapsed = process.hrtime.bigint() - start;
    if (elapsed >= budget) {
      globalThis.__benchSink = sink;
      return Number(elapsed) / calls;
    }
    if (batch < 1 << 20) batch *= 2;
  }
}

function formatNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} us`;
  return `${ns.toFixed(1)} ns`;
}

export function printRatioTable(title, rows) {
  const lines = [`\n${title}`, machineLine(), ''];
  const header = ['case', 'unit', 'peer (Python)', 'ours', 'peer / ours'];
  const table = rows.map((row) => [
    row.name,
    row.unit ?? '',
    row.peer.absent === undefined ? formatNs(row.peer.nsPerOp) : row.peer.absent,
    formatNs(row.oursNsPerOp),
    row.peer.absent === undefined ? `${(row.peer.nsPerOp / row.oursNsPerOp).toFixed(1)}x` : 'peer absent',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  lines.push(fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...table.map(fmt));
  console.log(lines.join('\n'));
}
