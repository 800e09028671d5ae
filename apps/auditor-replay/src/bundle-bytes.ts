import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

import type { BundleLimits } from './bundle-limits.js';

/** The array every file is read into, grown to the largest file read (one file is read at a time: the read is synchronous). */
let scratch = Buffer.allocUnsafe(1 << 20);

/**
 * Reads a bundle file's bytes into one reused array, synchronously, when nothing is out of the ordinary: no
 * 800 KB string and no fresh 800 KB buffer per file. The bytes are a view of that array, valid until the next
 * call (the caller uses them before it awaits anything). Undefined when the file cannot be opened or read or
 * is larger than `maxBytes`, or is not a regular file: the caller then reads it as before (`readBundleText`), which says why.
 *
 * @param file - the path
 * @param limits - the size limits
 * @returns the bytes, or undefined
 * @example const bytes = readBundleBytes('epoch-7.json', DEFAULT_BUNDLE_LIMITS)
 */
export function readBundleBytes(file: string, limits: BundleLimits): Buffer | undefined {
  let fd: number;
  try {
    // Non-blocking: opening a named pipe no one writes would otherwise wait for a writer forever, with the event
    // loop held (docs/spec.md G.13). A regular file reads as it would without the flag.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    // Anything but a regular file (a pipe, a device such as /dev/zero) is refused unread by `readBundleText`.
    if (!info.isFile()) return undefined;
    const size = info.size;
    if (size > limits.maxBytes) return undefined;
    if (scratch.length < size + 1) scratch = Buffer.allocUnsafe(size + 1);
    // Until the end of the file, whatever the size said (a file that grew is read whole, as readFile would).
    let length = 0;
    for (;;) {
      if (length === scratch.length) {
        if (length > limits.maxBytes) return undefined;
        const next = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(next, 0, 0, length);
        scratch = next;
      }
      const n = readSync(fd, scratch, length, scratch.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return length > limits.maxBytes ? undefined : scratch.subarray(0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
