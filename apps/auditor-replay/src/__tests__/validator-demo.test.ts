import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import type { AuditReport } from '../index.js';
import { runCli } from '../index.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';

/**
 * The validator app's default `demo` run (apps/validator/src/demo.ts). It is imported by path from the
 * workspace, not as a dependency: the validator depends on this app (`auditor-replay/pages`), and a
 * dependency back would be a cycle.
 */
interface ValidatorApp {
  readonly runDemo: (options: {
    epochs: number;
    out: NodeJS.WritableStream;
    dir?: string;
  }) => Promise<{ dir: string; outcomes: readonly { epoch: number; status: string }[] }>;
}
const validatorEntry = new URL('../../../validator/src/index.ts', import.meta.url).href;

describe("bundles produced by the validator's default run (demo: devnet, SQLite, sample miners over HTTP)", () => {
  it('verify clean: digest, signature, and every recomputed value', async () => {
    const { runDemo } = (await import(/* @vite-ignore */ validatorEntry)) as ValidatorApp;
    const dir = tempDir('auditor-demo-');
    let log = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const result = await runDemo({ epochs: 2, out, dir });
    const bundles = join(result.dir, 'bundles');
    const files = (await readdir(bundles)).filter((f) => f.endsWith('.json'));
    expect(files.length, log).toBeGreaterThanOrEqual(2);
    let stdout = '';
    const code = await runCli(['verify', bundles, '--json'], { stdout: { write: (s: string) => (stdout += s) }, stderr: { isTTY: false, write: () => true } });
    const report = JSON.parse(stdout) as AuditReport;
    expect(report.bundles.filter((b) => b.status !== 'ok').map((b) => ({ source: b.source, error: b.error, first: b.mismatches.slice(0, 3) }))).toEqual([]);
    expect(code).toBe(0);
    expect(report.summary.ok).toBe(files.length);
    // The demo submits its weights to its devnet: the bundles record the submission.
    expect(report.bundles.every((b) => b.checks.signature === true && b.checks.recompute === true)).toBe(true);
  }, 240_000);
});
