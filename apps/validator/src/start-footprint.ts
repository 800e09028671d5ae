import { closeSync, lstatSync, mkdirSync, openSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type { ValidatorConfig } from './config.js';

/**
 * What a start of the validator may create on disk, taken before it writes anything, so that a start that fails (the
 * HTTP port held by another process, the chain unreachable, a wrong key password) leaves behind nothing the operator
 * did not have before (docs/spec.md G.10).
 */
export interface StartFootprint {
  /**
   * Removes what did not exist when the footprint was taken: each such file, then each such folder that is empty,
   * deepest first. A file or folder that existed before is never touched; a new folder that holds anything else is
   * kept. Does nothing once {@link StartFootprint.keep} was called. Never throws.
   */
  undo(): void;
  /** The start succeeded: what it created stays ({@link StartFootprint.undo} does nothing from now on). */
  keep(): void;
}

/** Whether anything (a file, a folder, a link, even a dangling one) is at `path`. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `path` and its ancestors that do not exist, nearest first (what `mkdir -p path` would create). */
function missingFolders(path: string): string[] {
  const missing: string[] = [];
  for (let at = resolve(path); !present(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  return missing;
}

/**
 * Creates `path` (empty) unless something is there, with its missing folders: true when this call created the file.
 * The create is exclusive (`wx`), so of two starts racing for one path exactly one owns it. Never throws: a path that
 * cannot be created is left to the storage, which names the reason.
 */
function claimFile(path: string): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true });
    closeSync(openSync(path, 'wx'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Takes the footprint of a start from explicit paths.
 *
 * @param targets - files a start may create (and so their folders), folders it may create, and a database file with
 *   its journals (`-wal`, `-shm`, `-journal`) that the footprint creates at once when missing (an empty SQLite file is an
 *   empty database), so that only the start that created it removes it: another start that fails in the meantime
 *   finds it there and leaves it
 * @returns the footprint, to undo when the start fails
 * @example
 * const footprint = takeFootprint({ files: [], folders: ['./bundles'], database: './data/validator.sqlite' });
 * try { await start(); footprint.keep(); } catch (e) { footprint.undo(); throw e; }
 */
export function takeFootprint(targets: { readonly files: readonly string[]; readonly folders: readonly string[]; readonly database?: string }): StartFootprint {
  const database = targets.database === undefined ? undefined : resolve(targets.database);
  const journals = database === undefined ? [] : [`${database}-wal`, `${database}-shm`, `${database}-journal`].filter((file) => !present(file));
  const folders = new Set(
    [...targets.files.map((file) => dirname(resolve(file))), ...(database === undefined ? [] : [dirname(database)]), ...targets.folders].flatMap(
      missingFolders,
    ),
  );
  const files = targets.files.map((file) => resolve(file)).filter((file) => !present(file));
  // Claimed last, once the missing folders are noted (the claim creates them).
  if (database !== undefined && claimFile(database)) files.push(database, ...journals);
  let kept = false;
  return {
    undo() {
      if (kept) return;
      for (const file of files) {
        try {
          // Not recursive: a path this start was to write as a file, found to be a folder, is not removed.
          rmSync(file, { force: true });
        } catch {
          // left as it is
        }
      }
      // Deepest first, so a folder emptied of a new subfolder goes too.
      for (const folder of [...folders].sort((a, b) => b.length - a.length)) {
        try {
          rmdirSync(folder);
        } catch {
          // not empty (something else wrote there), or already gone: left as it is
        }
      }
    },
    keep() {
      kept = true;
    },
  };
}

/**
 * The footprint of `subnet-validator run` with this configuration: the SQLite database (created empty now when missing)
 * and its WAL, shared-memory and rollback journal files (unless storage is PostgreSQL or in memory), the bundles folder,
 * the commit store's folder, and the folders above each that do not exist yet.
 *
 * @param config - the validated configuration
 * @returns the footprint, taken now
 * @example const footprint = startFootprint(config)
 */
export function startFootprint(config: ValidatorConfig): StartFootprint {
  const database = config.database.url === undefined && config.database.path !== ':memory:' ? config.database.path : undefined;
  // The commit store file is not in it: it is written only when a commit is made or revealed, after the start listens,
  // so a failed start never creates it, and another running instance's store must never be taken for this start's.
  // Its folder is: the start takes the store's lock there (`<file>.lock`, released when the start fails), and a folder
  // the start created is removed when it is empty again (rmdir never removes a folder that holds anything).
  return takeFootprint({
    files: [],
    folders: [config.bundles.dir, dirname(resolve(config.chain.commit_store))],
    ...(database === undefined ? {} : { database }),
  });
}
