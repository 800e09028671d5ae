/**
 * Issue 15 item 6: the metagraph a validator needs, read at one block, with axons set at genesis and by the
 * `serve_axon` extrinsic (fields as in subtensor's pallet). Runs on both runtimes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { submitExtrinsic } from '../submit-extrinsic.js';
import type { Harness } from './devnet-helpers.js';
import { RUNTIMES, startHarness } from './devnet-helpers.js';

describe.each(RUNTIMES)('metagraph on the %s runtime', { timeout: 30_000 }, (runtime) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      runtime,
      neurons: 4,
      validators: 2,
      servingRateLimit: 2n,
      axons: [{ ip: '203.0.113.7', port: 8091, protocol: 4, version: 901 }, null, { ip: 2n ** 127n + 1n, port: 9000, version: 3 }, null],
    });
    await h.devnet.produceBlock();
  });
  afterAll(async () => {
    await h.close();
  });

  it('per neuron: hotkey, coldkey, uid, stake weight, permit, last update, registration block, axon; metrics where the runtime has them', async () => {
    const mg = await h.client.metagraph({ netuid: 1 });
    expect(mg.hotkeys).toEqual(h.devnet.accounts.map((a) => a.hotkeyAddress));
    expect(mg.coldkeys).toEqual(h.devnet.accounts.map((a) => a.coldkeyAddress));
    expect(mg.validatorPermit).toEqual([true, true, false, false]);
    expect(mg.blockAtRegistration).toEqual([0n, 0n, 0n, 0n]);
    expect(mg.axons[0]).toEqual({ block: 0n, version: 901, ip: 3_405_803_783n, ipText: '203.0.113.7', port: 8091, ipType: 4, protocol: 4 });
    expect(mg.axons[1]).toBeNull();
    expect(mg.axons[2]).toMatchObject({ ipType: 6, port: 9000, version: 3, ipText: '8000::1' });
    for (const list of [mg.incentive, mg.dividends, mg.trust, mg.consensus]) expect(list).toEqual([0, 0, 0, 0]);
  });

  it('serve_axon stores (block, version, ip, port, ip_type, protocol) and emits AxonServed; the pool refuses a zero port and the serving rate limit', async () => {
    const api = h.client.connection.api;
    const serve = (port: number) =>
      h.includeNext(
        submitExtrinsic(h.client.connection, h.client.signer, (a) => a.tx['subtensorModule']!['serveAxon']!(1, 7, 0x0a00_0001, port, 4, 4, 0, 0), {
          wait: 'inBlock',
          eraPeriod: 64,
          timeoutMs: 8_000,
          pollMs: 15,
          label: 'SubtensorModule.serve_axon',
        }),
      );
    const served = await serve(8092);
    expect(served.events.map((e) => `${e.section}.${e.method}`)).toContain('subtensorModule.AxonServed');
    const mg = await h.client.metagraph({ netuid: 1 });
    expect(mg.axons[0]).toEqual({ block: served.blockNumber, version: 7, ip: 0x0a00_0001n, ipText: '10.0.0.1', port: 8092, ipType: 4, protocol: 4 });
    await expect(serve(8093)).rejects.toMatchObject({ code: 'CHAIN_SERVING_RATE_LIMIT_EXCEEDED', context: { source: 'pool', customError: 12 } });
    await h.devnet.produceBlocks(2);
    await expect(serve(0)).rejects.toMatchObject({ code: 'CHAIN_INVALID_PORT', context: { source: 'pool', customError: 13 } });
    expect(api.isConnected).toBe(true);
  });
});
