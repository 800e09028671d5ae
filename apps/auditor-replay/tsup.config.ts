import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// `cli` is the binary; `verify-worker` the worker-process entry of `verify --jobs N`, loaded from next to
// `cli.js`; `index` and `pages/index` are what other apps import (`auditor-replay`, `auditor-replay/pages`).
// Split into chunks (ESM only, as every app): the chain check's module, with `@subnet/chain` and
// `@polkadot/api` behind it, is imported only when `--chain` is given, so `verify` and each of its worker
// processes start without loading them.
export default defineConfig({
  ...packageConfig({
    entry: { cli: 'src/cli.ts', 'verify-worker': 'src/verify-worker.ts', index: 'src/index.ts', 'pages/index': 'src/pages/index.ts' },
    platform: 'node',
    dts: false,
  }),
  splitting: true,
});
