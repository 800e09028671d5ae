import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

import { appError, VALIDATOR_ERROR_CODES } from '../errors.js';

/** What {@link readUpTo} reads from: a file handle's positional read (`FileHandle.read`). */
export interface ChunkReader {
  read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
}

/**
 * Reads from the handle's current position to its end, but never more than `maxBytes` + 1 bytes: the buffer
 * starts at the size the caller expects (capped at the limit) and grows by doubling up to `maxBytes` + 1, so
 * memory stays bounded by the limit whatever the file turns out to hold.
 *
 * @param handle - an open file handle (or anything with its `read`)
 * @param maxBytes - the most bytes kept
 * @param sizeHint - the size the file said it had (the first buffer's size)
 * @returns the bytes (at most `maxBytes`) and whether the file went on past them (the rest was not read)
 * @example const { bytes, more } = await readUpTo(handle, 16 * 1024 * 1024, (await handle.stat()).size)
 */
export async function readUpTo(handle: ChunkReader, maxBytes: number, sizeHint: number): Promise<{ readonly bytes: Buffer; readonly more: boolean }> {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(0, sizeHint), maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) return { bytes: buffer.subarray(0, maxBytes), more: true };
      const next = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(next, 0, 0, length);
      buffer = next;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) return { bytes: buffer.subarray(0, length), more: false };
    length += bytesRead;
  }
}

/**
 * Reads one task file through one descriptor: opened non-blocking (a FIFO without a writer does not hold the
 * round), checked on that descriptor (what is not a regular file is skipped) and read up to `maxBytes` + 1,
 * so a file replaced or grown after its size was checked is never read past the limit.
 *
 * @param path - the file (symlinks followed)
 * @param maxBytes - the largest file accepted
 * @returns the bytes, or undefined when the path is not a regular file
 * @throws SubnetError `VALIDATOR_TASK_FILE_TOO_LARGE` (context `{ file, size, limit }`, `size` as the
 *   descriptor said) when the file is larger than `maxBytes`, or grows past it while read; the errors of
 *   `open` and `read` (ENOENT, EACCES, ...) as they are
 * @example const bytes = await readTaskFile('./tasks/sssa/a.json', MAX_TASK_SOURCE_BYTES)
 */
export async function readTaskFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    const context = { file: path, size: info.size, limit: maxBytes };
    if (info.size > maxBytes) {
      throw appError(VALIDATOR_ERROR_CODES.taskFileTooLarge, `task file ${path} has ${info.size} bytes, more than ${maxBytes}`, context);
    }
    const { bytes, more } = await readUpTo(handle, maxBytes, info.size);
    if (more) {
      throw appError(
        VALIDATOR_ERROR_CODES.taskFileTooLarge,
        `task file ${path} grew past ${maxBytes} bytes while it was read (its size said ${info.size})`,
        context,
      );
    }
    return bytes;
  } finally {
    await handle.close();
  }
}
