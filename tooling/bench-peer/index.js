// Peer benchmarks: a Python replica and our code on identical input, outputs compared before timing,
// figures printed as a ratio measured in the same run. Used by the packages' `pnpm bench`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const harness = join(dirname(fileURLToPath(import.meta.url)), 'peer_harness.py');
const PROBE = 'import sys\ntry:\n import numpy; n=numpy.__version__\nexcept Exception: n=""\nprint(sys.version.split()[0], n or "-", sys.executable)';
let chosen;

/**
 * The Python that runs the peers: SUBNET_BENCH_PYTHON when set, else the first of `python3` (PATH) and
 * `/usr/bin/python3` that has numpy, else the first that runs at all; null when none does.
 */
function python() {
  if (chosen !== undefined) return chosen;
  const candidates = process.env.SUBNET_BENCH_PYTHON ? [process.env.SUBNET_BENCH_PYTHON] : ['python3', '/usr/bin/python3'];
  const found = [];
  for (const command of candidates) {
    const probe = spawnSync(command, ['-c', PROBE], { encoding: 'utf8' });
    if (probe.status !== 0 || typeof probe.stdout !== 'string') continue;
    const [py, np, executable] = probe.stdout.trim().split(' ');
    found.push({ command, python: py, numpy: np === undefined || np === '-' ? null : np, executable: executable ?? command });
  }
  chosen = found.find((p) => p.numpy !== null) ?? found[0] ?? null;
  return chosen;
}

