import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(packageConfig());
