/**
 * docs/spec.md G.3: an epoch has one task snapshot, the first one stored. When another instance's snapshot of the
 * epoch is stored between this instance's read (none yet) and its own write (a conflict), the stored one is the
 * epoch's snapshot here too, even though the chain view it was taken from differs: every draw of the epoch, on every
 * instance and after a restart, reads the same candidates. Real SQLite storage and write queue; the other instance's
 * write is made to land at exactly that moment.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

import { canonicalJson } from '@subnet/core';
import { describe, expect, it } from 'vitest';

import { openSqliteStorage } from '../sqlite-storage.js';
import { createTaskRegistry } from '../task-registry.js';
import { createWriteQueue } from '../write-queue.js';
import type { WriteQueue } from '../write-queue.js';
import { fakeChain, tempDir, testConfig, useCleanups, useKeys } from './helpers.js';

const k = useKeys();
const cleanups = useCleanups();

describe('a task snapshot stored by another instance first', () => {
  it("is the epoch's snapshot here too: the conflict returns the stored candidates, not the ones this instance read", async () => {
    const t = tempDir();
    const storage = openSqliteStorage(join(t.dir, 'validator.sqlite'));
    cleanups.push(t.cleanup, () => storage.close());
    const real = createWriteQueue(storage);
    const chain = fakeChain(k);
    // The other instance read the chain a moment earlier: one miner fewer was registered.
    const theirs = {
      candidates: chain.neurons
        .filter((n) => !n.validatorPermit && n.hotkey !== chain.hotkey)
        .slice(1)
        .map((n) => ({ hotkey: n.hotkey, uid: n.uid }))
        .sort((a, b) => (a.hotkey < b.hotkey ? -1 : 1)),
      reputations: null,
    };
    expect(theirs.candidates.length).toBeGreaterThan(1);
    const body = canonicalJson(theirs);
    let raced = false;
    const queue: WriteQueue = {
      ...real,
      submit: async (record) => {
        if (record.kind === 'task_snapshot' && !raced) {
          raced = true;
          const stored = await real.submit({ ...record, body, digest: createHash('sha256').update(body).digest('hex') });
          expect(stored.status).not.toBe('conflict');
        }
        return real.submit(record);
      },
    };
    const registry = createTaskRegistry({ storage, queue, chain, scoring: testConfig(t.dir).scoring });
    const prepared = await registry.prepare(0);
    expect(raced).toBe(true);
    expect(prepared.candidates).toEqual(theirs.candidates);
    expect((await registry.snapshot(0))?.candidates).toEqual(theirs.candidates);
    // A fresh registry (a restart) reads the same one back.
    const again = createTaskRegistry({ storage, queue: real, chain, scoring: testConfig(t.dir).scoring });
    expect((await again.snapshot(0))?.candidates).toEqual(theirs.candidates);
  });
});
