import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { isSubnetError } from '@subnet/core';
import { describe, expect, expectTypeOf, it, onTestFinished } from 'vitest';

import { fileCommitStore } from '../commit-store.js';
import type { CommitStoreHolder } from '../commit-store-lock.js';
import { CHAIN_ERROR_CODES } from '../error-codes.js';
import type { PendingCommit } from '../commit-store.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';

const HERE = dirname(fileURLToPath(import.meta.url));
const HOLDER = join(HERE, 'fixtures', 'store-holder.ts');
const PACKAGE = join(HERE, '..', '..');

/** A process running `fixtures/store-holder.ts` on one commit store file. */
interface Holder {
  readonly pid: number;
  readonly proc: ChildProcess;
  /** Sends one command (`open`, `save`, `close`, `exit`). */
  send(command: string): void;
  /** The next JSON line it prints. */
  reply(): Promise<Record<string, unknown>>;
  readonly exited: Promise<void>;
}

/** Starts a holder process on `path` and resolves once it is loaded; it is killed when the test finishes. */
async function startHolder(path: string): Promise<Holder> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=@subnet/source', HOLDER, path], { cwd: PACKAGE, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => {
    proc.on('exit', () => {
      resolve();
    });
  });
  onTestFinished(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: proc.stdout }).on('line', (line) => {
    const next = waiting.shift();
    if (next === undefined) lines.push(line);
    else next(line);
  });
  const reply = (): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const take = (line: string): void => {
        resolve(JSON.parse(line) as Record<string, unknown>);
      };
      const early = lines.shift();
      if (early !== undefined) {
        take(early);
        return;
      }
      waiting.push(take);
      void exited.then(() => {
        reject(new Error(`the holder process ended without answering: ${stderr}`));
      });
    });
  const ready = await reply();
  expect(ready).toMatchObject({ ready: true });
  return {
    pid: ready['pid'] as number,
    proc,
    send: (command) => {
      proc.stdin.write(`${command}\n`);
    },
    reply,
    exited,
  };
}

/** The holder a lock folder names (its one file), or undefined when there is no lock. */
function lockHolder(lockPath: string): { pid: number; host: string } | undefined {
  if (!existsSync(lockPath)) return undefined;
  const [name] = readdirSync(lockPath);
  return name === undefined ? undefined : (JSON.parse(readFileSync(join(lockPath, name), 'utf8')) as { pid: number; host: string });
}

/** Writes a lock folder by hand, naming the given holder. */
function writeLock(lockPath: string, holder: Record<string, unknown>): void {
  mkdirSync(lockPath, { recursive: true });
  writeFileSync(join(lockPath, `${'ab'.repeat(16)}.json`), JSON.stringify({ boot_id: null, start_ticks: null, since: '2026-01-01T00:00:00.000Z', ...holder }));
}

const storeFile = (): string => join(tempDir('chain-lock-'), 'data', 'commits.json');

const COMMIT: PendingCommit = {
  hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  netuid: 1,
  mecid: 0,
  netuidIndex: 1,
  uids: [0],
  values: [65535],
  salt: [7],
  versionKey: 0n,
  commitHash: `0x${'07'.repeat(32)}`,
  commitBlock: null,
};

