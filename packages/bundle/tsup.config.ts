import { packageConfig } from '@subnet/tsup-config';
import { defineConfig, type Options } from 'tsup';

// The subpaths, each built into a file of its own with no @polkadot import: `records` (`@subnet/bundle/records`, the
// record schemas) and `epoch-config` (`@subnet/bundle/epoch-config`, the scoring configuration's schema and parser).
const config: Options = packageConfig({ entry: ['src/index.ts', 'src/records.ts', 'src/epoch-config.ts'] });

export default defineConfig(config);
