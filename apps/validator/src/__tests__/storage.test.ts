import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { isSubnetError } from '@subnet/core';
import type { SubnetError } from '@subnet/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPostgresStorage } from '../postgres-storage.js';
import { EPOCH_LOOKUPS, openSqliteStorage, RECORD_LOOKUPS } from '../sqlite-storage.js';
import type { MigrationNotice, Storage } from '../storage.js';
import { MIGRATIONS } from '../storage.js';
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

    it("does not count an epoch's task snapshot as a record: an epoch holding only its snapshot has none", async () => {
      await storage.insertRecords([
        { kind: 'task_snapshot', recordId: 'snapshot-911', epoch: 911, body: '{}', digest: 's1' },
        { kind: 'task_snapshot', recordId: 'snapshot-912', epoch: 912, body: '{}', digest: 's2' },
        { kind: 'task', recordId: 'task-912', epoch: 912, body: '{}', digest: 't1' },
      ]);
      expect(await storage.epochsWithRecords(910, 915)).toEqual([912]);
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

    it('a nonce is usable once; a prune deletes the nonces signed before its cutoff and refuses requests signed that early from then on', async () => {
      const t = 1_700_000_000_000;
      const n1 = 'n-0000000000000001';
      const n2 = 'n-0000000000000002';
      expect(await storage.checkNonce('hk', n1, t)).toEqual({ state: 'fresh' });
      expect(await storage.useNonce('hk', n1, t)).toEqual({ state: 'used' });
      expect(await storage.checkNonce('hk', n1, t)).toEqual({ state: 'replayed' });
      expect(await storage.checkNonce('other', n1, t)).toEqual({ state: 'fresh' });
      expect(await storage.useNonce('hk', n1, t)).toEqual({ state: 'replayed' });
      expect(await storage.useNonce('other', n1, t + 5_000)).toEqual({ state: 'used' });
      // Requests signed before the cutoff: their nonces are deleted and they are refused from then on.
      await storage.pruneNonces(t + 1_000);
      expect(await storage.checkNonce('hk', n1, t)).toEqual({ state: 'pruned', horizonMs: t + 1_000 });
      expect(await storage.useNonce('hk', n1, t)).toEqual({ state: 'pruned', horizonMs: t + 1_000 });
      // A nonce signed after the cutoff is kept; hk's was deleted (the same nonce signed later is new).
      expect(await storage.useNonce('other', n1, t + 5_000)).toEqual({ state: 'replayed' });
      expect(await storage.useNonce('hk', n1, t + 1_000)).toEqual({ state: 'used' });
      // A prune with an earlier cutoff (an instance whose clock is behind, a smaller skew) never lowers the horizon.
      await storage.pruneNonces(t);
      expect(await storage.checkNonce('hk', n2, t + 500)).toEqual({ state: 'pruned', horizonMs: t + 1_000 });
      expect(await storage.useNonce('hk', n2, t + 999)).toEqual({ state: 'pruned', horizonMs: t + 1_000 });
      expect(await storage.useNonce('hk', n2, t + 1_000)).toEqual({ state: 'used' });
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

    it('epoch heads are the rows without the bundle and the carried state, newest first (docs/spec.md G.14)', async () => {
      await storage.claimEpoch(20, { status: 'dry_run', carry: '{"c":20}', u16: '{"uids":[2],"weights":[65535]}', bundle: '{"bundle":{}}', digest: 'd20' });
      await storage.claimEpoch(21, { status: 'submitting', submission: '{"s":21}', revealStatus: 'pending', reveal: '{"due_block":"9"}' });
      const rows = await storage.listEpochs(2);
      const heads = await storage.listEpochHeads(2);
      expect(heads).toEqual(rows.map(({ bundle: _bundle, carry: _carry, ...head }) => head));
      expect(heads.map((h) => [h.epoch, Object.hasOwn(h, 'bundle'), Object.hasOwn(h, 'carry')])).toEqual([
        [21, false, false],
        [20, false, false],
      ]);
    });

    it('the newest epoch before another that holds it (a pending reveal, or a submission not settled), however old (docs/spec.md G.23)', async () => {
      const { storage, cleanup } = await backend.open();
      try {
        expect(await storage.unsettledBefore(10)).toBeUndefined();
        await storage.claimEpoch(1, { status: 'submitted', revealStatus: 'pending', reveal: '{"due_block":"9"}', bundle: '{"b":1}', carry: '{"c":1}' });
        await storage.claimEpoch(2, { status: 'submitting', u16: '{"uids":[1],"weights":[65535]}' });
        await storage.claimEpoch(3, { status: 'submitted', revealStatus: 'revealed' });
        for (let e = 4; e < 150; e++) await storage.claimEpoch(e, { status: 'failed' });
        expect(await storage.unsettledBefore(1)).toBeUndefined();
        expect((await storage.unsettledBefore(2))?.epoch).toBe(1);
        // A head, as listEpochHeads gives it: no bundle, no carried state.
        expect(await storage.unsettledBefore(150)).toEqual((await storage.listEpochHeads(200)).find((h) => h.epoch === 2));
        await storage.updateEpoch(2, { status: 'submitted' });
        expect(await storage.unsettledBefore(150)).toEqual((await storage.listEpochHeads(200)).find((h) => h.epoch === 1));
        await storage.updateEpoch(1, { revealStatus: 'revealed' });
        expect(await storage.unsettledBefore(150)).toBeUndefined();
        // The newer of the two kinds wins, whichever it is.
        await storage.claimEpoch(150, { status: 'submitting' });
        await storage.claimEpoch(151, { status: 'submitted', revealStatus: 'pending' });
        expect((await storage.unsettledBefore(152))?.epoch).toBe(151);
        expect((await storage.unsettledBefore(151))?.epoch).toBe(150);
      } finally {
        await cleanup();
      }
    });

    it('pending reveals are heads: the reveal columns without the signed bundle or the carried state (docs/spec.md G.25)', async () => {
      const { storage, cleanup } = await backend.open();
      try {
        await storage.claimEpoch(1, {
          status: 'submitted',
          revealStatus: 'pending',
          reveal: '{"due_block":"9"}',
          bundle: '{"b":1}',
          carry: '{"c":1}',
          digest: 'd1',
        });
        await storage.claimEpoch(2, { status: 'submitted', revealStatus: 'revealed', reveal: '{}', bundle: '{"b":2}' });
        await storage.claimEpoch(3, { status: 'submitted', revealStatus: 'pending', reveal: '{"due_block":"19"}', bundle: '{"b":3}', digest: 'd3' });
        const pending = await storage.pendingReveals(-1, 10);
        const heads = await storage.listEpochHeads(10);
        expect(pending).toEqual(heads.filter((h) => h.revealStatus === 'pending').reverse());
        expect(pending.map((h) => [h.epoch, h.reveal, Object.hasOwn(h, 'bundle'), Object.hasOwn(h, 'carry')])).toEqual([
          [1, '{"due_block":"9"}', false, false],
          [3, '{"due_block":"19"}', false, false],
        ]);
      } finally {
        await cleanup();
      }
    });

    it("an epoch's head: its row without the signed bundle or the carried state, undefined for an epoch without a row (docs/spec.md G.25)", async () => {
      const { storage, cleanup } = await backend.open();
      try {
        await storage.claimEpoch(7, {
          status: 'submitted',
          u16: '{"u":7}',
          bundle: '{"b":7}',
          carry: '{"c":7}',
          digest: 'd7',
          revealStatus: 'pending',
          reveal: '{}',
        });
        const head = await storage.getEpochHead(7);
        const { bundle: _bundle, carry: _carry, ...expected } = (await storage.getEpoch(7)) ?? { bundle: null, carry: null };
        expect(head).toEqual(expected);
        expect([head?.digest, Object.hasOwn(head ?? {}, 'bundle'), Object.hasOwn(head ?? {}, 'carry')]).toEqual(['d7', false, false]);
        expect(await storage.getEpochHead(8)).toBeUndefined();
      } finally {
        await cleanup();
      }
    });

    it('the chain identity: recorded once, a later claim gets the recorded one, an unknown genesis hash is filled in once', async () => {
      const { storage, cleanup } = await backend.open();
      try {
        expect(await storage.claimChainIdentity({ netuid: 3, genesisHash: null })).toEqual({ netuid: 3, genesisHash: null });
        const genesis = `0x${'ab'.repeat(32)}`;
        expect(await storage.claimChainIdentity({ netuid: 3, genesisHash: genesis })).toEqual({ netuid: 3, genesisHash: genesis });
        // Another netuid or chain does not overwrite what is recorded: the caller compares and refuses.
        expect(await storage.claimChainIdentity({ netuid: 4, genesisHash: `0x${'cd'.repeat(32)}` })).toEqual({ netuid: 3, genesisHash: genesis });
        expect(await storage.claimChainIdentity({ netuid: 3, genesisHash: null })).toEqual({ netuid: 3, genesisHash: genesis });
      } finally {
        await cleanup();
      }
    });

    it('the epoch numbering: a length is recorded once, replaced only from the recorded one; the highest epoch of records and rows', async () => {
      // A database of its own: the others of this suite hold records and rows already.
      const { storage, cleanup } = await backend.open();
      try {
        expect(await storage.epochNumbering()).toEqual({ length: undefined, highestEpoch: undefined });
        expect(await storage.recordedEpochLength()).toBeUndefined();
        expect(await storage.claimEpochLength(360)).toBe(360);
        expect(await storage.recordedEpochLength()).toBe(360);
        // A second claim (another instance, a later start) gets the recorded length, not its own.
        expect(await storage.claimEpochLength(100)).toBe(360);
        expect(await storage.replaceEpochLength(100, 50)).toBe(false);
        expect(await storage.epochNumbering()).toEqual({ length: 360, highestEpoch: undefined });
        await storage.insertRecords([{ kind: 'bounty', recordId: 'n1', epoch: 7, body: '{}', digest: 'd' }]);
        expect(await storage.epochNumbering()).toEqual({ length: 360, highestEpoch: 7 });
        await storage.claimEpoch(9, { status: 'missed' });
        await storage.insertRecords([{ kind: 'bounty', recordId: 'n2', epoch: 8, body: '{}', digest: 'd' }]);
        expect(await storage.epochNumbering()).toEqual({ length: 360, highestEpoch: 9 });
        expect(await storage.replaceEpochLength(360, 120)).toBe(true);
        expect(await storage.epochNumbering()).toEqual({ length: 120, highestEpoch: 9 });
        expect(await storage.recordedEpochLength()).toBe(120);
      } finally {
        await cleanup();
      }
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

describe('the nonce horizon migration (SQLite file of a build before it)', () => {
  it('keeps the nonces already used: a replay of one is still NONCE_REPLAYED after the upgrade, and the horizon starts at 0', async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'old.sqlite');
      // The schema of the three migrations before the horizon, with one nonce as that build stored it (its expiry).
      const old = new Database(file);
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
      for (const m of MIGRATIONS.filter((m) => m.version < 4)) {
        for (const sql of m.sqlite) old.exec(sql);
        old.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
      }
      const signedAt = 1_700_000_000_000;
      old.prepare('INSERT INTO nonces (hotkey, nonce, expires_at_ms) VALUES (?, ?, ?)').run('hk', 'n-0000000000000001', signedAt + 120_000);
      old.close();
      const storage = openSqliteStorage(file);
      try {
        expect(await storage.checkNonce('hk', 'n-0000000000000001', signedAt)).toEqual({ state: 'replayed' });
        expect(await storage.useNonce('hk', 'n-0000000000000001', signedAt)).toEqual({ state: 'replayed' });
        expect(await storage.useNonce('hk', 'n-0000000000000002', 1)).toEqual({ state: 'used' });
        // The old row holds its expiry, later than its timestamp: a prune between the two keeps it.
        await storage.pruneNonces(signedAt + 60_000);
        expect(await storage.useNonce('hk', 'n-0000000000000001', signedAt + 60_000)).toEqual({ state: 'replayed' });
      } finally {
        await storage.close();
      }
    } finally {
      t.cleanup();
    }
  });
});

describe('the query plans of the frequent lookups (SQLite, docs/spec.md G.25)', () => {
  const plan = (db: Database.Database, sql: string, args: unknown[]): string =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ');

  it("an epoch's head goes by the primary key; the epochs that have records read the (epoch, seq) index, then one epoch's rows by it", async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'v.sqlite');
      await openSqliteStorage(file).close();
      const db = new Database(file, { readonly: true });
      try {
        expect(plan(db, EPOCH_LOOKUPS.head, [1])).toMatch(/SEARCH epochs USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        const withRecords = plan(db, RECORD_LOOKUPS.epochsWithRecords, [0, 100]);
        // The range is read from the index alone (no record row, no body), and each epoch's rows are found by it.
        expect(withRecords).toMatch(/SEARCH records USING COVERING INDEX records_epoch \(epoch>\? AND epoch<\?\)/);
        expect(withRecords).toMatch(/SEARCH r (EXISTS )?USING INDEX records_epoch \(epoch=\?\)/);
        expect(withRecords).not.toMatch(/SCAN records/);
      } finally {
        db.close();
      }
    } finally {
      t.cleanup();
    }
  });
});

describe('the epoch layout migration (SQLite file of a build before it)', () => {
  it('keeps every epoch row as it was, puts the carried state and the bundle last, and finds unsettled epochs by index', async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'old.sqlite');
      const old = new Database(file);
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
      for (const m of MIGRATIONS.filter((m) => m.version < 7)) {
        for (const sql of m.sqlite) old.exec(sql);
        old.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
      }
      // The layout of versions 1 and 3: digest, updated_at_ms, reveal_status and reveal after the bundle.
      expect((old.prepare('PRAGMA table_info(epochs)').all() as { name: string }[]).map((c) => c.name)).toEqual([
        'epoch',
        'status',
        'u16',
        'carry',
        'submission',
        'bundle',
        'digest',
        'updated_at_ms',
        'reveal_status',
        'reveal',
      ]);
      const insert = old.prepare(
        'INSERT INTO epochs (epoch, status, u16, carry, submission, bundle, digest, updated_at_ms, reveal_status, reveal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const big = `{"pad":"${'x'.repeat(300_000)}"}`;
      insert.run(5, 'submitted', '{"u":5}', '{"c":5}', '{"s":5}', big, 'd5', 1_700_000_000_005, 'pending', '{"due_block":"40"}');
      insert.run(6, 'submitting', null, '{"c":6}', null, '{"b":6}', null, 1_700_000_000_006, null, null);
      insert.run(7, 'failed', '{"u":7}', null, null, null, null, 1_700_000_000_007, null, null);
      old.close();

      const notices: MigrationNotice[] = [];
      const storage = openSqliteStorage(file, { onMigration: (m) => notices.push(m) });
      try {
        // The one migration that runs is announced before it runs, with what it costs.
        expect(notices).toEqual([
          {
            version: 7,
            name: 'epoch columns by size, unsettled epoch indexes',
            note: expect.stringMatching(/^copies the epochs table once/) as unknown,
            copies: expect.objectContaining({ table: 'epochs' }) as unknown,
          },
        ]);
        expect(await storage.listEpochs(10)).toEqual([
          {
            epoch: 7,
            status: 'failed',
            u16: '{"u":7}',
            carry: null,
            submission: null,
            bundle: null,
            digest: null,
            revealStatus: null,
            reveal: null,
            updatedAtMs: 1_700_000_000_007,
          },
          {
            epoch: 6,
            status: 'submitting',
            u16: null,
            carry: '{"c":6}',
            submission: null,
            bundle: '{"b":6}',
            digest: null,
            revealStatus: null,
            reveal: null,
            updatedAtMs: 1_700_000_000_006,
          },
          {
            epoch: 5,
            status: 'submitted',
            u16: '{"u":5}',
            carry: '{"c":5}',
            submission: '{"s":5}',
            bundle: big,
            digest: 'd5',
            revealStatus: 'pending',
            reveal: '{"due_block":"40"}',
            updatedAtMs: 1_700_000_000_005,
          },
        ]);
        expect((await storage.pendingReveals(-1, 10)).map((r) => r.epoch)).toEqual([5]);
        expect(await storage.interruptedEpochs()).toEqual([6]);
        expect((await storage.unsettledBefore(8))?.epoch).toBe(6);
      } finally {
        await storage.close();
      }
      // Reopened: nothing left to run, nothing said.
      const again: MigrationNotice[] = [];
      await openSqliteStorage(file, { onMigration: (m) => again.push(m) }).close();
      expect(again).toEqual([]);
      const db = new Database(file, { readonly: true });
      try {
        expect((db.prepare('PRAGMA table_info(epochs)').all() as { name: string }[]).map((c) => c.name)).toEqual([
          'epoch',
          'status',
          'u16',
          'submission',
          'digest',
          'updated_at_ms',
          'reveal_status',
          'reveal',
          'carry',
          'bundle',
        ]);
        // Each lookup of the unsettled epochs goes by its partial index: it reads no other row (and no bundle).
        const plan = (sql: string): string =>
          (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.includes('LIMIT ?') ? [0, 1] : sql.includes('?') ? [0] : [])) as { detail: string }[])
            .map((r) => r.detail)
            .join('; ');
        expect(plan(EPOCH_LOOKUPS.pendingReveals)).toMatch(/USING INDEX epochs_reveal_pending/);
        expect(plan(EPOCH_LOOKUPS.pendingBefore)).toMatch(/USING INDEX epochs_reveal_pending/);
        expect(plan(EPOCH_LOOKUPS.submittingBefore)).toMatch(/USING INDEX epochs_submitting/);
        expect(plan(EPOCH_LOOKUPS.interrupted)).toMatch(/USING (COVERING )?INDEX epochs_submitting/);
      } finally {
        db.close();
      }
    } finally {
      t.cleanup();
    }
  });
});

