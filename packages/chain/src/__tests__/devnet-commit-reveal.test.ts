import { join } from 'node:path';

import { maxUpscaleToU16 } from '@subnet/devnet';
import { afterEach, describe, expect, it } from 'vitest';

import { chainError } from '../chain-error.js';
import { createChainClient } from '../chain-client.js';
import type { ChainClient } from '../chain-client.js';
import { fileCommitStore } from '../commit-store.js';
import type { FileCommitStore, PendingCommit } from '../commit-store.js';
import { submitExtrinsic } from '../submit-extrinsic.js';
import type { Inclusion } from '../submit-extrinsic.js';
import type { Harness } from './devnet-helpers.js';
import { RUNTIMES, startHarness } from './devnet-helpers.js';
import { tempDir } from '@subnet/vitest-config/temp-dir';

let h: Harness | undefined;
/** One store per file in a test, as in a process (a store holds its file until it is closed). */
const stores = new Map<string, FileCommitStore>();
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const store of stores.values()) await store.close();
  stores.clear();
});

/** The test's store on `path`, opened at its first use. */
function storeAt(path: string): FileCommitStore {
  let store = stores.get(path);
  if (store === undefined) {
    store = fileCommitStore(path);
    stores.set(path, store);
  }
  return store;
}

/** A restart: the store on `path` closed, and a new one opened on the same file. */
async function reopen(path: string): Promise<FileCommitStore> {
  await stores.get(path)?.close();
  stores.delete(path);
  return storeAt(path);
}

const BASE = { commitReveal: true, commitRevealVersion: 2, tempo: 10, revealPeriodEpochs: 1n } as const;

/**
 * The reveal window of a commit in block 2 at tempo 10, netuid 1, reveal period 1, from the chain's formulas:
 * stateful (main): epochs fire at blocks 10, 20 (`block - LastEpochBlock >= tempo`), so epoch 1 is blocks 10..19;
 * legacy (spec 393): epoch(b) = (b + 2) / 11, the commit is in epoch 0, epoch 1 is blocks 9..19.
 */
const WINDOW = {
  stateful: { epoch: 1n, firstBlock: 10n, lastBlock: 19n },
  legacy: { epoch: 1n, firstBlock: 9n, lastBlock: 19n },
} as const;

function storeFile(): Promise<string> {
  return Promise.resolve(join(tempDir('chain-cr-'), 'commits.json'));
}

/** Submits the reveal of `commit` directly (bypassing revealPending's window check). */
function revealDirectly(harness: Harness, commit: PendingCommit): Promise<Inclusion> {
  return submitExtrinsic(
    harness.client.connection,
    harness.client.signer,
    (api) =>
      api.tx['subtensorModule']!['revealMechanismWeights']!(
        commit.netuid,
        commit.mecid,
        [...commit.uids],
        [...commit.values],
        [...commit.salt],
        commit.versionKey,
      ),
    { wait: 'inBlock', eraPeriod: 64, timeoutMs: 5_000, pollMs: 15, label: 'SubtensorModule.reveal_mechanism_weights' },
  );
}

async function eventsAt(harness: Harness, blockHash: string): Promise<string[]> {
  const records = await (await harness.client.connection.api.at(blockHash)).query['system']!['events']!();
  return (records as unknown as { event: { section: string; method: string } }[]).map((r) => `${r.event.section}.${r.event.method}`);
}

/** The weights of `{ '2': 1, '4': 3 }` as the chain stores them once revealed (max-upscaled to u16). */
async function expectWeights1to3(client: Pick<ChainClient, 'connection'>): Promise<void> {
  const weights = await client.connection.api.query['subtensorModule']!['weights']!(1, 0);
  expect(weights.toJSON()).toEqual([
    [2, 21845],
    [4, 65535],
  ]);
}

async function produceUntilHead(harness: Harness, head: bigint): Promise<void> {
  while (BigInt(harness.devnet.bestNumber()) < head) await harness.devnet.produceBlock();
}

