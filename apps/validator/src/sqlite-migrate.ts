import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';

import type Database from 'better-sqlite3';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { Migration, MigrationNotice } from './storage.js';
import { MIGRATIONS } from './storage.js';

/**
 * Runs the migrations a SQLite database has not applied, in order, each in one transaction, announcing each before it
 * runs (with, for one that copies a table, the table's size and the free disk beside the file). One that copies a
 * table is refused before it writes anything when `statfs` shows less free disk beside the file than the copy needs:
 * with less than twice the table, the copy could commit and its checkpoint fill the disk (docs/spec.md G.23). A
 * migration that fails is rolled back by SQLite (the file keeps the version before it) and the error says so, leading
 * with the cause: for a full disk (`SQLITE_FULL`), how much free disk the migration needs.
 *
 * @param db - the open connection (WAL journal)
 * @param path - the database file, named in the errors; its folder's free space is read (`statfs`)
 * @param onMigration - told of each migration before it runs
 * @param freeBytes - the free disk beside the file, in place of `statfs` (tests of a disk short of the need)
 * @throws SubnetError `VALIDATOR_STORAGE` naming the migration, the SQLite code (or the free disk and the need) and the
 *   version the file keeps
 * @example migrateSqlite(db, './validator.sqlite', (m) => logger.info(m, `applying storage migration ${m.version}`))
 */
export function migrateSqlite(
  db: Database.Database,
  path: string,
  onMigration?: (migration: MigrationNotice) => void,
  freeBytes: (path: string) => number | undefined = freeBytesBeside,
): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    const copies = migration.sqliteCopies === undefined ? undefined : copyCost(db, path, migration.sqliteCopies, freeBytes);
    // Before anything is written: the copy would fill the disk (docs/spec.md G.23).
    if (copies?.freeBytes !== undefined && copies.freeBytes < copies.neededBytes)
      throw shortOfDiskError(db, path, migration, { ...copies, freeBytes: copies.freeBytes });
    onMigration?.({
      version: migration.version,
      name: migration.name,
      ...(migration.sqliteNote === undefined ? {} : { note: migration.sqliteNote }),
      ...(copies === undefined ? {} : { copies }),
    });
    try {
      db.transaction(() => {
        for (const sql of migration.sqlite) db.exec(sql);
        db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(migration.version, migration.name);
      })();
    } catch (error) {
      throw migrationError(db, path, migration, copies, error);
    }
  }
}

/** A table a migration copies: its size and the free disk beside the file. */
type CopyCost = NonNullable<MigrationNotice['copies']>;

/**
 * The pages that hold a copy's values take more than the values: page and cell headers, and each WAL frame's header.
 * Measured 1.3% for rows of 100 KB (a 4.8 MB table: the WAL grew by 4.89 MB and the file by 4.84 MB); a sixteenth.
 */
const PAGE_OVERHEAD = 17 / 16;

/**
 * The bytes of a table's values, the free disk its copy needs (twice its pages: the WAL, then the file) and the free
 * disk of the file's folder. `octet_length` is read from each row's header, without the overflow pages that hold a
 * long value's tail: a 33 MB table is sized in about a millisecond.
 */
function copyCost(db: Database.Database, path: string, table: string, freeBytes: (path: string) => number | undefined): CopyCost | undefined {
  try {
    const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => `COALESCE(octet_length(${c.name}), 0)`);
    const row = db.prepare(`SELECT COALESCE(SUM(${columns.join(' + ')}), 0) AS bytes FROM ${table}`).get() as { bytes: number };
    const free = freeBytes(path);
    return { table, bytes: row.bytes, neededBytes: Math.ceil(2 * PAGE_OVERHEAD * row.bytes), ...(free === undefined ? {} : { freeBytes: free }) };
  } catch {
    // Sizing is advice: a file it cannot size is migrated all the same, and a failure says what it can.
    return undefined;
  }
}

