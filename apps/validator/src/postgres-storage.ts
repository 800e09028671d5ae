import { isSubnetError, redactUrl } from '@subnet/core';
import pg from 'pg';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import { EPOCH_SEAL_KIND, EPOCH_SEAL_LOCK, sealId } from './epoch-seal.js';
import { LEASE_ACQUIRE_SQL, leaseLost } from './lease-sql.js';
import type {
  EpochFields,
  EpochHead,
  Fence,
  EpochRow,
  EpochStatus,
  InsertOutcome,
  MigrationNotice,
  NonceCheck,
  NonceState,
  RecordKind,
  Storage,
  StoredRecord,
} from './storage.js';
import { EPOCH_COLUMNS, EPOCH_HEAD_COLUMNS, MIGRATIONS } from './storage.js';

interface EpochDbRow {
  epoch: string;
  status: EpochStatus;
  u16: string | null;
  carry: string | null;
  submission: string | null;
  bundle: string | null;
  digest: string | null;
  reveal_status: string | null;
  reveal: string | null;
  updated_at_ms: string;
}

interface RecordRow {
  seq: string;
  kind: RecordKind;
  record_id: string;
  epoch: string;
  body: string;
}

function toEpochHead(row: Omit<EpochDbRow, 'bundle' | 'carry'>): EpochHead {
  return {
    epoch: Number(row.epoch),
    status: row.status,
    u16: row.u16,
    submission: row.submission,
    digest: row.digest,
    revealStatus: row.reveal_status ?? null,
    reveal: row.reveal ?? null,
    updatedAtMs: Number(row.updated_at_ms),
  };
}

function toEpoch(row: EpochDbRow): EpochRow {
  return { ...toEpochHead(row), carry: row.carry, bundle: row.bundle };
}

function toRecord(row: RecordRow): StoredRecord {
  return { seq: Number(row.seq), kind: row.kind, recordId: row.record_id, epoch: Number(row.epoch), body: row.body };
}

/** Options of {@link openPostgresStorage}. */
export interface PostgresOptions {
  /** `postgresql://user:password@host:port/db`. */
  readonly url: string;
  /** A schema to use (created if missing); default `public`. */
  readonly schema?: string;
  /** Pool size, default 8. */
  readonly poolSize?: number;
  /** Called before each migration that runs (to say why a start takes a while). */
  readonly onMigration?: (migration: MigrationNotice) => void;
}

/**
 * Opens the PostgreSQL store (every write a committed transaction before it resolves; the server's
 * default `synchronous_commit = on` makes it durable) and runs the same migrations as SQLite.
 *
 * @param options - URL, optional schema and pool size
 * @returns the storage
 * @throws SubnetError `VALIDATOR_STORAGE` when the server cannot be reached or migrated (URL credentials redacted)
 * @example const storage = await openPostgresStorage({ url: process.env.DATABASE_URL })
 */
/**
 * What to do about a failure to open the database, by its code (Node's socket code, or PostgreSQL's SQLSTATE), or
 * undefined when the reason says it all.
 */
function openAdvice(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'nothing listens at that host and port: start PostgreSQL there, or correct the host and port of database.url';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name of database.url does not resolve: correct it';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host of database.url does not answer: check the address and any firewall on the way';
    case '28P01':
    case '28000':
      return 'PostgreSQL refused the user or password: correct them in database.url (or SUBNET_VALIDATOR_DATABASE__URL)';
    case '3D000':
      return 'the database named in database.url does not exist: create it (createdb <name>) or name one that does';
    case '42501':
      return "the user may not create the validator's tables: grant it that, or connect as the database's owner";
  }
  return error instanceof Error && /timeout/i.test(error.message)
    ? 'the server did not answer within 5 s: check the host and port of database.url and that PostgreSQL runs there'
    : undefined;
}

