/**
 * docs/spec.md G.33: the subnet owner's exemption from the stake and permit checks is read from the runtime version
 * at the snapshot's block, not from the epoch runtime. On Subtensor's own line the exemption came in spec 397
 * (opentensor/subtensor e7f05a051) and the stateful epochs in 423 (06032d518), so a legacy-epoch chain at 397..422
 * takes weights from an owner hotkey without stake or permit. Run against the devnet's legacy runtime at spec 393
 * and 400 and its stateful runtime, with the owner (uid 3) holding neither stake nor permit.
 */
import type { ApiPromise } from '@polkadot/api';
import { afterEach, describe, expect, it } from 'vitest';

import type { ChainConnection } from '../connection.js';
import { readMetagraph } from '../metagraph.js';
import type { Harness } from './devnet-helpers.js';
import { startHarness } from './devnet-helpers.js';

const OWNER = 3;
const ownerWithout = { neurons: 4, validators: 2, ownerUid: OWNER, stakeThreshold: 1n, weightsSetRateLimit: 0n, tempo: 1000 } as const;

describe('the owner exemption follows the runtime version read with the snapshot (G.33)', { timeout: 30_000 }, () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('legacy spec 393 (finney): preflight refuses the owner hotkey without stake before signing, as the chain would', async () => {
    h = await startHarness({ runtime: 'legacy', ...ownerWithout }, OWNER);
    const mg = await h.client.metagraph({ netuid: 1 });
    expect(mg.runtimeVersion).toEqual({ specName: 'node-subtensor', specVersion: 393 });
    const nonce = await h.nonceOf(h.client.signer.address);
    await expect(h.client.setWeights({ netuid: 1, weights: { '0': 1, '1': 1 } })).rejects.toMatchObject({
      code: 'CHAIN_NOT_ENOUGH_STAKE_TO_SET_WEIGHTS',
      context: { stage: 'preflight' },
    });
    expect(await h.nonceOf(h.client.signer.address)).toBe(nonce);
  });

  it.each([
    ['legacy', 'node-subtensor 400', 400],
    ['stateful', 'node-subtensor 425', undefined],
  ] as const)('%s runtime, %s: preflight lets the owner hotkey through and the chain takes its weights', async (runtime, read, specVersion) => {
    h = await startHarness({ runtime, ...(specVersion === undefined ? {} : { specVersion }), ...ownerWithout }, OWNER);
    const mg = await h.client.metagraph({ netuid: 1 });
    expect(`${mg.runtimeVersion.specName} ${mg.runtimeVersion.specVersion}`).toBe(read);
    expect([mg.stakes[OWNER], mg.validatorPermit[OWNER], mg.ownerHotkey]).toEqual([0n, false, h.client.signer.address]);
    const result = await h.drive(h.client.setWeights({ netuid: 1, weights: { '0': 1, '1': 1 } }));
    expect([result.kind, result.uid]).toEqual(['set', OWNER]);
    const after = await h.client.metagraph({ netuid: 1 });
    expect(after.lastUpdate[OWNER]).toBe(result.blockNumber);
  });

  it('a node that cannot serve the runtime version fails the read (CHAIN_NODE_REJECTED, naming it): nothing is judged on a guess', async () => {
    h = await startHarness({ runtime: 'legacy', specVersion: 400, ...ownerWithout }, OWNER);
    const real = h.client.connection;
    // the same api, but `state_getRuntimeVersion` answers as a node without the method would
    const refusing = (api: ApiPromise): ApiPromise => {
      const refused = (): Promise<never> => Promise.reject(new Error('-32601: Method not found'));
      const state = new Proxy(api.rpc.state, { get: (target, key) => (key === 'getRuntimeVersion' ? refused : (Reflect.get(target, key) as unknown)) });
      const rpc = new Proxy(api.rpc, { get: (target, key) => (key === 'state' ? state : (Reflect.get(target, key) as unknown)) });
      return new Proxy(api, {
        get: (target, key) => {
          if (key === 'rpc') return rpc;
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    };
    const connection: ChainConnection = { ...real, request: (label, run, ...rest) => real.request(label, (api) => run(refusing(api)), ...rest) };
    await expect(readMetagraph(connection, { netuid: 1 })).rejects.toMatchObject({
      code: 'CHAIN_NODE_REJECTED',
      context: { label: 'metagraph runtime version', rpcCode: -32601 },
    });
  });
});
