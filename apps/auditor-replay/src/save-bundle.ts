import { unlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, stat, unlink } from 'node:fs/promises';
import { constants } from 'node:os';
import { join } from 'node:path';
import { getSystemErrorMap } from 'node:util';

import { sha256Hex, SubnetError } from '@subnet/core';

import { readBundleBytes } from './bundle-bytes.js';
import { DEFAULT_BUNDLE_LIMITS } from './bundle-limits.js';
import { AUDITOR_ERROR_CODES } from './errors.js';
import { notRegularFile } from './load-bundles.js';
import { endBySignal, takeStopSignals } from './signal-cleanup.js';

/** The file already in the folder that a saved answer was kept beside, and whether it holds the same signed bundle. */
export interface KeptBeside {
  /** The `epoch-<n>.json` already there (never overwritten). */
  readonly file: string;
  /** Whether its `digest` is the answer's (the same signed bundle in other bytes, e.g. before its reveal attestation was added). */
  readonly sameDigest: boolean;
}

/** What {@link saveBundle} did: the file written (and the one kept beside it), or the two names that both hold other bytes. */
export type SavedBundle =
  | { readonly file: string; readonly beside?: KeptBeside; readonly conflict?: undefined }
  | { readonly file?: undefined; readonly conflict: readonly [string, string] };

/**
 * Writes an epoch's bytes without ever replacing a file: `epoch-<n>.json` when it does not exist or holds the
 * same bytes (or the same bytes and one newline, as a validator's `bundles.dir` file does); otherwise beside it, `epoch-<n>.<sha256 of the bytes, 64 hex>.json` (the same name again for the
 * same bytes, so fetching twice adds nothing), saying whether the file kept holds the same digest. The whole digest
 * names the file: with a prefix, a validator could grind a document whose name another of its documents already
 * holds (12 hex took about 2^24 hashes), and that answer would not be saved. Bytes already saved beside under the
 * 12-hex name of earlier versions are recognised there and not written again.
 *
 * @param outDir - the folder
 * @param epoch - the epoch asked for (the name never comes from the answer)
 * @param bytes - the answer's bytes
 * @param doc - the answer, parsed
 * @param maxBytes - the largest bundle (`fetch --max-bundle-bytes`, default 64 MiB): the file kept is read for its
 *   digest up to it, so a bundle the run may fetch is compared whole (docs/spec.md G.46 (a))
 * @returns the file written (or found holding these bytes) and, when kept beside another, that file; `{ conflict }`
 *   with both names when both already hold other bytes (a local name conflict: nothing written)
 * @throws SubnetError `AUDITOR_WRITE_FAILED` when a file cannot be written (a local disk error: EACCES, ENOSPC,
 *   EROFS, a directory at the file's name, ...), naming the path and the OS code; no file already there is changed
 * @example const saved = await saveBundle('bundles', 7, bytes, doc)
 */
export async function saveBundle(
  outDir: string,
  epoch: number,
  bytes: Uint8Array,
  doc: unknown,
  maxBytes: number = DEFAULT_BUNDLE_LIMITS.maxBytes,
): Promise<SavedBundle> {
  const file = join(outDir, `epoch-${epoch}.json`);
  const held = await writeNew(file, bytes);
  if (held === true) return { file };
  const hash = sha256Hex(bytes);
  // The file kept is read as it was looked at when it was compared (one `stat` of the name per answer).
  const beside = (saved: string): SavedBundle => ({
    file: saved,
    beside: Object.freeze({ file, sameDigest: sameDigest(doc, readDocument(file, held.info, maxBytes)) }),
  });
  // A folder filled by an earlier version: these bytes may already be beside under the short name.
  const legacy = join(outDir, `epoch-${epoch}.${hash.slice(0, LEGACY_NAME_HEX)}.json`);
  if (await holdsBytes(legacy, bytes)) return beside(legacy);
  const other = join(outDir, `epoch-${epoch}.${hash}.json`);
  if ((await writeNew(other, bytes)) !== true) return { conflict: [file, other] };
  return beside(other);
}

/** How many hex digits of the sha256 named a file beside `epoch-<n>.json` before the whole digest did. */
const LEGACY_NAME_HEX = 12;

/**
 * What the file beside a saved one holds, in words.
 *
 * @param beside - the file already in the folder and whether its digest is the same
 * @returns the sentence
 * @example besideSentence({ file: 'bundles/epoch-7.json', sameDigest: false })
 */
export function besideSentence(beside: KeptBeside): string {
  return beside.sameDigest
    ? `${beside.file} holds the same signed bundle (same digest) in other bytes, e.g. without its reveal attestation; both kept`
    : `${beside.file} holds another document for this epoch; both kept (verify the folder: two bundles validly signed by one validator for one epoch are an equivocation)`;
}

/**
 * The coded error for a local disk error while `fetch` writes its output: the path, the OS code and its meaning.
 * It stops the run: asking the validator again cannot fix the auditor's own disk.
 *
 * @param path - the file or folder that could not be written
 * @param error - what the file system threw (its `code` and `errno`)
 * @param option - the option that named the path (`--out`, `--report`)
 * @param consequence - what the failure did to the run, after the OS code
 * @returns `[AUDITOR_WRITE_FAILED] cannot write PATH: EACCES (permission denied); ...`
 * @example throw writeFailed('bundles/epoch-7.json', error)
 */