describe.each(RUNTIMES)('commit-reveal v2 over a real WebSocket on the %s runtime (README 2.4)', { timeout: 30_000 }, (runtime) => {
  const CR = { ...BASE, runtime };
  it('commits, refuses to reveal early, survives a restart through the file store, and reveals in the window', async () => {
    const storePath = await storeFile();
    h = await startHarness(CR, 0, { commitStore: storeAt(storePath) });
    await h.devnet.produceBlock();
    const commit = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1, '5': 1 } }));
    expect(commit.kind).toBe('commit');
    expect(commit.call).toBe('SubtensorModule.commit_mechanism_weights');
    expect(commit.blockNumber).toBe(2n);
    expect(commit.reveal).toEqual(WINDOW[runtime]);
    expect(await eventsAt(h, commit.blockHash)).toContain('subtensorModule.WeightsCommitted');

    // before the window: revealPending waits and signs nothing
    const nonce = await h.nonceOf(h.client.signer.address);
    expect((await h.client.revealPending()).map((o) => o.status)).toEqual(['waiting']);
    expect(await h.nonceOf(h.client.signer.address)).toBe(nonce);

    // restart: a new client with a new store object over the same file
    const restarted = await createChainClient({
      connection: h.client.connection,
      signer: h.client.signer,
      commitStore: await reopen(storePath),
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
    });
    await produceUntilHead(h, commit.reveal!.firstBlock - 1n);
    const revealed = await h.includeNext(restarted.revealPending());
    expect(revealed.map((o) => o.status)).toEqual(['revealed']);
    const submission = revealed[0]!.submission!;
    expect(submission.kind).toBe('reveal');
    expect(submission.call).toBe('SubtensorModule.reveal_mechanism_weights');
    expect(submission.blockNumber).toBe(WINDOW[runtime].firstBlock);
    expect(submission.commitHash).toBe(commit.commitHash);
    expect(await eventsAt(h, submission.blockHash)).toEqual(expect.arrayContaining(['subtensorModule.WeightsRevealed', 'subtensorModule.WeightsSet']));
    // sum-mode u16 of {3: 1, 5: 1} is [32768, 32767]; the chain stores their max-upscale
    expect(submission.values).toEqual([32768, 32767]);
    expect(submission.stored).toEqual(maxUpscaleToU16([32768, 32767]));
    const weights = await h.client.connection.api.query['subtensorModule']!['weights']!(1, 0);
    expect(weights.toJSON()).toEqual([
      [3, 65535],
      [5, 65533],
    ]);
    expect(await storeAt(storePath).load()).toEqual([]);
    expect(await h.nonceOf(h.client.signer.address)).toBe(nonce + 1n);
  });

  it('an 11th unrevealed commit is refused by preflight with TooManyUnrevealedCommits: nothing signed, no salt kept (weights.rs:121)', async () => {
    const store = storeAt(await storeFile());
    h = await startHarness({ ...CR, tempo: 100, weightsSetRateLimit: 0n }, 0, { commitStore: store });
    await h.devnet.produceBlock();
    for (let i = 0; i < 10; i += 1) expect((await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 + i } }))).kind).toBe('commit');
    expect(await store.load()).toHaveLength(10);
    const nonce = await h.nonceOf(h.client.signer.address);
    const head = BigInt(h.devnet.bestNumber());
    await expect(h.client.setWeights({ netuid: 1, weights: { '3': 1 } })).rejects.toMatchObject({
      code: 'CHAIN_TOO_MANY_UNREVEALED_COMMITS',
      context: { stage: 'preflight', value: 10 },
    });
    expect(await h.nonceOf(h.client.signer.address)).toBe(nonce);
    expect(BigInt(h.devnet.bestNumber())).toBe(head);
    expect(h.devnet.poolSize()).toBe(0);
    expect(await store.load()).toHaveLength(10);
  });

  it('reveal too early: refused with RevealTooEarly and nothing changes (main: in the pool, 17; spec 393: reveal_mechanism_weights is not pool-guarded, so in the block)', async () => {
    const store = storeAt(await storeFile());
    h = await startHarness(CR, 0, { commitStore: store });
    await h.devnet.produceBlock();
    await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    const [pending] = await store.load();
    const nonce = await h.nonceOf(h.client.signer.address);
    if (runtime === 'stateful') {
      await expect(revealDirectly(h, pending!)).rejects.toMatchObject({
        code: 'CHAIN_COMMIT_BLOCK_NOT_IN_REVEAL_RANGE',
        context: { source: 'pool', customError: 17, stage: 'submit', retryable: true, moduleErrors: expect.arrayContaining(['RevealTooEarly']) as unknown },
      });
      expect(await h.nonceOf(h.client.signer.address)).toBe(nonce);
    } else {
      // opentensor/subtensor ab0cb2e52 extensions/subtensor.rs:125 guards only the plain reveal_weights
      await expect(h.includeNext(revealDirectly(h, pending!))).rejects.toMatchObject({
        code: 'CHAIN_REVEAL_TOO_EARLY',
        context: { source: 'module', stage: 'inclusion', chainName: 'RevealTooEarly' },
      });
      expect(await h.nonceOf(h.client.signer.address)).toBe(nonce + 1n);
    }
    expect(h.devnet.poolSize()).toBe(0);
    expect(await store.load()).toHaveLength(1); // the salt is kept: the reveal is still owed
  });

  it('reveal too late: revealPending reports expired and drops the salt; a forced reveal is refused (main: pool 17; spec 393: ExpiredWeightCommit in the block)', async () => {
    const store = storeAt(await storeFile());
    h = await startHarness({ ...CR, tempo: 5 }, 0, { commitStore: store });
    await h.devnet.produceBlock();
    const commit = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    const [pending] = await store.load();
    await produceUntilHead(h, commit.reveal!.lastBlock + 1n);
    const late = await h.client.revealPending();
    expect(late.map((o) => o.status)).toEqual(['expired']);
    expect(late[0]!.window).toBeNull();
    // still held by the chain past its window (nothing removes an unrevealed v2 commit but a later commit)
    expect(late[0]!.onChain).toBe(true);
    expect(await store.load()).toEqual([]);
    const forced = h.includeNext(revealDirectly(h, pending!));
    // main: CheckWeights rejects a commit outside its reveal epoch in the pool (guards/check_weights.rs:135);
    // spec 393 does not guard reveal_mechanism_weights, so the block refuses it
    await expect(forced).rejects.toMatchObject(
      runtime === 'stateful'
        ? { code: 'CHAIN_COMMIT_BLOCK_NOT_IN_REVEAL_RANGE', context: { source: 'pool', customError: 17 } }
        : { code: 'CHAIN_EXPIRED_WEIGHT_COMMIT', context: { source: 'module', stage: 'inclusion', chainName: 'ExpiredWeightCommit' } },
    );
  });

  it('a read that fails after the commit landed does not fail the call: the submission returns without a reveal window, the salt is kept', async () => {
    const storePath = await storeFile();
    h = await startHarness(CR, 0, { commitStore: storeAt(storePath) });
    await h.devnet.produceBlock();
    // The real connection, with the node refusing the WeightCommits read once the commit is in the pool.
    const real = h.client.connection;
    let armed = false;
    const refusing = new Proxy(real, {
      get(target, key, receiver) {
        if (key !== 'request') return Reflect.get(target, key, receiver) as unknown;
        return (label: string, ...rest: Parameters<typeof real.request>[1][]) =>
          armed && label === 'WeightCommits'
            ? Promise.reject(
                chainError('NodeRejected', 'WeightCommits: the node answered with error -32603: internal error', { source: 'client', stage: 'read' }),
              )
            : (target.request as (...a: unknown[]) => Promise<unknown>)(label, ...rest);
      },
    });
    const warnings: string[] = [];
    const client = await createChainClient({
      connection: refusing,
      signer: h.client.signer,
      commitStore: storeAt(storePath),
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
      logger: { info: () => undefined, warn: (message: string) => void warnings.push(message) },
    });
    const committing = client.setWeights({ netuid: 1, weights: { '2': 1, '4': 3 } });
    committing.catch(() => undefined);
    while (h.devnet.poolSize() === 0) await new Promise((r) => setTimeout(r, 3));
    armed = true;
    await h.devnet.produceBlock();
    const submission = await committing;
    expect(submission).toMatchObject({ kind: 'commit', reveal: null });
    expect(warnings.some((w) => w.startsWith(`the commit landed in block ${submission.blockNumber}; its reveal window could not be read`))).toBe(true);
    const saved = await storeAt(storePath).load();
    expect(saved.map((c) => [c.commitHash, c.commitBlock])).toEqual([[submission.commitHash, submission.blockNumber]]);
    // It is revealed in its window as any other.
    armed = false;
    await produceUntilHead(h, WINDOW[runtime].firstBlock - 1n);
    const revealed = await h.includeNext(client.revealPending());
    expect(revealed.map((o) => o.status)).toEqual(['revealed']);
  });

  it('a client closed while its commit waits for inclusion keeps the salt: the commit lands and a new client reveals it', async () => {
    const storePath = await storeFile();
    h = await startHarness(CR, 0, { commitStore: storeAt(storePath) });
    await h.devnet.produceBlock();
    const closing = h.client.setWeights({ netuid: 1, weights: { '2': 1, '4': 3 } });
    closing.catch(() => undefined);
    while (h.devnet.poolSize() === 0) await new Promise((r) => setTimeout(r, 3));
    // The process shuts its client down while the commit is in the pool: its outcome is not known.
    await h.client.close();
    await expect(closing).rejects.toMatchObject({ code: 'CHAIN_CLIENT_CLOSED' });
    const saved = await storeAt(storePath).load();
    expect(saved.map((c) => c.commitBlock)).toEqual([null]);
    await h.devnet.produceBlock();
    const next = await createChainClient({
      network: h.devnet.url,
      signer: h.client.signer,
      commitStore: await reopen(storePath),
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
    });
    try {
      await produceUntilHead(h, WINDOW[runtime].firstBlock - 1n);
      const revealed = await h.includeNext(next.revealPending());
      expect(revealed.map((o) => [o.status, o.commitHash])).toEqual([['revealed', saved[0]!.commitHash]]);
      await expectWeights1to3(next);
    } finally {
      await next.close();
    }
  });

  it('a restart after the commit was signed but before it was confirmed still reveals (salt saved before the commit is sent)', async () => {
    const storePath = await storeFile();
    h = await startHarness(CR, 0, { commitStore: storeAt(storePath) });
    await h.devnet.produceBlock();
    // the process "dies" while waiting for inclusion: the store already holds the unconfirmed commit
    const dying = h.client.setWeights({ netuid: 1, weights: { '2': 1, '4': 3 } });
    dying.catch(() => undefined);
    while (h.devnet.poolSize() === 0) await new Promise((r) => setTimeout(r, 3));
    const saved = await storeAt(storePath).load();
    expect(saved).toHaveLength(1);
    expect(saved[0]!.commitBlock).toBeNull();
    await h.devnet.produceBlock();
    await dying;
    const restarted = await createChainClient({
      connection: h.client.connection,
      signer: h.client.signer,
      commitStore: await reopen(storePath),
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
    });
    await produceUntilHead(h, WINDOW[runtime].firstBlock - 1n);
    const revealed = await h.includeNext(restarted.revealPending());
    expect(revealed.map((o) => o.status)).toEqual(['revealed']);
    expect(revealed[0]!.commitHash).toBe(saved[0]!.commitHash);
    await expectWeights1to3(h.client);
  });

  it("a commit that never lands keeps its salt with its era's last block: unconfirmed until the finalized chain passes that block, then expired (onChain: false) and forgotten", async () => {
    const storePath = await storeFile();
    h = await startHarness({ ...CR, finalityLag: 3 }, 0, { commitStore: storeAt(storePath), eraPeriod: 8, inclusionTimeoutMs: 300 });
    await h.devnet.produceBlock();
    // The node accepts the commit and never includes it; no block comes while the client waits, so the outcome is unknown.
    h.devnet.faults.dropNextExtrinsic();
    const error = (await h.client.setWeights({ netuid: 1, weights: { '2': 1 } }).catch((e: unknown) => e)) as {
      code: string;
      context: { mortalUntil: bigint };
    };
    expect(error.code).toBe('CHAIN_INCLUSION_TIMEOUT');
    const [kept] = await storeAt(storePath).load();
    expect(kept).toMatchObject({ commitBlock: null, mortalUntil: error.context.mortalUntil });
    const until = error.context.mortalUntil;
    expect(until).toBeGreaterThan(BigInt(h.devnet.bestNumber()));
    const statuses = async (): Promise<string[]> => (await h!.client.revealPending()).map((o) => o.status);
    // It may still land while the era lasts.
    expect(await statuses()).toEqual(['unconfirmed']);
    // The best head is past the era, the finalized one is not: a branch holding the commit could still win.
    await produceUntilHead(h, until + 1n);
    expect(BigInt(h.devnet.finalizedNumber())).toBeLessThanOrEqual(until);
    expect(await statuses()).toEqual(['unconfirmed']);
    expect(await storeAt(storePath).load()).toHaveLength(1);
    // Finality passed the era's last block without it: nothing can reveal it, the salt goes.
    while (BigInt(h.devnet.finalizedNumber()) <= until) await h.devnet.produceBlock();
    const outcomes = await h.client.revealPending();
    expect(outcomes.map((o) => [o.commitHash, o.status, o.onChain])).toEqual([[kept!.commitHash, 'expired', false]]);
    expect(await storeAt(storePath).load()).toEqual([]);
  });

  it('CHAIN_EXTRINSIC_DROPPED (the best chain at the era end) keeps the salt; revealPending forgets it once the finalized chain agrees', async () => {
    const storePath = await storeFile();
    h = await startHarness({ ...CR, finalityLag: 2 }, 0, { commitStore: storeAt(storePath), eraPeriod: 4 });
    await h.devnet.produceBlock();
    h.devnet.faults.dropNextExtrinsic();
    const error = (await h.drive(h.client.setWeights({ netuid: 1, weights: { '2': 1 } }), 30).catch((e: unknown) => e)) as {
      code: string;
      context: { mortalUntil: bigint };
    };
    expect(error.code).toBe('CHAIN_EXTRINSIC_DROPPED');
    // Before, the salt went with the error: a branch that held the commit could still have become final.
    const [kept] = await storeAt(storePath).load();
    expect(kept).toMatchObject({ commitBlock: null, mortalUntil: error.context.mortalUntil });
    while (BigInt(h.devnet.finalizedNumber()) <= error.context.mortalUntil) await h.devnet.produceBlock();
    expect((await h.client.revealPending()).map((o) => [o.commitHash, o.status, o.onChain])).toEqual([[kept!.commitHash, 'expired', false]]);
    expect(await storeAt(storePath).load()).toEqual([]);
  });

  it('a commit whose block is retracted keeps its salt (unconfirmed, not expired) and is revealed once it lands again', async () => {
    const storePath = await storeFile();
    h = await startHarness({ ...CR, finalityLag: 3 }, 0, { commitStore: storeAt(storePath) });
    await h.devnet.produceBlock();
    const landed = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '2': 1, '4': 3 } }));
    const [saved] = await storeAt(storePath).load();
    expect(saved).toMatchObject({ commitHash: landed.commitHash, commitBlock: landed.blockNumber });
    // The era's end stays after the inclusion: the commit can land again until then.
    expect(saved!.mortalUntil).toBeGreaterThan(landed.blockNumber);
    // The block holding the commit is replaced by one without it; the pool takes the commit back.
    await h.devnet.reorganize(1, [{}]);
    expect(h.devnet.poolSize()).toBe(1);
    // Before, the head's state alone made it `expired` (onChain: false) and its salt was forgotten.
    expect((await h.client.revealPending()).map((o) => [o.commitHash, o.status])).toEqual([[landed.commitHash, 'unconfirmed']]);
    expect(await storeAt(storePath).load()).toHaveLength(1);
    await h.devnet.produceBlock();
    await produceUntilHead(h, WINDOW[runtime].firstBlock - 1n);
    const revealed = await h.includeNext(h.client.revealPending());
    expect(revealed.map((o) => [o.commitHash, o.status])).toEqual([[landed.commitHash, 'revealed']]);
    await expectWeights1to3(h.client);
  });

  it('a commit the head no longer holds but the finalized state does (revealed in a block not final yet) keeps its salt until finality passes it', async () => {
    const storePath = await storeFile();
    h = await startHarness({ ...CR, finalityLag: 3 }, 0, { commitStore: storeAt(storePath), eraPeriod: 4 });
    await h.devnet.produceBlock();
    const landed = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '2': 1 } }));
    const [saved] = await storeAt(storePath).load();
    // Revealed by other code (a run that stopped before its store forgot the salt), in a block finality has not reached.
    await produceUntilHead(h, WINDOW[runtime].firstBlock - 1n);
    const reveal = await h.includeNext(revealDirectly(h, saved!));
    expect(BigInt(h.devnet.finalizedNumber())).toBeGreaterThan(saved!.mortalUntil!);
    expect(BigInt(h.devnet.finalizedNumber())).toBeLessThan(reveal.blockNumber);
    expect((await h.client.revealPending()).map((o) => [o.commitHash, o.status])).toEqual([[landed.commitHash, 'unconfirmed']]);
    // Finality passes the reveal: the finalized state no longer holds the commit either, and nothing can reveal it.
    while (BigInt(h.devnet.finalizedNumber()) < reveal.blockNumber) await h.devnet.produceBlock();
    expect((await h.client.revealPending()).map((o) => [o.status, o.onChain])).toEqual([['expired', false]]);
    expect(await storeAt(storePath).load()).toEqual([]);
  });

  it('a commit store that cannot save sends nothing: the signed commit never reaches the node and the error is the store’s', async () => {
    const refusing = { save: () => Promise.reject(new Error('disk full')), load: () => Promise.resolve([]), remove: () => Promise.resolve() };
    h = await startHarness(CR, 0, { commitStore: refusing });
    await h.devnet.produceBlock();
    const nonce = await h.nonceOf(h.client.signer.address);
    await expect(h.client.setWeights({ netuid: 1, weights: { '2': 1 } })).rejects.toThrow('disk full');
    expect(h.devnet.poolSize()).toBe(0);
    await h.devnet.produceBlock();
    expect(await h.nonceOf(h.client.signer.address)).toBe(nonce);
  });

  it('revealPending({ untilDone }) waits for a kept commit only until its era is over on the finalized chain, not until its timeout', async () => {
    const storePath = await storeFile();
    h = await startHarness({ ...CR, finalityLag: 2 }, 0, { commitStore: storeAt(storePath), eraPeriod: 8, inclusionTimeoutMs: 300 });
    await h.devnet.produceBlock();
    h.devnet.faults.dropNextExtrinsic();
    await expect(h.client.setWeights({ netuid: 1, weights: { '2': 1 } })).rejects.toMatchObject({ code: 'CHAIN_INCLUSION_TIMEOUT' });
    // Before, an unconfirmed commit kept it polling for the whole 20 s and returned it still `unconfirmed`.
    const outcomes = await h.drive(h.client.revealPending({ untilDone: true, timeoutMs: 20_000 }), 20);
    expect(outcomes.map((o) => [o.status, o.onChain])).toEqual([['expired', false]]);
    expect(await storeAt(storePath).load()).toEqual([]);
  });

  it('a kept commit whose finalized state cannot be read stays unconfirmed, with a warning, and the pass still reveals the other commits', async () => {
    const storePath = await storeFile();
    h = await startHarness(CR, 0, { commitStore: storeAt(storePath) });
    await h.devnet.produceBlock();
    const landed = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    // A kept commit whose era ended at block 1: its fate is judged on the finalized state, which this node will not serve.
    const [stored] = await storeAt(storePath).load();
    const kept = { ...stored!, commitHash: '0x' + '33'.repeat(32), commitBlock: null, mortalUntil: 1n };
    await storeAt(storePath).save(kept);
    const connection = h.client.connection;
    const failing = new Proxy(connection, {
      get(target, key, receiver) {
        if (key !== 'request') return Reflect.get(target, key, receiver) as unknown;
        return (label: string, ...rest: Parameters<typeof connection.request>[1][]) =>
          label === 'chain_getFinalizedHead'
            ? Promise.reject(chainError('RequestTimeout', 'chain_getFinalizedHead timed out', { source: 'client' }))
            : (target.request as (...a: unknown[]) => Promise<unknown>)(label, ...rest);
      },
    });
    const warnings: string[] = [];
    const client = await createChainClient({
      connection: failing,
      signer: h.client.signer,
      commitStore: storeAt(storePath),
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
      logger: { info: () => undefined, warn: (message: string) => void warnings.push(message) },
    });
    await produceUntilHead(h, WINDOW[runtime].firstBlock - 1n);
    const outcomes = await h.includeNext(client.revealPending());
    expect(outcomes.map((o) => [o.commitHash, o.status])).toEqual([
      [landed.commitHash, 'revealed'],
      [kept.commitHash, 'unconfirmed'],
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^the finalized state of netuid 1 cannot be read now \(.*timed out\); commit 0x3{64}, not held at the head, stays unconfirmed until it can$/,
      ),
    ]);
    expect((await storeAt(storePath).load()).map((c) => c.commitHash)).toEqual([kept.commitHash]);
  });

  it('revealPending reads a subnet once a pass for all its stored commits, and again after a reveal moved the head', async () => {
    const storePath = await storeFile();
    h = await startHarness(CR, 0, { commitStore: storeAt(storePath) });
    await h.devnet.produceBlock();
    const landed = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    // Two more commits of this hotkey on the same subnet that never reached the chain (kept salts).
    const [stored] = await storeAt(storePath).load();
    for (const hash of ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32)]) await storeAt(storePath).save({ ...stored!, commitHash: hash, commitBlock: null });
    const reads: string[] = [];
    const connection = h.client.connection;
    const counting = new Proxy(connection, {
      get(target, key, receiver) {
        if (key !== 'request') return Reflect.get(target, key, receiver) as unknown;
        return (label: string, ...rest: Parameters<typeof connection.request>[1][]) => {
          if (label === 'metagraph head' || label === 'WeightCommits') reads.push(label);
          return (target.request as (...a: unknown[]) => Promise<unknown>)(label, ...rest);
        };
      },
    });
    const client = await createChainClient({
      connection: counting,
      signer: h.client.signer,
      commitStore: storeAt(storePath),
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
    });
    const waiting = await client.revealPending();
    expect(waiting.map((o) => [o.commitHash, o.status])).toEqual([
      [landed.commitHash, 'waiting'],
      ['0x' + '11'.repeat(32), 'unconfirmed'],
      ['0x' + '22'.repeat(32), 'unconfirmed'],
    ]);
    expect(reads).toEqual(['metagraph head', 'WeightCommits']);
    // In the window: the landed commit is revealed, so the two after it are judged at a fresh read.
    await produceUntilHead(h, WINDOW[runtime].firstBlock - 1n);
    reads.length = 0;
    const revealed = await h.includeNext(client.revealPending());
    expect(revealed.map((o) => o.status)).toEqual(['revealed', 'unconfirmed', 'unconfirmed']);
    expect(reads).toEqual(['metagraph head', 'WeightCommits', 'metagraph head', 'WeightCommits']);
    expect(revealed[1]!.window).toBeNull();
  });
});

