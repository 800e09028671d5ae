import { readlinkSync } from 'node:fs';
import { mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { describe, expect, it, onTestFinished, vi } from 'vitest';

import { fileCommitStore, memoryCommitStore, pendingCommitFromJson, pendingCommitToJson } from '../commit-store.js';
import type { FileCommitStore, PendingCommit } from '../commit-store.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const commit = (i: number, over: Partial<PendingCommit> = {}): PendingCommit => ({
  hotkey: ALICE,
  netuid: 1,
  mecid: 0,
  netuidIndex: 1,
  uids: [0, i],
  values: [65535, i],
  salt: [1, 2, 3, 4, 5, 6, 7, 8],
  versionKey: 2n ** 63n + BigInt(i),
  commitHash: `0x${i.toString(16).padStart(64, '0')}`,
  commitBlock: null,
  ...over,
});

function tmp(): Promise<string> {
  return Promise.resolve(join(tempDir('chain-store-'), 'nested', 'commits.json'));
}

/** A file store closed when the test finishes (a store holds its file until it is closed). */
function openStore(path: string): FileCommitStore {
  const store = fileCommitStore(path);
  onTestFinished(() => store.close());
  return store;
}

/** Runs one call on a store of its own, closed after it, as a second process would (one store per file at a time). */
async function once<T>(path: string, call: (store: FileCommitStore) => Promise<T>): Promise<T> {
  const store = fileCommitStore(path);
  try {
    return await call(store);
  } finally {
    await store.close();
  }
}

