import { packageConfig } from '@subnet/tsup-config';
import { defineConfig } from 'tsup';

// Its public types name Node.js's own (see the README's TypeScript note).
export default defineConfig(packageConfig({ nodeTypes: true }));
