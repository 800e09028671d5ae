// @ts-check
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, onTestFinished } from 'vitest';

/** Folders made with the `file` scope, removed after the test file's tests (see below). */
/** @type {string[]} */
const fileScoped = [];

/**
 * Removes the folders made with the `file` scope so far. The preset runs `temp-dir-setup.js` before every test file,
 * which registers this as an `afterAll` of that file: test files share one module graph per worker (`isolate: false`),
 * so this module is evaluated once, and an `afterAll` here ran after the first file only (the folders of every later
 * file stayed in /tmp). An `afterAll` registered later (from `beforeAll` or inside a test) is never run by vitest.
 */
export function removeFileTempDirs() {
  for (const dir of fileScoped.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh folder in the system temp directory, removed when the current test finishes (inside a test)
 * or after the file's tests (`file`, from `beforeAll`, `describe` or a test), so no test leaves folders in
 * /tmp behind.
 *
 * @param {string} [prefix] - the folder name's start, e.g. `subnet-auditor-`
 * @param {'test' | 'file'} [scope] - `test` (default): removed when the running test finishes; `file`: after all tests of the file
 * @returns {string} the folder's absolute path
 */
export function tempDir(prefix = 'subnet-test-', scope = 'test') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (scope === 'file') fileScoped.push(dir);
  else onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
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
