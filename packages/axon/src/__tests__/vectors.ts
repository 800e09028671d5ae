import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shared axon vectors (`/work/shared/vectors/axon-vectors.json`, the main checkout's `../shared`). */
const SHARED = process.env.SUBNET_SHARED_DIR ?? '/work/shared';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Vectors = any;

export function axonVectors(): Vectors {
  return JSON.parse(readFileSync(join(SHARED, 'vectors', 'axon-vectors.json'), 'utf8'));
}