describe('migration 7 on a disk that runs out (SQLite file of a build before it, docs/spec.md G.23)', () => {
  type Row = [number, string, string | null, string | null, string | null, string | null, string | null, number, string | null, string | null];
  const COLUMNS = 'epoch, status, u16, carry, submission, bundle, digest, updated_at_ms, reveal_status, reveal';
  // 40 epochs of about 100 KB of bundle and 20 KB of carried state each: about 4.8 MB to copy.
  const rows: Row[] = Array.from({ length: 40 }, (_, i) => [
    i,
    i % 3 === 0 ? 'submitted' : 'failed',
    i % 3 === 0 ? `{"u":${i}}` : null,
    `{"c":"${String(i).padStart(3, '0')}${'c'.repeat(20_000)}"}`,
    i % 3 === 0 ? `{"s":${i}}` : null,
    `{"b":"${String(i).padStart(3, '0')}${'b'.repeat(100_000)}"}`,
    i % 3 === 0 ? `d${i}` : null,
    1_700_000_000_000 + i,
    i === 39 ? 'pending' : null,
    i === 39 ? '{"due_block":"400"}' : null,
  ]);
  // The bytes of the values as SQLite holds them as text: each value's decimal or its characters (all ASCII here).
  const tableBytes = rows.reduce((sum, row) => sum + row.reduce<number>((n, v) => n + (v === null ? 0 : String(v).length), 0), 0);
  // Twice the table (the WAL, then the file), and a sixteenth more for the pages that hold it (docs/spec.md G.23).
  const neededBytes = Math.ceil(tableBytes * 2 * (17 / 16));
  const size = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;

  function versionSix(file: string): void {
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    for (const m of MIGRATIONS.filter((m) => m.version < 7)) {
      for (const sql of m.sqlite) old.exec(sql);
      old.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
    }
    const insert = old.prepare(`INSERT INTO epochs (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    old.transaction(() => {
      for (const row of rows) insert.run(...row);
    })();
    old.close();
  }

  function readBack(file: string): { version: number; columns: string[]; rows: unknown[][] } {
    const db = new Database(file, { readonly: true });
    try {
      return {
        version: (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v,
        columns: (db.prepare('PRAGMA table_info(epochs)').all() as { name: string }[]).map((c) => c.name),
        rows: db.prepare(`SELECT ${COLUMNS} FROM epochs ORDER BY epoch`).raw().all() as unknown[][],
      };
    } finally {
      db.close();
    }
  }

  it('fails with VALIDATOR_STORAGE leading with SQLITE_FULL, naming the migration and the free disk it needs; the file stays at version 6 with every row; a later start with room completes it', async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'old.sqlite');
      versionSix(file);
      const before = readBack(file);
      expect(before.version).toBe(6);
      expect(before.rows).toEqual(rows);
      const probe = new Database(file, { readonly: true });
      const pages = probe.pragma('page_count', { simple: true }) as number;
      const pageSize = probe.pragma('page_size', { simple: true }) as number;
      probe.close();
      // Room for 50 more pages: far less than the copy of a table that fills most of the file.
      expect(tableBytes / pageSize).toBeGreaterThan(1000);

      const notices: MigrationNotice[] = [];
      let error: unknown;
      try {
        openSqliteStorage(file, { maxPageCount: pages + 50, onMigration: (m) => notices.push(m) });
      } catch (e) {
        error = e;
      }
      expect(isSubnetError(error, 'VALIDATOR_STORAGE')).toBe(true);
      const failure = error as SubnetError;
      expect(failure.message).toMatch(
        new RegExp(
          `^\\[VALIDATOR_STORAGE\\] out of disk space \\(SQLITE_FULL: database or disk is full\\) in storage migration 7 \\(epoch columns by size, unsettled epoch indexes\\) of the SQLite database ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ` +
            `it was rolled back and the database is unchanged at version 6; it copies the epochs table \\(about ${size(tableBytes).replace('.', '\\.')}\\) and needs about ` +
            `${size(neededBytes).replace('.', '\\.')} of free disk beside the file \\(the copy is written to the WAL, then into the file\\); [0-9.]+ [KMG]B is free there now: free that much there ` +
            `\\(or move the file and set database\\.path\\) and start again$`,
        ),
      );
      expect(failure.context).toMatchObject({ file, migration: 7, sqliteCode: 'SQLITE_FULL', version: 6, neededBytes });
      // The start was told before the copy began, with the same numbers.
      expect(notices.map((n) => n.copies)).toEqual([{ table: 'epochs', bytes: tableBytes, neededBytes, freeBytes: expect.any(Number) as unknown }]);

      // Rolled back: version 6, the old layout, every row as it was.
      expect(readBack(file)).toEqual(before);

      // With room, the next open completes migration 7 and keeps every row.
      const storage = openSqliteStorage(file);
      try {
        expect((await storage.listEpochHeads(100)).length).toBe(rows.length);
        expect((await storage.getEpoch(39))?.bundle).toBe(rows[39]?.[5]);
      } finally {
        await storage.close();
      }
      const after = readBack(file);
      expect(after.version).toBe(7);
      expect(after.columns.slice(-2)).toEqual(['carry', 'bundle']);
      expect(after.rows).toEqual(rows);
    } finally {
      t.cleanup();
    }
  });

  it('with less free disk than the copy needs, is refused before it writes anything, naming the need and the free disk; with enough it runs', async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'old.sqlite');
      versionSix(file);
      const before = readBack(file);
      const bytes = readFileSync(file);
      // Between the table and twice it: the WAL holds the copy, so it would commit and its checkpoint fill the disk.
      const free = Math.floor(1.5 * tableBytes);
      const notices: MigrationNotice[] = [];
      let error: unknown;
      try {
        openSqliteStorage(file, { freeDiskBytes: free, onMigration: (m) => notices.push(m) });
      } catch (e) {
        error = e;
      }
      expect(isSubnetError(error, 'VALIDATOR_STORAGE')).toBe(true);
      expect((error as SubnetError).message).toBe(
        `[VALIDATOR_STORAGE] not enough free disk for storage migration 7 (epoch columns by size, unsettled epoch indexes) of the SQLite database ${file}: ` +
          `nothing was written and the database is at version 6; it copies the epochs table (about ${size(tableBytes)}) and needs about ${size(neededBytes)} ` +
          `of free disk beside the file (the copy is written to the WAL, then into the file); ${size(free)} is free there now: free that much there ` +
          '(or move the file and set database.path) and start again',
      );
      expect((error as SubnetError).context).toEqual({ file, migration: 7, version: 6, neededBytes, freeBytes: free });
      // Not announced as applied, and the file is byte for byte what it was.
      expect(notices).toEqual([]);
      expect(readFileSync(file).equals(bytes)).toBe(true);
      expect(readBack(file)).toEqual(before);

      // The need itself is enough.
      const storage = openSqliteStorage(file, { freeDiskBytes: neededBytes, onMigration: (m) => notices.push(m) });
      try {
        expect((await storage.listEpochHeads(100)).length).toBe(rows.length);
      } finally {
        await storage.close();
      }
      expect(notices.map((n) => n.copies)).toEqual([{ table: 'epochs', bytes: tableBytes, neededBytes, freeBytes: neededBytes }]);
      expect(readBack(file).version).toBe(7);
    } finally {
      t.cleanup();
    }
  });
});
