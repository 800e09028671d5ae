#!/usr/bin/env node
// Makes sure a headless Chromium is installed for the browser tests of the pages (auditor report, miner
// and validator pages), and prints its path. The tests drive it with puppeteer-core: Debian's own
// `chromium` package, never a browser downloaded by a library.
//
// - SUBNET_TEST_CHROMIUM already set to an executable: nothing to do, it is used as is.
// - `chromium` (or `chromium-browser`) on PATH: use it.
// - Otherwise, on a Debian machine where we are root (CI, the project's dev machines): install the
//   `chromium` package with apt-get.
//
// Exit 0 with the path on the last line of stdout, or exit 1 with the reason on stderr.
import { accessSync, constants, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const quiet = { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' };

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath() {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], quiet);
    const path = found.stdout.trim();
    if (found.status === 0 && path !== '' && executable(path)) return path;
  }
  return undefined;
}

const given = process.env.SUBNET_TEST_CHROMIUM;
if (given) {
  if (!executable(given)) {
    console.error(`SUBNET_TEST_CHROMIUM=${given} is not an executable file.`);
    process.exit(1);
  }
  console.log(given);
  process.exit(0);
}

let path = onPath();
if (path === undefined) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error('Chromium is not installed and this is not a Debian machine where we are root: install chromium or set SUBNET_TEST_CHROMIUM.');
    process.exit(1);
  }
  console.error('Installing Chromium (apt-get install chromium) for the browser tests of the pages...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, { ...quiet, env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed:\n${result.stderr}`);
      process.exit(1);
    }
  }
  path = onPath();
}
if (path === undefined) {
  console.error('chromium was installed but is not on PATH.');
  process.exit(1);
}
const version = spawnSync(path, ['--version'], quiet);
if (version.status !== 0) {
  console.error(`${path} --version failed: ${version.stderr.trim()}`);
  process.exit(1);
}
console.log(path);
