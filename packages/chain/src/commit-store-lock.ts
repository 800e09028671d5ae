import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';

import { z } from 'zod';

import { chainError } from './chain-error.js';
import type { ChainError } from './chain-error.js';

/** Who holds a commit store file, as its lock records it. */
export interface CommitStoreHolder {
  readonly pid: number;
  /** `os.hostname()` of the holder's machine. */
  readonly host: string;
  /** When the holder took the lock (ISO 8601). */
  readonly since: string;
}

/** Wire format (snake_case JSON) of the holder file inside a commit store's lock folder. */
const holderFileSchema = z.object({
  pid: z.number().int().min(1),
  host: z.string(),
  /** Linux `/proc/sys/kernel/random/boot_id`: another value means the machine restarted since the lock was taken. */
  boot_id: z.string().nullable(),
  /** Field 22 of Linux `/proc/<pid>/stat` (start time in clock ticks after boot): tells a reused pid from the holder. */
  start_ticks: z.string().nullable(),
  since: z.string(),
});
type HolderFile = z.infer<typeof holderFileSchema>;

/** A holder file's name in the lock folder: `<token>.json`, the token unique to one taking of the lock. */
const HOLDER_NAME = /^[0-9a-f]{32}\.json$/;

/** Attempts at the lock before giving up: each failed one saw a holder leave, or removed a dead one's file. */
const ATTEMPTS = 16;

let bootIdMemo: string | null | undefined;
/** This machine's boot id (Linux), null where there is none. */
function bootId(): string | null {
  if (bootIdMemo === undefined) {
    try {
      bootIdMemo = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootIdMemo = null;
    }
  }
  return bootIdMemo;
}

/**
 * A process's start time in clock ticks after boot (Linux: field 22 of `/proc/<pid>/stat`, after the parenthesised
 * command name, which may hold spaces), null where it cannot be read (no /proc, the process gone, or hidden by
 * `hidepid`).
 */
function startTicks(pid: number | 'self'): string | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): field 22 is fields[19]
  const ticks = fields[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : null;
}

let selfTicksMemo: string | null | undefined;
function selfTicks(): string | null {
  if (selfTicksMemo === undefined) selfTicksMemo = startTicks('self');
  return selfTicksMemo;
}

/** Whether a pid names a running process of this machine (a process of another user counts). */
function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== 'ESRCH';
  }
}

/** Why a recorded holder is no longer there (the lock is then taken over), or undefined when it may still be. */
function staleReason(holder: HolderFile): string | undefined {
  if (holder.host !== hostname()) return undefined;
  const boot = bootId();
  if (holder.boot_id !== null && boot !== null && holder.boot_id !== boot) return 'the machine restarted since';
  const mine = selfTicks();
  if (holder.pid === process.pid) {
    // An earlier process that had this pid (a container's first process, restarted).
    return holder.start_ticks !== null && mine !== null && holder.start_ticks !== mine ? `process ${holder.pid} is this one, started later` : undefined;
  }
  if (!pidRunning(holder.pid)) return `process ${holder.pid} is not running`;
  if (holder.start_ticks === null) return undefined;
  const now = startTicks(holder.pid);
  // Unreadable: it ended meanwhile, or /proc hides other users' processes (then it is taken as alive).
  if (now === null) return pidRunning(holder.pid) ? undefined : `process ${holder.pid} is not running`;
  if (now !== holder.start_ticks) return `pid ${holder.pid} now belongs to another process (started later)`;
  return undefined;
}

function lockedError(path: string, lockPath: string, summary: string, holder?: HolderFile): ChainError {
  return chainError('CommitStoreLocked', summary, {
    source: 'client',
    path: 'commitStore',
    value: path,
    lockPath,
    ...(holder === undefined ? {} : { holder: Object.freeze({ pid: holder.pid, host: holder.host, since: holder.since }) }),
  });
}

/** The refusal for a holder that is (or may be) alive, saying what to do. */
function heldError(path: string, lockPath: string, holder: HolderFile): ChainError {
  const who = `process ${holder.pid} on ${holder.host} (since ${holder.since})`;
  const lead = `the commit store ${path} is in use by ${who}`;
  const why = 'two writers of one store drop each other’s salts, so it is not opened twice';
  if (holder.host !== hostname()) {
    return lockedError(
      path,
      lockPath,
      `${lead}, another host, where this one cannot check it: ${why}. Stop that process, or give this one its own file; if nothing on ${holder.host} uses it any more (a container re-created under a new host name), remove ${lockPath}`,
      holder,
    );
  }
  if (holder.pid === process.pid) {
    return lockedError(
      path,
      lockPath,
      `${lead}: this process already holds it through another store on the same file: ${why}. Use that store, or close() it first`,
      holder,
    );
  }
  const unchecked =
    holder.start_ticks === null || selfTicks() === null
      ? `; this system cannot tell a reused pid, so if process ${holder.pid} is not a user of this store, remove ${lockPath}`
      : '';
  return lockedError(path, lockPath, `${lead}: ${why}. Stop that process, or give this one its own file${unchecked}`, holder);
}

/** A held lock: `release` gives it up (idempotent); `check` fails when it was lost. */
export interface StoreLock {
  readonly lockPath: string;
  release(): void;
  /** Rejects with `CHAIN_COMMIT_STORE_LOCKED` when this holder's file is gone from the lock (taken or removed by hand). */
  check(): Promise<void>;
}

