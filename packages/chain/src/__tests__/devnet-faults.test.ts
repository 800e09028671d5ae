import { createServer } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { connectChain } from '../connection.js';
import { createChainClient } from '../chain-client.js';
import type { Harness } from './devnet-helpers.js';
import { startHarness } from './devnet-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A localhost port nobody listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 10 ms until it holds (true) or `limitMs` passes (false). */
async function until(condition: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}

async function storedWeights(harness: Harness): Promise<unknown> {
  return (await harness.client.connection.api.query['subtensorModule']!['weights']!(1, 0)).toJSON();
}

describe('faults over a real WebSocket', { timeout: 30_000 }, () => {
  it("wait: 'finalized' waits for the finality lag and reports finalized; 'inBlock' does not", async () => {
    h = await startHarness({ finalityLag: 2, weightsSetRateLimit: 0n });
    await h.devnet.produceBlock();
    const inBlock = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    expect(inBlock.finalized).toBe(false);
    expect(BigInt(h.devnet.finalizedNumber())).toBeLessThan(inBlock.blockNumber);
    const final = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '4': 1 }, wait: 'finalized' }), 3);
    expect(final.finalized).toBe(true);
    expect(BigInt(h.devnet.finalizedNumber())).toBeGreaterThanOrEqual(final.blockNumber);
    expect(BigInt(h.devnet.bestNumber())).toBeGreaterThanOrEqual(final.blockNumber + 2n);
    expect((await h.client.connection.api.rpc.chain.getBlockHash(final.blockNumber)).toHex()).toBe(final.blockHash);
  });

  it("wait: 'finalized' that never finalizes ends in CHAIN_INCLUSION_TIMEOUT naming the block, not a success", async () => {
    h = await startHarness({ finalityLag: 5 }, 0, { inclusionTimeoutMs: 700 });
    await h.devnet.produceBlock();
    const work = h.client.setWeights({ netuid: 1, weights: { '3': 1 }, wait: 'finalized' });
    await expect(h.includeNext(work)).rejects.toMatchObject({ code: 'CHAIN_INCLUSION_TIMEOUT', context: { stage: 'inclusion', blockNumber: 2n } });
  });

  it('delayNextExtrinsic: a slow pool answer is waited for, the extrinsic lands exactly once', async () => {
    h = await startHarness();
    await h.devnet.produceBlock();
    const before = await h.nonceOf(h.client.signer.address);
    h.devnet.faults.delayNextExtrinsic(400);
    const started = Date.now();
    const ok = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(ok.kind).toBe('set');
    expect(ok.nonce).toBe(before);
    expect(await h.nonceOf(h.client.signer.address)).toBe(before + 1n);
  });

  it('delayNextExtrinsic beyond the request timeout: the submission is followed on chain, never re-sent, and succeeds once', async () => {
    h = await startHarness({}, 0, { requestTimeoutMs: 1_200 });
    await h.devnet.produceBlock();
    const before = await h.nonceOf(h.client.signer.address);
    h.devnet.faults.delayNextExtrinsic(2_500);
    const ok = await h.includeNext(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    expect(ok.kind).toBe('set');
    expect(ok.stored).toEqual([65535]);
    expect(await h.nonceOf(h.client.signer.address)).toBe(before + 1n);
    expect(h.devnet.poolSize()).toBe(0);
  });

  it('head-staleness watchdog: stalled blocks make the client reconnect, then refuse to sign with CHAIN_HEAD_STALE; a new block clears it', async () => {
    // waits are conditions polled with generous limits, never fixed sleeps: on a loaded machine a head
    // notification or a reconnect can take a second; staleHeadMs leaves room for one slow block below it
    const staleHeadMs = 2_000;
    h = await startHarness({ weightsSetRateLimit: 0n }, 0, { staleHeadMs });
    const conn = h.client.connection;
    const producedAt = Date.now();
    await h.devnet.produceBlock();
    // the new head reached the client (its last head is younger than the block)
    expect(await until(() => conn.headAgeMs() < Date.now() - producedAt, 10_000)).toBe(true);
    expect(conn.headStale()).toBe(false);
    const reconnectsBefore = conn.reconnects();
    h.devnet.faults.stallBlockProduction();
    expect(await until(() => conn.headStale() && conn.reconnects() > reconnectsBefore, 20_000)).toBe(true);
    const before = await h.nonceOf(h.client.signer.address);
    await expect(h.client.setWeights({ netuid: 1, weights: { '3': 1 } })).rejects.toMatchObject({
      code: 'CHAIN_HEAD_STALE',
      context: { stage: 'submit', retryable: true },
    });
    expect(await h.nonceOf(h.client.signer.address)).toBe(before);
    expect(h.devnet.poolSize()).toBe(0);
    h.devnet.faults.resumeBlockProduction();
    await h.devnet.produceBlock();
    expect(await until(() => !conn.headStale(), 10_000)).toBe(true);
    // blocks keep coming while it runs (every 40 ms, far below staleHeadMs)
    const ok = await h.drive(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }), 40);
    expect(ok.kind).toBe('set');
  });

  it('endpoint fallback: the first endpoint is dead, the second is used', async () => {
    h = await startHarness();
    await h.devnet.produceBlock();
    const dead = `ws://127.0.0.1:${await deadPort()}`;
    const conn = await connectChain({ network: [dead, h.devnet.url], connectTimeoutMs: 5_000, initialBackoffMs: 20, maxBackoffMs: 50, staleHeadMs: 0 });
    try {
      expect(conn.endpoints).toEqual([dead, h.devnet.url]);
      expect(conn.isConnected()).toBe(true);
      const head = await conn.request('getHeader', (api) => api.rpc.chain.getHeader());
      expect(head.number.toNumber()).toBe(h.devnet.bestNumber());
      expect(conn.api.genesisHash.toHex()).toBe(h.devnet.genesisHash);
      const client = await createChainClient({ connection: conn, signer: h.client.signer, pollMs: 15, inclusionTimeoutMs: 8_000 });
      const ok = await h.includeNext(client.setWeights({ netuid: 1, weights: { '3': 1 } }));
      expect(ok.kind).toBe('set');
    } finally {
      await conn.close();
    }
  });

  it('a module error inside the block (hyperparameter changed between preflight and inclusion) is a typed ExtrinsicFailed, never a success', async () => {
    h = await startHarness({ weightsSetRateLimit: 0n, minAllowedWeights: 1 });
    await h.devnet.produceBlock();
    const cases = [
      {
        change: (): void => {
          h!.devnet.setHyperparameter('weightsVersionKey', 100n);
        },
        code: 'CHAIN_INCORRECT_WEIGHT_VERSION_KEY',
        chainName: 'IncorrectWeightVersionKey',
      },
      {
        change: (): void => {
          h!.devnet.setHyperparameter('minAllowedWeights', 5);
        },
        code: 'CHAIN_WEIGHT_VEC_LENGTH_IS_LOW',
        chainName: 'WeightVecLengthIsLow',
      },
    ];
    for (const c of cases) {
      const before = await h.nonceOf(h.client.signer.address);
      const work = h.client.setWeights({ netuid: 1, weights: { '3': 1, '4': 1 } });
      work.catch(() => undefined);
      while (h.devnet.poolSize() === 0) await sleep(3); // preflight passed, the extrinsic is in the pool
      c.change(); // applies at the start of the next block, before the extrinsic executes
      const block = await h.devnet.produceBlock();
      await expect(work).rejects.toMatchObject({
        code: c.code,
        context: {
          source: 'module',
          stage: 'inclusion',
          chainName: c.chainName,
          section: 'subtensorModule',
          blockNumber: BigInt(block!.number),
          blockHash: block!.hash,
        },
      });
      expect(await h.nonceOf(h.client.signer.address)).toBe(before + 1n); // included once (and failed), not resubmitted
      expect(await storedWeights(h)).toEqual([]);
      h.devnet.setHyperparameter('weightsVersionKey', 0n);
      h.devnet.setHyperparameter('minAllowedWeights', 1);
      await h.devnet.produceBlock();
    }
  });
});
