import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// Split into chunks: each command is imported when it runs (see src/program.ts), so `--help`, a usage error and
// the commands that do not read bundles do not load @polkadot/api's crypto.
export default defineConfig(packageConfig({ entry: ['src/cli.ts', 'src/index.ts'], platform: 'node', dts: false, splitting: true }));
