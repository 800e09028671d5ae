import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EPOCH_SEAL_LOCK } from '../epoch-seal.js';
import { openPostgresStorage } from '../postgres-storage.js';
import type { NewRecord, Storage } from '../storage.js';
import { createWriteQueue } from '../write-queue.js';
import { freshSchema, PG_SKIP_REASON, PG_URL, requirePostgresInCi } from './helpers.js';

requirePostgresInCi();

const rec = (id: string, epoch: number): NewRecord => ({ kind: 'bounty', recordId: id, epoch, body: `{"id":"${id}"}`, digest: `d-${id}` });

describe.skipIf(PG_URL === undefined)(`epoch seals on ${PG_URL === undefined ? `PostgreSQL (${PG_SKIP_REASON})` : 'PostgreSQL'} (epoch-seal.ts)`, () => {
  let storage: Storage;
  let other: Storage;
  let drop: () => Promise<void>;
  let schema: string;
  beforeAll(async () => {
    const fresh = await freshSchema();
    drop = fresh.drop;
    schema = fresh.schema;
    // Two pools on one schema: two validator instances.
    storage = await openPostgresStorage({ url: PG_URL ?? '', schema: fresh.schema });
    other = await openPostgresStorage({ url: PG_URL ?? '', schema: fresh.schema });
  });
  afterAll(async () => {
    await storage.close();
    await other.close();
    await drop();
  });

  it('after the leader seals an epoch, another instance cannot add a record to it (epoch_closed), resends stay duplicates, the next epoch is open', async () => {
    expect(await other.insertRecords([rec('a', 5)])).toEqual([{ status: 'inserted', seq: expect.any(Number) as unknown }]);
    await storage.sealEpoch?.(5);
    const [late, resend, conflict, next] = await other.insertRecords([rec('b', 5), rec('a', 5), { ...rec('a', 5), digest: 'other' }, rec('c', 6)]);
    expect(late).toEqual({ status: 'epoch_closed' });
    expect(resend?.status).toBe('duplicate');
    expect(conflict).toEqual({ status: 'conflict' });
    expect(next?.status).toBe('inserted');
    // The seal is no record: reads never return it.
    expect((await storage.records(5)).map((r) => r.recordId)).toEqual(['a']);
    await storage.sealEpoch?.(7);
    expect(await storage.epochsWithRecords(0, 10)).toEqual([5, 6]);
    expect(await storage.countRecords()).toBe(2);
  });

  it('the write queue turns a refused record into VALIDATOR_EPOCH_CLOSED for that record only', async () => {
    const queue = createWriteQueue(other);
    const [refused, stored] = await Promise.allSettled([queue.submit(rec('d', 5)), queue.submit(rec('e', 8))]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'VALIDATOR_EPOCH_CLOSED', context: { path: 'epoch', value: 5 } } });
    expect(stored).toMatchObject({ status: 'fulfilled', value: { status: 'inserted' } });
  });

  it('a seal waits for an insert into its epoch that is in flight on another instance, so the close reads it', async () => {
    // Hold the shared lock of epoch 9 in an open transaction, as an insert in flight does.
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock_shared($1, 9)', [EPOCH_SEAL_LOCK]);
      await client.query("INSERT INTO records (kind, record_id, epoch, body, digest, received_at_ms) VALUES ('bounty', 'inflight', 9, '{}', 'x', 0)");
      let sealed = false;
      const sealing = storage.sealEpoch?.(9).then(() => {
        sealed = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(sealed).toBe(false);
      await client.query('COMMIT');
      await sealing;
      expect(sealed).toBe(true);
      expect((await storage.records(9)).map((r) => r.recordId)).toEqual(['inflight']);
    } finally {
      await client.end();
    }
  });
});