describe('commit stores', () => {
  it('memory store: save, replace by hash, load, remove', async () => {
    const store = memoryCommitStore();
    await store.save(commit(1));
    await store.save(commit(2));
    await store.save(commit(1, { commitBlock: 9n }));
    expect((await store.load()).map((c) => [c.commitHash, c.commitBlock])).toEqual([
      [commit(1).commitHash, 9n],
      [commit(2).commitHash, null],
    ]);
    await store.remove(commit(1).commitHash);
    await store.remove('0xabsent');
    expect((await store.load()).map((c) => c.commitHash)).toEqual([commit(2).commitHash]);
  });
  it('file store: a missing file is empty; values round-trip exactly (u64 version key beyond 2^53) in snake_case JSON, mode 0600', async () => {
    const path = await tmp();
    const store = fileCommitStore(path);
    expect(await store.load()).toEqual([]);
    await store.save(commit(3, { commitBlock: 12n }));
    await store.close();
    const loaded = await once(path, (s) => s.load());
    expect(loaded).toEqual([commit(3, { commitBlock: 12n })]);
    expect(Object.isFrozen(loaded[0])).toBe(true);
    const wire = JSON.parse(await readFile(path, 'utf8')) as { version: number; commits: Record<string, unknown>[] };
    expect(wire.version).toBe(1);
    expect(wire.commits[0]).toMatchObject({ netuid_index: 1, version_key: '9223372036854775811', commit_block: '12' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
  it('file store: a save syncs the new file to the disk before the rename and the folder after it, so a power cut cannot undo it', async () => {
    const path = await tmp();
    const probe = await open(process.execPath, 'r');
    const proto = Object.getPrototypeOf(probe) as { sync: (this: FileHandle) => Promise<void> };
    await probe.close();
    const real = proto.sync;
    // What each sync was of, by its descriptor (Linux names an open descriptor's file in /proc/self/fd).
    const synced: string[] = [];
    const spy = vi.spyOn(proto, 'sync').mockImplementation(function (this: FileHandle) {
      synced.push(readlinkSync(`/proc/self/fd/${this.fd}`));
      return real.call(this);
    });
    try {
      await once(path, (s) => s.save(commit(4)));
      await once(path, (s) => s.remove(commit(4).commitHash));
    } finally {
      spy.mockRestore();
    }
    // the temporary file is the holder's own, `<path>.<token>.tmp` (a holder taken over while it stalled writes none of the next one's)
    const own = expect.stringMatching(/\.[0-9a-f]{32}\.tmp$/) as unknown;
    expect(synced).toEqual([own, dirname(path), own, dirname(path)]);
    expect(synced[0]!.startsWith(`${path}.`)).toBe(true);
    expect(await once(path, (s) => s.load())).toEqual([]);
  });

  it('file store: concurrent saves are serialised (none lost) and remove only rewrites when something changed', async () => {
    const path = await tmp();
    const store = openStore(path);
    await Promise.all(Array.from({ length: 12 }, (_, i) => store.save(commit(i + 1))));
    expect((await store.load()).map((c) => c.uids[1]).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    await Promise.all([store.remove(commit(4).commitHash), store.remove(commit(5).commitHash)]);
    expect(await store.load()).toHaveLength(10);
  });
  it('a commit round-trips through its wire form (as the file holds it), and a wrong field is named', () => {
    const c = commit(7, { commitBlock: 2n ** 60n });
    const wire = pendingCommitToJson(c);
    expect(wire).toMatchObject({ netuid_index: 1, version_key: (2n ** 63n + 7n).toString(), commit_block: (2n ** 60n).toString(), salt: c.salt });
    expect(pendingCommitFromJson(JSON.parse(JSON.stringify(wire)))).toEqual(c);
    expect(() => pendingCommitFromJson({ ...wire, salt: [70000] })).toThrow(
      expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'commit.salt[0]' }) }),
    );
  });

  it('mortal_until (the last block a commit can be included in) round-trips, is left out when absent, and a wrong one is named', async () => {
    const kept = commit(8, { mortalUntil: 2n ** 40n + 3n });
    const wire = pendingCommitToJson(kept);
    expect(wire).toMatchObject({ commit_block: null, mortal_until: (2n ** 40n + 3n).toString() });
    expect(pendingCommitFromJson(JSON.parse(JSON.stringify(wire)))).toEqual(kept);
    // a commit without an era end (one an earlier version saved) is written without the field, as that version wrote it
    expect(Object.keys(pendingCommitToJson(commit(8, { commitBlock: 5n })))).not.toContain('mortal_until');
    expect(pendingCommitFromJson(pendingCommitToJson(commit(8)))).not.toHaveProperty('mortalUntil');
    for (const bad of [-1, '0x10', '1e3', '']) {
      expect(() => pendingCommitFromJson({ ...wire, mortal_until: bad })).toThrow(
        expect.objectContaining({ code: 'CHAIN_INVALID_INPUT', context: expect.objectContaining({ path: 'commit.mortal_until' }) }),
      );
    }
    const path = await tmp();
    await once(path, (s) => s.save(kept));
    expect(await once(path, (s) => s.load())).toEqual([kept]);
  });

  it('file store: a file that is not a commit store fails with CHAIN_INVALID_INPUT naming the field', async () => {
    const path = await tmp();
    await once(path, (s) => s.save(commit(1)));
    const wire = JSON.parse(await readFile(path, 'utf8')) as { commits: Record<string, unknown>[] };
    wire.commits[0]!['commit_hash'] = '0xnothex';
    await writeFile(path, JSON.stringify(wire));
    await expect(once(path, (s) => s.load())).rejects.toMatchObject({ code: 'CHAIN_INVALID_INPUT', context: { path: 'commitStore.commits[0].commit_hash' } });
  });

  it('file store: a file that is not JSON at all fails with CHAIN_INVALID_INPUT naming the file, for load and save alike', async () => {
    const path = await tmp();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '{"version":1,"commits":[{"hotk');
    const expected = {
      code: 'CHAIN_INVALID_INPUT',
      context: { path: 'commitStore' },
      message: expect.stringContaining(`the commit store ${path} is not JSON`),
    };
    const store = openStore(path);
    await expect(store.load()).rejects.toMatchObject(expected);
    await expect(store.save(commit(1))).rejects.toMatchObject(expected);
    // Nothing is overwritten: the file is as it was.
    expect(await readFile(path, 'utf8')).toBe('{"version":1,"commits":[{"hotk');
  });
});
