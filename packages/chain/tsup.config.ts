import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// Annotated as unknown: the inferred tsup type cannot be named from this package (TS2742).
const config: unknown = defineConfig(packageConfig());
export default config;
