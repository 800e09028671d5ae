import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';

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
  /**
   * How long the holder's heartbeat (its file's modification time, refreshed every twelfth of it) may stand still
   * before the lock counts as abandoned where the holder cannot be checked. Absent in a lock of an earlier version.
   */
  stale_after_ms: z.number().int().min(1).max(86_400_000).optional(),
});
type HolderFile = z.infer<typeof holderFileSchema>;

/** A holder file's name in the lock folder: `<token>.json`, the token unique to one taking of the lock. */
const HOLDER_NAME = /^[0-9a-f]{32}\.json$/;

/** How long a heartbeat may stand still before a holder that cannot be checked counts as gone (docs/spec.md G.32). */
export const COMMIT_STORE_LOCK_STALE_AFTER_MS = 60_000;

/**
 * Internal, for tests: `SUBNET_COMMIT_STORE_LOCK_STALE_MS` replaces the bound for the locks this process takes (the
 * holder writes it into its file, and a taker keeps to the holder's), so a test sees several bounds go by in a second.
 * Not a setting: a bound much shorter than the stalls of a busy host lets another host take over a live holder's lock
 * (the holder then refuses to write, losing a save).
 */
function staleAfterMs(): number {
  const text = process.env['SUBNET_COMMIT_STORE_LOCK_STALE_MS'];
  if (text === undefined || text === '') return COMMIT_STORE_LOCK_STALE_AFTER_MS;
  const value = Number(text);
  if (!/^[1-9][0-9]*$/.test(text) || value < 12 || value > 86_400_000)
    throw chainError('InvalidInput', `SUBNET_COMMIT_STORE_LOCK_STALE_MS is ${JSON.stringify(text)}, not a whole number of milliseconds from 12 to 86400000`, {
      source: 'client',
      path: 'SUBNET_COMMIT_STORE_LOCK_STALE_MS',
      value: text,
    });
  return value;
}

/** Seconds, for messages: one decimal. */
const seconds = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;

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

/** A holder file as found: its name, what it says, and its heartbeat (the file's modification time, epoch ms). */
interface Found {
  readonly lockPath: string;
  readonly name: string;
  readonly holder: HolderFile;
  readonly beatAt: number;
}

/** The heartbeat's age and how long until it counts as abandoned, by this machine's clock. */
function heartbeat(found: Found): { ageMs: number; boundMs: number; leftMs: number } {
  const boundMs = found.holder.stale_after_ms ?? COMMIT_STORE_LOCK_STALE_AFTER_MS;
  // A heartbeat ahead of this clock (skew) is as fresh as one now.
  const ageMs = Math.max(0, Date.now() - found.beatAt);
  return { ageMs, boundMs, leftMs: boundMs - ageMs };
}

/** The reason a holder that cannot be checked is gone, when its heartbeat stood still past the bound. */
function silentReason(found: Found, what: string): string | undefined {
  const beat = heartbeat(found);
  return beat.leftMs < 0 ? `${what}, and its heartbeat is ${seconds(beat.ageMs)} old, over the ${seconds(beat.boundMs)} bound` : undefined;
}

/** Why a recorded holder is no longer there (the lock is then taken over), or undefined when it may still be. */
function staleReason(found: Found): string | undefined {
  const { holder } = found;
  // Another host: nothing to check but the heartbeat.
  if (holder.host !== hostname()) return silentReason(found, `host ${holder.host} cannot be checked from here`);
  const boot = bootId();
  if (holder.boot_id !== null && boot !== null && holder.boot_id !== boot) return 'the machine restarted since';
  const mine = selfTicks();
  if (holder.pid === process.pid) {
    // This process's own (another store): alive whatever its heartbeat says (a blocked event loop delays it).
    if ([...held].some((lock) => lock.holderFile === join(found.lockPath, found.name))) return undefined;
    // An earlier process that had this pid (a container's first process, restarted).
    if (holder.start_ticks !== null && mine !== null) return holder.start_ticks !== mine ? `process ${holder.pid} is this one, started later` : undefined;
    return silentReason(found, `process ${holder.pid} is this one, which holds no such lock`);
  }
  if (!pidRunning(holder.pid)) return `process ${holder.pid} is not running`;
  // No start time to tell a reused pid by (no /proc): the heartbeat tells.
  if (holder.start_ticks === null || mine === null) return silentReason(found, `pid ${holder.pid} runs, but cannot be told from a later process with that pid`);
  const now = startTicks(holder.pid);
  // Unreadable: it ended meanwhile, or /proc hides other users' processes (then only the heartbeat tells).
  if (now === null)
    return pidRunning(holder.pid) ? silentReason(found, `pid ${holder.pid} runs, but its start time is hidden`) : `process ${holder.pid} is not running`;
  if (now !== holder.start_ticks) return `pid ${holder.pid} now belongs to another process (started later)`;
  return undefined;
}

