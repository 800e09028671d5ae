import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectBuiltCli } from '@subnet/vitest-config/built-cli';
import { tempDir } from '@subnet/vitest-config/temp-dir';

export const appDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cli = join(appDir, 'dist', 'cli.js');
export const examples = join(appDir, 'examples');

/** The outcome of one run of the built CLI. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Fails loudly when the CLI has not been built (turbo builds it before `test`). */
export function requireBuiltCli(): void {
  expectBuiltCli(appDir);
}

/** Runs the built CLI as a subprocess, optionally feeding standard input. */
export function runCli(args: readonly string[], input?: string): CliRun {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: appDir, input: input ?? '', encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Parses the single JSON object a --json run prints. */
export function jsonOf(run: CliRun): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one JSON line on stdout, got:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/** Writes a scratch file and returns its path. */
export function scratchFile(name: string, content: string): string {
  const dir = tempDir('miner-check-');
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

export const example = (...parts: string[]) => join(examples, ...parts);
