// @ts-check
/**
 * The shared tsup preset: ESM only, Node >= 20.19, declarations, source maps, one entry per public
 * module. Packages call it from their `tsup.config.ts` and pass extra entries (for example a CLI).
 *
 * Apps pass `dts: false`: nobody imports their types, and declarations are the slowest part of a build.
 *
 * @param {{ entry?: string[] | Record<string, string>, platform?: 'node' | 'neutral', banner?: string, dts?: boolean }} [options]
 * @returns {import('tsup').Options}
 */
export function packageConfig(options = {}) {
  return {
    entry: options.entry ?? ['src/index.ts'],
    format: ['esm'],
    target: 'node20',
    platform: options.platform ?? 'neutral',
    dts: options.dts ?? true,
    sourcemap: true,
    clean: true,
    splitting: false,
    treeshake: true,
    // The `source` condition is for our own tests and type checks only: builds resolve dist.
    esbuildOptions(esbuild) {
      esbuild.conditions = ['import', 'module', 'default'];
    },
    ...(options.banner ? { banner: { js: options.banner } } : {}),
  };
}