/** The bytes an unprivileged process may still write in the file's folder, or undefined (`:memory:`, statfs failed). */
function freeBytesBeside(path: string): number | undefined {
  if (path === ':memory:') return undefined;
  try {
    const fs = statfsSync(dirname(path));
    return fs.bavail * fs.bsize;
  } catch {
    return undefined;
  }
}

/**
 * A size in words: `33.1 MB`, `1.2 GB`, `12 KB` (powers of 1000, as `df -H` writes them).
 *
 * @param bytes - the size
 * @returns the words
 * @example sizeText(33_058_816) // '33.1 MB'
 */
export function sizeText(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1e3)} KB`;
}

/**
 * What a table copy needs, in the words of the start-up line and of the error: `it copies the epochs table (about
 * 33.1 MB) and needs about 66.2 MB of free disk beside the file (the copy is written to the WAL, then into the file);
 * 80.1 GB is free there now`.
 *
 * @param copies - the table, its size and the free disk
 * @returns the sentence
 * @example copyNeedSentence({ table: 'epochs', bytes: 1e9, neededBytes: 2e9, freeBytes: 5e9 })
 */
export function copyNeedSentence(copies: CopyCost): string {
  const free = copies.freeBytes === undefined ? '' : `; ${sizeText(copies.freeBytes)} is free there now`;
  return `it copies the ${copies.table} table (about ${sizeText(copies.bytes)}) and needs about ${sizeText(copies.neededBytes)} of free disk beside the file (the copy is written to the WAL, then into the file)${free}`;
}

/** The version the file is at, read from it (undefined when it cannot be read). */
function keptVersion(db: Database.Database): number | undefined {
  try {
    return (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  } catch {
    return undefined;
  }
}

/** The refusal of a copy the free disk cannot hold, before it wrote anything (docs/spec.md G.23). */
function shortOfDiskError(db: Database.Database, path: string, migration: Migration, copies: CopyCost & { readonly freeBytes: number }): Error {
  const kept = keptVersion(db);
  const unchanged = kept === undefined ? 'nothing was written' : `nothing was written and the database is at version ${kept}`;
  return appError(
    VALIDATOR_ERROR_CODES.storage,
    `not enough free disk for storage migration ${migration.version} (${migration.name}) of the SQLite database ${path}: ${unchanged}; ${copyNeedSentence(copies)}: free that much there (or move the file and set database.path) and start again`,
    {
      file: path,
      migration: migration.version,
      ...(kept === undefined ? {} : { version: kept }),
      neededBytes: copies.neededBytes,
      freeBytes: copies.freeBytes,
    },
  );
}

function migrationError(db: Database.Database, path: string, migration: Migration, copies: CopyCost | undefined, error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  const sqliteCode = typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
  const sqlite = sqliteCode === undefined ? (error as Error).message : `${sqliteCode}: ${(error as Error).message}`;
  // SQLite rolled the transaction back (or better-sqlite3 did): the version the file keeps is read, not assumed.
  const kept = keptVersion(db);
  const unchanged = kept === undefined ? 'it was rolled back' : `it was rolled back and the database is unchanged at version ${kept}`;
  const which = `storage migration ${migration.version} (${migration.name}) of the SQLite database ${path}`;
  const full = sqliteCode?.startsWith('SQLITE_FULL') === true;
  const message = full
    ? `out of disk space (${sqlite}) in ${which}: ${unchanged}; ${copies === undefined ? 'free disk beside the file' : `${copyNeedSentence(copies)}: free that much there`} (or move the file and set database.path) and start again`
    : `${which} failed (${sqlite}): ${unchanged}`;
  return appError(
    VALIDATOR_ERROR_CODES.storage,
    message,
    {
      // `file`, not `path`: a context path is appended to the message as "at …", and the message names the file already.
      file: path,
      migration: migration.version,
      ...(sqliteCode === undefined ? {} : { sqliteCode }),
      ...(kept === undefined ? {} : { version: kept }),
      ...(copies === undefined ? {} : { neededBytes: copies.neededBytes, ...(copies.freeBytes === undefined ? {} : { freeBytes: copies.freeBytes }) }),
    },
    error,
  );
}
