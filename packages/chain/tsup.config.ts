import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// `networks` is the `@subnet/chain/networks` subpath: the named networks and endpoint resolution, without @polkadot/api.
// Annotated as unknown: the inferred tsup type cannot be named from this package (TS2742).
const config: unknown = defineConfig(packageConfig({ entry: ['src/index.ts', 'src/networks.ts'] }));
export default config;
