import { renameSync } from 'node:fs';
import { chmod, mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

import { hotkeySchema, parseInput } from '@subnet/core';
import { z } from 'zod';

import { chainError } from './chain-error.js';
import { lockCommitStore } from './commit-store-lock.js';

/** A commit-reveal v2 commit whose reveal is still owed. Holds the salt: keep the store private. */
export interface PendingCommit {
  /** Signing hotkey (SS58). */
  readonly hotkey: string;
  readonly netuid: number;
  readonly mecid: number;
  /** `mecid * 4096 + netuid`, what the hash and the chain use. */
  readonly netuidIndex: number;
  readonly uids: readonly number[];
  readonly values: readonly number[];
  readonly salt: readonly number[];
  readonly versionKey: bigint;
  /** 0x-hex blake2b-256 commit hash. */
  readonly commitHash: string;
  /** Block the commit was included in; null while not yet confirmed (saved before it is sent). */
  readonly commitBlock: bigint | null;
  /**
   * The last block the signed commit can be included in (its mortal era's last), saved before the commit is sent and
   * kept once it is included (a block holding it may be retracted, and it can land again until then). Once the
   * finalized chain is past it without the commit, nothing can reveal it and `revealPending` forgets the salt. Absent
   * in a commit an earlier version saved, and in the validator's shared rows.
   */
  readonly mortalUntil?: bigint;
}

/**
 * Where the client keeps salts between commit and reveal. It must be durable: the client saves a commit
 * after signing it and before sending it (with the last block it can land in), updates it when included, and
 * removes it after the reveal is confirmed (or when the commit provably never landed), so a restart in between
 * still reveals.
 */
export interface CommitStore {
  /** Inserts or replaces the commit with the same `commitHash`. */
  save(commit: PendingCommit): Promise<void>;
  /** Every stored commit. */
  load(): Promise<readonly PendingCommit[]>;
  /** Removes the commit with this hash (no-op when absent). */
  remove(commitHash: string): Promise<void>;
}

const u16 = z.number().int().min(0).max(65535);
const decimal = z.string().regex(/^(0|[1-9][0-9]{0,19})$/);

/** Wire format (snake_case JSON) of one stored commit. */
export const pendingCommitSchema = z.strictObject({
  hotkey: hotkeySchema,
  netuid: u16,
  mecid: z.number().int().min(0).max(255),
  netuid_index: u16,
  uids: z.array(u16),
  values: z.array(u16),
  salt: z.array(u16),
  version_key: decimal,
  commit_hash: z.string().regex(/^0x[0-9a-f]{64}$/),
  commit_block: decimal.nullable(),
  /** Earlier versions neither write nor accept it: a file that holds it is refused by them. */
  mortal_until: decimal.optional(),
});

/** Wire format of a commit store file: `{ "version": 1, "commits": [...] }`. */
export const commitStoreFileSchema = z.strictObject({ version: z.literal(1), commits: z.array(pendingCommitSchema) });

function toWire(c: PendingCommit): z.input<typeof pendingCommitSchema> {
  return {
    hotkey: c.hotkey,
    netuid: c.netuid,
    mecid: c.mecid,
    netuid_index: c.netuidIndex,
    uids: [...c.uids],
    values: [...c.values],
    salt: [...c.salt],
    version_key: c.versionKey.toString(),
    commit_hash: c.commitHash,
    commit_block: c.commitBlock === null ? null : c.commitBlock.toString(),
    ...(c.mortalUntil === undefined ? {} : { mortal_until: c.mortalUntil.toString() }),
  };
}

function fromWire(w: z.output<typeof pendingCommitSchema>): PendingCommit {
  return Object.freeze({
    hotkey: w.hotkey,
    netuid: w.netuid,
    mecid: w.mecid,
    netuidIndex: w.netuid_index,
    uids: Object.freeze([...w.uids]),
    values: Object.freeze([...w.values]),
    salt: Object.freeze([...w.salt]),
    versionKey: BigInt(w.version_key),
    commitHash: w.commit_hash,
    commitBlock: w.commit_block === null ? null : BigInt(w.commit_block),
    ...(w.mortal_until === undefined ? {} : { mortalUntil: BigInt(w.mortal_until) }),
  });
}

/**
 * A pending commit in the commit store's wire form (snake_case JSON, bigints as decimal strings), for a caller that
 * keeps commits elsewhere too (a database shared by several instances). Holds the salt: keep it private.
 *
 * @param commit - the commit
 * @returns its wire form (JSON-serialisable)
 * @example JSON.stringify(pendingCommitToJson(commit))
 */
export function pendingCommitToJson(commit: PendingCommit): z.input<typeof pendingCommitSchema> {
  return toWire(commit);
}

/**
 * Reads a pending commit from its wire form ({@link pendingCommitToJson}), checked with {@link pendingCommitSchema}.
 *
 * @param value - the parsed JSON
 * @returns the commit
 * @throws SubnetError `CHAIN_INVALID_INPUT` naming the field when the value is not a pending commit
 * @example pendingCommitFromJson(JSON.parse(text))
 */
export function pendingCommitFromJson(value: unknown): PendingCommit {
  return fromWire(parseInput(pendingCommitSchema, value, 'CHAIN_INVALID_INPUT', 'commit'));
}

/**
 * An in-memory {@link CommitStore} (not durable: for tests and for callers who persist elsewhere).
 *
 * @returns the store
 * @example const store = memoryCommitStore();
 */
export function memoryCommitStore(): CommitStore {
  const commits = new Map<string, PendingCommit>();
  return {
    save: (commit) => {
      commits.set(commit.commitHash, commit);
      return Promise.resolve();
    },
    load: () => Promise.resolve(Object.freeze([...commits.values()])),
    remove: (hash) => {
      commits.delete(hash);
      return Promise.resolve();
    },
  };
}

/** Folder syncs some systems refuse (a folder cannot be opened or synced there): the rename is as durable as they make it. */
const FOLDER_SYNC_UNSUPPORTED: ReadonlySet<string> = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EBADF', 'ENOTSUP']);

/** Makes a rename in `folder` durable (fsync of the folder), where the system allows it. */
async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch (error) {
    if (!FOLDER_SYNC_UNSUPPORTED.has(String((error as { code?: unknown }).code))) throw error;
  } finally {
    await handle?.close();
  }
}

