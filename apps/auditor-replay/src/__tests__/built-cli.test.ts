import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { runCli } from '../index.js';
import { keys, signedBundle } from './fixtures.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';

const appDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(appDir, 'bin', 'auditor-replay.js');

/**
 * Runs the built CLI (`bin/auditor-replay.js` -> `dist/cli.js`, built by `tsup`; turbo's `test` depends on
 * `build` and on its dependencies' builds) with plain `node`, as a user runs it.
 */
function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: appDir, timeout: 50_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

let good: string;
let bad: string;
beforeAll(async () => {
  expectBuiltCli(appDir);
  const k = await keys();
  const dir = tempDir('auditor-bin-', 'file');
  good = join(dir, 'good');
  bad = join(dir, 'bad.json');
  await mkdir(good);
  const b = signedBundle(k, { miners: 4, epoch: 5 });
  await writeFile(join(good, 'epoch-5.json'), JSON.stringify(b));
  const tampered = JSON.parse(JSON.stringify(b)) as { bundle: { inputs: { term_results: { results: { tests_passed: number; tests_total: number }[] }[] } } };
  const task = tampered.bundle.inputs.term_results[0]!.results[0]!;
  task.tests_passed = task.tests_passed === task.tests_total ? 0 : task.tests_total;
  await writeFile(bad, JSON.stringify(tampered));
});

describe('the built auditor-replay binary', () => {
  it('exits 0 on honest bundles, 1 on a tampered one (digest and recomputation); --jobs 2 gives the same report as one process', async () => {
    const [ok, parallel] = await Promise.all([run(['verify', good]), run(['verify', good, bad, '--json', '--jobs', '2'])]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('1 bundle(s): 1 ok');
    expect(parallel.code).toBe(1);
    const report = JSON.parse(parallel.stdout) as {
      bundles: { status: string; checks: { digest: boolean; recompute: boolean }; mismatches: { stage: string }[] }[];
    };
    expect(report.bundles.map((b) => b.status)).toEqual(['ok', 'mismatch']);
    expect(report.bundles[1]?.checks).toMatchObject({ digest: false, recompute: false });
    expect(report.bundles[1]?.mismatches.some((m) => m.stage === 'challenges[term].details.pass_rates')).toBe(true);
    // The two worker processes (dist/verify-worker.js) give the same report, in the same order, as this process alone.
    let single = '';
    expect(
      await runCli(['verify', good, bad, '--json'], { stdout: { write: (s: string) => (single += s) }, stderr: { isTTY: false, write: () => true } }),
    ).toBe(1);
    expect(JSON.parse(parallel.stdout)).toEqual(JSON.parse(single));
  });

  it('--jobs 2 over more files than the workers hold ahead keeps every file, in order', async () => {
    // Seven files, good and tampered alternating: each worker holds two at a time and is topped up as it answers.
    const dir = tempDir('auditor-bin-');
    const names = Array.from({ length: 7 }, (_, i) => join(dir, `bundle-${i}.json`));
    await Promise.all(names.map(async (name, i) => writeFile(name, await readFile(i % 2 === 0 ? join(good, 'epoch-5.json') : bad))));
    const parallel = await run(['verify', dir, '--json', '--jobs', '2']);
    expect(parallel.code).toBe(1);
    const report = JSON.parse(parallel.stdout) as { bundles: { source: string; status: string }[] };
    expect(report.bundles.map((b) => [b.source, b.status])).toEqual(names.map((name, i) => [name, i % 2 === 0 ? 'ok' : 'mismatch']));
  });
});
