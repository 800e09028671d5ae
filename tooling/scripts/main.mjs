#!/usr/bin/env node
// `npm start` lands here (through bootstrap.mjs, after the install): the main job on embedded defaults,
// which is the validator's default run. It builds the workspace's JavaScript, then runs `subnet-validator demo`: a
// local dev chain, a validator on a SQLite file in a temporary folder, sample miners' records over HTTP
// for a few epochs, weights landing on chain, and a table of weights per epoch with the bundle paths.
// Extra arguments are passed to the demo (for example `npm start -- --epochs 5`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// SUBNET_BUILD=js: the run needs the packages' JavaScript, not their declarations or CommonJS builds, which take about
// two thirds of a build (tooling/tsup-config). turbo keys its cache on it, so `npm test` still builds them in full.
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', SUBNET_BUILD: 'js' };

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const turboBin = join(root, 'node_modules', '.bin', 'turbo');
// Said, because a full build's declarations and CommonJS files in dist/ are replaced by this build's (turbo restores
// them from its cache at the next full build, `npm test`).
console.log('Building the workspace, JavaScript only (turbo run build; dist/ gets no type declarations or CommonJS builds: `npm test` builds them)...');
const built = run(existsSync(turboBin) ? turboBin : 'turbo', ['run', 'build', '--output-logs=errors-only']);
if (built !== 0) {
  console.error('The build failed; nothing was run.');
  process.exit(built);
}

console.log('\nRunning the validator default run (subnet-validator demo)...\n');
process.exit(run(process.execPath, [join(root, 'apps', 'validator', 'dist', 'cli.js'), 'demo', ...process.argv.slice(2)]));
