import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

import Database from 'better-sqlite3';

import { describeSystemError, isSubnetError } from '@subnet/core';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import { LEASE_ACQUIRE_SQL, leaseLost } from './lease-sql.js';
import type {
  EpochFields,
  Fence,
  EpochHead,
  EpochRow,
  EpochStatus,
  InsertOutcome,
  MigrationNotice,
  NewRecord,
  NonceCheck,
  NonceState,
  RecordKind,
  Storage,
  StoredRecord,
} from './storage.js';
import { EPOCH_COLUMNS, EPOCH_HEAD_COLUMNS } from './storage.js';
import { migrateSqlite } from './sqlite-migrate.js';

interface RecordRow {
  seq: number;
  kind: RecordKind;
  record_id: string;
  epoch: number;
  body: string;
}

interface EpochDbRow {
  epoch: number;
  status: EpochStatus;
  u16: string | null;
  carry: string | null;
  submission: string | null;
  bundle: string | null;
  digest: string | null;
  reveal_status: string | null;
  reveal: string | null;
  updated_at_ms: number;
}

function toEpochHead(row: Omit<EpochDbRow, 'bundle' | 'carry'>): EpochHead {
  return {
    epoch: row.epoch,
    status: row.status,
    u16: row.u16,
    submission: row.submission,
    digest: row.digest,
    revealStatus: row.reveal_status ?? null,
    reveal: row.reveal ?? null,
    updatedAtMs: row.updated_at_ms,
  };
}

function toEpoch(row: EpochDbRow): EpochRow {
  return { ...toEpochHead(row), carry: row.carry, bundle: row.bundle };
}

function toRecord(row: RecordRow): StoredRecord {
  return { seq: row.seq, kind: row.kind, recordId: row.record_id, epoch: row.epoch, body: row.body };
}

/**
 * Why a database could not be opened, and what to do, for the message (it named the path alone): the OS reason
 * (`ENOTDIR`, `EACCES`) or SQLite's code and text (`SQLITE_NOTADB (file is not a database)`), then the setting to change.
 */
function openFailureSentence(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const os = describeSystemError(error);
  const sqlite = typeof code === 'string' && code.startsWith('SQLITE_') ? `${code} (${(error as Error).message})` : undefined;
  const reason = os ?? sqlite;
  if (reason === undefined) return '';
  const advice =
    code === 'SQLITE_NOTADB'
      ? "set database.path (or --database-path) to this validator's database, or to a new file"
      : code === 'SQLITE_CANTOPEN' || os !== undefined
        ? 'set database.path (or --database-path) to a file this process can create or write'
        : undefined;
  return `: ${reason}${advice === undefined ? '' : `; ${advice}`}`;
}

/**
 * Why a SQLite statement failed, in words an operator can act on: SQLite's code and message (`SQLITE_FULL: database or
 * disk is full`, `SQLITE_READONLY: attempt to write a readonly database`), or the system's for a file error.
 */
function sqliteReason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message;
}

/**
 * The epoch lookups that must not read other rows (internal; `storage.test.ts` checks each goes by its partial index
 * of migration 7). The unsettled epoch before another is two lookups, each by its own index: an OR would read both
 * indexes whole to sort them.
 */
export const EPOCH_LOOKUPS = Object.freeze({
  interrupted: "SELECT epoch FROM epochs WHERE status = 'submitting' ORDER BY epoch",
  head: `SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs WHERE epoch = ?`,
  pendingReveals: `SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs WHERE reveal_status = 'pending' AND epoch > ? ORDER BY epoch LIMIT ?`,
  pendingBefore: `SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs WHERE reveal_status = 'pending' AND epoch < ? ORDER BY epoch DESC LIMIT 1`,
  submittingBefore: `SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs WHERE status = 'submitting' AND epoch < ? ORDER BY epoch DESC LIMIT 1`,
});

/**
 * The record lookups whose plan matters (internal; `storage.test.ts` checks each). The epochs that have records are
 * found in the index of (epoch, seq) alone, then one or two rows of each are read to tell a record from the epoch's task
 * snapshot: a filter on `kind` over the range read every record row of 100 epochs (18 ms warm, 190 ms cold for 20,000
 * records of 5 KB, measured; docs/spec.md G.25).
 */
