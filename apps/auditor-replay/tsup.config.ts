import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// Two builds into dist/ (the `build` script empties it first; neither cleans, as tsup runs them side by side):
//
// - `index` and `pages/index`: what other apps import (`auditor-replay`, `auditor-replay/pages`). Their
//   dependencies stay external, so an app that imports them shares one copy of each with its own.
// - `cli` (the binary) and `verify-worker` (the worker-process entry of `verify --jobs N`, loaded from next to
//   `cli.js`): every dependency bundled in. Node 20 resolves, opens and compiles each of the ~440 module files
//   behind `@subnet/bundle` (zod, @polkadot/util*, @noble/*) one by one: loading them took 0.7-1.0 s of CPU per
//   process, bundled and tree-shaken 0.3-0.4 s, and `verify --jobs N` starts that many processes. Split into
//   chunks: the chain check's module, with `@subnet/chain` and `@polkadot/api` behind it, is imported only when
//   `--chain` is given. Everything is bundled, @polkadot/api too, because @polkadot/util warns when it finds two
//   copies of itself loaded. `require` is made for the CommonJS packages inside (commander, ws, bn.js).
const shared = { platform: 'node' as const, dts: false };
export default defineConfig([
  { ...packageConfig({ entry: { index: 'src/index.ts', 'pages/index': 'src/pages/index.ts' }, ...shared }), clean: false, splitting: true },
  {
    ...packageConfig({
      entry: { cli: 'src/cli.ts', 'verify-worker': 'src/verify-worker.ts' },
      ...shared,
      banner: "import { createRequire as __subnetCreateRequire } from 'node:module'; const require = __subnetCreateRequire(import.meta.url);",
    }),
    clean: false,
    splitting: true,
    noExternal: [/./],
  },
]);
