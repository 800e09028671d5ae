import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The shared axon vectors (the `shared/` folder beside the repository). */
const SHARED = process.env.SUBNET_SHARED_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Vectors = any;

export function axonVectors(): Vectors {
  return JSON.parse(readFileSync(join(SHARED, 'vectors', 'axon-vectors.json'), 'utf8'));
}
