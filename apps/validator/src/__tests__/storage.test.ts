import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPostgresStorage } from '../postgres-storage.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { Storage } from '../storage.js';
import { createWriteQueue } from '../write-queue.js';
import { freshSchema, PG_SKIP_REASON, PG_URL, requirePostgresInCi, tempDir } from './helpers.js';

requirePostgresInCi();

const backends: { name: string; skip: boolean; open: () => Promise<{ storage: Storage; cleanup: () => Promise<void> }> }[] = [
  {
    name: 'SQLite',
    skip: false,
    open: () => {
      const t = tempDir();
      const storage = openSqliteStorage(join(t.dir, 'db.sqlite'));
      return Promise.resolve({
        storage,
        cleanup: async () => {
          await storage.close();
          t.cleanup();
        },
      });
    },
  },
  {
    name: 'SQLite with the writer thread',
    skip: false,
    open: () => {
      const t = tempDir();
      const storage = openSqliteStorage(join(t.dir, 'db.sqlite'), { writerThread: true });
      return Promise.resolve({
        storage,
        cleanup: async () => {
          await storage.close();
          t.cleanup();
        },
      });
    },
  },
  {
    name: PG_URL === undefined ? `PostgreSQL (${PG_SKIP_REASON})` : 'PostgreSQL',
    skip: PG_URL === undefined,
    open: async () => {
      const { schema, drop } = await freshSchema();
      const storage = await openPostgresStorage({ url: PG_URL ?? '', schema });
      return {
        storage,
        cleanup: async () => {
          await storage.close();
          await drop();
        },
      };
    },
  },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`storage: ${backend.name}`, () => {
    let storage: Storage;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, cleanup } = await backend.open());
    });
    afterAll(async () => {
      await cleanup();
    });

    it('lists the distinct epochs that have records in a half-open range, ascending', async () => {
      await storage.insertRecords([
        { kind: 'bounty', recordId: 'ewr-1', epoch: 902, body: '{}', digest: 'x1' },
        { kind: 'bounty', recordId: 'ewr-2', epoch: 900, body: '{}', digest: 'x2' },
        { kind: 'term_result', recordId: 'ewr-3', epoch: 902, body: '{}', digest: 'x3' },
        { kind: 'bounty', recordId: 'ewr-4', epoch: 905, body: '{}', digest: 'x4' },
      ]);
      expect(await storage.epochsWithRecords(900, 905)).toEqual([900, 902]);
      expect(await storage.epochsWithRecords(901, 906)).toEqual([902, 905]);
      expect(await storage.epochsWithRecords(903, 905)).toEqual([]);
    });

    it('inserts idempotently by (kind, record id): same content is a duplicate, other content a conflict', async () => {
      const rec = { kind: 'bounty' as const, recordId: 'r1', epoch: 3, body: '{"a":1}', digest: 'd1' };
      const [first] = await storage.insertRecords([rec]);
      expect(first?.status).toBe('inserted');
      const [again, conflict, sameIdOtherKind] = await storage.insertRecords([rec, { ...rec, body: '{"a":2}', digest: 'd2' }, { ...rec, kind: 'term_result' }]);
      expect(again).toEqual({ status: 'duplicate', seq: first?.status === 'inserted' ? first.seq : -1 });
      expect(conflict).toEqual({ status: 'conflict' });
      expect(sameIdOtherKind?.status).toBe('inserted');
      const stored = await storage.records(3);
      expect(stored.map((r) => [r.kind, r.recordId, r.body])).toEqual([
        ['bounty', 'r1', '{"a":1}'],
        ['term_result', 'r1', '{"a":1}'],
      ]);
      expect(await storage.findRecord('bounty', 'r1')).toMatchObject({ epoch: 3, body: '{"a":1}' });
    });

    it('a nonce is usable once', async () => {
      expect(await storage.nonceUsed('hk', 'n-0000000000000001')).toBe(false);
      expect(await storage.useNonce('hk', 'n-0000000000000001', Date.now() + 60_000)).toBe(true);
      expect(await storage.nonceUsed('hk', 'n-0000000000000001')).toBe(true);
      expect(await storage.nonceUsed('other', 'n-0000000000000001')).toBe(false);
      expect(await storage.useNonce('hk', 'n-0000000000000001', Date.now() + 60_000)).toBe(false);
      expect(await storage.useNonce('other', 'n-0000000000000001', Date.now() + 60_000)).toBe(true);
      await storage.pruneNonces(Date.now() + 120_000);
      expect(await storage.useNonce('hk', 'n-0000000000000001', Date.now() + 60_000)).toBe(true);
    });

    it('an epoch is claimed once; carry is read from the newest earlier epoch; interrupted rows are listed', async () => {
      expect(await storage.claimEpoch(10, { status: 'submitting', carry: '{"c":10}', u16: '{"uids":[1],"weights":[65535]}' })).toBe(true);
      expect(await storage.claimEpoch(10, { status: 'dry_run' })).toBe(false);
      expect((await storage.getEpoch(10))?.status).toBe('submitting');
      expect(await storage.interruptedEpochs()).toEqual([10]);
      await storage.updateEpoch(10, { status: 'submitted', submission: '{"s":1}' });
      expect(await storage.getEpoch(10)).toMatchObject({ status: 'submitted', submission: '{"s":1}', carry: '{"c":10}' });
      expect(await storage.interruptedEpochs()).toEqual([]);
      expect(await storage.claimEpoch(12, { status: 'failed' })).toBe(true);
      expect(await storage.latestCarry(13)).toBe('{"c":10}');
      expect(await storage.latestCarry(10)).toBeNull();
      expect((await storage.listEpochs(10)).map((r) => r.epoch)).toEqual([12, 10]);
    });

    it('the write queue commits concurrent submissions in shared transactions, each acknowledged once', async () => {
      const queue = createWriteQueue(storage, 50);
      const outcomes = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          queue.submit({ kind: 'workflow_run', recordId: `q${i % 250}`, epoch: 20, body: `{"i":${i % 250}}`, digest: `d${i % 250}` }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'inserted')).toHaveLength(250);
      expect(outcomes.filter((o) => o.status === 'duplicate')).toHaveLength(50);
      expect(await storage.records(20)).toHaveLength(250);
      await queue.drain();
      expect(queue.pending()).toBe(0);
    });
  });
}
