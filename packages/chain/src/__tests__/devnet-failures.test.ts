import { POOL_ERRORS } from '@subnet/devnet';
import { afterEach, describe, expect, it } from 'vitest';

import { createChainClient } from '../chain-client.js';
import { loadSigner } from '../keys.js';
import type { Harness } from './devnet-helpers.js';
import { startHarness } from './devnet-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function expectNoSubmission(harness: Harness, work: Promise<unknown>, code: string): Promise<void> {
  const before = await harness.nonceOf(harness.client.signer.address);
  await expect(work).rejects.toMatchObject({ code, context: { stage: 'preflight' } });
  expect(await harness.nonceOf(harness.client.signer.address)).toBe(before);
}

describe('every failure is typed and nothing is signed when preflight fails', { timeout: 30_000 }, () => {
  it('version key too low, duplicate uids, too few weights, unregistered hotkey, no permit', async () => {
    h = await startHarness({ weightsVersionKey: 7n, minAllowedWeights: 3 });
    await h.devnet.produceBlock();
    await expectNoSubmission(h, h.client.setWeights({ netuid: 1, weights: { '1': 1, '2': 1, '3': 1 }, versionKey: 6 }), 'CHAIN_INCORRECT_WEIGHT_VERSION_KEY');
    const mg = await h.client.metagraph({ netuid: 1 });
    await expect(
      h.client.setWeights({
        netuid: 1,
        weights: new Map<number | string, number>([
          [2, 1],
          [mg.hotkeys[2]!, 1],
        ]),
      }),
    ).rejects.toMatchObject({ code: 'CHAIN_DUPLICATE_UIDS' });
    await expectNoSubmission(h, h.client.setWeights({ netuid: 1, weights: { '1': 1, '2': 1 } }), 'CHAIN_WEIGHT_VEC_LENGTH_IS_LOW');
    const bob = await createChainClient({ connection: h.client.connection, signer: await loadSigner({ kind: 'uri', uri: '//Bob', keyType: 'ed25519' }) });
    await expect(bob.setWeights({ netuid: 1, weights: { '1': 1, '2': 1, '3': 1 } })).rejects.toMatchObject({ code: 'CHAIN_HOT_KEY_NOT_REGISTERED_IN_SUB_NET' });
    h.devnet.setStake(4, 10_000_000_000_000n);
    await h.devnet.produceBlock();
    const noPermit = await createChainClient({ connection: h.client.connection, signer: await h.signerFor(4) });
    await expect(noPermit.setWeights({ netuid: 1, weights: { '1': 1, '2': 1, '3': 1 } })).rejects.toMatchObject({ code: 'CHAIN_NEURON_NO_VALIDATOR_PERMIT' });
  });

  it('maps pool rejections (Custom error: 6) and retries a stale nonce once without double submission', async () => {
    h = await startHarness();
    await h.devnet.produceBlock();
    h.devnet.faults.rejectNextSubmission(POOL_ERRORS.custom(6));
    await expect(h.drive(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }))).rejects.toMatchObject({
      code: 'CHAIN_RATE_LIMIT_EXCEEDED',
      context: { customError: 6, source: 'pool' },
    });
    h.devnet.faults.rejectNextSubmission(POOL_ERRORS.stale);
    const before = await h.nonceOf(h.client.signer.address);
    const ok = await h.drive(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    expect(ok.kind).toBe('set');
    expect(await h.nonceOf(h.client.signer.address)).toBe(before + 1n);
  });

  it('survives a connection dropped mid-submission: finds the extrinsic after reconnecting, exactly once', async () => {
    // Reconnecting can take seconds on a loaded machine: give each request room to outlast it.
    h = await startHarness({}, 0, { requestTimeoutMs: 30_000 });
    await h.devnet.produceBlock();
    const before = await h.nonceOf(h.client.signer.address);
    const work = h.client.setWeights({ netuid: 1, weights: { '3': 1 } });
    // Drop every connection once the node holds the extrinsic and before any block includes it: the
    // client cannot know whether its submission arrived, and must find it rather than send it again.
    const deadline = Date.now() + 30_000;
    while (h.devnet.poolSize() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(h.devnet.poolSize()).toBe(1);
    h.devnet.faults.dropConnections();
    const ok = await h.drive(work, 40);
    expect(ok.kind).toBe('set');
    expect(await h.nonceOf(h.client.signer.address)).toBe(before + 1n);
  });

  it('reports stalled blocks as CHAIN_INCLUSION_TIMEOUT and a dropped extrinsic as CHAIN_EXTRINSIC_DROPPED', async () => {
    h = await startHarness({ weightsSetRateLimit: 0n }, 0, { inclusionTimeoutMs: 600, eraPeriod: 4 });
    await h.devnet.produceBlock();
    h.devnet.faults.stallBlockProduction();
    await expect(h.client.setWeights({ netuid: 1, weights: { '3': 1 } })).rejects.toMatchObject({ code: 'CHAIN_INCLUSION_TIMEOUT' });
    h.devnet.faults.resumeBlockProduction();
    h.devnet.faults.reset();
    await h.devnet.produceBlocks(5);
    h.devnet.faults.dropNextExtrinsic();
    await expect(h.drive(h.client.setWeights({ netuid: 1, weights: { '4': 1 } }), 50)).rejects.toMatchObject({ code: 'CHAIN_EXTRINSIC_DROPPED' });
  });

  it('fails with CHAIN_TIMELOCK_REQUIRED before signing when the subnet needs a timelocked version other than 4', async () => {
    h = await startHarness({ commitReveal: true, commitRevealVersion: 3 });
    await h.devnet.produceBlock();
    await expectNoSubmission(h, h.client.setWeights({ netuid: 1, weights: { '3': 1 } }), 'CHAIN_TIMELOCK_REQUIRED');
  });
});

describe('node rejections are final and keep their code and message (issue 15)', { timeout: 30_000 }, () => {
  for (const [code, message] of [
    [1001, 'Extrinsic has invalid format: failed to decode'],
    [1002, 'Verification Error: Runtime error: Execution failed: wasm trap'],
    [-32603, 'Internal error'],
  ] as const) {
    it(`RPC ${code} on submission is CHAIN_NODE_REJECTED at once (not "dropped, safe to retry" after the era)`, async () => {
      h = await startHarness({ weightsSetRateLimit: 0n });
      await h.devnet.produceBlock();
      h.devnet.faults.rejectNextSubmission({ code, message });
      const started = Date.now();
      await expect(h.client.setWeights({ netuid: 1, weights: { '3': 1 } })).rejects.toMatchObject({
        code: 'CHAIN_NODE_REJECTED',
        context: { source: 'client', stage: 'submit', rpcCode: code, rpcMessage: expect.stringContaining(message) as unknown, retryable: false },
      });
      expect(Date.now() - started).toBeLessThan(5_000); // no block was waited for
      expect(h.devnet.poolSize()).toBe(0);
    });
  }

  it('a read the node answers with an RPC error is typed (CHAIN_NODE_REJECTED), never a plain Error', async () => {
    h = await startHarness();
    const error = await h.client.connection
      .request('state_call bogus', (api) => api.rpc.state.call('NoSuchApi_method', '0x'))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ code: 'CHAIN_NODE_REJECTED', context: { stage: 'read', rpcCode: expect.any(Number) as unknown } });
  });
});
