import { packageConfig } from '@subnet/tsup-config';
import type { Options } from 'tsup';

// Annotated: an inferred type would name tsup's nested path, which TS2742 rejects under `declaration`.
const config: Options = packageConfig();

export default config;
