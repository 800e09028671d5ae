import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

import { isSubnetError } from '@subnet/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { readTaskFile, readUpTo } from '../dispatch/read-task-file.js';
import { folderTaskSource, MAX_TASK_SOURCE_BYTES } from '../dispatch/task-source.js';
import { VALIDATOR_ERROR_CODES } from '../errors.js';
import { tempDir } from './helpers.js';

/**
 * The folder task source reads each file through one descriptor: its size is checked on that descriptor and
 * at most the limit + 1 bytes are read, so a file replaced or grown after the check is never read past the
 * limit (the size and the bytes are about the same file). Real files in a temporary folder.
 */

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir();
});
afterEach(() => {
  t.cleanup();
});

/** A sparse file of `size` bytes (no disk used), with `marker` written at `at`. */
function sparseFile(path: string, size: number, marker?: { at: number; text: string }): void {
  const fd = openSync(path, 'w');
  try {
    if (marker !== undefined) writeSync(fd, marker.text, marker.at);
    writeSync(fd, '\n', size - 1);
  } finally {
    closeSync(fd);
  }
}

const none = () => Promise.resolve(false);

describe('folder task source: the size check and the read are about one file', () => {
  it('a file larger than 16 MiB (sparse) is refused with VALIDATOR_TASK_FILE_TOO_LARGE naming the file and its size; the other files are used', async () => {
    const big = join(t.dir, 'big.json');
    sparseFile(big, MAX_TASK_SOURCE_BYTES + 1);
    writeFileSync(join(t.dir, 'ok.json'), JSON.stringify({ task_id: 'ok-1' }));
    const error = await readTaskFile(big, MAX_TASK_SOURCE_BYTES).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSubnetError(error, VALIDATOR_ERROR_CODES.taskFileTooLarge)).toBe(true);
    if (!isSubnetError(error, VALIDATOR_ERROR_CODES.taskFileTooLarge)) return;
    expect(error.context).toEqual({ file: big, size: MAX_TASK_SOURCE_BYTES + 1, limit: MAX_TASK_SOURCE_BYTES });
    expect(error.message).toContain(`task file ${big} has ${MAX_TASK_SOURCE_BYTES + 1} bytes, more than ${MAX_TASK_SOURCE_BYTES}`);
    const batch = await folderTaskSource(t.dir).next({ epoch: 1, limit: 5, dispatched: none });
    expect(batch.tasks.map((x) => x.task_id)).toEqual(['ok-1']);
    expect(batch.problems).toEqual([`big.json: ${error.message}`]);
  });

  it.skipIf(!existsSync('/proc/self/status'))(
    'a file that holds more than its size said when checked (a /proc file: size 0, some 1 KiB read) is refused once the read passes the limit, not parsed whole',
    async () => {
      // The limit is 256 bytes; the size the check sees is 0, so only the read itself can find the excess.
      symlinkSync('/proc/self/status', join(t.dir, 'grown.json'));
      const batch = await folderTaskSource(t.dir, { maxFileBytes: 256 }).next({ epoch: 1, limit: 5, dispatched: none });
      expect(batch.tasks).toEqual([]);
      expect(batch.problems).toEqual([
        `grown.json: [VALIDATOR_TASK_FILE_TOO_LARGE] task file ${join(t.dir, 'grown.json')} grew past 256 bytes while it was read (its size said 0)`,
      ]);
    },
  );

  it('readUpTo reads at most the limit + 1 bytes of a 64 MiB file, and a file within the limit whole', async () => {
    const path = join(t.dir, 'sparse.bin');
    sparseFile(path, 64 * 1024 * 1024, { at: 1000, text: 'X' });
    const handle = await open(path, 'r');
    try {
      let read = 0;
      const counted = {
        read: async (buffer: Uint8Array, offset: number, length: number, position: number | null) => {
          const got = await handle.read(buffer, offset, length, position);
          read += got.bytesRead;
          return got;
        },
      };
      const over = await readUpTo(counted, 1000, 0);
      expect(over.more).toBe(true);
      expect(over.bytes.length).toBe(1000);
      expect(read).toBe(1001);
      // A size hint larger than the limit does not make it read further.
      const hinted = await readUpTo(counted, 1000, 64 * 1024 * 1024);
      expect(hinted.more).toBe(true);
      expect(read).toBe(2002);
    } finally {
      await handle.close();
    }
    const small = join(t.dir, 'small.json');
    writeFileSync(small, '{"task_id":"s"}');
    expect((await readTaskFile(small, 1000))?.toString('utf8')).toBe('{"task_id":"s"}');
  });

  it('what is not a regular file is skipped without being read: a folder named *.json, and a FIFO that has no writer', async () => {
    mkdirSync(join(t.dir, 'dir.json'));
    execFileSync('mkfifo', [join(t.dir, 'pipe.json')]);
    expect(await readTaskFile(join(t.dir, 'dir.json'), 1000)).toBeUndefined();
    expect(await readTaskFile(join(t.dir, 'pipe.json'), 1000)).toBeUndefined();
    const batch = await folderTaskSource(t.dir).next({ epoch: 1, limit: 5, dispatched: none });
    expect(batch).toEqual({ tasks: [], problems: [] });
  });
});
