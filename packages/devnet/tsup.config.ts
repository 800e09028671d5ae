import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(packageConfig({ entry: ['src/index.ts', 'src/cli.ts'], platform: 'node' }));
