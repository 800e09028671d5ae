import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './devnet-helpers.js';
import { startHarness } from './devnet-helpers.js';

describe('setWeights against the devnet over a real WebSocket', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ neurons: 8, validators: 2, weightsSetRateLimit: 30n, keyType: 'sr25519' }); // the one suite that signs with sr25519 end to end
    await h.devnet.produceBlock();
  });
  afterAll(async () => {
    await h.close();
  });

  it('sets weights keyed by hotkey and uid via set_mechanism_weights, confirms WeightsSet and reads back Weights', async () => {
    const mg = await h.client.metagraph({ netuid: 1 });
    expect(mg.n).toBe(8);
    const before = await h.nonceOf(h.client.signer.address);
    const result = await h.drive(h.client.setWeights({ netuid: 1, weights: { [mg.hotkeys[3]!]: 1, '5': 3 } }));
    expect(result.kind).toBe('set');
    expect(result.call).toBe('SubtensorModule.set_mechanism_weights');
    expect(result.uids).toEqual([3, 5]);
    expect(result.values).toEqual([16384, 49151]);
    expect(result.stored).toEqual([21845, 65535]);
    expect(result.nonce).toBe(before);
    expect(await h.nonceOf(h.client.signer.address)).toBe(before + 1n);
    const stored = await h.client.connection.api.query['subtensorModule']!['weights']!(1, 0);
    expect(stored.toJSON()).toEqual([
      [3, 21845],
      [5, 65535],
    ]);
  });

  it('rejects a second set inside the rate limit before signing (CHAIN_SETTING_WEIGHTS_TOO_FAST) and nextAllowedBlock says when', async () => {
    const before = await h.nonceOf(h.client.signer.address);
    const status = await h.client.nextAllowedBlock({ netuid: 1 });
    expect(status.allowedNow).toBe(false);
    await expect(h.client.setWeights({ netuid: 1, weights: { '3': 1 } })).rejects.toMatchObject({
      code: 'CHAIN_SETTING_WEIGHTS_TOO_FAST',
      context: { stage: 'preflight', chainName: 'SettingWeightsTooFast', nextAllowedBlock: status.nextAllowedBlock },
    });
    expect(await h.nonceOf(h.client.signer.address)).toBe(before);
    for (let b = status.head + 1n; b < status.nextAllowedBlock; b += 1n) await h.devnet.produceBlock();
    expect((await h.client.nextAllowedBlock({ netuid: 1 })).allowedNow).toBe(true);
    const ok = await h.drive(h.client.setWeights({ netuid: 1, weights: { '3': 1 } }));
    expect(ok.blockNumber + 0n).toBeGreaterThanOrEqual(status.nextAllowedBlock);
  });
});
