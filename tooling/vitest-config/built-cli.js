// @ts-check
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The first `.ts` source under `dir` (tests left out) changed after `since` (ms), or undefined. */
function newerSource(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '__tests__') continue;
    const path = join(dir, entry.name);
    const found = entry.isDirectory() ? newerSource(path, since) : entry.name.endsWith('.ts') && statSync(path).mtimeMs > since ? path : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Throws, naming the command to run, when the package's built CLI (`dist/cli.js`) is missing or older than one of
 * its source files. The CLI tests spawn the built binary with plain `node`, as users run it (turbo builds a package
 * and its dependencies before their tests); a stale build would test other code than the source beside it.
 *
 * @param {string} packageDir - the package's folder
 */
export function expectBuiltCli(packageDir) {
  const built = join(packageDir, 'dist', 'cli.js');
  const name = relative(packageDir, built);
  if (!existsSync(built)) throw new Error(`${name} is missing: run \`pnpm build\` (turbo builds before it tests)`);
  const newer = newerSource(join(packageDir, 'src'), statSync(built).mtimeMs);
  if (newer !== undefined) throw new Error(`${name} is older than ${relative(packageDir, newer)}: run \`pnpm build\` so the CLI tests run this source`);
}
