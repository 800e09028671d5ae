import { packageConfig } from '@subnet/tsup-config';
import type { Options } from 'tsup';

// Annotated: an inferred type would name tsup's nested path, which TS2742 rejects under `declaration`.
// The two sha256 implementations are entries of their own and `#hash` stays an import in dist/index.js,
// so package.json's `imports` picks node:crypto under the `node` condition and @noble/hashes elsewhere
// at run time (a bundled choice would fix one for every runtime).
const base = packageConfig({
  entry: { index: 'src/index.ts', 'hash-node': 'src/hash/sha256-node.ts', 'hash-portable': 'src/hash/sha256-portable.ts' },
});
const config: Options = { ...base, external: ['#hash', 'node:crypto'] };

export default config;
