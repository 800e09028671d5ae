// @ts-check
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir } from './temp-dir.js';

/** The `node --import` file that logs every module URL the process resolves (through `module-log-hooks.mjs`). */
export const moduleLogRegister = fileURLToPath(new URL('./module-log-register.mjs', import.meta.url));

/**
 * Runs `node` with the module log on and returns its exit code and the names of the packages it resolved
 * (`zod`, `@polkadot/api`, …), so a test can say what a command loads.
 *
 * @param {readonly string[]} args - node's arguments after the log's `--import` (a script and its arguments, or `-e`)
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, timeout?: number }} options - the folder packages resolve from
 * @returns {{ code: number | null, stderr: string, packages: Set<string> }}
 */
export function packagesLoaded(args, options) {
  const log = join(tempDir('module-log-'), 'modules.log');
  const result = spawnSync(process.execPath, ['--import', moduleLogRegister, ...args], {
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: options.timeout ?? 30_000,
    env: { ...process.env, ...options.env, MODULE_LOG: log },
  });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  /** @type {Set<string>} */
  const packages = new Set();
  for (const url of urls) {
    const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    if (name !== undefined) packages.add(name);
  }
  return { code: result.status, stderr: result.stderr, packages };
}
