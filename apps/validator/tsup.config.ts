import { copyFileSync } from 'node:fs';

import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// Split into chunks: the CLI imports the service, the demo and the configuration when a command runs them, so
// `--help` and a usage error do not load @polkadot/api and the storage drivers (see src/cli.ts).
//
// The epoch close's worker thread (src/epoch-worker.mjs, docs/spec.md G.47) is plain JavaScript that imports the built
// @subnet/bundle and src/epoch-inputs.mjs (the records' reader, which the chunks bundle too): both copied as they are
// next to the chunks, where epoch-compute.ts looks for the worker (`new URL('./epoch-worker.mjs',
// import.meta.url)`), as it finds it next to itself in src/ when the tests run the source.
export default defineConfig({
  ...packageConfig({ entry: ['src/cli.ts', 'src/index.ts'], platform: 'node', dts: false, splitting: true }),
  onSuccess: () => {
    copyFileSync('src/epoch-worker.mjs', 'dist/epoch-worker.mjs');
    copyFileSync('src/epoch-inputs.mjs', 'dist/epoch-inputs.mjs');
    return Promise.resolve();
  },
});
