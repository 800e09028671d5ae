/**
 * Issue 15 item 3: the preflight's stake is the chain's stake weight (own alpha, alpha inherited through
 * child keys, root TAO x TaoWeight), read at one block and shown in the snapshot; `stakeCheck: 'warn'` lets
 * the chain decide. Runs on both runtimes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createChainClient } from '../chain-client.js';
import type { Harness } from './devnet-helpers.js';
import { RUNTIMES, startHarness } from './devnet-helpers.js';

const U64_MAX = 2n ** 64n - 1n;
const THRESHOLD = 1_000_000_000_000n;

describe.each(RUNTIMES)('stake weight on the %s runtime', { timeout: 30_000 }, (runtime) => {
  let h: Harness;
  beforeAll(async () => {
    // uid 0: a staked validator and parent of uid 3 (half its stake); uid 3: no own stake, a permit;
    // uid 4: only root TAO (1e14 rao) weighted by TaoWeight u64::MAX / 10; uid 5: nothing at all, a permit
    h = await startHarness(
      {
        runtime,
        neurons: 6,
        validators: 1,
        ownerUid: null,
        stakeThreshold: THRESHOLD,
        weightsSetRateLimit: 0n,
        permits: [true, false, false, true, true, true],
        rootStakes: [0n, 0n, 0n, 0n, 10n ** 14n, 0n],
        taoWeight: U64_MAX / 10n,
        childKeys: [{ parent: 0, child: 3, proportion: U64_MAX / 2n }],
      },
      3,
    );
    await h.devnet.produceBlock();
  });
  afterAll(async () => {
    await h.close();
  });

  it('the snapshot shows own, inherited and root-weighted stake per uid, read at one block', async () => {
    const mg = await h.client.metagraph({ netuid: 1 });
    expect(mg.stakeSource).toBe('stake-weight');
    const parent = mg.stakeWeights[0]!;
    const child = mg.stakeWeights[3]!;
    const root = mg.stakeWeights[4]!;
    // share bits floor((2^63 - 1) * 2^32 / (2^64 - 1)) = 2147483647: the child gets floor(1e13 * 2147483647 / 2^32) =
    // floor(4999999997671.6) and the parent keeps floor(1e13 * 2147483649 / 2^32) = floor(5000000002328.3)
    expect([child.ownAlpha, child.alpha, child.total]).toEqual([0n, 4_999_999_997_671n, 4_999_999_997_671n]);
    expect(parent.alpha).toBe(5_000_000_002_328n);
    expect([root.ownTao, root.tao, root.total]).toEqual([10n ** 14n, 10n ** 14n, 9_999_999_986_030n]);
    expect(mg.stakes).toEqual(mg.stakeWeights.map((w) => w.total));
  });

  it('a child-key validator (no own stake) sets weights: the preflight and the chain both count the inherited alpha', async () => {
    const result = await h.drive(h.client.setWeights({ netuid: 1, weights: { '1': 1, '2': 1 } }));
    expect(result.kind).toBe('set');
    expect(result.uid).toBe(3);
  });

  it('a validator whose weight is root TAO x TaoWeight sets weights', async () => {
    const client = await createChainClient({ connection: h.client.connection, signer: await h.signerFor(4), pollMs: 15, inclusionTimeoutMs: 8_000 });
    const result = await h.drive(client.setWeights({ netuid: 1, weights: { '1': 1 } }));
    expect(result.uid).toBe(4);
  });

  it('below the threshold the preflight refuses before signing; stakeCheck warn logs it and lets the chain refuse (main: pool StakeAmountTooLow; spec 393: NotEnoughStakeToSetWeights in the block)', async () => {
    const signer = await h.signerFor(5);
    const strict = await createChainClient({ connection: h.client.connection, signer, pollMs: 15, inclusionTimeoutMs: 8_000 });
    const nonce = await h.nonceOf(signer.address);
    await expect(strict.setWeights({ netuid: 1, weights: { '1': 1 } })).rejects.toMatchObject({
      code: 'CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS',
      context: { stage: 'preflight', stakeSource: 'stake-weight', value: 0n, stakeWeight: { alpha: 0n, tao: 0n, total: 0n } },
    });
    const warnings: string[] = [];
    const lenient = await createChainClient({
      connection: h.client.connection,
      signer,
      pollMs: 15,
      inclusionTimeoutMs: 8_000,
      stakeCheck: 'warn',
      logger: { warn: (message, fields) => warnings.push(`${message} ${String(fields?.['code'])}`) },
    });
    // main guards every weights call by stake in the pool (guards/check_weights.rs:87); spec 393 only the plain
    // set_weights (ab0cb2e52 extensions/subtensor.rs:203), so set_mechanism_weights fails in the block
    await expect(h.drive(lenient.setWeights({ netuid: 1, weights: { '1': 1 } }))).rejects.toMatchObject(
      runtime === 'stateful'
        ? { code: 'CHAIN_STAKE_AMOUNT_TOO_LOW', context: { source: 'pool', customError: 1 } }
        : { code: 'CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS', context: { source: 'module', chainName: 'NotEnoughStakeToSetWeights' } },
    );
    expect(warnings).toEqual([expect.stringContaining('CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS')]);
    expect(await h.nonceOf(signer.address)).toBe(runtime === 'stateful' ? nonce : nonce + 1n);
  });
});