/** The load average, one decimal each (1, 5, 15 minutes). */
export function loadLine() {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

export function machineLine() {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const py = python();
  const peer = py === null ? 'python3 absent' : `Python ${py.python}${py.numpy === null ? ' (numpy absent)' : `, numpy ${py.numpy}`} (${py.executable})`;
  return `machine: ${cpu} x${cpus().length}, Node.js ${process.version}, ${peer}; load average ${loadLine()}; ${new Date().toISOString().slice(0, 16)}Z`;
}

const INSTALL = 'apt-get install -y python3 python3-numpy, or SUBNET_BENCH_PYTHON=/path/to/python3';

function runHarness(script, inputFile, seconds, clock = 'wall') {
  const py = python();
  const dir = mkdtempSync(join(tmpdir(), 'subnet-bench-peer-'));
  try {
    const outputFile = join(dir, 'output.json');
    const env = { ...process.env };
    // Benchmarks against numpy run its fastest kernel (tests never change these).
    delete env.OPENBLAS_CORETYPE;
    delete env.OPENBLAS_L2_SIZE;
    // The peers are imported from the source tree: no bytecode cache written next to them.
    env.PYTHONDONTWRITEBYTECODE = '1';
    const run = spawnSync(py.command, [harness, script, inputFile, outputFile, String(seconds), clock], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) return { absent: `peer failed: ${(run.stderr || run.stdout || '').trim().split('\n').slice(-3).join(' | ')}` };
    const result = JSON.parse(readFileSync(outputFile, 'utf8'));
    return { output: result.output, nsPerOp: result.ns_per_op, peakRssKb: result.peak_rss_kb };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function absentReason(needs) {
  const py = python();
  if (py === null) return `peer absent: python3 is not installed (${INSTALL})`;
  if (needs.includes('numpy') && py.numpy === null) return `peer absent: numpy is not installed for ${py.executable} (${INSTALL})`;
  return null;
}

export function runPythonPeer({ script, input, seconds = 1, needs = [] }) {
  const reason = absentReason(needs);
  if (reason !== null) return { absent: reason };
  const dir = mkdtempSync(join(tmpdir(), 'subnet-bench-peer-'));
  try {
    const inputFile = join(dir, 'input.json');
    writeFileSync(inputFile, JSON.stringify(input));
    return runHarness(script, inputFile, seconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Nanoseconds of CPU time this process has used (user + system, every thread). */
function cpuNs() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) * 1000;
}

function wallNs() {
  return Number(process.hrtime.bigint());
}

/**
 * Times `fn` after a warm-up for about `seconds` of the chosen clock: `wall` (elapsed time) or `cpu` (CPU
 * time of this process, so time spent waiting for a core while other processes run does not count).
 */
export function timeOurs(fn, seconds = 1, clock = 'wall') {
  const now = clock === 'cpu' ? cpuNs : wallNs;
  const warmEnd = now() + seconds * 0.3e9;
  let sink;
  while (now() < warmEnd) sink = fn();
  let calls = 0;
  let batch = 1;
  const start = now();
  const budget = seconds * 1e9;
  for (;;) {
    for (let i = 0; i < batch; i++) sink = fn();
    calls += batch;
    const elapsed = now() - start;
    if (elapsed >= budget) {
      globalThis.__benchSink = sink;
      return elapsed / calls;
    }
    if (batch < 1 << 20) batch *= 2;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * One comparison, measured so that load from other processes hits both sides alike: the peer's output is
 * taken first and handed to `check` (which throws when it differs from ours; nothing is timed then), then
 * `rounds` rounds alternate a peer round and one of ours of `seconds` each, both on the CPU-time clock of
 * their own process (time spent waiting for a core does not count). Each side's figure is its fastest
 * round; the median of the per-round ratios is kept too.
 */
export function comparePeer({ name, unit, script, input, ours, check, needs = [], rounds = 5, seconds = 0.3 }) {
  const reason = absentReason(needs);
  if (reason !== null) return { name, unit, peer: { absent: reason }, oursNsPerOp: timeOurs(ours, seconds * rounds, 'cpu') };
  const dir = mkdtempSync(join(tmpdir(), 'subnet-bench-peer-'));
  try {
    const inputFile = join(dir, 'input.json');
    writeFileSync(inputFile, JSON.stringify(input));
    const first = runHarness(script, inputFile, 0);
    if (first.absent !== undefined) return { name, unit, peer: first, oursNsPerOp: timeOurs(ours, seconds * rounds, 'cpu') };
    check(first.output);
    const peerRounds = [];
    const ourRounds = [];
    let peakRssKb = first.peakRssKb;
    for (let r = 0; r < rounds; r++) {
      const peer = runHarness(script, inputFile, seconds, 'cpu');
      if (peer.absent !== undefined) return { name, unit, peer, oursNsPerOp: timeOurs(ours, seconds * rounds, 'cpu') };
      peerRounds.push(peer.nsPerOp);
      peakRssKb = Math.max(peakRssKb, peer.peakRssKb);
      ourRounds.push(timeOurs(ours, seconds, 'cpu'));
    }
    return {
      name,
      unit,
      peer: { output: first.output, nsPerOp: Math.min(...peerRounds), peakRssKb, rounds: peerRounds },
      oursNsPerOp: Math.min(...ourRounds),
      oursRounds: ourRounds,
      medianRatio: median(peerRounds.map((p, i) => p / ourRounds[i])),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} us`;
  return `${ns.toFixed(1)} ns`;
}

export function printRatioTable(title, rows) {
  const lines = [`\n${title}`, machineLine()];
  const rounds = rows.find((r) => r.oursRounds !== undefined)?.oursRounds?.length;
  if (rounds !== undefined) {
    lines.push(
      `each side: CPU time per call (its own process, user + system), the fastest of ${rounds} interleaved rounds; median ratio: the median of the ${rounds} per-round ratios`,
    );
  }
  lines.push('');
  const header = ['case', 'unit', 'peer (Python)', 'ours', 'peer / ours', 'median ratio'];
  const table = rows.map((row) => [
    row.name,
    row.unit ?? '',
    row.peer.absent === undefined ? formatNs(row.peer.nsPerOp) : row.peer.absent,
    formatNs(row.oursNsPerOp),
    row.peer.absent === undefined ? `${(row.peer.nsPerOp / row.oursNsPerOp).toFixed(1)}x` : 'peer absent',
    row.medianRatio === undefined ? '-' : `${row.medianRatio.toFixed(1)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const fmt = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  lines.push(fmt(header), `|${widths.map((w, i) => (i >= 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`, ...table.map(fmt));
  console.log(lines.join('\n'));
}

/** This process's peak resident set (VmHWM) in KiB, or null where /proc is missing. */
export function peakRssKb(pid = process.pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}

function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    return { rss: rss === null ? 0 : Number(rss[1]), hwm: hwm === null ? 0 : Number(hwm[1]) };
  } catch {
    return null;
  }
}

function descendants(root) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 2nd field after the parenthesised command name.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const pid = frontier.pop();
    for (const [child, parent] of parentOf) {
      if (parent === pid) {
        out.push(child);
        frontier.push(child);
      }
    }
  }
  return out;
}

/**
 * Samples the memory of a process and its descendants every `intervalMs` until `stop()`. A sampled sum of
 * resident sets misses any peak that falls between two samples, so the tree's peak is given as bounds:
 * `treePeakKb`, the larger of the largest sampled sum and the largest single process's own peak (VmHWM,
 * which the kernel keeps exactly), is a lower bound; `treeUpperKb`, the sum of every process's own peak,
 * is an upper bound (the processes' peaks need not coincide). `processPeakKb` is the largest single peak.
 * A root that exits before `stop()` (a child process run to its end) keeps what was last read. Linux only
 * (/proc); elsewhere, or when the root was never read, `stop()` returns nulls.
 */
export function sampleTreeRss(rootPid = process.pid, intervalMs = 100) {
  let sampledPeakKb = 0;
  /** Each process's own peak, as last read. */
  const peakByPid = new Map();
  let supported = true;
  let sampled = false;
  const read = (pid) => {
    const m = rssOf(pid);
    if (m === null) return null;
    peakByPid.set(pid, Math.max(peakByPid.get(pid) ?? 0, m.hwm));
    return m.rss;
  };
  const sample = () => {
    const self = read(rootPid);
    if (self === null) {
      // Unsupported when never read; a root that has exited since keeps the figures last read.
      if (!sampled) supported = false;
      return;
    }
    sampled = true;
    let sum = self;
    for (const pid of descendants(rootPid)) sum += read(pid) ?? 0;
    sampledPeakKb = Math.max(sampledPeakKb, sum);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      if (!supported) return { treePeakKb: null, treeUpperKb: null, processPeakKb: null, descendants: 0 };
      const peaks = [...peakByPid.values()];
      const processPeakKb = Math.max(0, ...peaks);
      return {
        treePeakKb: Math.max(sampledPeakKb, processPeakKb),
        treeUpperKb: peaks.reduce((a, b) => a + b, 0),
        processPeakKb,
        descendants: peakByPid.size - 1,
      };
    },
  };
}

/** KiB as MiB with one decimal, or "n/a". */
export function formatKb(kb) {
  return kb === null || kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(1)} MiB`;
}

/**
 * Runs a package's `bench/peers.mjs` in plain Node on the built packages (vitest's module runner slows every
 * call between source files and would measure itself), from that package's vitest bench file. When one of
 * `built` is missing the comparison is skipped with a line saying what to build; a failing script throws.
 *
 * @param {string} script - the script's path
 * @param {readonly string[]} built - the dist files it imports (the package's and its dependencies')
 * @param {string} packages - what to build, in words (`@subnet/core and @subnet/composite`)
 */
export function runPeerScript(script, built, packages) {
  if (!built.every((file) => existsSync(file))) {
    console.log(`peer comparison skipped: build ${packages} first (pnpm bench at the root does)`);
    return;
  }
  const run = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`bench/peers.mjs failed (exit ${String(run.status)})`);
}