/** A {@link CommitStore} in a file, held by this store alone until {@link FileCommitStore.close}. */
export interface FileCommitStore extends CommitStore {
  /** The lock folder (`<path>.lock`), which names the holder while the store is open. */
  readonly lockPath: string;
  /**
   * Waits for the calls in progress, then releases the file to the next store (idempotent). Later calls fail with
   * `CHAIN_CLIENT_CLOSED`.
   */
  close(): Promise<void>;
}

/**
 * A durable {@link CommitStore} in one JSON file (mode 0600, written to a temporary file, synced to the disk and
 * renamed, the folder synced after it, so neither a crash nor a power cut leaves half a file or undoes a save). Calls
 * are serialised.
 *
 * The store holds the file exclusively from its creation until `close()` or the process's exit: another process, or
 * another store of this process, on the same file is refused at its creation (each rewrites the whole file, so two
 * would drop each other's salts). The lock is the folder `<path>.lock`, naming the holder's pid, host name and start;
 * a lock whose holder is gone (a crash, a SIGKILL: the pid is not running on this host, or now belongs to a process
 * started later, or the machine restarted) is taken over, by exactly one of several processes that try at once. The
 * holder keeps a heartbeat on its lock (the holder file's modification time, every 5 s on an unref'd timer, stopped
 * by `close()`); a lock whose holder cannot be checked from here (another host name: a network folder, a container
 * re-created under a new host name; or a running pid without a start time to tell reuse by) is taken over once that
 * heartbeat is more than 60 s old (hosts sharing a folder must keep their clocks within 30 s of each other), and
 * until then the refusal says how old it is and how long is left. A store writes into its own temporary file and,
 * right before the rename that makes a write the store, checks that its lock is still its own and that its last
 * heartbeat landed within half the bound, refreshing it: a store that finds its lock gone (removed by hand, or taken
 * over while it stalled) or its heartbeat lapsed refuses to write.
 *
 * @param path - the file (created on first save; its folder, and the lock, at once)
 * @returns the store, holding the file
 * @throws SubnetError `CHAIN_COMMIT_STORE_LOCKED` naming the path, the holder's pid and host, and what to do, when
 *   another process or another open store of this process holds the file (with `context.heartbeatAgeMs` and
 *   `context.abandonedInMs` when only its heartbeat tells); from `save` and `remove` when the lock was lost or its
 *   heartbeat lapsed. `CHAIN_INVALID_INPUT` when `SUBNET_COMMIT_STORE_LOCK_STALE_MS` (internal, for tests) is not a
 *   whole number of ms from 12 to 86400000, and from `load` (and `save`, `remove`) when the file is not a commit
 *   store; `CHAIN_CLIENT_CLOSED` from every call after `close()`
 * @example
 * const commitStore = fileCommitStore('/var/lib/validator/commits.json');
 * const client = await createChainClient({ network: 'finney', signer, commitStore });
 * // ... setWeights, revealPending ...
 * await client.close();
 * await commitStore.close();
 */