export function writeFailed(
  path: string,
  error: unknown,
  option = '--out',
  consequence = 'a local disk error, so fetch stopped (files already written are kept as they are)',
): SubnetError {
  const e = error as NodeJS.ErrnoException;
  const osCode = typeof e.code === 'string' ? e.code : 'UNKNOWN';
  const meaning = typeof e.errno === 'number' ? getSystemErrorMap().get(e.errno)?.[1] : undefined;
  return new SubnetError(AUDITOR_ERROR_CODES.writeFailed, `cannot write ${path}: ${osCode}${meaning === undefined ? '' : ` (${meaning})`}; ${consequence}`, {
    context: { path: option, value: path, osCode },
    cause: error,
  });
}

/**
 * Creates `file` with `bytes` (never through an existing name or link): true when created or already holding exactly
 * these bytes; when it holds others, the `stat` of what holds the name (undefined for a dangling link), looked at once
 * and before anything there is opened. A file this call created and could not finish (ENOSPC, EFBIG, or Ctrl-C:
 * SIGINT or SIGTERM during the write) is removed, so no truncated bundle is left under an epoch's name; nothing that
 * was there before is touched.
 */
async function writeNew(file: string, bytes: Uint8Array): Promise<true | { readonly info: Stats | undefined }> {
  // The file is this call's own from its creation until it is whole: a signal in that time removes it, then ends the
  // process as the signal would. A signal while `open` is under way waits for it: only then is it known whether the
  // name was created here (removed) or already held another file (left alone).
  let created = false;
  let pending: NodeJS.Signals | undefined;
  const endBy = (signal: NodeJS.Signals): void => {
    if (created) {
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    }
    endBySignal(signal, stopListening);
  };
  const stopListening = takeStopSignals((signal) => {
    if (created) endBy(signal);
    else pending = signal;
  });
  try {
    let handle;
    try {
      handle = await open(file, 'wx');
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailed(file, error);
    }
    if (pending !== undefined) endBy(pending);
    if (handle !== undefined) {
      try {
        await handle.writeFile(bytes);
        await handle.close();
        created = false;
        return true;
      } catch (error) {
        await handle.close().catch(() => undefined);
        await unlink(file).catch(() => undefined);
        throw writeFailed(file, error);
      }
    }
  } finally {
    stopListening();
  }
  let info;
  try {
    info = await stat(file); // through a link, as verify reads one (docs/spec.md G.13)
  } catch {
    return { info: undefined }; // a dangling link: not a document, and this answer goes beside it
  }
  // A folder under the epoch's name is the auditor's disk, not another document of the validator's.
  if (info.isDirectory()) throw writeFailed(file, Object.assign(new Error('a folder holds the name'), { code: 'EISDIR', errno: -constants.errno.EISDIR }));
  // So is a named pipe, a socket or a device: never read (a pipe no one writes would hold the run forever).
  const kind = notRegularFile(info);
  if (kind !== undefined) throw notRegularName(file, kind);
  return (await holdsBytes(file, bytes, info)) || { info };
}

/** `AUDITOR_WRITE_FAILED` for a name held by something that is not a regular file (never read, never replaced). */
function notRegularName(file: string, kind: string): SubnetError {
  return new SubnetError(
    AUDITOR_ERROR_CODES.writeFailed,
    `cannot write ${file}: ${kind} holds the name (not a regular file, so not read or replaced); a local disk error, so fetch stopped (files already written are kept as they are)`,
    { context: { path: '--out', value: file, osCode: 'EEXIST' } },
  );
}

/**
 * Whether `file` exists and holds `bytes`, alone or followed by one newline (false when it is missing, unreadable, a
 * folder or other bytes). A validator writes each bundle to its `bundles.dir` as the served bytes and a newline
 * (docs/spec.md G.28): fetching into that folder, or a copy of it, finds the same document there, not other bytes.
 * `looked` is the name's `stat` when the caller has just taken it (it is not taken again).
 */
async function holdsBytes(file: string, bytes: Uint8Array, looked?: Stats): Promise<boolean> {
  try {
    const info = looked ?? (await stat(file));
    if (!info.isFile() || (info.size !== bytes.byteLength && info.size !== bytes.byteLength + 1)) return false;
    // Through a non-blocking handle and the opened file's own type: whatever holds the name by now is never waited for.
    const held = readBundleBytes(file, { ...DEFAULT_BUNDLE_LIMITS, maxBytes: bytes.byteLength + 1 });
    if (held === undefined) return false;
    const body = held.byteLength === bytes.byteLength + 1 && held[bytes.byteLength] === 0x0a ? held.subarray(0, bytes.byteLength) : held;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(body);
  } catch {
    return false;
  }
}

/**
 * The JSON document in the file already in the folder, as `info` (its `stat` when it was compared) saw it: undefined
 * when it was a dangling link, or cannot be read, is larger than `maxBytes`, or is not JSON.
 */
function readDocument(file: string, info: Stats | undefined, maxBytes: number): unknown {
  if (info === undefined || !info.isFile() || info.size > maxBytes) return undefined;
  const held = readBundleBytes(file, { ...DEFAULT_BUNDLE_LIMITS, maxBytes });
  try {
    return held === undefined ? undefined : (JSON.parse(held.toString('utf8')) as unknown);
  } catch {
    return undefined;
  }
}

/** Whether two documents carry the same well-formed `digest` (the same signed bundle, whatever the bytes around it). */
function sameDigest(a: unknown, b: unknown): boolean {
  const digest = (doc: unknown) => (typeof doc === 'object' && doc !== null && Object.hasOwn(doc, 'digest') ? (doc as { digest: unknown }).digest : undefined);
  const d = digest(a);
  return typeof d === 'string' && /^[0-9a-f]{64}$/.test(d) && d === digest(b);
}
