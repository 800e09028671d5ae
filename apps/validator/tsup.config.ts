import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// Split into chunks: the CLI imports the service, the demo and the configuration when a command runs them, so
// `--help` and a usage error do not load @polkadot/api and the storage drivers (see src/cli.ts).
export default defineConfig(packageConfig({ entry: ['src/cli.ts', 'src/index.ts'], platform: 'node', dts: false, splitting: true }));
