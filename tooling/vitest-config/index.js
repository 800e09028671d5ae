// @ts-check
import { defineConfig } from 'vitest/config';

/**
 * Workspace packages export a `@subnet/source` condition pointing at `src/index.ts` (scoped, so no other
 * tool's `source` condition picks it up, and left out of the published manifest); resolving it first
 * lets `pnpm test` run straight from source, with no build before it.
 */
const conditions = ['@subnet/source', 'module', 'node', 'development|production'];

/**
 * The shared vitest preset. Besides the console reporter it writes `.vitest/results.json`, which the
 * root check script sums into one closing line for the whole workspace.
 *
 * Time limits are generous (60 s a test) because CI runs several packages at once on two cores and pure-JS
 * crypto (sr25519, BLS pairings) slows down a lot under load; a limit exists to catch hangs, not to
 * measure speed (benchmarks do that).
 *
 * @param {{ testTimeout?: number, hookTimeout?: number, fileParallelism?: boolean, include?: string[] }} [options]
 */
export function packageTestConfig(options = {}) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@subnet/source'] } },
    test: {
      include: options.include ?? ['src/**/*.test.ts'],
      reporters: ['default', ['json', { outputFile: '.vitest/results.json' }]],
      testTimeout: options.testTimeout ?? 60_000,
      hookTimeout: options.hookTimeout ?? 120_000,
      fileParallelism: options.fileParallelism ?? true,
      benchmark: { include: ['src/__benchmarks__/**/*.bench.ts'] },
      typecheck: { enabled: false },
    },
  });
}