export function fileCommitStore(path: string): FileCommitStore {
  const lock = lockCommitStore(path);
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(chainError('ClientClosed', `the commit store ${path} is closed: open a new one`, { source: 'client' }));
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };
  const read = async (): Promise<PendingCommit[]> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return [];
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch (error) {
      throw chainError(
        'InvalidInput',
        `the commit store ${path} is not JSON (${(error as Error).message}): restore it from a backup, or move it away to start empty (its unrevealed commits are then lost)`,
        {
          source: 'client',
          path: 'commitStore',
          cause: error,
        },
      );
    }
    const parsed = parseInput(commitStoreFileSchema, json, 'CHAIN_INVALID_INPUT', 'commitStore');
    return parsed.commits.map(fromWire);
  };
  const write = async (commits: readonly PendingCommit[]): Promise<void> => {
    // Never over a store another process now holds (the lock removed by hand, or taken over as stale).
    await lock.check();
    const folder = dirname(path);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // This holder's own name: a holder whose lock was taken over while it stalled never writes into the new one's.
    const tmp = lock.tmpPath;
    // The bytes reach the disk before the rename makes them the store, and the rename before the save returns: a
    // power cut after a save cannot bring back the file without the salt of a commit already sent.
    const file = await open(tmp, 'w', 0o600);
    try {
      await file.writeFile(JSON.stringify({ version: 1, commits: commits.map(toWire) }));
      await file.sync();
    } finally {
      await file.close();
    }
    await chmod(tmp, 0o600);
    try {
      // Nothing between the last look at the lock (and its heartbeat) and the rename that makes the write the store.
      lock.fence();
      renameSync(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    await syncFolder(folder);
  };
  return {
    lockPath: lock.lockPath,
    close: async () => {
      closed = true;
      await queue;
      lock.release();
    },
    save: (commit) =>
      serial(async () => {
        const commits = (await read()).filter((c) => c.commitHash !== commit.commitHash);
        commits.push(commit);
        await write(commits);
      }),
    load: () => serial(async () => Object.freeze(await read())),
    remove: (hash) =>
      serial(async () => {
        const commits = await read();
        const kept = commits.filter((c) => c.commitHash !== hash);
        if (kept.length !== commits.length) await write(kept);
      }),
  };
}
