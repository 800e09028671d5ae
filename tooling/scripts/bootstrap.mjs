#!/usr/bin/env node
// The README's two commands land here (`npm start`, `npm test`). Only Node.js and npm are assumed: this
// script brings the pinned pnpm through npx when the machine has no matching pnpm, installs the
// workspace, then runs the requested root script (`main` or `check`) under that pnpm.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const task = process.argv[2];
if (task !== 'main' && task !== 'check') {
  console.error('usage: node tooling/scripts/bootstrap.mjs <main|check> [args...]');
  process.exit(2);
}
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`subnet-scoring needs Node.js >= 20.19; this is ${process.versions.node}.`);
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmVersion = String(manifest.packageManager).replace(/^pnpm@/, '');
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  // Native addons (better-sqlite3) build against the headers Node.js ships when no prebuilt binary
  // can be downloaded.
  ...(process.env.npm_config_nodedir || !existsSync('/usr/include/node/node.h') ? {} : { npm_config_nodedir: '/usr' }),
};

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const probe = spawnSync('pnpm', ['--version'], { cwd: root, env, encoding: 'utf8' });
const havePinned = probe.status === 0 && probe.stdout.trim() === pnpmVersion;
const pnpm = havePinned ? ['pnpm'] : ['npx', '--yes', `pnpm@${pnpmVersion}`];
if (!havePinned) console.log(`Using pnpm ${pnpmVersion} through npx (pinned in package.json).`);

const frozen = existsSync(join(root, 'pnpm-lock.yaml')) ? ['--frozen-lockfile'] : [];
const installed = run(pnpm[0], [...pnpm.slice(1), 'install', ...frozen]);
if (installed !== 0) {
  console.error('pnpm install failed; nothing was run.');
  process.exit(installed);
}
process.exit(run(pnpm[0], [...pnpm.slice(1), 'run', task, ...process.argv.slice(3)]));
