/**
 * Where a hotkey may serve an axon, per runtime (README, `serve_axon`): Subtensor main requires the hotkey to be
 * registered on the netuid it serves (14bc6f9f9 `pallets/subtensor/src/subnets/serving.rs:300-304`,
 * `is_hotkey_registered_on_network(netuid, hotkey)`, since 6f2d9a65b), finney spec 393 only on some subnet
 * (ab0cb2e52 `subnets/serving.rs:332-336`, `is_hotkey_registered_on_any_network`). Both check it in the pool
 * (`Custom error: 10`) and again in dispatch. Read over a real WebSocket with an unmodified ApiPromise.
 */
import { describe, expect, it } from 'vitest';

import { harness, include, rejection } from './harness.js';

describe('serve_axon on a netuid the hotkey is not registered on', { timeout: 60_000 }, () => {
  it('Subtensor main (stateful): refused in the pool with Custom error 10 (HotKeyNotRegisteredInNetwork); on its own netuid it is served', async () => {
    const h = await harness({ runtime: 'stateful', neurons: 3, validators: 1 });
    try {
      const hotkey = h.devnet.accounts[1]!.hotkey;
      const serve = (netuid: number) => h.api.tx.subtensorModule!.serveAxon!(netuid, 1, 0x0a00_0001, 8091, 4, 4, 0, 0);
      expect(await rejection(serve(2), hotkey)).toMatch(/Custom error: 10/);
      const own = await include(h, serve(1), hotkey);
      expect(own.failed).toBeNull();
      expect(own.events).toContain('subtensorModule.AxonServed');
    } finally {
      await h.close();
    }
  });

  it('finney spec 393 (legacy): a hotkey registered on any subnet may serve on another netuid', async () => {
    const h = await harness({ runtime: 'legacy', neurons: 3, validators: 1 });
    try {
      const hotkey = h.devnet.accounts[1]!.hotkey;
      const served = await include(h, h.api.tx.subtensorModule!.serveAxon!(2, 1, 0x0a00_0001, 8091, 4, 4, 0, 0), hotkey);
      expect(served.failed).toBeNull();
      expect(served.events).toContain('subtensorModule.AxonServed');
    } finally {
      await h.close();
    }
  });
});
