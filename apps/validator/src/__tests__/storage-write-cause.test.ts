import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import Database from 'better-sqlite3';
import { isSubnetError } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { openSqliteStorage } from '../sqlite-storage.js';
import { bountyBody, captureLog, fakeChain, postExecutor, setupValidator, tempDir, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

describe('a SQLite write that fails says why (a full disk, a lock held elsewhere), in the error and the log', () => {
  it('a write on a full disk is "SQLite insert failed: SQLITE_FULL: database or disk is full", not "SQLite insert failed"', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = join(t.dir, 'full.sqlite');
    await openSqliteStorage(file).close();
    const probe = new Database(file, { readonly: true });
    const pages = probe.pragma('page_count', { simple: true }) as number;
    probe.close();
    // The file may grow by two pages: a disk that holds no more (SQLite's max_page_count, as storage.test.ts uses it).
    const storage = openSqliteStorage(file, { writerThread: false, maxPageCount: pages + 2 });
    cleanups.push(() => storage.close());
    let error: unknown;
    try {
      for (let i = 0; i < 100; i++) await storage.insertRecords([{ kind: 'bounty', recordId: `r${i}`, epoch: 0, body: 'x'.repeat(4000), digest: `d${i}` }]);
    } catch (e) {
      error = e;
    }
    expect(isSubnetError(error, 'VALIDATOR_STORAGE')).toBe(true);
    // Before: "[VALIDATOR_STORAGE] SQLite insert failed", the cause only in `cause`, which no log line printed.
    expect((error as Error).message).toBe('[VALIDATOR_STORAGE] SQLite insert failed: SQLITE_FULL: database or disk is full');
  });

  it('an ingest refused for storage logs the cause once (code STORAGE_UNAVAILABLE), not only the 503 access line', async () => {
    const { start, config } = await setupValidator(cleanups, false);
    const chain = fakeChain(k);
    const { logger, lines } = captureLog('info');
    const service = await start(chain, { logger });
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b0', k.miners[0]!.address))).status).toBe(201);
    // Another process holds the write lock (a backup tool, a sqlite3 shell in a transaction): the writer waits its
    // 5 s busy timeout, then fails.
    const holder = new Database(config.database.path);
    holder.pragma('busy_timeout = 5000');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const refused = await postExecutor(service.url, '/v1/bounty-records', bountyBody('b1', k.miners[0]!.address));
      expect(refused.status).toBe(503);
      const again = await postExecutor(service.url, '/v1/bounty-records', bountyBody('b2', k.miners[0]!.address));
      expect(again.status).toBe(503);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const warned = lines.filter((l) => l.code === 'STORAGE_UNAVAILABLE' && l.msg !== 'request');
    // Before: no line but the access log's "status":503,"code":"STORAGE_UNAVAILABLE" for each request.
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toBe(
      'a record was not stored: [VALIDATOR_STORAGE] SQLite insert failed: SQLITE_BUSY: database is locked; ingest answers 503 STORAGE_UNAVAILABLE until storage takes writes again (said at most once a minute)',
    );
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('b3', k.miners[0]!.address))).status).toBe(201);
  }, 30_000);

  it('/readyz says why record writes fail while reads still answer, without failing the storage check, until a write succeeds (G.36)', async () => {
    const { start, config } = await setupValidator(cleanups, false);
    const service = await start(fakeChain(k));
    const storageCheck = async (): Promise<{ ok: boolean; detail: string }> =>
      ((await (await fetch(`${service.url}/readyz`)).json()) as { checks: { storage: { ok: boolean; detail: string } } }).checks.storage;
    expect(await storageCheck()).toEqual({ ok: true, detail: 'sqlite answers' });
    // Another connection holds the write lock: reads go on (WAL), every record write fails after the 5 s busy timeout.
    const holder = new Database(config.database.path);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('w1', k.miners[0]!.address))).status).toBe(503);
      // Before: "sqlite answers", as if nothing were wrong, while ingest answered every record 503.
      expect(await storageCheck()).toEqual({
        ok: true,
        detail: expect.stringMatching(
          /^sqlite answers; the last record write failed [0-9] s ago: \[VALIDATOR_STORAGE\] SQLite insert failed: SQLITE_BUSY: database is locked \(ingest answers 503 STORAGE_UNAVAILABLE; (no record write has succeeded since the start|the last that succeeded was [0-9]+ s ago)\)$/,
        ) as unknown,
      });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect((await postExecutor(service.url, '/v1/bounty-records', bountyBody('w2', k.miners[0]!.address))).status).toBe(201);
    expect(await storageCheck()).toEqual({ ok: true, detail: 'sqlite answers' });
  }, 30_000);

  it("a signed request's nonce is taken while another connection holds the write lock and commits: it waits, not SQLITE_BUSY", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = join(t.dir, 'nonce.sqlite');
    const storage = openSqliteStorage(file, { writerThread: false });
    cleanups.push(() => storage.close());
    // Another connection (the service's own record writer thread, in the validator) holds the write lock, then writes and
    // commits 300 ms later, while this connection takes a nonce.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const db = new (require(workerData.driver))(workerData.file);
       db.pragma('busy_timeout = 5000');
       db.exec('BEGIN IMMEDIATE');
       db.prepare("INSERT INTO nonces (hotkey, nonce, signed_at_ms) VALUES ('other', 'n0', 1)").run();
       parentPort.postMessage('holding');
       setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('committed'); }, 300);`,
      { eval: true, workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') } },
    );
    cleanups.push(() => void worker.terminate());
    expect((await once(worker, 'message'))[0]).toBe('holding');
    // Before: the nonce's transaction read first and asked for the write lock after, so once the other connection
    // committed its snapshot was stale: "SQLite nonce failed: SQLITE_BUSY: database is locked" (the demo met it in CI).
    await expect(storage.useNonce('5Hotkey', 'n1', Date.now())).resolves.toEqual({ state: 'used' });
    expect(await storage.checkNonce('other', 'n0', 1)).toEqual({ state: 'replayed' });
  });
});
