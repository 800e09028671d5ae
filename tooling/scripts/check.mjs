#!/usr/bin/env node
// `pnpm check`: build, lint, typecheck and every test of every workspace package through turbo, then one
// closing line that sums every package's vitest results: "tests: N passed, N failed, N skipped".
// Any failure (lint, types, a test, or no test at all) exits non-zero.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { summariseResults } from './test-summary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const workspaceDirs = ['packages', 'apps', 'tooling']
  .flatMap((group) => (existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(root, group, name)) : []))
  .filter((dir) => existsSync(join(dir, 'package.json')));

for (const dir of workspaceDirs) rmSync(join(dir, '.vitest'), { recursive: true, force: true });

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };

// The validator's storage tests run against SQLite and a real PostgreSQL on 127.0.0.1.
const postgres = spawnSync(process.execPath, [join(root, 'tooling', 'scripts', 'ensure-postgres.mjs')], {
  cwd: root,
  env,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const databaseUrl = postgres.status === 0 ? postgres.stdout.trim().split('\n').at(-1) : undefined;
if (databaseUrl) env.SUBNET_TEST_DATABASE_URL = databaseUrl;
else if (process.env.CI) {
  console.error('CI needs PostgreSQL for the storage tests and it could not be provided (see above).');
  process.exit(1);
} else console.error('warning: no PostgreSQL for the storage tests; they will report themselves skipped.');

// The pages (auditor report, miner and validator pages) are tested in Debian's headless Chromium.
const chromium = spawnSync(process.execPath, [join(root, 'tooling', 'scripts', 'ensure-chromium.mjs')], {
  cwd: root,
  env,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const chromiumPath = chromium.status === 0 ? chromium.stdout.trim().split('\n').at(-1) : undefined;
if (chromiumPath) env.SUBNET_TEST_CHROMIUM = chromiumPath;
else if (process.env.CI) {
  console.error('CI needs Chromium for the browser tests of the pages and it could not be provided (see above).');
  process.exit(1);
} else console.error('warning: no Chromium for the browser tests of the pages; they will report themselves skipped.');

// Formatting is a tool's job: prettier checks every source file (part of lint; `pnpm format` fixes).
const prettierBin = join(root, 'node_modules', '.bin', 'prettier');
const prettier = spawnSync(existsSync(prettierBin) ? prettierBin : 'prettier', ['--check', '--log-level', 'warn', '.'], { cwd: root, env, stdio: 'inherit' });
if (prettier.status !== 0) console.error('prettier: files above are not formatted (run `pnpm format`).');
const turboBin = join(root, 'node_modules', '.bin', 'turbo');
const turboCommand = existsSync(turboBin) ? turboBin : 'turbo';

/** Runs turbo with `args`; resolves to its exit status (1 when it could not be started). */
function runTurbo(args) {
  return new Promise((resolve) => {
    const child = spawn(turboCommand, ['run', ...args], { cwd: root, env, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`could not run turbo: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

// The validator's tests are the longest suite (about 15 minutes on two cores, much of it waiting on a dev
// chain and on spawned processes) and they need every package built. Left to turbo's own order they
// started after nearly everything else, so the run took their length on top of the rest. So: build every
// package first, then start the validator's tests at once, beside everything else on two more slots.
// The later runs are `--only`: they do not restore the builds from turbo's cache while tests read them.
// With arguments (`pnpm check --filter=...`) it is one turbo run, as before.
// pnpm 10 passes a `--` on to the script (`pnpm check -- --filter=x`, the npm habit): dropped, or turbo would take
// the filter as an argument of every task and run all the packages.
const extra = process.argv.slice(2);
if (extra[0] === '--') extra.shift();
let turboFailed;
if (extra.length > 0) {
  turboFailed = (await runTurbo(['lint', 'typecheck', 'test', '--continue', '--concurrency=3', ...extra])) !== 0;
} else {
  const built = await runTurbo(['build', '--output-logs=errors-only']);
  if (built !== 0) console.error('the build failed (see above); the tests that run built binaries will fail too.');
  const [longest, rest] = await Promise.all([
    runTurbo(['test', '--filter=validator', '--only']),
    runTurbo(['lint', 'typecheck', 'test', '--only', '--continue', '--concurrency=2', '--filter=!validator']).then(async (code) => {
      const own = await runTurbo(['lint', 'typecheck', '--only', '--continue', '--filter=validator']);
      return code !== 0 ? code : own;
    }),
  ]);
  turboFailed = built !== 0 || longest !== 0 || rest !== 0;
}

const { rows, failures, passed, failed, skipped } = summariseResults(root, workspaceDirs);
console.log('\nPer package:');
for (const row of rows) console.log(row);
if (failures.length > 0) {
  console.log('\nFailed:');
  for (const line of failures) console.log(line);
}
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);

if (turboFailed) console.error('lint, typecheck or a test task failed (see above).');
if (passed === 0) console.error('no test ran: that is a failure, not a pass.');
process.exit(turboFailed || prettier.status !== 0 || failed > 0 || passed === 0 ? 1 : 0);
