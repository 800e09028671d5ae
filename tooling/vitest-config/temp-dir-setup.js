// @ts-check
// The preset's setup file, run before every test file: each file removes its own `file`-scoped temp folders after its
// tests (temp-dir.js says why this cannot live in that module).
import { afterAll } from 'vitest';

import { removeFileTempDirs } from './temp-dir.js';

afterAll(removeFileTempDirs);
