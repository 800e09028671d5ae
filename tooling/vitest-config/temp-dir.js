// @ts-check
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, onTestFinished } from 'vitest';

/**
 * A fresh folder in the system temp directory, removed when the current test finishes (inside a test)
 * or after the file's tests (inside `beforeAll`/`describe`), so no test leaves folders in /tmp behind.
 *
 * @param {string} [prefix] - the folder name's start, e.g. `subnet-auditor-`
 * @param {'test' | 'file'} [scope] - `test` (default): removed when the running test finishes; `file`: after all tests of the file
 * @returns {string} the folder's absolute path
 */
export function tempDir(prefix = 'subnet-test-', scope = 'test') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (scope === 'file') afterAll(remove);
  else onTestFinished(remove);
  return dir;
}

/**
 * Removes, after each test, every folder the returned function made during that test.
 *
 * @param {string} [prefix] - the folder name's start
 * @returns {() => string} a maker of fresh temp folders
 */
export function tempDirs(prefix = 'subnet-test-') {
  /** @type {string[]} */
  const made = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
