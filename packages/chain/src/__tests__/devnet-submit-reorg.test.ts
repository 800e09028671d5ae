/**
 * `wait: 'finalized'` across a reorganisation of the unfinalised head (`devnet.reorganize`): the block that held the
 * extrinsic is replaced before finality reaches it. Re-included elsewhere: the inclusion reported is the final
 * block's. Dropped (no pool resubmits it, `retracted: 'drop'`): `CHAIN_EXTRINSIC_DROPPED` at its era's end, not a
 * `CHAIN_INCLUSION_TIMEOUT` when the wait ends. Re-included at a lower number than the replaced block (the new branch
 * forks below it): found there, not reported dropped. Real @polkadot/api over a real WebSocket.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { Harness } from './devnet-helpers.js';
import { startHarness } from './devnet-helpers.js';

const LAG = 4;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Waits until the submission found its block and polls finality (it then holds the block it saw, to be replaced). */
async function untilWaitingForFinality(harness: Harness): Promise<void> {
  const connection = harness.client.connection;
  const request = connection.request.bind(connection);
  const seen = { polls: 0 };
  connection.request = (label, run, ...rest) => {
    if (label === 'chain_getFinalizedHead') seen.polls += 1;
    return request(label, run, ...rest);
  };
  while (seen.polls === 0) await pause(3);
  connection.request = request;
}

/** Produces a block every 20 ms until `work` settles. */
async function produceUntil(harness: Harness, work: Promise<unknown>): Promise<void> {
  const state = { done: false };
  void work.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  while (!state.done) {
    await harness.devnet.produceBlock();
    await pause(20);
  }
}

describe("setWeights with wait 'finalized' when a reorganisation replaces its block", { timeout: 30_000 }, () => {
  it('re-included in another block: the submission names the final block that holds it', async () => {
    h = await startHarness({ weightsSetRateLimit: 0n, finalityLag: LAG }, 0, { eraPeriod: 16 });
    await h.devnet.produceBlocks(3);
    const work = h.client.setWeights({ netuid: 1, weights: { '1': 1, '2': 2 }, wait: 'finalized' });
    while (h.devnet.poolSize() === 0) await pause(3);
    const first = (await h.devnet.produceBlock())!;
    await untilWaitingForFinality(h);
    // The block is replaced by an empty one; the pool takes the extrinsic back and a later block holds it.
    const branch = (await h.devnet.reorganize(1, [{}, {}]))!;
    expect(branch[0]!.hash).not.toBe(first.hash);
    await produceUntil(h, work);
    const submission = await work;
    expect(submission.finalized).toBe(true);
    expect(submission.blockNumber).toBe(BigInt(first.number + 2));
    expect(submission.blockHash).toBe((await h.client.connection.api.rpc.chain.getBlockHash(first.number + 2)).toHex());
    expect(submission.blockHash).not.toBe(first.hash);
  });

  it('re-included at a lower number than the replaced block: found there (the old wait looked again only from the replaced block on)', async () => {
    h = await startHarness({ weightsSetRateLimit: 0n, finalityLag: 6 }, 0, { eraPeriod: 32, inclusionTimeoutMs: 20_000 });
    await h.devnet.produceBlocks(3);
    const start = h.devnet.bestNumber();
    // The node holds the submission back while two empty blocks are made, so the extrinsic lands at start + 3.
    h.devnet.faults.delayNextExtrinsic(400);
    const connection = h.client.connection;
    const request = connection.request.bind(connection);
    const sent = { submitted: false };
    connection.request = (label, run, ...rest) => {
      if (label === 'author_submitExtrinsic') sent.submitted = true;
      return request(label, run, ...rest);
    };
    const work = h.client.setWeights({ netuid: 1, weights: { '1': 1, '2': 2 }, wait: 'finalized' });
    while (!sent.submitted) await pause(3);
    connection.request = request;
    await h.devnet.produceBlocks(2);
    while (h.devnet.poolSize() === 0) await pause(3);
    const first = (await h.devnet.produceBlock())!;
    expect(first.number).toBe(start + 3);
    await untilWaitingForFinality(h);
    const body = await h.client.connection.api.rpc.chain.getBlock(first.hash);
    const ours = body.block.extrinsics.filter((x) => x.isSigned).map((x) => x.toHex());
    expect(ours).toHaveLength(1);
    // The new branch holds the same extrinsic in its first block, two below the replaced one.
    await h.devnet.reorganize(3, [{ extrinsics: ours }, {}, {}, {}], { retracted: 'drop' });
    await produceUntil(h, work);
    const submission = await work;
    expect(submission.finalized).toBe(true);
    expect(submission.blockNumber).toBe(BigInt(start + 1));
    expect(submission.blockHash).toBe((await h.client.connection.api.rpc.chain.getBlockHash(start + 1)).toHex());
  });

  it('dropped by the reorganisation: CHAIN_EXTRINSIC_DROPPED once its era is over (the old wait swallowed it until CHAIN_INCLUSION_TIMEOUT)', async () => {
    h = await startHarness({ weightsSetRateLimit: 0n, finalityLag: LAG }, 0, { eraPeriod: 16, inclusionTimeoutMs: 20_000 });
    await h.devnet.produceBlocks(3);
    const started = Date.now();
    const work = h.client.setWeights({ netuid: 1, weights: { '1': 1, '2': 2 }, wait: 'finalized' });
    while (h.devnet.poolSize() === 0) await pause(3);
    const first = (await h.devnet.produceBlock())!;
    await untilWaitingForFinality(h);
    await h.devnet.reorganize(1, [{}, {}], { retracted: 'drop' });
    await produceUntil(h, work);
    await expect(work).rejects.toMatchObject({ code: 'CHAIN_EXTRINSIC_DROPPED', context: { stage: 'inclusion' } });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(h.devnet.bestNumber()).toBeGreaterThan(first.number);
  });
});
