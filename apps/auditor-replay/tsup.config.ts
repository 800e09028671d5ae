import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// `verify-worker` is the worker-thread entry of `verify --jobs N`, loaded from next to `cli.js`.
export default defineConfig(packageConfig({ entry: ['src/cli.ts', 'src/verify-worker.ts'], platform: 'node', dts: false }));
