import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(packageConfig({ entry: ['src/cli.ts', 'src/index.ts'], platform: 'node', dts: false }));
