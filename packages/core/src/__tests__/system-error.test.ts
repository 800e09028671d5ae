import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { describeSystemError } from '../index.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** What `readFileSync(path)` throws. */
function readError(path: string): unknown {
  try {
    readFileSync(path);
  } catch (error) {
    return error;
  }
  throw new Error(`${path} was read`);
}

describe('describeSystemError', () => {
  it("words Node's own errors as CODE (meaning), without the path Node appends", () => {
    dir = mkdtempSync(join(tmpdir(), 'core-system-error-'));
    const missing = join(dir, 'secret-name.json');
    expect(describeSystemError(readError(missing))).toBe('ENOENT (no such file or directory)');
    expect(describeSystemError(readError(dir))).toBe('EISDIR (illegal operation on a directory)');
    expect(describeSystemError(readError(missing))).not.toContain('secret-name');
  });

  it('words a socket error, whose message names the syscall first and the address after, without the address', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    const second = createServer();
    const error = await new Promise<unknown>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    await new Promise((resolve) => holder.close(resolve));
    expect(describeSystemError(error)).toBe('EADDRINUSE (address already in use)');
  });

  it('gives the code alone when the message does not word it, and undefined without an OS code', () => {
    expect(describeSystemError(Object.assign(new Error('a folder holds the name'), { code: 'EISDIR' }))).toBe('EISDIR');
    expect(describeSystemError(new Error('plain'))).toBeUndefined();
    expect(describeSystemError(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBeUndefined();
    expect(describeSystemError('ENOENT')).toBeUndefined();
    expect(describeSystemError(null)).toBeUndefined();
  });
});
