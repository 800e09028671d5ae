import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// Private, imported by the apps only: ESM, no declarations (their type checks read src/ through @subnet/source).
export default defineConfig(packageConfig({ platform: 'node', dts: false }));
