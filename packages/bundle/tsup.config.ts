import { packageConfig } from '@subnet/tsup-config';
import { defineConfig, type Options } from 'tsup';

const config: Options = packageConfig();

export default defineConfig(config);
