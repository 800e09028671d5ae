import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { isSubnetError } from '@subnet/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { WALLET_ERROR_CODES } from '../errors.js';
import { readKeyfile } from '../read-keyfile.js';

/**
 * Keyfiles an operator (or a mistaken deployment) points the validator at that are not files btwallet writes:
 * each is a coded error naming the file, never a hang, an endless read or a crash.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-hostile-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<{ code?: string; message: string; context?: Record<string, unknown> }> {
  return promise.then(
    () => ({ message: 'resolved' }),
    (error: unknown) => error as { code?: string; message: string; context?: Record<string, unknown> },
  );
}

/** Opens a FIFO for writing without blocking once its reader exists, so a reader stuck in open() is released. */
function releaseFifo(path: string): void {
  try {
    closeSync(openSync(path, 'w+'));
  } catch {
    // nothing waits on it
  }
}

describe('keyfiles that are not regular files', () => {
  it('a FIFO: WALLET_KEYFILE_NOT_FOUND "not a regular file" naming the path, without waiting for a writer', async () => {
    const fifo = join(dir, 'default');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    try {
      const error = await failure(readKeyfile(fifo, { prompt: null, env: {} }));
      expect(isSubnetError(error, WALLET_ERROR_CODES.keyfileNotFound)).toBe(true);
      expect(error.message).toMatch(/not a regular file \(a FIFO\)/);
      expect(error.message).toContain(fifo);
    } finally {
      releaseFifo(fifo);
    }
  });

  it('a symlink to /dev/zero: refused as a character device, not read until memory runs out', async () => {
    const link = join(dir, 'default');
    symlinkSync('/dev/zero', link);
    const error = await failure(readKeyfile(link, { prompt: null, env: {} }));
    expect(isSubnetError(error, WALLET_ERROR_CODES.keyfileNotFound)).toBe(true);
    expect(error.message).toMatch(/not a regular file \(a character device\)/);
    expect(error.message).toContain(link);
  });

  it('a directory: refused as a directory', async () => {
    const error = await failure(readKeyfile(dir, { prompt: null, env: {} }));
    expect(isSubnetError(error, WALLET_ERROR_CODES.keyfileNotFound)).toBe(true);
    expect(error.message).toMatch(/not a regular file \(a directory\)/);
  });

  it('a symlink to a regular keyfile is read through (btwallet follows it too), its target mode checked', async () => {
    const target = join(dir, 'real');
    writeFileSync(target, '{"accountId": "0x00"}', { mode: 0o600 });
    const link = join(dir, 'default');
    symlinkSync(target, link);
    const error = await failure(readKeyfile(link, { prompt: null, env: {} }));
    // The file is read and parsed: what it holds is the keyfile's problem, not the link's.
    expect(isSubnetError(error, WALLET_ERROR_CODES.invalidKeyfile)).toBe(true);
  });
});

describe('keyfiles far larger than btwallet writes', () => {
  it('a 100 MiB (sparse) keyfile: WALLET_INVALID_KEYFILE naming its size and the 64 KiB limit, before reading it', async () => {
    const big = join(dir, 'default');
    writeFileSync(big, '', { mode: 0o600 });
    truncateSync(big, 100 * 1024 * 1024);
    const error = await failure(readKeyfile(big, { prompt: null, env: {} }));
    expect(isSubnetError(error, WALLET_ERROR_CODES.invalidKeyfile)).toBe(true);
    expect(error.message).toMatch(/104857600 bytes/);
    expect(error.message).toMatch(/65536/);
    expect(error.message).toContain(big);
  });

  it('a keyfile of exactly 64 KiB is read (and judged on its content)', async () => {
    const edge = join(dir, 'default');
    writeFileSync(edge, `{"accountId": "${'0'.repeat(65_536 - 18)}"}`, { mode: 0o600 });
    const error = await failure(readKeyfile(edge, { prompt: null, env: {} }));
    expect(isSubnetError(error, WALLET_ERROR_CODES.invalidKeyfile)).toBe(true);
    expect(error.message).not.toMatch(/65536/);
  });
});

describe('password files that are not regular files', () => {
  it('a FIFO as wallet.password_file: WALLET_PASSWORD_FILE_UNREADABLE naming it, without waiting for a writer', async () => {
    const keyfile = join(dir, 'default');
    writeFileSync(keyfile, '$NACL' + 'x'.repeat(100), { mode: 0o600 });
    const fifo = join(dir, 'pw');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    try {
      const error = await failure(readKeyfile(keyfile, { passwordFile: fifo, prompt: null, env: {} }));
      expect(isSubnetError(error, WALLET_ERROR_CODES.passwordFileUnreadable)).toBe(true);
      expect(error.message).toMatch(/not a regular file \(a FIFO\)/);
      expect(error.message).toContain(fifo);
    } finally {
      releaseFifo(fifo);
    }
  });

  it('/dev/zero as wallet.password_file: refused, not read forever', async () => {
    const keyfile = join(dir, 'default');
    writeFileSync(keyfile, '$NACL' + 'x'.repeat(100), { mode: 0o600 });
    const error = await failure(readKeyfile(keyfile, { passwordFile: '/dev/zero', prompt: null, env: {} }));
    expect(isSubnetError(error, WALLET_ERROR_CODES.passwordFileUnreadable)).toBe(true);
    expect(error.message).toMatch(/not a regular file \(a character device\)/);
  });
});
