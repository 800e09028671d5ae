import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { isSubnetError } from '@subnet/core';
import { describe, expect, expectTypeOf, it, onTestFinished, vi } from 'vitest';

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

/**
 * Starts a holder process on `path` and resolves once it is loaded; it is killed when the test finishes. `staleMs`
 * gives it a short heartbeat bound (`SUBNET_COMMIT_STORE_LOCK_STALE_MS`, internal, for tests).
 */
async function startHolder(path: string, staleMs?: number): Promise<Holder> {
  const env = staleMs === undefined ? process.env : { ...process.env, SUBNET_COMMIT_STORE_LOCK_STALE_MS: String(staleMs) };
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=@subnet/source', HOLDER, path], {
    cwd: PACKAGE,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    proc.on('exit', () => {
      resolve();
    });
  });
  onTestFinished(async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
    }
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

/** Writes a lock folder by hand, naming the given holder, its heartbeat `beatAgeMs` old (by default now). */
function writeLock(lockPath: string, holder: Record<string, unknown>, beatAgeMs = 0): void {
  mkdirSync(lockPath, { recursive: true });
  const file = join(lockPath, `${'ab'.repeat(16)}.json`);
  writeFileSync(file, JSON.stringify({ boot_id: null, start_ticks: null, since: '2026-01-01T00:00:00.000Z', ...holder }));
  const at = new Date(Date.now() - beatAgeMs);
  utimesSync(file, at, at);
}

/** Rewrites the holder file of a lock in place (same file, so its holder's heartbeat keeps reaching it) under another host name. */
function moveToOtherHost(lockPath: string): string {
  const [name] = readdirSync(lockPath);
  const file = join(lockPath, name!);
  const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...record, host: 'other-host.example' }));
  return file;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const storeFile = (): string => join(tempDir('chain-lock-'), 'data', 'commits.json');

