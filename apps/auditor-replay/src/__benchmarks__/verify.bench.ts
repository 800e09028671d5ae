import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { formatKb, sampleTreeRss } from '@subnet/bench-peer';
import { afterAll, bench, describe } from 'vitest';

import type { SignatureVerifier } from '@subnet/bundle';
import { canonicalJson } from '@subnet/core';

import { auditBundle, signatureVerifier, verifyBundles } from '../index.js';
import { keys, signedBundle } from '../__tests__/fixtures.js';

/**
 * Verification throughput. One verification = JSON parse + envelope schema + digest (canonical JSON, sha256)
 * + sr25519 signature + full recomputation with `computeEpoch` + value-by-value comparison.
 *
 * - `verify one bundle`: hz = bundles per second at 10, 100 and 256 miners (scaling).
 * - `verify a directory`: the real `verifyBundles` over 1,000 bundle files of 256 miners (issue 18 item 6:
 *   under 12 s with two jobs, under 20 s with one). Generating 1,000 distinct 256-miner bundles costs as much
 *   as verifying them, so the setup builds and signs 8 distinct epochs and writes each 125 times under its
 *   own file name; nothing is cached between files, so every file is verified in full.
 *   It runs with `--jobs 2` (this process and one worker process), then one process (AUDITOR_BENCH_JOBS=N runs only N), as `verify --jobs N` does. Set AUDITOR_BENCH_FILES to change the file count (default 1000).
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

describe('verify a directory', () => {
  for (const jobs of jobCounts) {
    bench(
      `${files} bundles of 256 miners, --jobs ${jobs} (target: 1,000 in < ${jobs >= 2 ? 12 : 20} s)`,
      async () => {
        const started = performance.now();
        // Memory of this process and its worker processes, sampled every 100 ms (Linux /proc).
        const memory = sampleTreeRss(process.pid, 100);
        const report = await verifyBundles([dir], { verify, jobs });
        const rss = memory.stop();
        const seconds = (performance.now() - started) / 1000;
        if (report.summary.ok !== files) throw new Error(`expected ${files} ok bundles, got ${report.summary.ok}`);
        console.log(
          `verified ${files} bundles of 256 miners with --jobs ${jobs} (this process and ${jobs - 1} worker process(es)) in ${seconds.toFixed(1)} s (${(files / seconds).toFixed(2)} bundles/s; ` +
            `target < ${targetSeconds(jobs).toFixed(1)} s for ${files}: ${seconds < targetSeconds(jobs) ? 'met' : 'not met'}; ` +
            `load average ${loadavg()[0]?.toFixed(2) ?? '?'})`,
        );
        console.log(
          `peak RSS: ${formatKb(rss.processPeakKb)} for the largest single process, ${formatKb(rss.treePeakKb)} for this process and its ${rss.descendants} worker process(es) together (sampled every 100 ms)`,
        );
      },
      { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
    );
  }
});
