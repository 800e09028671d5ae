#!/usr/bin/env node
// `npm start` lands here (through bootstrap.mjs, after the install): the main job on embedded defaults.
//
// Its final form is the validator's default run (a dev chain, a validator on a SQLite file in a temporary
// folder, sample miners' records for a few epochs, weights landing on chain). Until the validator app has
// that run, this builds the workspace and runs what exists, and says so.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const turboBin = join(root, 'node_modules', '.bin', 'turbo');
console.log('Building the workspace (turbo run build)...');
const built = run(existsSync(turboBin) ? turboBin : 'turbo', ['run', 'build', '--output-logs=errors-only']);
if (built !== 0) {
  console.error('The build failed; nothing was run.');
  process.exit(built);
}

const validatorCli = join(root, 'apps', 'validator', 'dist', 'cli.js');
if (existsSync(validatorCli) && existsSync(join(root, 'apps', 'validator', 'src', 'demo.ts'))) {
  console.log('\nRunning the validator default run (subnet-validator demo)...\n');
  process.exit(run(process.execPath, [validatorCli, 'demo', ...process.argv.slice(2)]));
}

console.log('\nThe validator app and its default run do not exist yet (an open issue); running what exists instead.\n');
let ran = 0;

const minerCheck = join(root, 'apps', 'miner-check', 'dist', 'cli.js');
const examples = join(root, 'apps', 'miner-check', 'examples');
if (existsSync(minerCheck) && existsSync(examples)) {
  const subcommands = readdirSync(examples).sort();
  const argsFor = {
    workflow: ['--task', 'task.json', '--plan', 'plan.json', '--run', 'run.json'],
    sssa: ['--sssa', 'sssa.json', '--peers', 'peers.json'],
    term: ['--results', 'results.json', '--total-tasks', '10'],
    weights: ['--scores', 'scores.json'],
  };
  for (const name of subcommands) {
    const args = argsFor[name];
    if (args === undefined) continue;
    const dir = join(examples, name);
    console.log(`=== miner-check ${name} (apps/miner-check/examples/${name})\n`);
    const status = run(process.execPath, [minerCheck, name, ...args], { cwd: dir });
    if (status !== 0) process.exit(status);
    console.log('');
    ran++;
  }
}

if (ran === 0) {
  // Only the shared core exists: show what it guarantees, the canonical digest every bundle will carry.
  const core = await import(join(root, 'packages', 'core', 'dist', 'index.js'));
  const sample = { netuid: 1, epoch: 42, weights: { b: 0.25, a: 0.75 } };
  console.log('Only @subnet/core is built. Its canonical JSON and digest (SPEC section 0):');
  console.log(`  canonicalJson(${JSON.stringify(sample)})\n    = ${core.canonicalJson(sample)}`);
  console.log(`  digest = ${core.digest(sample)}`);
}
console.log('\nDone.');