export const RECORD_LOOKUPS = Object.freeze({
  epochsWithRecords:
    "SELECT e.epoch FROM (SELECT DISTINCT epoch FROM records WHERE epoch >= ? AND epoch < ?) AS e WHERE EXISTS (SELECT 1 FROM records AS r WHERE r.epoch = e.epoch AND r.kind <> 'task_snapshot') ORDER BY e.epoch",
});

/**
 * Opens (creating if needed) the SQLite store at `path`: WAL journal with `synchronous=FULL`, so a
 * committed write survives `kill -9` and power loss; migrations run on open.
 *
 * @param path - database file (its folder is created)
 * @returns the storage
 * @throws SubnetError `VALIDATOR_STORAGE` when the file cannot be opened or migrated
 * @example const storage = openSqliteStorage('./validator.sqlite')
 */
export function openSqliteStorage(
  path: string,
  options: {
    readonly writerThread?: boolean;
    readonly onMigration?: (migration: MigrationNotice) => void;
    /**
     * SQLite's `max_page_count` for the connection that opens and migrates the file: it cannot grow past that many
     * pages, as on a disk that holds no more (`SQLITE_FULL`). For tests of a full disk; unset in the service.
     */
    readonly maxPageCount?: number;
    /**
     * The free disk beside the file, in place of `statfs`: a migration that copies a table is refused before it writes
     * anything when this is less than the copy needs. For tests of a disk short of the need; unset in the service.
     */
    readonly freeDiskBytes?: number;
  } = {},
): Storage {
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.trunc(options.maxPageCount)}`);
  } catch (error) {
    db?.close();
    throw appError(VALIDATOR_ERROR_CODES.storage, `cannot open the SQLite database ${path}${openFailureSentence(error)}`, { path }, error);
  }
  try {
    const { freeDiskBytes } = options;
    migrateSqlite(db, path, options.onMigration, freeDiskBytes === undefined ? undefined : () => freeDiskBytes);
  } catch (error) {
    db.close();
    if (isSubnetError(error)) throw error;
    throw appError(VALIDATOR_ERROR_CODES.storage, `cannot open the SQLite database ${path}${openFailureSentence(error)}`, { path }, error);
  }
  const insert = db.prepare(
    'INSERT INTO records (kind, record_id, epoch, body, digest, received_at_ms) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (kind, record_id) DO NOTHING RETURNING seq',
  );
  const existing = db.prepare('SELECT seq, digest FROM records WHERE kind = ? AND record_id = ?');
  const insertMany = db.transaction((records: readonly NewRecord[]): InsertOutcome[] => {
    const now = Date.now();
    return records.map((r) => {
      const row = insert.get(r.kind, r.recordId, r.epoch, r.body, r.digest, now) as { seq: number } | undefined;
      if (row !== undefined) return { status: 'inserted', seq: row.seq };
      const found = existing.get(r.kind, r.recordId) as { seq: number; digest: string };
      return found.digest === r.digest ? { status: 'duplicate', seq: found.seq } : { status: 'conflict' };
    });
  });
  const writer = options.writerThread === true && path !== ':memory:' ? startWriter(path) : undefined;
  const byEpoch = db.prepare('SELECT seq, kind, record_id, epoch, body FROM records WHERE epoch = ? ORDER BY seq');
  const find = db.prepare('SELECT seq, kind, record_id, epoch, body FROM records WHERE kind = ? AND record_id = ?');
  const count = db.prepare('SELECT COUNT(*) AS n FROM records');
  // The epoch's task snapshot is the validator's own bookkeeping, not a record anyone sent (storage.ts epochsWithRecords).
  const withRecords = db.prepare(RECORD_LOOKUPS.epochsWithRecords);
  const nonce = db.prepare('INSERT INTO nonces (hotkey, nonce, signed_at_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const nonceSeen = db.prepare(
    'SELECT EXISTS (SELECT 1 FROM nonces WHERE hotkey = ? AND nonce = ?) AS seen, (SELECT before_ms FROM nonce_horizon WHERE id = 1) AS horizon',
  );
  const prune = db.prepare('DELETE FROM nonces WHERE signed_at_ms < ?');
  const raiseHorizon = db.prepare('UPDATE nonce_horizon SET before_ms = MAX(before_ms, ?) WHERE id = 1');
  const readNonce = (hotkey: string, n: string): { seen: boolean; horizon: number } => {
    const row = nonceSeen.get(hotkey, n) as { seen: number; horizon: number };
    return { seen: row.seen === 1, horizon: row.horizon };
  };
  // One transaction: the horizon read and the insert see the same state (a prune cannot fall between them). Run with
  // `.immediate()`: it takes the write lock before it reads. Begun deferred, it read first and asked for the write lock
  // at the insert; when another connection (the record writer thread) held it and then committed, this one's snapshot
  // was stale and SQLite refused at once with SQLITE_BUSY, without its busy timeout: a signed request answered 503.
  const takeNonce = db.transaction((hotkey: string, n: string, signedAtMs: number): NonceState => {
    const { horizon } = readNonce(hotkey, n);
    if (signedAtMs < horizon) return { state: 'pruned', horizonMs: horizon };
    return { state: nonce.run(hotkey, n, signedAtMs).changes === 1 ? 'used' : 'replayed' };
  });
  const pruneBefore = db.transaction((signedBeforeMs: number) => {
    prune.run(signedBeforeMs);
    raiseHorizon.run(signedBeforeMs);
  });
  const getEpoch = db.prepare('SELECT * FROM epochs WHERE epoch = ?');
  const getHead = db.prepare(EPOCH_LOOKUPS.head);
  const list = db.prepare('SELECT * FROM epochs ORDER BY epoch DESC LIMIT ?');
  const heads = db.prepare(`SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs ORDER BY epoch DESC LIMIT ?`);
  const interrupted = db.prepare(EPOCH_LOOKUPS.interrupted);
  const pendingReveals = db.prepare(EPOCH_LOOKUPS.pendingReveals);
  const carry = db.prepare('SELECT carry FROM epochs WHERE epoch < ? AND carry IS NOT NULL ORDER BY epoch DESC LIMIT 1');
  const pendingBefore = db.prepare(EPOCH_LOOKUPS.pendingBefore);
  const submittingBefore = db.prepare(EPOCH_LOOKUPS.submittingBefore);
  const numbering = db.prepare(
    'SELECT (SELECT epoch_length FROM epoch_numbering WHERE id = 1) AS length, (SELECT MAX(m) FROM (SELECT MAX(epoch) AS m FROM records UNION ALL SELECT MAX(epoch) FROM epochs)) AS highest',
  );
  const claimLength = db.prepare('INSERT INTO epoch_numbering (id, epoch_length) VALUES (1, ?) ON CONFLICT (id) DO NOTHING');
  const recordedLength = db.prepare('SELECT epoch_length FROM epoch_numbering WHERE id = 1');
  const replaceLength = db.prepare('UPDATE epoch_numbering SET epoch_length = ? WHERE id = 1 AND epoch_length = ?');
  const claimIdentity = db.prepare('INSERT INTO chain_identity (id, netuid, genesis_hash) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING');
  const fillGenesis = db.prepare('UPDATE chain_identity SET genesis_hash = ? WHERE id = 1 AND genesis_hash IS NULL');
  const recordedIdentity = db.prepare('SELECT netuid, genesis_hash FROM chain_identity WHERE id = 1');

  const acquire = db.prepare(LEASE_ACQUIRE_SQL.replaceAll('$1', '@holder').replaceAll('$2', '@expires').replaceAll('$3', '@now'));
  const release = db.prepare("UPDATE leader_lease SET expires_at_ms = 0 WHERE name = 'leader' AND holder = ? AND token = ?");
  const leaseOf = db.prepare("SELECT token FROM leader_lease WHERE name = 'leader' AND holder = ? AND token = ?");
  const requireFence = (fence: Fence): void => {
    if (leaseOf.get(fence.holder, fence.token) === undefined) throw leaseLost(fence);
  };

  const wrap = <T>(what: string, run: () => T): Promise<T> => {
    try {
      return Promise.resolve(run());
    } catch (error) {
      if (isSubnetError(error, VALIDATOR_ERROR_CODES.leaseLost)) return Promise.reject(error);
      return Promise.reject(appError(VALIDATOR_ERROR_CODES.storage, `SQLite ${what} failed: ${sqliteReason(error)}`, {}, error));
    }
  };

  return {
    dialect: 'sqlite',
    insertRecords: (records) => (writer === undefined ? wrap('insert', () => insertMany(records)) : writer.insert(records)),
    records: (epoch) => wrap('read', () => (byEpoch.all(epoch) as RecordRow[]).map(toRecord)),
    epochsWithRecords: (from, to) => wrap('read', () => (withRecords.all(from, to) as { epoch: number }[]).map((r) => r.epoch)),
    findRecord: (kind, recordId) =>
      wrap('read', () => {
        const row = find.get(kind, recordId) as RecordRow | undefined;
        return row === undefined ? undefined : toRecord(row);
      }),
    countRecords: () => wrap('count', () => (count.get() as { n: number }).n),
    useNonce: (hotkey, n, signedAtMs) => wrap('nonce', () => takeNonce.immediate(hotkey, n, signedAtMs)),
    checkNonce: (hotkey, n, signedAtMs) =>
      wrap('nonce', (): NonceCheck => {
        const { seen, horizon } = readNonce(hotkey, n);
        return signedAtMs < horizon ? { state: 'pruned', horizonMs: horizon } : { state: seen ? 'replayed' : 'fresh' };
      }),
    pruneNonces: (signedBeforeMs) =>
      wrap('prune', () => {
        pruneBefore(signedBeforeMs);
      }),
    claimEpoch: (epoch, fields, fence) =>
      wrap('claim', () =>
        db
          .transaction(() => {
            if (fence !== undefined) requireFence(fence);
            const cols = Object.keys(fields) as (keyof EpochFields)[];
            const sql = `INSERT INTO epochs (epoch, ${cols.map((c) => EPOCH_COLUMNS[c]).join(', ')}, updated_at_ms) VALUES (?, ${cols.map(() => '?').join(', ')}, ?) ON CONFLICT (epoch) DO NOTHING`;
            return db.prepare(sql).run(epoch, ...cols.map((c) => fields[c] ?? null), Date.now()).changes === 1;
          })
          .immediate(),
      ),
    updateEpoch: (epoch, fields, fence) =>
      wrap('update', () => {
        db.transaction(() => {
          if (fence !== undefined) requireFence(fence);
          const cols = Object.keys(fields) as (keyof EpochFields)[];
          const sql = `UPDATE epochs SET ${cols.map((c) => `${EPOCH_COLUMNS[c]} = ?`).join(', ')}${cols.length > 0 ? ', ' : ''}updated_at_ms = ? WHERE epoch = ?`;
          db.prepare(sql).run(...cols.map((c) => fields[c] ?? null), Date.now(), epoch);
        }).immediate();
      }),
    acquireLease: (holder, ttlMs) =>
      wrap('lease', () => {
        const now = Date.now();
        const row = acquire.get({ holder, expires: now + ttlMs, now }) as { token: number } | undefined;
        return row === undefined ? undefined : { holder, token: row.token };
      }),
    releaseLease: (fence) => wrap('lease', () => void release.run(fence.holder, fence.token)),
    checkFence: (fence) => wrap('lease', () => leaseOf.get(fence.holder, fence.token) !== undefined),
    getEpoch: (epoch) =>
      wrap('read', () => {
        const row = getEpoch.get(epoch) as EpochDbRow | undefined;
        return row === undefined ? undefined : toEpoch(row);
      }),
    getEpochHead: (epoch) =>
      wrap('read', () => {
        const row = getHead.get(epoch) as EpochDbRow | undefined;
        return row === undefined ? undefined : toEpochHead(row);
      }),
    listEpochs: (limit) => wrap('read', () => (list.all(limit) as EpochDbRow[]).map(toEpoch)),
    listEpochHeads: (limit) => wrap('read', () => (heads.all(limit) as EpochDbRow[]).map(toEpochHead)),
    pendingReveals: (after, limit) => wrap('read', () => (pendingReveals.all(after, limit) as EpochDbRow[]).map(toEpochHead)),
    unsettledBefore: (epoch) =>
      wrap('read', () => {
        const pending = pendingBefore.get(epoch) as EpochDbRow | undefined;
        const submitting = submittingBefore.get(epoch) as EpochDbRow | undefined;
        const newest = submitting === undefined || (pending !== undefined && pending.epoch > submitting.epoch) ? pending : submitting;
        return newest === undefined ? undefined : toEpochHead(newest);
      }),
    interruptedEpochs: () => wrap('read', () => (interrupted.all() as { epoch: number }[]).map((r) => r.epoch)),
    latestCarry: (before) => wrap('read', () => (carry.get(before) as { carry: string } | undefined)?.carry ?? null),
    epochNumbering: () =>
      wrap('read', () => {
        const row = numbering.get() as { length: number | null; highest: number | null };
        return { length: row.length ?? undefined, highestEpoch: row.highest ?? undefined };
      }),
    recordedEpochLength: () => wrap('read', () => (recordedLength.get() as { epoch_length: number } | undefined)?.epoch_length),
    claimEpochLength: (length) =>
      wrap('claim', () => {
        claimLength.run(length);
        return (recordedLength.get() as { epoch_length: number }).epoch_length;
      }),
    replaceEpochLength: (from, to) => wrap('update', () => replaceLength.run(to, from).changes === 1),
    claimChainIdentity: ({ netuid, genesisHash }) =>
      wrap('claim', () => {
        claimIdentity.run(netuid, genesisHash);
        if (genesisHash !== null) fillGenesis.run(genesisHash);
        const row = recordedIdentity.get() as { netuid: number; genesis_hash: string | null };
        return { netuid: row.netuid, genesisHash: row.genesis_hash };
      }),
    close: async () => {
      if (writer !== undefined) await writer.close();
      await wrap('close', () => void db.close());
    },
  };
}

interface Writer {
  insert(records: readonly NewRecord[]): Promise<readonly InsertOutcome[]>;
  close(): Promise<void>;
}

/**
 * The record writer thread's code (CommonJS, evaluated): one connection with the same pragmas, answering
 * `{ id, records }` with `{ id, outcomes }`. Kept as a string so it loads the same way from source and from
 * the build; the driver is passed as an absolute path.
 */
const WRITER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const insert = db.prepare('INSERT INTO records (kind, record_id, epoch, body, digest, received_at_ms) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (kind, record_id) DO NOTHING RETURNING seq');
const existing = db.prepare('SELECT seq, digest FROM records WHERE kind = ? AND record_id = ?');
const insertMany = db.transaction((records) => {
  const now = Date.now();
  return records.map((r) => {
    const row = insert.get(r.kind, r.recordId, r.epoch, r.body, r.digest, now);
    if (row !== undefined) return { status: 'inserted', seq: row.seq };
    const found = existing.get(r.kind, r.recordId);
    return found.digest === r.digest ? { status: 'duplicate', seq: found.seq } : { status: 'conflict' };
  });
});
parentPort.on('message', (m) => {
  if (m.close === true) { db.close(); parentPort.postMessage({ id: m.id, closed: true }); return; }
  try { parentPort.postMessage({ id: m.id, outcomes: insertMany(m.records) }); }
  catch (error) { parentPort.postMessage({ id: m.id, error: { code: error?.code, message: error instanceof Error ? error.message : String(error) } }); }
});
`;

