import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { ChainPort, HashRevealResult } from '../chain-port.js';
import { outcomeUnknown } from '../epoch-runner.js';
import { leaseLost } from '../lease-sql.js';
import { landedRevealFields, sharedHashCommits } from '../reveal-confirm.js';
import { openSqliteStorage } from '../sqlite-storage.js';
import type { SubnetChainOptions } from '../subnet-chain.js';
import { devnetChainPort, startCommitRevealDevnet, waitFor } from './commit-reveal-devnet.js';
import { tempDir, useCleanups } from './helpers.js';

const cleanups = useCleanups();

/**
 * A commit-reveal v2 devnet on `runtime` and the chain access over it, with the path of its file commit store (the
 * devnet, the folder and the connection are cleaned up after the test).
 */
async function v2ChainWithStore(
  runtime: 'stateful' | 'legacy',
  options: Partial<SubnetChainOptions> = {},
): Promise<{ readonly store: string; readonly chain: ChainPort }> {
  const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, runtime });
  cleanups.push(() => devnet.stop());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const store = join(t.dir, 'commits.json');
  return { store, chain: await devnetChainPort(devnet, cleanups, { commitStorePath: store, ...options }) };
}

/**
 * What the real chain access reports of a commit-reveal v2 commit (docs/spec.md G.22): `expired` only when the chain
 * still holds it past its window, `gone` when the chain no longer holds it and this call did not reveal it, since
 * a reveal by an earlier run and a drop look the same there. Tempo 10, 200 ms blocks: a window is 11 blocks, 2.2 s.
 */
