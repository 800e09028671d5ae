import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { openSqliteStorage } from '../sqlite-storage.js';
import { useTempDir } from './helpers.js';

/**
 * A newcomer's `database.path` mistakes: the configuration file given as the database, a folder given as the file. The
 * message said only `cannot open the SQLite database <path>`: no reason, nothing to do.
 */
const t = useTempDir();

function failure(path: string): { code: string; message: string; path: unknown } {
  try {
    void openSqliteStorage(path).close();
  } catch (error) {
    if (isSubnetError(error)) return { code: error.code, message: error.message, path: error.context.path };
    throw error;
  }
  throw new Error('expected openSqliteStorage to fail');
}

describe('a SQLite database.path that cannot be opened says why and what to do', () => {
  it('a file that is not a SQLite database (the YAML configuration, say): SQLITE_NOTADB, the file left as it was', () => {
    const file = join(t.dir, 'validator.yaml');
    writeFileSync(file, 'netuid: 1\n');
    expect(failure(file)).toEqual({
      code: 'VALIDATOR_STORAGE',
      path: file,
      message:
        `[VALIDATOR_STORAGE] cannot open the SQLite database ${file}: SQLITE_NOTADB (file is not a database); ` +
        `set database.path (or --database-path) to this validator's database, or to a new file at ${file}`,
    });
    expect(readFileSync(file, 'utf8')).toBe('netuid: 1\n');
  });

  it('a folder given as the file: SQLITE_CANTOPEN, pointing at a file name', () => {
    expect(failure(t.dir)).toEqual({
      code: 'VALIDATOR_STORAGE',
      path: t.dir,
      message:
        `[VALIDATOR_STORAGE] cannot open the SQLite database ${t.dir}: SQLITE_CANTOPEN (unable to open database file); ` +
        `set database.path (or --database-path) to a file this process can create or write at ${t.dir}`,
    });
  });
});
