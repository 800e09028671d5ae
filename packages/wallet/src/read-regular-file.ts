import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** The largest keyfile or password file read: btwallet's files are under 2 KiB (an ansible-vault one a few KiB). */
export const MAX_KEY_FILE_BYTES = 64 * 1024;

/** Why a file was not read (internal). */
export type RegularFileProblem =
  | { readonly kind: 'unreadable'; readonly code: string }
  | { readonly kind: 'not-regular'; readonly type: string }
  | { readonly kind: 'too-large'; readonly size: number };

function typeOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

/**
 * Reads a small regular file (symlinks followed, as btwallet's `File::open` does) without ever blocking on
 * what is not one: it is opened non-blocking (a FIFO without a writer does not hang `open`), checked on the
 * open handle (no race between the check and the read), and read up to `maxBytes` + 1, so a device such as
 * `/dev/zero` or a file growing while read is never read without end. btwallet itself reads with
 * `read_to_end` (`src/keyfile.rs:826-850`), which waits on a FIFO and reads `/dev/zero` until memory runs out.
 *
 * @param path - the file
 * @param maxBytes - the largest size accepted
 * @returns the bytes and mode, or why they were not read
 * @example const got = await readRegularFile(path, MAX_KEY_FILE_BYTES)
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<{ readonly data: Uint8Array; readonly mode: number } | RegularFileProblem> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    return { kind: 'unreadable', code: typeof code === 'string' ? code : 'error' };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'not-regular', type: typeOf(stats) };
    if (stats.size > maxBytes) return { kind: 'too-large', size: stats.size };
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return { kind: 'too-large', size: length };
    }
    return { data: new Uint8Array(buffer.subarray(0, length)), mode: stats.mode };
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    return { kind: 'unreadable', code: typeof code === 'string' ? code : 'error' };
  } finally {
    await handle.close();
  }
}
