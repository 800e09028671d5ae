// @ts-check
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

/**
 * Workspace packages export a `@subnet/source` condition pointing at `src/index.ts` (scoped, so no other
 * tool's `source` condition picks it up, and left out of the published manifest); resolving it first
 * lets `pnpm test` run straight from source, with no build before it.
 */
const conditions = ['@subnet/source', 'module', 'node', 'development|production'];

/**
 * A test file that replaces modules or globals needs a module graph (and a process) of its own: `vi.mock`,
 * `vi.stubGlobal` and the like, or an assignment over a global's method (`console.error = ...`,
 * `console[method] = ...`, `Date.now = ...`, `process.exit = ...`, `globalThis.x = ...`).
 */
const NEEDS_ISOLATION =
  /\bvi\.(mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules)\(|^\s*(console(\.\w+|\[[^\]]+\])|globalThis\.\w+|Date\.now|process\.(exit|stdout\.write|stderr\.write|emitWarning))\s*=[^=]/m;

/** The `*.test.ts` files under `dir` (relative to `root`) whose source replaces modules or globals. */
function filesNeedingIsolation(root, dir) {
  if (!existsSync(join(root, dir))) return [];
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts') && NEEDS_ISOLATION.test(readFileSync(path, 'utf8'))) found.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return found.sort();
}

/**
 * The shared vitest preset. Besides the console reporter it writes `.vitest/results.json`, which the
 * root check script sums into one closing line for the whole workspace.
 *
 * Time limits are generous (60 s a test) because CI runs several packages at once on two cores and pure-JS
 * crypto (sr25519, BLS pairings) slows down a lot under load; a limit exists to catch hangs, not to
 * measure speed (benchmarks do that).
 *
 * Test files share one module graph per worker (`isolate: false`): with a graph of its own, each file loaded
 * @polkadot/api, the dev chain and the workspace's sources again, which was about half of the CPU time of the
 * validator's suite (813 s with, 459 s without, on two cores). A file that replaces a module or a global
 * (`vi.mock`, `vi.stubGlobal`, `vi.stubEnv`, `vi.resetModules`) is found by its source and runs in a project of
 * its own with a fresh graph, as is a file that assigns over a global's method (`console[method] = ...`), so
 * its replacement never leaks into another file. What else a file changes in
 * the process (environment variables, `process.on` listeners, servers) it undoes in its own `afterAll`.
 *
 * @param {{ testTimeout?: number, hookTimeout?: number, fileParallelism?: boolean, include?: string[] }} [options]
 */
export function packageTestConfig(options = {}) {
  const include = options.include ?? ['src/**/*.test.ts'];
  const isolated = options.include === undefined ? filesNeedingIsolation(process.cwd(), 'src') : [];
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@subnet/source'] } },
    test: {
      // With projects, each names its own files (an include here would be added to theirs).
      ...(isolated.length === 0 ? { include } : {}),
      reporters: ['default', ['json', { outputFile: '.vitest/results.json' }]],
      testTimeout: options.testTimeout ?? 60_000,
      hookTimeout: options.hookTimeout ?? 120_000,
      fileParallelism: options.fileParallelism ?? true,
      // Before every test file: registers the removal of that file's `file`-scoped temp folders (temp-dir.js).
      setupFiles: [fileURLToPath(new URL('./temp-dir-setup.js', import.meta.url))],
      isolate: false,
      benchmark: { include: ['src/__benchmarks__/**/*.bench.ts'] },
      typecheck: { enabled: false },
      ...(isolated.length === 0
        ? {}
        : {
            projects: [
              { extends: true, test: { name: 'shared', isolate: false, include, exclude: isolated } },
              { extends: true, test: { name: 'isolated', isolate: true, include: isolated } },
            ],
          }),
    },
  });
}
