import { connectChain } from '@subnet/chain';
import { startDevnet } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import type { ChainPort, SetWeightsOptions, SubmissionIdentity } from '../chain-port.js';
import { findWeightSubmission } from '../chain-reconcile.js';
import { devnetChainPort, startCommitRevealDevnet } from './commit-reveal-devnet.js';
import { useCleanups } from './helpers.js';

/** `setWeights` options that keep what names the signed extrinsic, as the epoch loop does before sending (G.45), in `into`. */
function keepInto(into: SubmissionIdentity[]): SetWeightsOptions {
  return {
    onSigned: (identity) => {
      into.push(identity);
      return Promise.resolve();
    },
  };
}

describe('findWeightSubmission on a real devnet (blocks, events, LastUpdate and Weights read over WebSocket)', () => {
  const cleanups = useCleanups();

  it('finds a landed set_weights after the claim head with its block, extrinsic, LastUpdate and matching weights; a window without it is not_landed once the era is over', async () => {
    const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: 100 });
    cleanups.push(() => devnet.stop());
    const chain: ChainPort = await devnetChainPort(devnet, cleanups);
    const connection = await connectChain({ network: devnet.url });
    cleanups.push(() => connection.close());
    const search = { netuid: 1, hotkey: chain.hotkey, eraPeriod: 64 };

    const claimHead = await chain.head();
    const uids = [1, 2, 3];
    const weights = [10_000, 20_000, 35_535];
    const landed = await chain.setWeights(uids, weights);
    expect(landed.call).toMatch(/^SubtensorModule\.set_(mechanism_)?weights$/);
    const found = await findWeightSubmission(connection, { ...search, fromBlock: claimHead, uids, weights });
    expect(found).toEqual({
      status: 'landed',
      block: landed.block,
      extrinsicHash: landed.extrinsicHash,
      call: landed.call,
      lastUpdate: landed.block,
      weightsMatch: true,
    });
    // Other weights than those on the chain: found (same extrinsic), but the read-back says they differ.
    const other = await findWeightSubmission(connection, { ...search, fromBlock: claimHead, uids, weights: [1, 1, 65_533] });
    expect(other.status === 'landed' && other.weightsMatch).toBe(false);

    // Nothing of ours after the landed block: not_landed once the era (here 4 blocks, + 16 of margin) is over.
    const from = landed.block;
    const deadline = Date.now() + 30_000;
    while ((await chain.head()) < from + 20n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await findWeightSubmission(connection, { ...search, eraPeriod: 4, fromBlock: from, uids, weights })).toEqual({
      status: 'not_landed',
      checkedTo: from + 20n,
    });
  }, 120_000);

  it.each(['stateful', 'legacy'] as const)(
    'a commit-reveal v2 commit carries its hash and reveal bounds, from setWeights and when found again on chain (G.22), %s runtime',
    async (runtime) => {
      const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, runtime });
      cleanups.push(() => devnet.stop());
      const chain: ChainPort = await devnetChainPort(devnet, cleanups);
      const claimHead = await chain.head();
      const uids = [1, 2, 3];
      const weights = [10_000, 20_000, 35_535];
      const landed = await chain.setWeights(uids, weights);
      expect(landed.call).toMatch(/^SubtensorModule\.commit_(mechanism_)?weights$/);
      const commit = landed.hashCommit;
      expect(commit?.commitHash).toMatch(/^0x[0-9a-f]{64}$/);
      // The predicted window (the chain epoch after the commit's, tempo 10), closed one window's length after its end.
      expect(commit !== undefined && commit.dueBlock > landed.block && commit.dueBlock <= landed.block + 22n).toBe(true);
      expect(commit !== undefined && commit.closedAfter - commit.dueBlock >= 11n && commit.closedAfter - commit.dueBlock <= 22n).toBe(true);
      expect(landed.timelock).toBeUndefined();
      // Found by a reconciliation: the hash from the extrinsic, bounded by (RevealPeriodEpochs + 2) x (tempo + 1) blocks.
      const found = await chain.findSubmission?.({ fromBlock: claimHead, uids, weights });
      expect(found).toMatchObject({
        status: 'landed',
        block: landed.block,
        hashCommit: { commitHash: commit?.commitHash, dueBlock: landed.block, closedAfter: landed.block + 3n * 11n },
      });
    },
    120_000,
  );

  it.each(['stateful', 'legacy'] as const)(
    "a v2 commit kept with its epoch is found by its hash, never another commit of the hotkey in the same blocks (the next epoch's), %s runtime",
    async (runtime) => {
      const devnet = await startCommitRevealDevnet({ commitRevealVersion: 2, runtime });
      cleanups.push(() => devnet.stop());
      const chain: ChainPort = await devnetChainPort(devnet, cleanups);
      const claimHead = await chain.head();
      const uids = [1, 2, 3];
      const weights = [10_000, 20_000, 35_535];
      // A first commit lands after the claim head (a later epoch's close, sent while this one is reconciled), then this one.
      const later = await chain.setWeights(uids, [30_000, 20_000, 15_535]);
      const own = await chain.setWeights(uids, weights);
      expect(own.block).toBeGreaterThan(later.block);
      const ownHash = own.hashCommit?.commitHash ?? '';
      expect(await chain.findSubmission?.({ fromBlock: claimHead, uids, weights, commitHash: ownHash })).toMatchObject({
        status: 'landed',
        block: own.block,
        extrinsicHash: own.extrinsicHash,
        hashCommit: { commitHash: ownHash },
      });
      // A kept hash no extrinsic carries: nothing of this epoch's landed (yet).
      const none = await chain.findSubmission?.({ fromBlock: claimHead, uids, weights, commitHash: `0x${'ab'.repeat(32)}` });
      expect(none?.status).not.toBe('landed');
    },
    120_000,
  );

  it.each(['stateful', 'legacy'] as const)(
    "a set_weights kept with its epoch before sending (G.45) is found by its extrinsic hash, dests, weights and version key, never the next epoch's set_weights that LastUpdate names, even with equal weights; weights_match reads the Weights row as it is now, %s runtime",
    async (runtime) => {
      const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: 100, runtime });
      cleanups.push(() => devnet.stop());
      const chain: ChainPort = await devnetChainPort(devnet, cleanups);
      const claimHead = await chain.head();
      const uids = [1, 2, 3];
      const weights = [10_000, 20_000, 35_535];
      // This epoch's set_weights, then the next epoch's with the same vector (sent by a restart's catch-up while this
      // one is reconciled), which LastUpdate names.
      const kept: SubmissionIdentity[] = [];
      const own = await chain.setWeights(uids, weights, keepInto(kept));
      const later = await chain.setWeights(uids, weights, keepInto([]));
      expect(later.block).toBeGreaterThan(own.block);
      const identity = kept[0];
      if (identity?.kind !== 'set') throw new Error('no set_weights identity kept');
      expect(identity).toEqual({ kind: 'set', extrinsicHash: own.extrinsicHash, uids, values: weights, versionKey: 0n });
      expect(await chain.findSubmission?.({ fromBlock: claimHead, uids, weights, identity })).toMatchObject({
        status: 'landed',
        block: own.block,
        extrinsicHash: own.extrinsicHash,
        weightsMatch: true,
      });
      // A row from before G.45 (nothing kept): the set_weights LastUpdate names, as before: the next epoch's.
      expect(await chain.findSubmission?.({ fromBlock: claimHead, uids, weights })).toMatchObject({
        status: 'landed',
        block: later.block,
        extrinsicHash: later.extrinsicHash,
      });
      // Another version key, or an extrinsic hash no block holds, than the one signed: nothing of this epoch's landed (yet).
      for (const wrong of [
        { ...identity, versionKey: 1n },
        { ...identity, extrinsicHash: `0x${'ab'.repeat(32)}` },
      ]) {
        expect((await chain.findSubmission?.({ fromBlock: claimHead, uids, weights, identity: wrong }))?.status).not.toBe('landed');
      }
      // A third set_weights with other weights replaces the Weights row: the kept identity still names this epoch's
      // extrinsic, and weights_match says the chain no longer holds its weights.
      await chain.setWeights(uids, [30_000, 20_000, 15_535]);
      expect(await chain.findSubmission?.({ fromBlock: claimHead, uids, weights, identity })).toMatchObject({
        status: 'landed',
        block: own.block,
        extrinsicHash: own.extrinsicHash,
        weightsMatch: false,
      });
    },
    120_000,
  );

  it.each(['stateful', 'legacy'] as const)(
    "a timelocked (v4) commit kept with its epoch before sending (G.45) is found by its extrinsic hash, ciphertext's hash and reveal round, never another commit of the hotkey in the same blocks (the next epoch's), %s runtime",
    async (runtime) => {
      const devnet = await startCommitRevealDevnet({ runtime, beacon: { period: 12 } });
      cleanups.push(() => devnet.stop());
      const chain: ChainPort = await devnetChainPort(devnet, cleanups);
      const claimHead = await chain.head();
      const uids = [1, 2, 3];
      const weights = [10_000, 20_000, 35_535];
      const later = await chain.setWeights(uids, [30_000, 20_000, 15_535], keepInto([]));
      const kept: SubmissionIdentity[] = [];
      const own = await chain.setWeights(uids, weights, keepInto(kept));
      expect(own.call).toMatch(/^SubtensorModule\.commit_timelocked_(mechanism_)?weights$/);
      expect(own.block).toBeGreaterThan(later.block);
      const identity = kept[0];
      if (identity?.kind !== 'timelocked') throw new Error('no timelocked identity kept');
      // What was kept before signing is the commit the chain holds: the hash its TimelockedWeightsCommitted carries.
      expect(identity.commitHash).toBe(own.timelock?.commitHash);
      expect(identity.extrinsicHash).toBe(own.extrinsicHash);
      expect(await chain.findSubmission?.({ fromBlock: claimHead, uids, weights, identity })).toMatchObject({
        status: 'landed',
        block: own.block,
        extrinsicHash: own.extrinsicHash,
        timelock: { commitHash: own.timelock?.commitHash },
      });
      // Another reveal round, ciphertext hash or extrinsic hash than the one signed: no extrinsic is it.
      for (const wrong of [
        { ...identity, revealRound: identity.revealRound + 1n },
        { ...identity, commitHash: `0x${'ab'.repeat(32)}` },
        { ...identity, extrinsicHash: later.extrinsicHash },
      ]) {
        expect((await chain.findSubmission?.({ fromBlock: claimHead, uids, weights, identity: wrong }))?.status).not.toBe('landed');
      }
    },
    120_000,
  );

  it('finality lagging: a set_weights in a block finality has not reached is pending (unfinalizedBlock once the best chain is past its era), landed once final; an empty window past its era on the best chain is not_landed with finalizedTo', async () => {
    const LAG = 30;
    const devnet = await startDevnet({ neurons: 6, validators: 2, tempo: 360, weightsSetRateLimit: 0n, blockTime: 100, finalityLag: LAG });
    cleanups.push(() => devnet.stop());
    const chain: ChainPort = await devnetChainPort(devnet, cleanups);
    const connection = await connectChain({ network: devnet.url });
    cleanups.push(() => connection.close());
    // An era of 4 blocks: the last block it can be in is the claim head + 20, reached before finality reaches the landing.
    const search = { netuid: 1, hotkey: chain.hotkey, eraPeriod: 4 };
    const untilHead = async (n: bigint): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while ((await chain.head()) < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    await untilHead(BigInt(LAG + 2));

    const claimHead = await chain.head();
    const uids = [1, 2, 3];
    const weights = [10_000, 20_000, 35_535];
    const landed = await chain.setWeights(uids, weights);
    expect(landed.finalized).toBe(false);
    const query = { ...search, fromBlock: claimHead, uids, weights };
    expect(await findWeightSubmission(connection, query)).toMatchObject({ status: 'pending' });
    await untilHead(claimHead + 21n);
    expect(BigInt(devnet.finalizedNumber())).toBeLessThan(landed.block);
    expect(await findWeightSubmission(connection, query)).toEqual({
      status: 'pending',
      checkedTo: expect.any(BigInt) as unknown,
      unfinalizedBlock: landed.block,
    });
    // A window after the landing with nothing of ours: past its era on the best chain, finality behind it.
    await untilHead(landed.block + 20n);
    const empty = await findWeightSubmission(connection, { ...query, fromBlock: landed.block });
    expect(empty).toMatchObject({ status: 'not_landed', checkedTo: landed.block + 20n });
    expect(empty.status === 'not_landed' && empty.finalizedTo !== undefined && empty.finalizedTo < landed.block + 20n).toBe(true);
    // Once finality reaches the landing block: landed there.
    const deadline = Date.now() + 30_000;
    while (BigInt(devnet.finalizedNumber()) < landed.block && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await findWeightSubmission(connection, query)).toMatchObject({ status: 'landed', block: landed.block, extrinsicHash: landed.extrinsicHash });
  }, 120_000);
});
