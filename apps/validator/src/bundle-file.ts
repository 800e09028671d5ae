import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { EpochFields } from './storage.js';

/**
 * Writes the signed document's canonical JSON (the very bytes stored and served) to `epoch-<n>.json`, through a
 * temporary file and a rename (a reader never sees half a bundle; writing it again gives the same file).
 *
 * @param dir - `bundles.dir`
 * @param epoch - the epoch
 * @param text - the signed bundle's text as stored on the epoch row
 * @returns the file's path
 * @example writeBundleFile('./bundles', 7, row.bundle)
 */
export function writeBundleFile(dir: string, epoch: number, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `epoch-${epoch}.json`);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${text}\n`);
  renameSync(tmp, path);
  return path;
}

/**
 * Whether an epoch's bundle file waits for its embargo (bundle-embargo.ts): an epoch stored with a `pending`
 * reveal is written to `bundles.dir` only when the embargo lifts (reveal-confirm.ts writes it right before it
 * records the outcome), so the folder can be published as it is written.
 *
 * @param fields - the epoch row fields written with the bundle
 * @returns true when the file must not be written now
 * @example if (!bundleFileDeferred(fields)) writeBundleFile(dir, epoch, text)
 */
export function bundleFileDeferred(fields: EpochFields): boolean {
  return fields.revealStatus === 'pending';
}
