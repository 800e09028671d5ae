import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SubnetError } from '@subnet/core';

import { VALIDATOR_ERROR_CODES } from './errors.js';
import type { EpochFields } from './storage.js';

/**
 * Checks at start-up that `bundles.dir` is a folder this process can write: creates it if missing, then writes
 * and removes a probe file there (a permission bit or a read-only mount says nothing to a process running as
 * root; a write does). Without it the service started, reported ready and submitted every epoch's weights while
 * each close failed at its bundle file (`ENOTDIR`, `EACCES`, `EROFS`), logged as an uncoded loop failure.
 *
 * @param dir - `bundles.dir`
 * @throws SubnetError `VALIDATOR_INVALID_CONFIG` at `bundles.dir` naming the folder and the system's reason
 * @example checkBundlesDir('./bundles')
 */
export function checkBundlesDir(dir: string): void {
  const probe = join(dir, `.write-check-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    throw new SubnetError(
      VALIDATOR_ERROR_CODES.invalidConfig,
      `cannot write to the bundles folder (${(error as Error).message}); every epoch's signed bundle is written there: set bundles.dir (or --bundles-dir) to a folder this process can write`,
      { context: { path: 'bundles.dir', value: dir }, cause: error },
    );
  }
}

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
