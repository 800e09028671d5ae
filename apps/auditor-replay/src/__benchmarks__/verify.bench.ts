import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatKb, sampleTreeRss } from '@subnet/bench-peer';
import { afterAll, bench, describe } from 'vitest';

import type { SignatureVerifier } from '@subnet/bundle';
import { canonicalJson } from '@subnet/core';

import { auditBundle, signatureVerifier } from '../index.js';
import { keys, signedBundle } from '../__tests__/fixtures.js';

/**
 * Verification throughput. One verification = JSON parse + envelope schema + digest (canonical JSON, sha256)
 * + sr25519 signature + full recomputation with `computeEpoch` + value-by-value comparison.
 *
 * - `verify one bundle`: hz = bundles per second at 10, 100 and 256 miners (scaling).
 * - `verify a directory`: the built CLI, as users run it (`node bin/auditor-replay.js verify DIR --jobs N
 *   --json`, its own process and N-1 workers), over 1,000 bundle files of 256 miners (issue 18 item 6: under
 *   12 s with two jobs, under 20 s with one), timed from spawn to exit, with the peak memory of its process
 *   tree. Generating 1,000 distinct 256-miner bundles costs as much as verifying them, so the setup builds and
 *   signs 8 distinct epochs and writes each 125 times under its own file name; nothing is cached between
 *   files, so every file is verified in full. It runs `--jobs 2`, then `--jobs 1` (AUDITOR_BENCH_JOBS=N runs
 *   only N), three times in turn (AUDITOR_BENCH_RUNS), and prints every run and each job count's median and
 *   range: one run on this VM says little, its speed drifts by a third within minutes. Set AUDITOR_BENCH_FILES
 *   to change the file count (default 1000).
 */
const k = await keys();
const verify: SignatureVerifier = await signatureVerifier();
const sizes = [10, 100, 256] as const;
const texts = new Map<number, string[]>();
for (const miners of sizes) {
  texts.set(
    miners,
    // As a validator publishes it (`signedBundleText`): the canonical JSON of the signed document.
    Array.from({ length: 8 }, (_, i) => canonicalJson(signedBundle(k, { miners, epoch: 100 + i }))),
  );
}
const files = Number(process.env.AUDITOR_BENCH_FILES ?? '1000');
/** The built CLI's folder (`bin/`). */
const binDir = fileURLToPath(new URL('../../bin/', import.meta.url));
/** Issue 18 item 6: 1,000 bundles in < 12 s with two jobs and < 20 s with one (both run unless AUDITOR_BENCH_JOBS is set). */
const jobCounts = process.env.AUDITOR_BENCH_JOBS === undefined ? [2, 1] : [Number(process.env.AUDITOR_BENCH_JOBS)];
const targetSeconds = (jobs: number): number => ((jobs >= 2 ? 12 : 20) * files) / 1000;
const dir = await mkdtemp(join(tmpdir(), 'auditor-bench-'));
const big = texts.get(256) ?? [];
for (let i = 0; i < files; i++) await writeFile(join(dir, `bundle-${i}.json`), big[i % big.length] ?? '');
console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, node ${process.version}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${files} files of 256 miners in ${dir}`,
);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('verify one bundle (JSON text -> audit)', () => {
  for (const miners of sizes) {
    let i = 0;
    const list = texts.get(miners) ?? [];
    bench(
      `${miners} miners`,
      () => {
        const text = list[i++ % list.length] ?? '';
        const { audit } = auditBundle(JSON.parse(text), 'bench', verify, { text });
        if (audit.status !== 'ok') throw new Error(`bench bundle did not verify: ${audit.status}`);
      },
      { time: 2000, iterations: 5 },
    );
  }
});

/** Runs of each job count (AUDITOR_BENCH_RUNS, default 3), interleaved: this VM's speed drifts by a third within minutes. */
const runs = Math.max(1, Number(process.env.AUDITOR_BENCH_RUNS ?? '3'));

describe('verify a directory', () => {
  bench(
    `${files} bundles of 256 miners, --jobs ${jobCounts.join(' and ')}, ${runs} interleaved run(s) each (target: 1,000 in < 12 s with two jobs, < 20 s with one)`,
    async () => {
      const seconds = new Map<number, number[]>(jobCounts.map((jobs) => [jobs, []]));
      for (let round = 1; round <= runs; round++) {
        for (const jobs of jobCounts) {
          const started = performance.now();
          const run = await runCli(['verify', dir, '--jobs', String(jobs), '--json']);
          const took = (performance.now() - started) / 1000;
          if (run.code !== 0) throw new Error(`the auditor CLI exited with ${String(run.code)} (its errors are above)`);
          const report = JSON.parse(run.stdout) as { summary: { ok: number } };
          if (report.summary.ok !== files) throw new Error(`expected ${files} ok bundles, got ${report.summary.ok}`);
          seconds.get(jobs)?.push(took);
          console.log(
            `run ${round}/${runs}: verified ${files} bundles of 256 miners with the built CLI, verify --jobs ${jobs} (that process and ${jobs - 1} worker process(es)), in ${took.toFixed(1)} s ` +
              `(${(files / took).toFixed(2)} bundles/s; load average ${loadavg()[0]?.toFixed(2) ?? '?'}); ` +
              `peak RSS ${formatKb(run.rss.processPeakKb)} for the largest single process; for the CLI and its ${run.rss.descendants} worker process(es) together at least ${formatKb(run.rss.treePeakKb)} (sampled every 100 ms) and at most ${formatKb(run.rss.treeUpperKb)} (their peaks summed)`,
          );
        }
      }
      for (const [jobs, list] of seconds) {
        const sorted = [...list].sort((a, b) => a - b);
        const mid = sorted.length / 2;
        const median = sorted.length % 2 === 1 ? (sorted[Math.floor(mid)] ?? Number.NaN) : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
        const target = targetSeconds(jobs);
        const met = list.filter((x) => x < target).length;
        console.log(
          `--jobs ${jobs}: median ${median.toFixed(1)} s of ${list.length} run(s) (${(sorted[0] ?? 0).toFixed(1)}-${(sorted[sorted.length - 1] ?? 0).toFixed(1)} s); ` +
            `target < ${target.toFixed(1)} s for ${files}: ${median < target ? 'met' : 'not met'} by the median, met in ${met} of ${list.length} run(s)`,
        );
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});

/**
 * Runs the built CLI (`bin/auditor-replay.js`, what users run; `pnpm bench` builds it first) with its own
 * process and workers, as `node bin/auditor-replay.js ...` does: its exit code, its standard output and the
 * memory of its process tree.
 */
async function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; rss: ReturnType<ReturnType<typeof sampleTreeRss>['stop']> }> {
  if (!existsSync(join(binDir, '..', 'dist', 'cli.js')))
    throw new Error('the auditor CLI is not built: run `pnpm --filter auditor-replay build` (pnpm bench builds it)');
  const child = spawn(process.execPath, [join(binDir, 'auditor-replay.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.pid === undefined) throw new Error(`the auditor CLI did not start (${process.execPath})`);
  const memory = sampleTreeRss(child.pid, 100);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  return { code, stdout: Buffer.concat(chunks).toString('utf8'), rss: memory.stop() };
}