describe.each(['stateful', 'legacy'] as const)('commit-reveal v2 outcomes from revealPending (real devnet, %s runtime)', (runtime) => {
  it('a commit left unrevealed past its window is expired', async () => {
    const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, runtime });
    cleanups.push(() => devnet.stop());
    const chain = await devnetChainPort(devnet, cleanups);
    const landed = await chain.setWeights([1, 2], [30_000, 35_535]);
    const closedAfter = landed.hashCommit?.closedAfter ?? 0n;
    expect(closedAfter).toBeGreaterThan(landed.block);
    await waitFor(
      'the head past the window',
      () => chain.head(),
      (h) => h > closedAfter,
      30_000,
    );
    expect(await chain.revealPending?.()).toEqual([{ commitHash: landed.hashCommit?.commitHash, status: 'expired' }]);
  }, 60_000);

  it('a commit revealed by a run that stopped before its store forgot it is gone, not expired, and its reveal is found in the final blocks of its window', async () => {
    // An era of 8 blocks: the commit cannot land again once the finalized chain is past it (docs/spec.md G.31).
    const { store, chain } = await v2ChainWithStore(runtime, { eraPeriod: 8 });
    const landed = await chain.setWeights([1, 2], [30_000, 35_535]);
    const hash = landed.hashCommit?.commitHash;
    const before = readFileSync(store, 'utf8');
    const revealed = await waitFor(
      'the reveal',
      async () => (await chain.revealPending?.()) ?? [],
      (r: readonly HashRevealResult[]) => r.length > 0,
      30_000,
    );
    expect(revealed).toMatchObject([{ commitHash: hash, status: 'revealed' }]);
    expect(revealed[0]?.block).toBeGreaterThan(landed.block);
    // The store as it was before the reveal: a run that revealed and stopped before writing the store.
    writeFileSync(store, before);
    const gone = await waitFor(
      "the finalized chain past the commit's era",
      async () => (await chain.revealPending?.()) ?? [],
      (r: readonly HashRevealResult[]) => r.length > 0,
      30_000,
    );
    expect(gone).toEqual([{ commitHash: hash, status: 'gone' }]);
    // The chain's state cannot tell that reveal from a drop, its blocks can: the reveal signed by this hotkey whose
    // arguments hash to the commit is found in a final block of the window (docs/spec.md G.22).
    const window = { fromBlock: landed.hashCommit?.dueBlock ?? 0n, toBlock: landed.hashCommit?.closedAfter ?? 0n };
    expect(await chain.findHashReveal?.({ commitHash: hash ?? '', ...window })).toEqual({
      block: revealed[0]?.block,
      blockHash: revealed[0]?.blockHash,
      extrinsicHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) as unknown,
    });
    expect(await chain.findHashReveal?.({ commitHash: `0x${'ab'.repeat(32)}`, ...window })).toBeNull();
  }, 60_000);

  it("a reveal on a subnet whose WeightsVersionKey is not 0 is found by its arguments' hash, its version_key included (reveal_weights' last argument)", async () => {
    // The version key is part of the hashed preimage (weights.rs:1336 at 14bc6f9f9): a search reading it under another
    // name (0) hashes other bytes and finds nothing.
    const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, runtime, weightsVersionKey: 7n });
    cleanups.push(() => devnet.stop());
    const chain = await devnetChainPort(devnet, cleanups);
    const landed = await chain.setWeights([1, 2], [30_000, 35_535]);
    const hash = landed.hashCommit?.commitHash ?? '';
    const revealed = await waitFor(
      'the reveal',
      async () => (await chain.revealPending?.()) ?? [],
      (r: readonly HashRevealResult[]) => r.length > 0,
      30_000,
    );
    expect(revealed).toMatchObject([{ commitHash: hash, status: 'revealed' }]);
    const block = revealed[0]?.block ?? 0n;
    const window = { fromBlock: landed.hashCommit?.dueBlock ?? 0n, toBlock: landed.hashCommit?.closedAfter ?? 0n };
    const found = await waitFor(
      'the reveal in a final block',
      async () => (await chain.findHashReveal?.({ commitHash: hash, ...window })) ?? null,
      (f) => f !== null,
      30_000,
    );
    expect(found).toEqual({ block, blockHash: revealed[0]?.blockHash, extrinsicHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) as unknown });
  }, 60_000);

  it('a commit is handed to onCommitSaved before it is sent; a lost lease there stops the sending, another failure only warns', async () => {
    const warnings: string[] = [];
    const logger = { info: () => undefined, warn: (_ctx: unknown, msg: string) => void warnings.push(msg) };
    const { store, chain } = await v2ChainWithStore(runtime, { logger });
    const storeHashes = () =>
      existsSync(store) ? (JSON.parse(readFileSync(store, 'utf8')) as { commits: { commit_hash: string }[] }).commits.map((c) => c.commit_hash) : [];
    const headBefore = await chain.head();
    await expect(
      chain.setWeights([1, 2], [30_000, 35_535], { onCommitSaved: () => Promise.reject(leaseLost({ holder: 'a', token: 1 })) }),
    ).rejects.toMatchObject({ code: 'VALIDATOR_LEASE_LOST' });
    // Nothing was sent: the store forgot the unsent commit, and the next commit lands as the only one.
    expect(storeHashes()).toEqual([]);
    const handed: { commit_hash?: string; salt?: number[]; commit_block?: unknown }[] = [];
    const landed = await chain.setWeights([1, 2], [30_000, 35_535], {
      onCommitSaved: (commit) => {
        handed.push(commit as (typeof handed)[number]);
        return Promise.reject(new Error('database unreachable'));
      },
    });
    expect(landed.block).toBeGreaterThan(headBefore);
    expect(handed).toHaveLength(1);
    expect(handed[0]).toMatchObject({ commit_hash: landed.hashCommit?.commitHash, commit_block: null });
    expect(handed[0]?.salt?.length).toBeGreaterThan(0);
    expect(warnings.some((w) => w.startsWith('the commit-reveal commit could not be kept with its epoch before sending'))).toBe(true);
    expect(storeHashes()).toEqual([landed.hashCommit?.commitHash]);
    // The commit store file keeps the commit's era end (docs/spec.md G.31); the forms that reach the epoch's row, the
    // one handed before sending and the one the submission carries, leave it out: every version reads them.
    const file = JSON.parse(readFileSync(store, 'utf8')) as { commits: Record<string, unknown>[] };
    expect(file.commits[0]?.['mortal_until']).toMatch(/^[0-9]+$/);
    expect(handed[0]).not.toHaveProperty('mortal_until');
    expect(landed.hashCommit?.commit).toMatchObject({ commit_hash: landed.hashCommit?.commitHash });
    expect(landed.hashCommit?.commit).not.toHaveProperty('mortal_until');
    // What reconciliation does with a commit the finalized chain shows never landed: the store forgets it.
    await chain.forgetCommit?.(landed.hashCommit?.commitHash ?? '');
    expect(storeHashes()).toEqual([]);
  }, 60_000);

  it('a read that fails after the commit landed is an unknown outcome (VALIDATOR_SUBMISSION_UNKNOWN), for reconciliation, not a failed submission', async () => {
    const { store, chain } = await v2ChainWithStore(runtime);
    // The store file is damaged while the commit is signed and sent: every read of it after the landing fails.
    const sent = chain.setWeights([1, 2], [30_000, 35_535], {
      onCommitSaved: () => {
        writeFileSync(store, '{"version":1,"comm');
        return Promise.resolve();
      },
    });
    await expect(sent).rejects.toMatchObject({
      code: 'VALIDATOR_SUBMISSION_UNKNOWN',
      message: expect.stringMatching(
        /the weights landed in block \d+ \(0x[0-9a-f]{64}\), but reading their reveal bounds or finality failed: .*the commit store .* is not JSON/,
      ),
    });
    expect(outcomeUnknown(await sent.catch((error: unknown) => error))).toBe(true);
  }, 60_000);

  it('a commit made by one instance is revealed by another from the epoch row (the lease moved between commit and reveal)', async () => {
    const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, runtime });
    cleanups.push(() => devnet.stop());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const storage = openSqliteStorage(join(t.dir, 'shared.db'));
    cleanups.push(() => storage.close());
    // Instance A commits and records the epoch as the epoch loop does; its commit store is its own file.
    const a = await devnetChainPort(devnet, cleanups, { commitStorePath: join(t.dir, 'a.json') });
    const landed = await a.setWeights([1, 2], [30_000, 35_535]);
    expect(landed.hashCommit?.commit).toMatchObject({ commit_hash: landed.hashCommit?.commitHash, uids: [1, 2] });
    await storage.claimEpoch(5, { status: 'submitted', ...landedRevealFields(landed) });
    // Instance B (same hotkey, empty commit store of its own) leads from now on: it reveals from the database.
    const b = await devnetChainPort(devnet, cleanups, { commitStorePath: join(t.dir, 'b.json'), sharedCommits: () => sharedHashCommits(storage) });
    const revealed = await waitFor(
      'the reveal',
      async () => (await b.revealPending?.()) ?? [],
      (r: readonly HashRevealResult[]) => r.length > 0,
      30_000,
    );
    expect(revealed).toMatchObject([{ commitHash: landed.hashCommit?.commitHash, status: 'revealed' }]);
    // Without the shared commits B could not have: its own store is empty.
    expect(existsSync(join(t.dir, 'b.json'))).toBe(false);
  }, 60_000);
});
