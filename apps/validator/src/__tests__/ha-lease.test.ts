/**
 * The leader lease (issue 17, item 1: "a new leader takes over within two chain polls of the old one's
 * death"). Lease attempts run on a PostgreSQL connection of their own, so a standby whose storage pool is
 * busy (ingest, epoch seals) still takes over; and a standby tries again right after the lease it saw
 * expires, not up to a renewal interval later.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { EPOCH_SEAL_LOCK } from '../epoch-seal.js';
import { startLeaderLease } from '../lease.js';
import type { LeaseStore } from '../lease.js';
import { LEASE_APPLICATION_NAME, openPostgresLease } from '../postgres-lease.js';
import { openPostgresStorage } from '../postgres-storage.js';
import { freshSchema, holdsLease, PG_SKIP_REASON, PG_URL, requirePostgresInCi, silent, startHaPair, until, useCleanups, useKeys } from './helpers.js';

requirePostgresInCi();

const k = useKeys();

const cleanups = useCleanups();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('lease attempts are scheduled by the expiry they saw', () => {
  it('a standby told the lease expires in 50 ms tries again then, not after its 10 s interval', async () => {
    const attempts: number[] = [];
    const store: LeaseStore = {
      acquire: () => {
        attempts.push(Date.now());
        return Promise.resolve({ fence: undefined, expiresInMs: 50 });
      },
      release: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const storage = {} as Parameters<typeof startLeaderLease>[0]['storage'];
    const lease = startLeaderLease({ storage, store, ttlMs: 60_000, intervalMs: 10_000, logger: silent, holder: 'standby' });
    cleanups.push(() => lease.stop(false));
    await lease.renew();
    // Generous on a loaded machine: the second attempt is due after 50 ms; the interval would bring it after 10 s.
    await until('a second attempt', () => Promise.resolve(attempts.length >= 2 ? true : undefined), 8000);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
  });
});

describe.skipIf(PG_URL === undefined)(`the leader lease on PostgreSQL${PG_URL === undefined ? ` (${PG_SKIP_REASON})` : ''}`, () => {
  it('an attempt judged by the database clock: the holder renews (same token), another learns when it expires, takes it once released (token + 1)', async () => {
    const fresh = await freshSchema();
    cleanups.push(fresh.drop);
    // The storage creates the tables (migrations); the lease store only uses them.
    const storage = await openPostgresStorage({ url: PG_URL ?? '', schema: fresh.schema });
    cleanups.push(() => storage.close());
    const a = openPostgresLease({ url: PG_URL ?? '', schema: fresh.schema, statementTimeoutMs: 5000 });
    const b = openPostgresLease({ url: PG_URL ?? '', schema: fresh.schema, statementTimeoutMs: 5000 });
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );

    const first = await a.acquire('a', 60_000);
    expect(first.fence).toEqual({ holder: 'a', token: 1 });
    expect(first.expiresInMs).toBe(60_000);
    const refused = await b.acquire('b', 60_000);
    expect(refused.fence).toBeUndefined();
    // The lease runs 60 s from a's statement; b's statement came later, well within it.
    expect(refused.expiresInMs).toBeGreaterThan(30_000);
    expect(refused.expiresInMs).toBeLessThanOrEqual(60_000);
    expect((await a.acquire('a', 60_000)).fence).toEqual({ holder: 'a', token: 1 });
    await a.release({ holder: 'a', token: 1 });
    expect((await b.acquire('b', 60_000)).fence).toEqual({ holder: 'b', token: 2 });
    expect(await storage.checkFence({ holder: 'b', token: 2 })).toBe(true);
    expect(await storage.checkFence({ holder: 'a', token: 1 })).toBe(false);
  });

  it('a lease connection killed by the server is replaced: the holder renews on a new one, same token', async () => {
    const fresh = await freshSchema();
    cleanups.push(fresh.drop);
    const storage = await openPostgresStorage({ url: PG_URL ?? '', schema: fresh.schema });
    cleanups.push(() => storage.close());
    // A name of its own: other test files' lease connections on the same server are left alone.
    const name = `${LEASE_APPLICATION_NAME}-${fresh.schema}`;
    const a = openPostgresLease({ url: PG_URL ?? '', schema: fresh.schema, statementTimeoutMs: 5000, applicationName: name });
    cleanups.push(() => a.close());
    expect((await a.acquire('a', 60_000)).fence).toEqual({ holder: 'a', token: 1 });
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    cleanups.push(() => admin.end());
    const killed = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [name]);
    expect(killed.rows.map((r) => r.ok)).toContain(true);
    // The attempt on the dead connection fails (coded), or it was already replaced; the next one renews.
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        const got = await a.acquire('a', 60_000);
        outcomes.push(`token ${got.fence?.token}`);
        break;
      } catch (error) {
        outcomes.push((error as { code?: string }).code ?? 'uncoded');
      }
    }
    expect(outcomes.at(-1)).toBe('token 1');
    expect(outcomes.slice(0, -1).every((o) => o === 'VALIDATOR_STORAGE')).toBe(true);
  });

  it('a standby whose storage pool is saturated (every pooled connection waits on an epoch seal) still takes over from a dead leader', async () => {
    const { leader, standby, schema } = await startHaPair(k, cleanups, { leaseTtlMs: 1500 });

    // Hold epoch 99's seal lock: an insert into epoch 99 waits for it on a pooled connection; eight of them
    // take the whole pool (8 connections).
    const blocker = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_advisory_xact_lock($1, 99)', [EPOCH_SEAL_LOCK]);
    const stuck = Array.from({ length: 8 }, (_, i) =>
      standby.storage.insertRecords([{ kind: 'bounty', recordId: `stuck-${i}`, epoch: 99, body: '{}', digest: `d${i}` }]),
    );
    cleanups.push(async () => {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await Promise.allSettled(stuck);
    });
    // Every pooled connection is taken: a read through the pool waits (and gives up after the pool's 5 s).
    const read = standby.storage.countRecords().then(
      () => 'answered',
      () => 'gave up',
    );
    expect(await Promise.race([read, sleep(1000).then(() => 'waiting')])).toBe('waiting');

    // The leader dies (stops renewing); the standby takes over once its lease expired, pool or not.
    await leader.halt();
    await until('the standby to take the lease', async () => ((await holdsLease(standby)) === 1 ? true : undefined), 30_000);
    const row = await blocker.query<{ holder: string; token: string }>("SELECT holder, token FROM leader_lease WHERE name = 'leader'");
    expect(Number(row.rows[0]?.token)).toBe(2);

    await blocker.query('ROLLBACK');
    expect((await Promise.all(stuck)).map((o) => o[0]?.status)).toEqual(Array.from({ length: 8 }, () => 'inserted'));
    await read;
  }, 60_000);
});