/** What `fileCommitStore(path)` throws (undefined when it opens the store). */
function refusalOf(path: string): unknown {
  try {
    fileCommitStore(path);
  } catch (error) {
    return error;
  }
  return undefined;
}

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

    const refused = refusalOf(path);
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
    const refused = refusalOf(path);
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

  it("a lock from another host with a fresh heartbeat is refused, naming the heartbeat's age and how long until the lock counts as abandoned", () => {
    const path = storeFile();
    writeLock(`${path}.lock`, { pid: 4242, host: 'other-host.example' }, 20_000);
    const refused = refusalOf(path);
    expect(refused).toMatchObject({
      code: 'CHAIN_COMMIT_STORE_LOCKED',
      context: { lockPath: `${path}.lock`, holder: { pid: 4242, host: 'other-host.example' } },
    });
    const { message, context } = refused as { message: string; context: { heartbeatAgeMs: number; abandonedInMs: number } };
    expect(message).toMatch(
      new RegExp(
        `^\\[CHAIN_COMMIT_STORE_LOCKED\\] CommitStoreLocked: the commit store ${path} is in use by process 4242 on other-host\\.example .*another host, where this one cannot check it: its heartbeat is 2\\d\\.\\d s old, and the lock counts as abandoned once that passes 60\\.0 s, in [34]\\d\\.\\d s`,
      ),
    );
    expect(message).toContain('start again after that and the lock is taken over');
    // the default bound, 60 s, from a heartbeat 20 s old (and the few milliseconds this test took)
    expect(context.heartbeatAgeMs).toBeGreaterThanOrEqual(20_000);
    expect(context.heartbeatAgeMs).toBeLessThan(25_000);
    expect(context.abandonedInMs).toBe(60_000 - context.heartbeatAgeMs);
    expect(lockHolder(`${path}.lock`)?.pid).toBe(4242);
  });

  it('a lock whose holder cannot be checked here (another host; a live pid without a start time) is taken over once its heartbeat is older than the bound', async () => {
    const path = storeFile();
    const lockPath = `${path}.lock`;
    // another host, silent for 61 s (no bound in the file: an earlier version's lock, the default 60 s)
    writeLock(lockPath, { pid: 4242, host: 'other-host.example' }, 61_000);
    const foreign = fileCommitStore(path);
    expect(lockHolder(lockPath)).toMatchObject({ pid: process.pid, host: hostname() });
    await foreign.save(COMMIT);
    await foreign.close();
    // another host whose holder declared a 2 s bound, silent for 3 s
    writeLock(lockPath, { pid: 4242, host: 'other-host.example', stale_after_ms: 2000 }, 3000);
    const short = fileCommitStore(path);
    expect(lockHolder(lockPath)?.pid).toBe(process.pid);
    await short.close();
    // this host, a running pid (this test's parent) recorded without a start time (no /proc): silent for 61 s
    writeLock(lockPath, { pid: process.ppid, host: hostname() }, 61_000);
    const unchecked = fileCommitStore(path);
    expect(lockHolder(lockPath)?.pid).toBe(process.pid);
    expect(await unchecked.load()).toEqual([COMMIT]);
    await unchecked.close();
    // the same, heard from 30 s ago: refused, naming the wait
    writeLock(lockPath, { pid: process.ppid, host: hostname() }, 30_000);
    expect(() => fileCommitStore(path)).toThrow(
      expect.objectContaining({
        code: 'CHAIN_COMMIT_STORE_LOCKED',
        message: expect.stringMatching(
          /cannot tell a reused pid, so the lock counts as abandoned once its heartbeat \(now 3\d\.\d s old\) passes 60\.0 s, in [23]\d\.\d s /,
        ) as unknown,
      }),
    );
  });

  it('a live holder keeps its heartbeat fresh: seen from another host after several bounds, it is still refused, its heartbeat younger than one bound', async () => {
    const path = storeFile();
    const lockPath = `${path}.lock`;
    // 2 s: the holder beats every 1/12 of it, and a holder process left unscheduled for most of the bound on a loaded
    // machine would otherwise look abandoned (with 600 ms, a 550 ms wait for a core failed this test).
    const bound = 2000;
    const holder = await startHolder(path, bound);
    holder.send('open');
    expect(await holder.reply()).toEqual({ opened: true });
    const file = moveToOtherHost(lockPath);
    const before = statSync(file).mtimeMs;
    await sleep(2.5 * bound);
    const beat = statSync(file).mtimeMs;
    expect(beat).toBeGreaterThan(before);
    expect(Date.now() - beat).toBeLessThan(bound);
    const refused = refusalOf(path);
    expect(refused).toMatchObject({ code: 'CHAIN_COMMIT_STORE_LOCKED', context: { holder: { pid: holder.pid, host: 'other-host.example' } } });
    const { context } = refused as { context: { heartbeatAgeMs: number; abandonedInMs: number } };
    expect(context.heartbeatAgeMs).toBeLessThan(bound);
    expect(context.abandonedInMs).toBeGreaterThan(0);
    expect(lockHolder(lockPath)?.pid).toBe(holder.pid);
    holder.send('save');
    expect(await holder.reply()).toEqual({ saved: true });
  });

  it("a holder that stalled past the bound and was taken over refuses to save once it runs again; the new holder's saves stay", async () => {
    const path = storeFile();
    const lockPath = `${path}.lock`;
    const bound = 600;
    const holder = await startHolder(path, bound);
    holder.send('open');
    await holder.reply();
    holder.send('save');
    expect(await holder.reply()).toEqual({ saved: true });
    const file = moveToOtherHost(lockPath);
    // a stall: the whole process stops (as when its machine froze, or its storage hung), and its heartbeat with it
    holder.proc.kill('SIGSTOP');
    await sleep(bound + 300);
    expect(Date.now() - statSync(file).mtimeMs).toBeGreaterThan(bound);
    const taker = fileCommitStore(path);
    onTestFinished(() => taker.close());
    expect(lockHolder(lockPath)?.pid).toBe(process.pid);
    await taker.save(COMMIT);
    holder.proc.kill('SIGCONT');
    holder.send('save');
    expect(await holder.reply()).toMatchObject({
      saved: false,
      code: 'CHAIN_COMMIT_STORE_LOCKED',
      message: expect.stringContaining(`the commit store ${path} is no longer held by this process`) as unknown,
    });
    // the store holds the first holder's save and the taker's, and nothing of the refused one
    const hashes = (await taker.load()).map((c) => c.commitHash);
    expect(hashes).toEqual([`0x${holder.pid.toString(16).padStart(64, '0')}`, COMMIT.commitHash]);
    expect(readdirSync(dirname(path)).sort()).toEqual(['commits.json', 'commits.json.lock']);
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

  it('a store whose heartbeat lapsed past half the bound (a machine suspended for 2 min) refuses its next write, leaving nothing; once a heartbeat lands on its lock, writes go through', async () => {
    const path = storeFile();
    const store = fileCommitStore(path);
    onTestFinished(() => store.close());
    await store.save(COMMIT);
    // the wall clock says 2 min went by since the last heartbeat; the monotonic clock skips a suspended machine's time
    const real = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => real() + 120_000);
    try {
      await expect(store.save({ ...COMMIT, commitHash: `0x${'08'.repeat(32)}` })).rejects.toMatchObject({
        code: 'CHAIN_COMMIT_STORE_LOCKED',
        message: expect.stringMatching(
          /^\[CHAIN_COMMIT_STORE_LOCKED\] CommitStoreLocked: the commit store .* was not written: this process's heartbeat on its lock last landed 1[12]\d\.\d s ago, over half the 60\.0 s bound/,
        ) as unknown,
      });
    } finally {
      clock.mockRestore();
    }
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ commits: [{ commit_hash: COMMIT.commitHash }] });
    expect(readdirSync(dirname(path)).sort()).toEqual(['commits.json', 'commits.json.lock']);
    // the lock is still this store's: the write refused set a heartbeat going, and the next write goes through
    await vi.waitFor(() => store.save({ ...COMMIT, commitHash: `0x${'09'.repeat(32)}` }));
    expect((await store.load()).map((c) => c.commitHash)).toEqual([COMMIT.commitHash, `0x${'09'.repeat(32)}`]);
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
