import { packageConfig } from '@subnet/tsup-config';
import type { Options } from 'tsup';

const config: Options = packageConfig();

export default config;