/** Locks held by this process, released when it exits (a process killed by a signal leaves them, and they go stale). */
const held = new Set<StoreLock>();
const releaseAll = (): void => {
  for (const lock of [...held]) lock.release();
};

function writeHolder(file: string, content: string): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function errnoOf(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

/** The holder named in a lock folder: a holder, 'empty' (being taken over), 'gone' (no folder any more). */
function readHolder(path: string, lockPath: string): { name: string; holder: HolderFile } | 'empty' | 'gone' {
  let names: string[];
  try {
    names = readdirSync(lockPath);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return 'gone';
    if (errnoOf(error) === 'ENOTDIR')
      throw lockedError(path, lockPath, `the commit store ${path} cannot be locked: ${lockPath} is a file, not the lock folder this version makes; remove it`);
    throw error;
  }
  if (names.length === 0) return 'empty';
  const name = names[0];
  if (names.length > 1 || name === undefined || !HOLDER_NAME.test(name)) {
    throw lockedError(
      path,
      lockPath,
      `the commit store ${path} cannot be locked: its lock folder ${lockPath} holds ${names.join(', ')}, not one holder file; if no process uses the store, remove that folder`,
    );
  }
  let text: string;
  try {
    text = readFileSync(join(lockPath, name), 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return 'empty';
    throw error;
  }
  let parsed: ReturnType<typeof holderFileSchema.safeParse>;
  try {
    parsed = holderFileSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = holderFileSchema.safeParse(undefined);
  }
  if (!parsed.success) {
    throw lockedError(
      path,
      lockPath,
      `the commit store ${path} cannot be locked: its holder file ${join(lockPath, name)} is not one this version writes; if no process uses the store, remove ${lockPath}`,
    );
  }
  return { name, holder: parsed.data };
}

/**
 * Takes a commit store file for this process alone, until `release` or the process's exit.
 *
 * The lock is the folder `<path>.lock` holding one file, `<token>.json`, that names the holder (pid, host name, boot
 * id, the process's start time where `/proc` tells it). It is made whole in a private folder and renamed into place:
 * a rename onto a folder that holds a file fails, onto an empty one replaces it, so exactly one of several takers
 * wins, and nobody ever reads half a holder. A holder that is gone (its pid not running on this host, the pid now
 * another process's, the machine restarted) is stale: its file, named by its token, is removed and the rename tried
 * again. Removing a file by its token never removes a newer holder's, so two processes taking over one stale lock
 * at once both remove the same file, and only the first rename after it succeeds.
 *
 * @param path - the commit store file
 * @returns the lock
 * @throws SubnetError `CHAIN_COMMIT_STORE_LOCKED` naming the holder when another process, or another store of this
 *   process, holds it
 */
export function lockCommitStore(path: string): StoreLock {
  const lockPath = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = randomBytes(16).toString('hex');
  const staging = `${lockPath}.${token}.tmp`;
  const record: HolderFile = { pid: process.pid, host: hostname(), boot_id: bootId(), start_ticks: selfTicks(), since: new Date().toISOString() };
  mkdirSync(staging, { mode: 0o700 });
  let taken = false;
  try {
    writeHolder(join(staging, `${token}.json`), JSON.stringify(record));
    for (let attempt = 0; attempt < ATTEMPTS && !taken; attempt++) {
      try {
        renameSync(staging, lockPath);
        taken = true;
        break;
      } catch (error) {
        // ENOTDIR: a file where the lock folder goes, which readHolder names
        if (errnoOf(error) !== 'ENOTEMPTY' && errnoOf(error) !== 'EEXIST' && errnoOf(error) !== 'ENOTDIR') throw error;
      }
      const found = readHolder(path, lockPath);
      // gone or empty: a holder left, or a taker removed a dead one's file and has not renamed yet: try again
      if (typeof found === 'string') continue;
      if (staleReason(found.holder) === undefined) throw heldError(path, lockPath, found.holder);
      try {
        unlinkSync(join(lockPath, found.name));
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw error;
      }
    }
  } finally {
    if (!taken) rmSync(staging, { recursive: true, force: true });
  }
  if (!taken)
    throw lockedError(path, lockPath, `the commit store ${path} could not be locked: ${lockPath} changed hands ${ATTEMPTS} times while this process tried`);
  const mine = join(lockPath, `${token}.json`);
  let released = false;
  const lock: StoreLock = {
    lockPath,
    release: () => {
      if (released) return;
      released = true;
      held.delete(lock);
      if (held.size === 0) process.removeListener('exit', releaseAll);
      try {
        unlinkSync(mine);
        // fails (ENOTEMPTY) when another holder renamed its folder in after the unlink: that one keeps it
        rmdirSync(lockPath);
      } catch {
        // gone already (taken over, or removed by hand)
      }
    },
    check: async () => {
      try {
        await stat(mine);
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw error;
        throw lockedError(
          path,
          lockPath,
          `the commit store ${path} is no longer held by this process (${mine} is gone: another process took the lock over, or it was removed by hand): nothing more is written, so neither writer drops the other's salts; close this store`,
        );
      }
    },
  };
  if (held.size === 0) process.on('exit', releaseAll);
  held.add(lock);
  return lock;
}
