import { rmSync } from 'node:fs';

import { packageConfig } from '@subnet/tsup-config';
import { defineConfig, type Options } from 'tsup';

// Two builds into dist/: the library (ESM, CommonJS, declarations) and the CLI (ESM only, split into chunks so
// that `--help`, a usage error and `fault` do not load the dev chain; see src/cli.ts). tsup runs them at once, so
// neither cleans dist/ (one would remove what the other wrote): it is emptied here, once, before both.
rmSync('dist', { recursive: true, force: true });

const library: Options = { ...packageConfig({ entry: ['src/index.ts'], platform: 'node' }), clean: false };
const cli: Options = { ...packageConfig({ entry: ['src/cli.ts'], platform: 'node', dts: false, splitting: true }), clean: false };

export default defineConfig([library, cli]);