export async function openPostgresStorage(options: PostgresOptions): Promise<Storage> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw appError(VALIDATOR_ERROR_CODES.storage, 'invalid schema name', { path: 'schema', value: schema });
  // A connection attempt gives up after 5 s (a black-holed server must not hang requests forever).
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 8, options: `-c search_path=${schema}`, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {
    /* idle client errors are reported on the next query */
  });
  try {
    const client = await pool.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query('SELECT pg_advisory_lock(727272)');
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        options.onMigration?.({ version: migration.version, name: migration.name });
        await client.query('BEGIN');
        try {
          for (const sql of migration.postgres) await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      await client.query('SELECT pg_advisory_unlock(727272)');
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    const advice = openAdvice(error);
    throw appError(
      VALIDATOR_ERROR_CODES.storage,
      `cannot open the PostgreSQL database ${redactUrl(options.url)}: ${redactUrl((error as Error).message)}${advice === undefined ? '' : `; ${advice}`}`,
      {},
      error,
    );
  }

  // One transaction on a pooled connection: committed when `run` resolves, rolled back when it throws (a failed
  // rollback is not reported over the error that caused it), the connection released either way.
  const inTransaction = async <T>(run: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const out = await run(client);
      await client.query('COMMIT');
      return out;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  // A fenced epoch write: in one transaction, the lease row is locked (FOR SHARE: a takeover waits for it)
  // and must still have this holder and token, then the write runs.
  const fenced = async <T>(fence: Fence | undefined, run: (client: pg.PoolClient | pg.Pool) => Promise<T>): Promise<T> => {
    if (fence === undefined) return run(pool);
    return inTransaction(async (client) => {
      const held = await client.query("SELECT 1 FROM leader_lease WHERE name = 'leader' AND holder = $1 AND token = $2 FOR SHARE", [fence.holder, fence.token]);
      if (held.rowCount !== 1) throw leaseLost(fence);
      return run(client);
    });
  };

  const wrap = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (isSubnetError(error, VALIDATOR_ERROR_CODES.leaseLost)) throw error;
      throw appError(VALIDATOR_ERROR_CODES.storage, `PostgreSQL ${what} failed: ${redactUrl((error as Error).message)}`, {}, error);
    }
  };

  return {
    dialect: 'postgres',
    insertRecords: (records) =>
      wrap('insert', () =>
        inTransaction(async (client) => {
          const now = Date.now();
          const out: InsertOutcome[] = [];
          // Epoch seals (epoch-seal.ts): the epochs of the batch, locked shared in ascending order.
          const sealed = new Set<number>();
          for (const epoch of [...new Set(records.map((r) => r.epoch))].sort((a, b) => a - b)) {
            await client.query('SELECT pg_advisory_xact_lock_shared($1, $2)', [EPOCH_SEAL_LOCK, epoch]);
            const seal = await client.query('SELECT 1 FROM records WHERE kind = $1 AND record_id = $2', [EPOCH_SEAL_KIND, sealId(epoch)]);
            if (seal.rowCount === 1) sealed.add(epoch);
          }
          for (const r of records) {
            if (sealed.has(r.epoch)) {
              // A resend of a stored record is still a duplicate (or a conflict); only new records are refused.
              const found = (
                await client.query<{ seq: string; digest: string }>('SELECT seq, digest FROM records WHERE kind = $1 AND record_id = $2', [r.kind, r.recordId])
              ).rows[0];
              if (found === undefined) out.push({ status: 'epoch_closed' });
              else out.push(found.digest === r.digest ? { status: 'duplicate', seq: Number(found.seq) } : { status: 'conflict' });
              continue;
            }
            const inserted = await client.query<{ seq: string }>(
              'INSERT INTO records (kind, record_id, epoch, body, digest, received_at_ms) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (kind, record_id) DO NOTHING RETURNING seq',
              [r.kind, r.recordId, r.epoch, r.body, r.digest, now],
            );
            const row = inserted.rows[0];
            if (row !== undefined) {
              out.push({ status: 'inserted', seq: Number(row.seq) });
              continue;
            }
            const found = (
              await client.query<{ seq: string; digest: string }>('SELECT seq, digest FROM records WHERE kind = $1 AND record_id = $2', [r.kind, r.recordId])
            ).rows[0];
            out.push(found !== undefined && found.digest === r.digest ? { status: 'duplicate', seq: Number(found.seq) } : { status: 'conflict' });
          }
          return out;
        }),
      ),
    records: (epoch) =>
      wrap('read', async () =>
        (
          await pool.query<RecordRow>('SELECT seq, kind, record_id, epoch, body FROM records WHERE epoch = $1 AND kind <> $2 ORDER BY seq', [
            epoch,
            EPOCH_SEAL_KIND,
          ])
        ).rows.map(toRecord),
      ),
    sealEpoch: (epoch) =>
      wrap('seal', () =>
        inTransaction(async (client) => {
          // Exclusive: waits for every insert into this epoch in flight on any instance (they hold it shared).
          await client.query('SELECT pg_advisory_xact_lock($1, $2)', [EPOCH_SEAL_LOCK, epoch]);
          await client.query(
            "INSERT INTO records (kind, record_id, epoch, body, digest, received_at_ms) VALUES ($1, $2, $3, '{}', '', $4) ON CONFLICT (kind, record_id) DO NOTHING",
            [EPOCH_SEAL_KIND, sealId(epoch), epoch, Date.now()],
          );
        }),
      ),
    epochsWithRecords: (from, to) =>
      wrap('read', async () =>
        (
          await pool.query<{ epoch: string }>(
            'SELECT DISTINCT epoch FROM records WHERE epoch >= $1 AND epoch < $2 AND kind <> $3 AND kind <> $4 ORDER BY epoch',
            [from, to, EPOCH_SEAL_KIND, 'task_snapshot'],
          )
        ).rows.map((r) => Number(r.epoch)),
      ),
    findRecord: (kind, recordId) =>
      wrap('read', async () => {
        const row = (await pool.query<RecordRow>('SELECT seq, kind, record_id, epoch, body FROM records WHERE kind = $1 AND record_id = $2', [kind, recordId]))
          .rows[0];
        return row === undefined ? undefined : toRecord(row);
      }),
    countRecords: () =>
      wrap('count', async () =>
        Number((await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM records WHERE kind <> $1', [EPOCH_SEAL_KIND])).rows[0]?.n ?? 0),
      ),
    // One statement: the horizon it reads and the insert it makes are one snapshot; a prune committed later
    // deletes only rows signed before its own horizon, which refuses them from then on.
    useNonce: (hotkey, nonce, signedAtMs) =>
      wrap('nonce', async (): Promise<NonceState> => {
        const row = (
          await pool.query<{ inserted: string; horizon: string }>(
            `WITH h AS (SELECT before_ms FROM nonce_horizon WHERE id = 1),
              ins AS (INSERT INTO nonces (hotkey, nonce, signed_at_ms) SELECT $1::text, $2::text, $3::bigint FROM h WHERE $3::bigint >= h.before_ms ON CONFLICT DO NOTHING RETURNING 1)
            SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT before_ms FROM h) AS horizon`,
            [hotkey, nonce, signedAtMs],
          )
        ).rows[0];
        const horizon = Number(row?.horizon ?? 0);
        if (Number(row?.inserted ?? 0) === 1) return { state: 'used' };
        return signedAtMs < horizon ? { state: 'pruned', horizonMs: horizon } : { state: 'replayed' };
      }),
    checkNonce: (hotkey, nonce, signedAtMs) =>
      wrap('nonce', async (): Promise<NonceCheck> => {
        const row = (
          await pool.query<{ seen: boolean; horizon: string }>(
            'SELECT EXISTS (SELECT 1 FROM nonces WHERE hotkey = $1 AND nonce = $2) AS seen, (SELECT before_ms FROM nonce_horizon WHERE id = 1) AS horizon',
            [hotkey, nonce],
          )
        ).rows[0];
        const horizon = Number(row?.horizon ?? 0);
        return signedAtMs < horizon ? { state: 'pruned', horizonMs: horizon } : { state: row?.seen === true ? 'replayed' : 'fresh' };
      }),
    pruneNonces: (signedBeforeMs) =>
      wrap('prune', async () => {
        await pool.query(
          'WITH gone AS (DELETE FROM nonces WHERE signed_at_ms < $1) UPDATE nonce_horizon SET before_ms = GREATEST(before_ms, $1) WHERE id = 1',
          [signedBeforeMs],
        );
      }),
    claimEpoch: (epoch, fields, fence) =>
      wrap('claim', () =>
        fenced(fence, async (client) => {
          const cols = Object.keys(fields) as (keyof EpochFields)[];
          const sql = `INSERT INTO epochs (epoch, ${cols.map((c) => EPOCH_COLUMNS[c]).join(', ')}, updated_at_ms) VALUES ($1, ${cols.map((_c, i) => `$${i + 2}`).join(', ')}, $${cols.length + 2}) ON CONFLICT (epoch) DO NOTHING`;
          return (await client.query(sql, [epoch, ...cols.map((c) => fields[c] ?? null), Date.now()])).rowCount === 1;
        }),
      ),
    updateEpoch: (epoch, fields, fence) =>
      wrap('update', () =>
        fenced(fence, async (client) => {
          const cols = Object.keys(fields) as (keyof EpochFields)[];
          const sets = cols.map((c, i) => `${EPOCH_COLUMNS[c]} = $${i + 1}`);
          sets.push(`updated_at_ms = $${cols.length + 1}`);
          await client.query(`UPDATE epochs SET ${sets.join(', ')} WHERE epoch = $${cols.length + 2}`, [
            ...cols.map((c) => fields[c] ?? null),
            Date.now(),
            epoch,
          ]);
        }),
      ),
    acquireLease: (holder, ttlMs) =>
      wrap('lease', async () => {
        // The database's clock judges expiry: instances on different hosts need no clock agreement.
        const now = Number((await pool.query<{ now: string }>('SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint AS now')).rows[0]?.now ?? 0);
        const row = (await pool.query<{ token: string }>(LEASE_ACQUIRE_SQL, [holder, now + ttlMs, now])).rows[0];
        return row === undefined ? undefined : { holder, token: Number(row.token) };
      }),
    releaseLease: (fence) =>
      wrap('lease', async () => {
        await pool.query("UPDATE leader_lease SET expires_at_ms = 0 WHERE name = 'leader' AND holder = $1 AND token = $2", [fence.holder, fence.token]);
      }),
    checkFence: (fence) =>
      wrap(
        'lease',
        async () =>
          (await pool.query("SELECT 1 FROM leader_lease WHERE name = 'leader' AND holder = $1 AND token = $2", [fence.holder, fence.token])).rowCount === 1,
      ),
    getEpoch: (epoch) =>
      wrap('read', async () => {
        const row = (await pool.query<EpochDbRow>('SELECT * FROM epochs WHERE epoch = $1', [epoch])).rows[0];
        return row === undefined ? undefined : toEpoch(row);
      }),
    getEpochHead: (epoch) =>
      wrap('read', async () => {
        const row = (await pool.query<EpochDbRow>(`SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs WHERE epoch = $1`, [epoch])).rows[0];
        return row === undefined ? undefined : toEpochHead(row);
      }),
    listEpochs: (limit) =>
      wrap('read', async () => (await pool.query<EpochDbRow>('SELECT * FROM epochs ORDER BY epoch DESC LIMIT $1', [limit])).rows.map(toEpoch)),
    listEpochHeads: (limit) =>
      wrap('read', async () =>
        (await pool.query<EpochDbRow>(`SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs ORDER BY epoch DESC LIMIT $1`, [limit])).rows.map(toEpochHead),
      ),
    pendingReveals: (after, limit) =>
      wrap('read', async () =>
        (
          await pool.query<EpochDbRow>(`SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs WHERE reveal_status = 'pending' AND epoch > $1 ORDER BY epoch LIMIT $2`, [
            after,
            limit,
          ])
        ).rows.map(toEpochHead),
      ),
    unsettledBefore: (epoch) =>
      wrap('read', async () => {
        // Two lookups, each by its partial index (an OR would read both indexes whole to sort them).
        const [pending, submitting] = await Promise.all(
          ["reveal_status = 'pending'", "status = 'submitting'"].map(
            async (where) =>
              (await pool.query<EpochDbRow>(`SELECT ${EPOCH_HEAD_COLUMNS} FROM epochs WHERE ${where} AND epoch < $1 ORDER BY epoch DESC LIMIT 1`, [epoch]))
                .rows[0],
          ),
        );
        const newest = submitting === undefined || (pending !== undefined && Number(pending.epoch) > Number(submitting.epoch)) ? pending : submitting;
        return newest === undefined ? undefined : toEpochHead(newest);
      }),
    interruptedEpochs: () =>
      wrap('read', async () =>
        (await pool.query<{ epoch: string }>("SELECT epoch FROM epochs WHERE status = 'submitting' ORDER BY epoch")).rows.map((r) => Number(r.epoch)),
      ),
    latestCarry: (before) =>
      wrap(
        'read',
        async () =>
          (await pool.query<{ carry: string }>('SELECT carry FROM epochs WHERE epoch < $1 AND carry IS NOT NULL ORDER BY epoch DESC LIMIT 1', [before])).rows[0]
            ?.carry ?? null,
      ),
    epochNumbering: () =>
      wrap('read', async () => {
        const row = (
          await pool.query<{ length: number | null; highest: string | null }>(
            'SELECT (SELECT epoch_length FROM epoch_numbering WHERE id = 1) AS length, (SELECT MAX(m) FROM (SELECT MAX(epoch) AS m FROM records UNION ALL SELECT MAX(epoch) FROM epochs) AS highs) AS highest',
          )
        ).rows[0];
        const highest = row?.highest ?? null;
        return { length: row?.length ?? undefined, highestEpoch: highest === null ? undefined : Number(highest) };
      }),
    recordedEpochLength: () =>
      wrap('read', async () => (await pool.query<{ epoch_length: number }>('SELECT epoch_length FROM epoch_numbering WHERE id = 1')).rows[0]?.epoch_length),
    claimEpochLength: (length) =>
      wrap('claim', async () => {
        await pool.query('INSERT INTO epoch_numbering (id, epoch_length) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [length]);
        return (await pool.query<{ epoch_length: number }>('SELECT epoch_length FROM epoch_numbering WHERE id = 1')).rows[0]?.epoch_length ?? length;
      }),
    replaceEpochLength: (from, to) =>
      wrap(
        'update',
        async () => (await pool.query('UPDATE epoch_numbering SET epoch_length = $1 WHERE id = 1 AND epoch_length = $2', [to, from])).rowCount === 1,
      ),
    claimChainIdentity: ({ netuid, genesisHash }) =>
      wrap('claim', async () => {
        await pool.query('INSERT INTO chain_identity (id, netuid, genesis_hash) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [netuid, genesisHash]);
        if (genesisHash !== null) await pool.query('UPDATE chain_identity SET genesis_hash = $1 WHERE id = 1 AND genesis_hash IS NULL', [genesisHash]);
        const row = (await pool.query<{ netuid: number; genesis_hash: string | null }>('SELECT netuid, genesis_hash FROM chain_identity WHERE id = 1')).rows[0];
        return { netuid: row?.netuid ?? netuid, genesisHash: row === undefined ? genesisHash : row.genesis_hash };
      }),
    close: () => wrap('close', () => pool.end()),
  };
}