describe('commit-reveal v2 under the per-block epoch cap (MaxEpochsPerBlock, Subtensor main, stateful runtime)', { timeout: 30_000 }, () => {
  it('deferred epoch slots move the reveal window later: revealPending reveals after the window predicted at the commit closed, and the window it reports agrees with the chain block by block', async () => {
    const store = storeAt(await storeFile());
    h = await startHarness({ ...BASE, runtime: 'stateful' }, 0, { commitStore: store });
    await h.devnet.produceBlock();
    const commit = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    // Predicted at the commit, with no deferral yet: epoch 1 is blocks 10..19 (epochs fire at 10, 20).
    expect(commit.reveal).toEqual(WINDOW.stateful);
    // The slots due in 10, 11 and 12 are over the cap (lower netuids due with it): PendingEpochAt = 11, 12, 13,
    // and epoch 1's first run is block 13, so epoch 2 is due in 23. Extrinsics in 10..12 already see epoch 1
    // (current_epoch_with_lookahead: should_run_epoch holds there), so the window is 10..22 (weights.rs:1255-1283).
    h.devnet.deferEpochs(3);
    await produceUntilHead(h, commit.reveal!.lastBlock + 1n); // head 20: the predicted window has closed
    const [late] = await h.includeNext(h.client.revealPending());
    expect(late).toMatchObject({ status: 'revealed', window: { epoch: 1n, firstBlock: 21n, lastBlock: 22n } });
    expect(late!.submission!.blockNumber).toBe(21n);
    expect(await store.load()).toEqual([]);
  });
});
