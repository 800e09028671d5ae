import { packageConfig } from '@subnet/tsup-config';
import { defineConfig, type Options } from 'tsup';

// `records` is the `@subnet/bundle/records` subpath: the record schemas without signing (no @polkadot import).
const config: Options = packageConfig({ entry: ['src/index.ts', 'src/records.ts'] });

export default defineConfig(config);