function lockedError(
  path: string,
  lockPath: string,
  summary: string,
  holder?: HolderFile,
  beat?: { readonly ageMs: number; readonly leftMs: number },
): ChainError {
  return chainError('CommitStoreLocked', summary, {
    source: 'client',
    path: 'commitStore',
    value: path,
    lockPath,
    ...(holder === undefined ? {} : { holder: Object.freeze({ pid: holder.pid, host: holder.host, since: holder.since }) }),
    ...(beat === undefined ? {} : { heartbeatAgeMs: Math.round(beat.ageMs), abandonedInMs: Math.max(0, Math.round(beat.leftMs)) }),
  });
}

/** The refusal for a holder that is (or may be) alive, saying what to do. */
function heldError(path: string, lockPath: string, found: Found): ChainError {
  const { holder } = found;
  const who = `process ${holder.pid} on ${holder.host} (since ${holder.since})`;
  const lead = `the commit store ${path} is in use by ${who}`;
  const why = 'two writers of one store drop each other’s salts, so it is not opened twice';
  if (holder.host !== hostname()) {
    const beat = heartbeat(found);
    return lockedError(
      path,
      lockPath,
      `${lead}, another host, where this one cannot check it: its heartbeat is ${seconds(beat.ageMs)} old, and the lock counts as abandoned once that passes ${seconds(beat.boundMs)}, in ${seconds(beat.leftMs)}: ${why}. Stop that process, or give this one its own file; if nothing on ${holder.host} uses it any more (a container re-created under a new host name), start again after that and the lock is taken over (do not remove ${lockPath} while that process may still run)`,
      holder,
      beat,
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
  if (holder.start_ticks === null || selfTicks() === null || startTicks(holder.pid) === null) {
    // Told only by its heartbeat (pid reuse cannot be seen).
    const beat = heartbeat(found);
    return lockedError(
      path,
      lockPath,
      `${lead}: ${why}. Stop that process, or give this one its own file; this system cannot tell a reused pid, so the lock counts as abandoned once its heartbeat (now ${seconds(beat.ageMs)} old) passes ${seconds(beat.boundMs)}, in ${seconds(beat.leftMs)}`,
      holder,
      beat,
    );
  }
  return lockedError(path, lockPath, `${lead}: ${why}. Stop that process, or give this one its own file`, holder);
}

/** A held lock: `release` gives it up (idempotent); `check` and `fence` fail when it was lost. */
export interface StoreLock {
  readonly lockPath: string;
  /** This holder's file in the lock folder. */
  readonly holderFile: string;
  /** A name for this holder's temporary files beside the store, `<path>.<token>.tmp`: no other holder writes it. */
  readonly tmpPath: string;
  release(): void;
  /** Rejects with `CHAIN_COMMIT_STORE_LOCKED` when this holder's file is gone from the lock (taken or removed by hand). */
  check(): Promise<void>;
  /**
   * Called right before a write takes effect, with nothing in between: throws `CHAIN_COMMIT_STORE_LOCKED` when the
   * lock was lost, or when its heartbeat last landed more than half the bound ago (another host may judge it
   * abandoned), and otherwise refreshes the heartbeat.
   */
  fence(): void;
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
function readHolder(path: string, lockPath: string): Found | 'empty' | 'gone' {
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
  let beatAt: number;
  try {
    text = readFileSync(join(lockPath, name), 'utf8');
    beatAt = statSync(join(lockPath, name)).mtimeMs;
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
  return { lockPath, name, holder: parsed.data, beatAt };
}

/**
 * Removes the temporary files earlier holders of the store left beside it (`<path>.<token>.tmp`: a crash between
 * writing one and renaming it; a holder whose lock was taken over while it wrote, which then refuses the rename).
 * Only a holder writes them, so once this process holds the lock, none is in use by a holder that may still rename
 * it.
 */
function removeStrayTemporaries(path: string): void {
  const escaped = basename(path).replace(/[.*+?^$()|[\]{}\\]/g, '\\$&');
  const stray = new RegExp(`^${escaped}\\.[0-9a-f]{32}\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!stray.test(name)) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      // gone meanwhile, or not ours to remove: left
    }
  }
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
 * The holder's heartbeat is its file's modification time, set every twelfth of the bound (5 s of 60 s) on an unref'd
 * timer that `release` stops. A holder that cannot be checked from here (another host name; a running pid with no
 * start time to tell reuse by, or a hidden one) is stale once its heartbeat is older than the bound it wrote in its
 * file (by this machine's clock; a heartbeat ahead of it counts as now). A holder verified alive on this host is
 * never taken over, whatever its heartbeat.
 *
 * @param path - the commit store file
 * @returns the lock
 * @throws SubnetError `CHAIN_COMMIT_STORE_LOCKED` naming the holder when another process, or another store of this
 *   process, holds it (with the heartbeat's age and the time left when only the heartbeat tells);
 *   `CHAIN_INVALID_INPUT` when `SUBNET_COMMIT_STORE_LOCK_STALE_MS` is not a whole number of ms from 12 to 86400000
 */
export function lockCommitStore(path: string): StoreLock {
  const lockPath = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = randomBytes(16).toString('hex');
  const staging = `${lockPath}.${token}.tmp`;
  const bound = staleAfterMs();
  const record: HolderFile = {
    pid: process.pid,
    host: hostname(),
    boot_id: bootId(),
    start_ticks: selfTicks(),
    since: new Date().toISOString(),
    stale_after_ms: bound,
  };
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
      if (staleReason(found) === undefined) throw heldError(path, lockPath, found);
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
  // The heartbeat: the holder file's modification time, set every twelfth of the bound. lastBeat is when the last one
  // that landed was sent (this process's monotonic clock), so a stall of the event loop or of the storage shows.
  let lastBeat = performance.now();
  let lastBeatWall = Date.now();
  let lost = false;
  let beating = false;
  /** A heartbeat sent at `sent` (monotonic) and `at` (wall clock) landed. */
  const landed = (sent: number, at: Date): void => {
    lastBeat = Math.max(lastBeat, sent);
    lastBeatWall = Math.max(lastBeatWall, at.getTime());
  };
  const beat = async (): Promise<void> => {
    if (beating || lost) return;
    beating = true;
    const sent = performance.now();
    const at = new Date();
    try {
      await utimes(mine, at, at);
      landed(sent, at);
    } catch (error) {
      // Gone: taken over, or removed by hand; fence() and check() refuse from now on. Other failures: the next beat.
      if (errnoOf(error) === 'ENOENT') lost = true;
    } finally {
      beating = false;
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1, Math.floor(bound / 12)));
  timer.unref();
  const lostError = (): ChainError =>
    lockedError(
      path,
      lockPath,
      `the commit store ${path} is no longer held by this process (${mine} is gone: another process took the lock over, or it was removed by hand): nothing more is written, so neither writer drops the other's salts; close this store`,
    );
  let released = false;
  const lock: StoreLock = {
    lockPath,
    holderFile: mine,
    tmpPath: join(dirname(path), `${basename(path)}.${token}.tmp`),
    release: () => {
      if (released) return;
      released = true;
      clearInterval(timer);
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
      if (lost) throw lostError();
      try {
        await stat(mine);
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw error;
        lost = true;
        throw lostError();
      }
    },
    fence: () => {
      if (lost) throw lostError();
      // The monotonic clock does not count a suspended machine; the wall clock does (a jump forward only refuses one
      // write early).
      const silentMs = Math.max(performance.now() - lastBeat, Date.now() - lastBeatWall);
      if (silentMs > bound / 2) {
        // Another host takes the lock over once the heartbeat is `bound` old by its clock: half of it is left for
        // the clocks' skew. The timer beats again, and if the file is still ours the next write goes through.
        void beat();
        throw lockedError(
          path,
          lockPath,
          `the commit store ${path} was not written: this process's heartbeat on its lock last landed ${seconds(silentMs)} ago, over half the ${seconds(bound)} bound (its event loop or the storage stalled), so a process on another host may have taken the lock over; the write is refused rather than risk dropping that one's salts. Try again: once a heartbeat lands on a lock still held, writes go through`,
        );
      }
      const sent = performance.now();
      const at = new Date();
      try {
        utimesSync(mine, at, at);
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw error;
        lost = true;
        throw lostError();
      }
      landed(sent, at);
    },
  };
  if (held.size === 0) process.on('exit', releaseAll);
  held.add(lock);
  removeStrayTemporaries(path);
  return lock;
}
