import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

import { SubnetError } from '@subnet/core';
import type { Logger } from 'pino';

import { VALIDATOR_ERROR_CODES } from './errors.js';
import { embargoesAmong, headsAndHolder } from './bundle-embargo.js';
import { servedBundleText } from './reveal-attest.js';
import type { EpochFields, Storage } from './storage.js';

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
 * Checks at start-up that no file holding the validator's secret state lies in `bundles.dir`, the folder published as
 * it is written: `chain.commit_store` holds each commit-reveal v2 commit's weights and salt until its reveal, and the
 * SQLite database (`database.path`, with its `-wal` and `-shm` files) every epoch's weights and bundle, embargoed ones
 * included (docs/spec.md G.23). Paths are compared resolved (`./bundles/commits.json` is in `./bundles`).
 *
 * @param config - `bundles.dir`, `chain.commit_store`, and `database.path` unless `database.url` is set
 * @throws SubnetError `VALIDATOR_INVALID_CONFIG` at `chain.commit_store` or `database.path`, naming both paths
 * @example checkSecretsOutsideBundles(config)
 */
export function checkSecretsOutsideBundles(config: {
  readonly bundles: { readonly dir: string };
  readonly chain: { readonly commit_store: string };
  readonly database: { readonly path: string; readonly url?: string | undefined };
}): void {
  const dir = resolve(config.bundles.dir);
  const inside = (file: string): boolean => {
    const rel = relative(dir, resolve(file));
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  const secrets: [string, string, string][] = [
    ['chain.commit_store', config.chain.commit_store, "the commit-reveal v2 commits' weights and salts until their reveal"],
    ...(config.database.url === undefined
      ? [['database.path', config.database.path, "every epoch's weights and signed bundle, embargoed ones included"] as [string, string, string]]
      : []),
  ];
  for (const [path, file, holds] of secrets) {
    if (!inside(file)) continue;
    throw new SubnetError(
      VALIDATOR_ERROR_CODES.invalidConfig,
      `${path} ${file} is inside bundles.dir ${config.bundles.dir}, the folder published as it is written: it holds ${holds}, which would be published with it; put it outside bundles.dir`,
      { context: { path, value: file } },
    );
  }
}

/**
 * Writes the signed document's canonical JSON (the very bytes stored and served) and one newline to `epoch-<n>.json`,
 * through a temporary file and a rename (a reader never sees half a bundle; writing it again gives the same file).
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
 * Writes an epoch's bundle file ({@link writeBundleFile}), or, when `bundles.dir` cannot take it (made read-only, full,
 * removed or replaced while running), logs why, leading with the cause, and returns null. The bundle is stored and
 * served already (`/v1/epochs/<n>/bundle`) and the close goes on (its outcome and peer scores as any other's); the
 * caller reports the file as held, so the service writes it once the folder takes files again
 * ({@link releaseHeldBundleFiles}, docs/spec.md G.35). Before, the close threw: `epoch loop step failed` with the bare
 * system error, no `epoch closed` line, and the file was never written while the process ran.
 *
 * @param deps - `bundlesDir` and the logger
 * @param epoch - the epoch
 * @param text - the signed bundle's text as stored on the epoch row
 * @returns the file's path, or null when it could not be written now
 * @example const path = writeBundleFileOrLog(deps, 7, row.bundle) // null: written later
 */
export function writeBundleFileOrLog(deps: { readonly bundlesDir: string; readonly logger: Logger }, epoch: number, text: string): string | null {
  try {
    return writeBundleFile(deps.bundlesDir, epoch, text);
  } catch (error) {
    const reason = (error as Error).message;
    deps.logger.error(
      { code: 'BUNDLE_FILE_NOT_WRITTEN', epoch, dir: deps.bundlesDir, error: reason },
      `cannot write the bundle file of epoch ${epoch} to bundles.dir ${deps.bundlesDir} (${reason}): the epoch's outcome and signed bundle are stored and served at /v1/epochs/${epoch}/bundle; the file is written once the folder can be written again`,
    );
    return null;
  }
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

/**
 * Whether an epoch's bundle file is held for an earlier epoch's embargo (docs/spec.md G.23): an earlier epoch's reveal
 * is still `pending`, or its submission is not settled (`submitting`), and this epoch's bundle carries that epoch's
 * scores and state on. Its file is then written by {@link releaseHeldBundleFiles} once no earlier epoch is embargoed.
 *
 * @param storage - the storage (the newest unsettled epoch before this one, by index)
 * @param epoch - the epoch whose file is about to be written
 * @returns true when the file must not be written now
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails
 * @example if (!(await bundleFileHeld(storage, 8))) writeBundleFile(dir, 8, text)
 */
export async function bundleFileHeld(storage: Pick<Storage, 'unsettledBefore'>, epoch: number): Promise<boolean> {
  return (await storage.unsettledBefore(epoch)) !== undefined;
}

/**
 * Writes the bundle files held for an earlier epoch's embargo (docs/spec.md G.23) once it lifted: every epoch from
 * `fromEpoch` on, among the newest 100, that has its bundle (signed, with its reveal attestation when it has one), is
 * embargoed neither itself nor by an earlier epoch, and has no file yet. A file already there is never written again.
 *
 * @param storage - the storage
 * @param dir - `bundles.dir`
 * @param fromEpoch - the lowest epoch whose file may be held
 * @returns the epochs whose files were written, and whether an epoch is still embargoed (files may still be held)
 * @throws SubnetError `VALIDATOR_STORAGE` when storage fails
 * @example const { embargoed } = await releaseHeldBundleFiles(storage, './bundles', 7)
 */
export async function releaseHeldBundleFiles(
  storage: Pick<Storage, 'listEpochHeads' | 'unsettledBefore' | 'getEpoch'>,
  dir: string,
  fromEpoch: number,
): Promise<{ readonly written: readonly number[]; readonly embargoed: number | undefined }> {
  const { heads, deciding } = await headsAndHolder(storage, 100);
  const embargoes = embargoesAmong(deciding);
  const written: number[] = [];
  let embargoed: number | undefined;
  for (const head of [...heads].reverse()) {
    if (embargoes.has(head.epoch)) {
      embargoed ??= head.epoch;
      continue;
    }
    if (head.epoch < fromEpoch || head.digest === null || existsSync(join(dir, `epoch-${head.epoch}.json`))) continue;
    const row = await storage.getEpoch(head.epoch);
    if (row?.bundle === null || row?.bundle === undefined || row.bundle.startsWith('{"pending"')) continue;
    writeBundleFile(dir, row.epoch, servedBundleText({ ...row, bundle: row.bundle }));
    written.push(row.epoch);
  }
  return { written, embargoed };
}
