import { packageConfig } from '@subnet/tsup-config';
import { defineConfig, type Options } from 'tsup';

const config: Options = packageConfig({ entry: ['src/cli.ts', 'src/index.ts'], platform: 'node', dts: false });

export default defineConfig(config);