/** Starts the record writer thread: fsync (synchronous=FULL) then never blocks the HTTP event loop. */
function startWriter(path: string): Writer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WRITER_CODE, { eval: true, workerData: { path, driver } });
  worker.unref();
  let next = 0;
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: unknown) => void }>();
  worker.on('message', (m: { id: number; outcomes?: InsertOutcome[]; error?: { code?: unknown; message: string }; closed?: true }) => {
    const waiter = pending.get(m.id);
    pending.delete(m.id);
    if (waiter === undefined) return;
    // The thread's error, said as this thread says its own (sqliteReason): SQLite's code, then its words.
    if (m.error !== undefined)
      waiter.reject(
        appError(VALIDATOR_ERROR_CODES.storage, `SQLite insert failed: ${sqliteReason(Object.assign(new Error(m.error.message), { code: m.error.code }))}`),
      );
    else waiter.resolve((m.outcomes ?? undefined) as never);
  });
  const failAll = (error: unknown): void => {
    for (const waiter of pending.values()) waiter.reject(appError(VALIDATOR_ERROR_CODES.storage, 'the SQLite writer thread failed', {}, error));
    pending.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => {
    failAll(new Error(`the writer thread exited with code ${code}`));
  });
  const call = <T>(message: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve, reject });
      worker.postMessage({ ...message, id });
    });
  return {
    insert: (records) => call<readonly InsertOutcome[]>({ records }),
    close: async () => {
      await call<undefined>({ close: true });
      await worker.terminate();
    },
  };
}