describe('file commit store lock: one holder per file', () => {
  it('a second process is refused while the first holds the store: CHAIN_COMMIT_STORE_LOCKED names the path, the holder (pid, host) and what to do', async () => {
    const path = storeFile();
    const first = await startHolder(path);
    first.send('open');
    expect(await first.reply()).toEqual({ opened: true });

    const second = await startHolder(path);
    second.send('open');
    expect(await second.reply()).toMatchObject({ opened: false, code: 'CHAIN_COMMIT_STORE_LOCKED', holder: { pid: first.pid, host: hostname() } });

    let refused: unknown;
    try {
      fileCommitStore(path);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'CHAIN_COMMIT_STORE_LOCKED',
      context: { path: 'commitStore', value: path, lockPath: `${path}.lock`, holder: { pid: first.pid, host: hostname() } },
    });
    const message = (refused as Error).message;
    expect(message).toContain(`the commit store ${path} is in use by process ${first.pid} on ${hostname()}`);
    expect(message).toContain('Stop that process, or give this one its own file');
    // the holder is untouched: it still saves
    first.send('save');
    expect(await first.reply()).toEqual({ saved: true });
  });

  it('close() releases the file: the lock folder goes, and the next process opens the store and finds the saves', async () => {
    const path = storeFile();
    const first = await startHolder(path);
    first.send('open');
    await first.reply();
    first.send('save');
    await first.reply();
    expect(lockHolder(`${path}.lock`)?.pid).toBe(first.pid);
    first.send('close');
    expect(await first.reply()).toEqual({ closed: true });
    expect(existsSync(`${path}.lock`)).toBe(false);

    const next = await startHolder(path);
    next.send('open');
    expect(await next.reply()).toEqual({ opened: true });
    next.send('close');
    await next.reply();
    const mine = fileCommitStore(path);
    expect((await mine.load()).map((c) => c.salt)).toEqual([[first.pid % 65536]]);
    await mine.close();
  });

  it("a process's exit releases the lock it holds", async () => {
    const path = storeFile();
    const holder = await startHolder(path);
    holder.send('open');
    await holder.reply();
    expect(lockHolder(`${path}.lock`)?.pid).toBe(holder.pid);
    holder.send('exit');
    await holder.exited;
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("a SIGKILLed holder's lock is left behind, and the next store takes it over at once (nothing to delete by hand)", async () => {
    const path = storeFile();
    const holder = await startHolder(path);
    holder.send('open');
    await holder.reply();
    holder.send('save');
    await holder.reply();
    holder.proc.kill('SIGKILL');
    await holder.exited;
    expect(lockHolder(`${path}.lock`)).toMatchObject({ pid: holder.pid, host: hostname() });

    const store = fileCommitStore(path);
    expect(lockHolder(`${path}.lock`)?.pid).toBe(process.pid);
    expect((await store.load()).map((c) => c.salt)).toEqual([[holder.pid % 65536]]);
    await store.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('three processes taking over one stale lock at the same moment: exactly one wins, the others are refused naming the winner (12 rounds)', async () => {
    const path = storeFile();
    const lockPath = `${path}.lock`;
    const dead = await startHolder(path);
    dead.send('open');
    await dead.reply();
    dead.proc.kill('SIGKILL');
    await dead.exited;
    // the killed holder's lock, put back before each round
    const stale = `${path}.stale-copy`;
    cpSync(lockPath, stale, { recursive: true });

    const racers = [await startHolder(path), await startHolder(path), await startHolder(path)];
    for (let round = 0; round < 12; round++) {
      rmSync(lockPath, { recursive: true, force: true });
      cpSync(stale, lockPath, { recursive: true });
      // all three spin until the same millisecond, then open
      const at = Date.now() + 150;
      for (const racer of racers) racer.send(`open-at:${at}`);
      const replies = await Promise.all(racers.map((r) => r.reply()));
      const winners = racers.filter((_, i) => replies[i]?.['opened'] === true);
      expect([round, winners.length]).toEqual([round, 1]);
      const winner = winners[0]!;
      const losers = replies.filter((r) => r['opened'] === false);
      expect(losers).toEqual(
        [0, 1].map((): unknown =>
          expect.objectContaining({ code: 'CHAIN_COMMIT_STORE_LOCKED', holder: expect.objectContaining({ pid: winner.pid }) as unknown }),
        ),
      );
      expect(lockHolder(lockPath)?.pid).toBe(winner.pid);
      winner.send('close');
      await winner.reply();
    }
  });
});

describe('file commit store lock in one process', () => {
  it('a second store on the same file is refused until the first is closed; a closed store refuses every call with CHAIN_CLIENT_CLOSED', async () => {
    const path = storeFile();
    const first = fileCommitStore(path);
    onTestFinished(() => first.close());
    await first.save(COMMIT);
    expect(() => fileCommitStore(path)).toThrow(
      expect.objectContaining({
        code: 'CHAIN_COMMIT_STORE_LOCKED',
        message: expect.stringContaining('this process already holds it through another store on the same file') as unknown,
        context: expect.objectContaining({ holder: expect.objectContaining({ pid: process.pid }) as unknown }) as unknown,
      }),
    );
    await first.close();
    await first.close();
    await expect(first.load()).rejects.toMatchObject({ code: 'CHAIN_CLIENT_CLOSED' });
    await expect(first.save(COMMIT)).rejects.toMatchObject({ code: 'CHAIN_CLIENT_CLOSED' });
    const second = fileCommitStore(path);
    expect(await second.load()).toEqual([COMMIT]);
    await second.close();
  });

  it('isSubnetError(e, CHAIN_ERROR_CODES.commitStoreLocked) narrows e.context to the file, its lock and the holder', () => {
    const path = storeFile();
    const first = fileCommitStore(path);
    onTestFinished(() => first.close());
    let refused: unknown;
    try {
      fileCommitStore(path);
    } catch (error) {
      refused = error;
    }
    if (!isSubnetError(refused, CHAIN_ERROR_CODES.commitStoreLocked)) throw new Error(`not narrowed: ${String(refused)}`);
    expectTypeOf(refused.context.value).toEqualTypeOf<string>();
    expectTypeOf(refused.context.lockPath).toEqualTypeOf<string>();
    expectTypeOf(refused.context.holder).toEqualTypeOf<CommitStoreHolder | undefined>();
    expect([refused.context.value, refused.context.lockPath, refused.context.holder?.pid, refused.context.retryable]).toEqual([
      path,
      first.lockPath,
      process.pid,
      false,
    ]);
  });

  it('close() waits for the calls in progress before it releases the file', async () => {
    const path = storeFile();
    const store = fileCommitStore(path);
    const saving = store.save(COMMIT);
    await store.close();
    await saving;
    const again = fileCommitStore(path);
    expect(await again.load()).toEqual([COMMIT]);
    await again.close();
  });

  it('a lock taken on another host is never taken over: refused, naming that host and the lock folder to remove', () => {
    const path = storeFile();
    writeLock(`${path}.lock`, { pid: 4242, host: 'other-host.example' });
    expect(() => fileCommitStore(path)).toThrow(
      expect.objectContaining({
        code: 'CHAIN_COMMIT_STORE_LOCKED',
        message: expect.stringMatching(
          new RegExp(
            `^\\[CHAIN_COMMIT_STORE_LOCKED\\] CommitStoreLocked: the commit store ${path} is in use by process 4242 on other-host\\.example .*remove ${path}\\.lock`,
          ),
        ) as unknown,
      }),
    );
    expect(lockHolder(`${path}.lock`)?.pid).toBe(4242);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'a lock whose pid now belongs to a process started later, or taken before the machine restarted, is stale and taken over; a live one is not',
    async () => {
      const path = storeFile();
      const lockPath = `${path}.lock`;
      // the parent of this test process is alive, but did not start at clock tick 1
      writeLock(lockPath, { pid: process.ppid, host: hostname(), start_ticks: '1' });
      const reused = fileCommitStore(path);
      expect(lockHolder(lockPath)?.pid).toBe(process.pid);
      await reused.close();

      writeLock(lockPath, { pid: process.ppid, host: hostname(), boot_id: '00000000-0000-0000-0000-000000000000' });
      const rebooted = fileCommitStore(path);
      expect(lockHolder(lockPath)?.pid).toBe(process.pid);
      await rebooted.close();

      const ticks = readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
      writeLock(lockPath, { pid: process.ppid, host: hostname(), start_ticks: ticks });
      expect(() => fileCommitStore(path)).toThrow(
        expect.objectContaining({
          code: 'CHAIN_COMMIT_STORE_LOCKED',
          context: expect.objectContaining({ holder: expect.objectContaining({ pid: process.ppid }) as unknown }) as unknown,
        }),
      );
    },
  );

  it('a lock folder that holds something else, or a file in its place, is refused naming it, and left as it is', () => {
    const path = storeFile();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.lock`, 'not a folder');
    expect(() => fileCommitStore(path)).toThrow(
      expect.objectContaining({
        code: 'CHAIN_COMMIT_STORE_LOCKED',
        message: expect.stringContaining(`${path}.lock is a file, not the lock folder`) as unknown,
      }),
    );
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe('not a folder');
    rmSync(`${path}.lock`);
    mkdirSync(`${path}.lock`);
    writeFileSync(join(`${path}.lock`, 'notes.txt'), '');
    expect(() => fileCommitStore(path)).toThrow(
      expect.objectContaining({
        code: 'CHAIN_COMMIT_STORE_LOCKED',
        message: expect.stringContaining(`its lock folder ${path}.lock holds notes.txt, not one holder file`) as unknown,
      }),
    );
    expect(readdirSync(`${path}.lock`)).toEqual(['notes.txt']);
    // no private folder of the attempts is left beside the store
    expect(readdirSync(dirname(path))).toEqual(['commits.json.lock']);
  });

  it('a store whose lock was removed by hand writes nothing more: save refuses with CHAIN_COMMIT_STORE_LOCKED', async () => {
    const path = storeFile();
    const store = fileCommitStore(path);
    onTestFinished(() => store.close());
    await store.save(COMMIT);
    rmSync(`${path}.lock`, { recursive: true });
    await expect(store.save({ ...COMMIT, commitHash: `0x${'08'.repeat(32)}` })).rejects.toMatchObject({
      code: 'CHAIN_COMMIT_STORE_LOCKED',
      message: expect.stringContaining(`the commit store ${path} is no longer held by this process`) as unknown,
    });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ commits: [{ commit_hash: COMMIT.commitHash }] });
  });
});
