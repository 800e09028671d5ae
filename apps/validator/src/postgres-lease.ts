import { redactUrl } from '@subnet/core';
import pg from 'pg';

import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { LeaseAttempt, LeaseStore } from './lease.js';

/**
 * Takes or renews the leader lease in one statement, judged by the database's clock at the statement's
 * start (`statement_timestamp()`, so a statement that waited for a row lock still compares against the
 * time it was sent): `$1` holder, `$2` TTL (ms). Returns the token when this holder now holds the lease,
 * the lease's expiry and the database's time (ms), so that a standby can try again the moment it expires.
 */
const ACQUIRE_SQL = `WITH clock AS (SELECT (extract(epoch FROM statement_timestamp()) * 1000)::bigint AS now_ms),
  taken AS (
    INSERT INTO leader_lease (name, holder, token, expires_at_ms) SELECT 'leader', $1, 1, now_ms + $2 FROM clock
    ON CONFLICT (name) DO UPDATE SET
      token = CASE WHEN leader_lease.holder = excluded.holder THEN leader_lease.token ELSE leader_lease.token + 1 END,
      holder = excluded.holder,
      expires_at_ms = excluded.expires_at_ms
    WHERE leader_lease.holder = excluded.holder OR leader_lease.expires_at_ms < (SELECT now_ms FROM clock)
    RETURNING token, expires_at_ms)
  SELECT (SELECT token FROM taken) AS token,
    COALESCE((SELECT expires_at_ms FROM taken), (SELECT expires_at_ms FROM leader_lease WHERE name = 'leader')) AS expires_at_ms,
    (SELECT now_ms FROM clock) AS now_ms`;

/** The `application_name` of the lease connection. */
export const LEASE_APPLICATION_NAME = 'subnet-validator-lease';

/** Options of {@link openPostgresLease}. */
export interface PostgresLeaseOptions {
  /** The same database URL as the storage's. */
  readonly url: string;
  /** The storage's schema; default `public`. */
  readonly schema?: string;
  /**
   * A lease statement that runs longer than this (ms) is cancelled by the server (one second later the
   * client gives up on an unanswering connection) and the connection is replaced.
   */
  readonly statementTimeoutMs: number;
  /** The connection's `application_name`; default {@link LEASE_APPLICATION_NAME}. */
  readonly applicationName?: string;
}

/**
 * The leader lease on its own PostgreSQL connection, outside the storage's pool: renewals and takeover
 * attempts never wait behind ingest, epoch seals or epoch closes queued for a pooled connection. A failed
 * or timed-out connection is dropped and a new one opened on the next attempt. The tables are the
 * storage's (migration 2), so open the storage first.
 *
 * @param options - URL, schema and statement timeout
 * @returns the lease store
 * @example const lease = startLeaderLease({ storage, store: openPostgresLease({ url, statementTimeoutMs: 1500 }), ttlMs: 1500, intervalMs: 250, logger })
 */
export function openPostgresLease(options: PostgresLeaseOptions): LeaseStore {
  const schema = options.schema ?? 'public';
  let client: Promise<pg.Client> | undefined;
  let closed = false;

  const connect = (): Promise<pg.Client> => {
    if (client !== undefined) return client;
    const c = new pg.Client({
      connectionString: options.url,
      options: `-c search_path=${schema}`,
      // Named in pg_stat_activity, so operators (and tests) can tell it from the pool's connections.
      application_name: options.applicationName ?? LEASE_APPLICATION_NAME,
      connectionTimeoutMillis: 5000,
      statement_timeout: options.statementTimeoutMs,
      // A connection that stops answering (network gone) must not hold the next attempts back either.
      query_timeout: options.statementTimeoutMs + 1000,
      keepAlive: true,
    });
    const opening = c.connect().then(
      () => c,
      (error: unknown) => {
        if (client === opening) client = undefined;
        throw error;
      },
    );
    // A broken connection is replaced on the next attempt.
    c.on('error', () => {
      if (client === opening) client = undefined;
    });
    client = opening;
    return opening;
  };

  const run = async <T extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<T | undefined> => {
    if (closed) throw appError(VALIDATOR_ERROR_CODES.storage, 'the lease connection is closed', {});
    const pending = connect();
    try {
      return (await (await pending).query<T>(sql, values)).rows[0];
    } catch (error) {
      // Drop the connection: after a timeout or a network error its state is unknown.
      if (client === pending) client = undefined;
      void pending.then((c) => c.end()).catch(() => undefined);
      throw appError(VALIDATOR_ERROR_CODES.storage, `PostgreSQL lease failed: ${redactUrl((error as Error).message)}`, {}, error);
    }
  };

  return {
    acquire: async (holder, ttlMs): Promise<LeaseAttempt> => {
      const row = await run<{ token: string | null; expires_at_ms: string | null; now_ms: string }>(ACQUIRE_SQL, [holder, ttlMs]);
      const expiresInMs = row?.expires_at_ms == null ? 0 : Number(row.expires_at_ms) - Number(row.now_ms);
      return row?.token == null ? { fence: undefined, expiresInMs } : { fence: { holder, token: Number(row.token) }, expiresInMs };
    },
    release: async (fence) => {
      await run("UPDATE leader_lease SET expires_at_ms = 0 WHERE name = 'leader' AND holder = $1 AND token = $2", [fence.holder, fence.token]);
    },
    close: async () => {
      closed = true;
      const c = client;
      client = undefined;
      await c?.then((x) => x.end()).catch(() => undefined);
    },
  };
}
