// @ts-check
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const specFile = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'spec.md');
/**
 * The shared tsup preset: ESM (`.js`) and CommonJS (`.cjs`) builds, each with its own declarations
 * (`.d.ts` and `.d.cts`), Node >= 20.19, source maps, one entry per public module. Packages call it from
 * their `tsup.config.ts` and pass extra entries (for example a CLI).
 *
 * Apps pass `dts: false` and `cjs: false`: nobody imports them, and declarations are the slowest part of
 * a build.
 *
 * `nodeTypes: true` starts each declaration file with `/// <reference types="node" />`, for a package whose public
 * types name Node.js's own (`node:http`, `Buffer`): a consumer's program then loads `@types/node` for them even
 * under `"types": []`, and one without it is told which type package is missing instead of failing on `node:http`.
 *
 * `SUBNET_BUILD=js` in the environment (what `npm start` sets, tooling/scripts/main.mjs) builds every package that way:
 * ESM JavaScript only, no declarations and no CommonJS, about a third of the time of a full build; turbo.json declares
 * the variable, so the cache keeps the two kinds of build apart.
 *
 * `splitting: true` (an ESM-only build: `dts: false` or `cjs: false`) puts what a CLI imports on demand into chunks
 * of their own, so `--help` does not load the modules only a command needs; tsup's splitting of CommonJS is
 * experimental, so a build with CommonJS refuses it.
 *
 * @param {{ entry?: string[] | Record<string, string>, platform?: 'node' | 'neutral', banner?: string, dts?: boolean, cjs?: boolean, splitting?: boolean, nodeTypes?: boolean }} [options]
 * @returns {import('tsup').Options}
 */
export function packageConfig(options = {}) {
  if (options.nodeTypes === true && options.dts === false) throw new Error('packageConfig: nodeTypes needs declarations (dts)');
  if (process.env.SUBNET_BUILD === 'js') options = { ...options, dts: false, nodeTypes: false };
  const esmOnly = options.cjs === false || options.dts === false;
  if (options.splitting === true && !esmOnly) throw new Error('packageConfig: splitting needs an ESM-only build (dts: false or cjs: false)');
  return {
    entry: options.entry ?? ['src/index.ts'],
    format: esmOnly ? ['esm'] : ['esm', 'cjs'],
    // `import.meta.url` in the CommonJS build comes from the file's own path.
    shims: true,
    target: 'node20',
    platform: options.platform ?? 'neutral',
    dts: options.dts === false ? false : options.nodeTypes === true ? { banner: '/// <reference types="node" />' } : true,
    sourcemap: true,
    clean: true,
    splitting: options.splitting ?? false,
    treeshake: true,
    // The `@subnet/source` condition is for our own tests and type checks only: builds resolve dist.
    esbuildOptions(esbuild) {
      esbuild.conditions = ['import', 'module', 'default'];
    },
    ...(options.banner ? { banner: { js: options.banner } } : {}),
    // A published package ships the contract its README links to (`docs/spec.md` inside the tarball).
    ...(options.dts === false
      ? {}
      : {
          async onSuccess() {
            mkdirSync('docs', { recursive: true });
            copyFileSync(specFile, join('docs', 'spec.md'));
          },
        }),
  };
}
