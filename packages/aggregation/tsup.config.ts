import { packageConfig } from '@subnet/tsup-config';
import type { Options } from 'tsup';

// Annotated: with `declaration: true` the inferred type would name tsup inside tooling's node_modules (TS2742).
const config: Options = packageConfig();

export default config;
