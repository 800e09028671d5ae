/**
 * `confirmTimelockedReveal` follows a commit's queue block by block. A validator asks again on every pass until the
 * commit leaves its queue (about one epoch), so each check must read only the blocks produced since the last one:
 * re-reading from the commit block made an hour of waiting cost O(n^2) requests. Counted on the wire, over a real
 * WebSocket, with @polkadot/api's own provider statistics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createChainClient } from '../chain-client.js';
import type { TimelockedCommitRecord } from '../timelock-commit.js';
import type { Harness } from './devnet-helpers.js';
import { startHarness } from './devnet-helpers.js';

const TEMPO = 60;
const BLOCKS_PER_CHECK = 12;

describe('confirmTimelockedReveal reads each block once across checks (stateful runtime)', { timeout: 60_000 }, () => {
  let h: Harness;
  let record: TimelockedCommitRecord;
  beforeAll(async () => {
    h = await startHarness({ neurons: 8, validators: 4, tempo: TEMPO, commitReveal: true, weightsSetRateLimit: 0n, beacon: { period: 12 } });
    await h.devnet.produceBlock();
    const committed = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '2': 1, '3': 3 }, waitForReveal: false }));
    record = committed.timelock!.record;
  });
  afterAll(async () => {
    await h.close();
  });

  /** Requests sent over the socket (the provider's total minus those answered from its cache). */
  const wireRequests = (): number => {
    const total = h.client.connection.api.stats?.total;
    if (total === undefined) throw new Error('the provider keeps no statistics');
    return total.requests - total.cached;
  };

  /** One check that finds the commit still queued (timeout 0: one pass over the new blocks), and its cost. */
  const pendingCheck = async (): Promise<number> => {
    const before = wireRequests();
    await expect(h.client.confirmTimelockedReveal(record, { timeoutMs: 0 })).rejects.toMatchObject({ code: 'CHAIN_TIMELOCK_REVEAL_TIMEOUT' });
    return wireRequests() - before;
  };

  it('a later check costs what the first one did for the same number of new blocks, not more as the wait grows', async () => {
    const costs: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      await h.devnet.produceBlocks(BLOCKS_PER_CHECK);
      costs.push(await pendingCheck());
    }
    expect(h.devnet.bestNumber()).toBeLessThan(Number(record.prediction!.revealBlock)); // all four found it queued
    // each check reads its BLOCKS_PER_CHECK new blocks (at least one request each) ...
    for (const cost of costs) expect(cost).toBeGreaterThanOrEqual(BLOCKS_PER_CHECK);
    // ... and nothing it read before: the fourth check (4 x BLOCKS_PER_CHECK blocks after the commit) costs at most one
    // request more than the first (the hash of the last block read, to notice a reorganisation; the first reads the
    // commit's queue at the commit block instead); re-walking from the commit block cost about 4 times the first.
    // (measured: 50, 51, 51, 51 requests; 52, 62, 74, 86 when every check walked again from the commit block, and
    // more once the provider's cache is full)
    for (const cost of costs.slice(1)) expect(cost).toBeLessThanOrEqual(costs[0]! + 1);
  });

  it('the outcome is the one a walk from the commit block gives: the same reveal block as a client that never checked before', async () => {
    const incremental = await h.drive(h.client.confirmTimelockedReveal(record), 15);
    const fresh = await createChainClient({ network: h.devnet.url, signer: h.client.signer, staleHeadMs: 0, pollMs: 15 });
    try {
      const fromScratch = await fresh.confirmTimelockedReveal(record, { timeoutMs: 5_000 });
      expect(fromScratch.blockNumber).toBe(incremental.blockNumber);
      expect(fromScratch.blockHash).toBe(incremental.blockHash);
      expect(incremental.blockNumber).toBeGreaterThanOrEqual(record.prediction!.revealBlock);
      expect(incremental.stored).toEqual([21845, 65535]);
      // asked again after the reveal: only the reveal block is read again, and the answer is the same
      const before = wireRequests();
      const again = await h.client.confirmTimelockedReveal(record, { timeoutMs: 0 });
      expect(again.blockNumber).toBe(incremental.blockNumber);
      expect(wireRequests() - before).toBeLessThan(BLOCKS_PER_CHECK);
    } finally {
      await fresh.close();
    }
  });

  it('two checks of one commit running at once each read every block (no block skipped between them)', async () => {
    const committed = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '4': 1 }, waitForReveal: false }));
    const second = committed.timelock!.record;
    await h.devnet.produceBlocks(BLOCKS_PER_CHECK);
    // one check first, so both later checks resume from what it stored
    await expect(h.client.confirmTimelockedReveal(second, { timeoutMs: 0 })).rejects.toMatchObject({ code: 'CHAIN_TIMELOCK_REVEAL_TIMEOUT' });
    await h.devnet.produceBlocks(BLOCKS_PER_CHECK);
    const [a, b] = await h.drive(Promise.all([h.client.confirmTimelockedReveal(second), h.client.confirmTimelockedReveal(second)]), 15);
    expect(a.blockNumber).toBe(b.blockNumber);
    // the commit left its queue in that block and not before: it is still queued in the block before
    const before = await h.client.connection.api.at(await h.client.connection.api.rpc.chain.getBlockHash(a.blockNumber - 1n));
    const queued = (await before.query['subtensorModule']!['timelockedWeightCommits']!(1, a.commitEpoch)).toJSON() as unknown[];
    expect(queued.length).toBeGreaterThan(0);
    expect(a.stored).toEqual([65535]);
  });
});
