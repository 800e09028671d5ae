/**
 * `devnet.swapHotkey` / `devnet_swapHotkey` against Subtensor's `swap_hotkey` (Subtensor main 14bc6f9f9,
 * `pallets/subtensor/src/swap/swap_hotkey.rs`, `perform_hotkey_swap_on_one_subnet` at `:451-717`), read back over a
 * real WebSocket with an unmodified ApiPromise, on both runtimes. The expected values are the chain's rules written
 * out plainly: `Uids` / `Keys` name the new hotkey, the uid keeps its registration block, weights (set by it and for
 * it), `LastUpdate`, permit and stake; the axon and the subnet owner hotkey move to the new hotkey.
 */
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';

import { sendFaultRequest } from '../cli-fault.js';
import type { Harness } from './harness.js';
import { harness, harnessWithWeights, include, refusal, storageAt, storageJson } from './harness.js';

let fresh: { address: string; hex: string };
let other: { address: string; hex: string };
beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  const a = keyring.addFromUri('//swap-hotkey-test//new');
  const b = keyring.addFromUri('//swap-hotkey-test//other');
  fresh = { address: a.address, hex: u8aToHex(a.publicKey) };
  other = { address: b.address, hex: u8aToHex(b.publicKey) };
});

describe.each(['stateful', 'legacy'] as const)('swapHotkey (%s runtime)', { timeout: 60_000 }, (runtime) => {
  const query = storageAt;
  const json = storageJson;

  const withWeights = (): Promise<Harness> => harnessWithWeights(runtime);

  it('moves the neuron to the new hotkey in the next block: Uids and Keys change, the uid keeps its registration, weights, LastUpdate, permit and stake, the axon moves', async () => {
    const h = await withWeights();
    try {
      const old = h.devnet.accounts[2]!;
      const before = h.devnet.bestNumber();
      expect(h.devnet.swapHotkey(old.hotkeyAddress, fresh.address)).toEqual({ uid: 2, hotkey: u8aToHex(old.hotkey.publicKey), newHotkey: fresh.hex });
      // nothing changes before the next block
      expect((await query(h, before, 'keys', 1, 2)).toString()).toBe(old.hotkeyAddress);
      const block = (await h.devnet.produceBlock())!.number;
      expect((await query(h, block, 'keys', 1, 2)).toString()).toBe(fresh.address);
      expect(await json(h, block, 'uids', 1, fresh.address)).toBe(2);
      expect(await json(h, block, 'uids', 1, old.hotkeyAddress)).toBeNull();
      for (const item of ['blockAtRegistration'] as const) expect(await json(h, block, item, 1, 2)).toEqual(await json(h, before, item, 1, 2));
      for (const uid of [1, 2]) expect(await json(h, block, 'weights', 1, uid)).toEqual(await json(h, before, 'weights', 1, uid));
      expect(await json(h, block, 'weights', 1, 2)).toEqual([[3, 65535]]);
      for (const item of ['lastUpdate', 'validatorPermit'] as const) expect(await json(h, block, item, 1)).toEqual(await json(h, before, item, 1));
      const stake = BigInt(String(await json(h, before, 'totalHotkeyAlpha', old.hotkeyAddress, 1)));
      expect(stake).toBeGreaterThan(0n);
      expect(BigInt(String(await json(h, block, 'totalHotkeyAlpha', fresh.address, 1)))).toBe(stake);
      expect(BigInt(String(await json(h, block, 'totalHotkeyAlpha', old.hotkeyAddress, 1)))).toBe(0n);
      const axon = await json(h, before, 'axons', 1, old.hotkeyAddress);
      expect(axon).not.toBeNull();
      expect(await json(h, block, 'axons', 1, fresh.address)).toEqual(axon);
      expect(await json(h, block, 'axons', 1, old.hotkeyAddress)).toBeNull();
      expect((await query(h, block, 'owner', fresh.address)).toString()).toBe(old.coldkeyAddress);
    } finally {
      await h.close();
    }
  });

  it('the subnet owner hotkey moves with its neuron; before the pool by default (a set_weights of the old hotkey in that block is left out), after it with afterExtrinsics', async () => {
    const h = await withWeights();
    try {
      const { devnet } = h;
      const owner = devnet.accounts[0]!;
      expect((await query(h, devnet.bestNumber(), 'subnetOwnerHotkey', 1)).toString()).toBe(owner.hotkeyAddress);
      devnet.swapHotkey(owner.hotkeyAddress, other.hex);
      const block = (await devnet.produceBlock())!.number;
      expect((await query(h, block, 'subnetOwnerHotkey', 1)).toString()).toBe(other.address);
      expect((await query(h, block, 'keys', 1, 0)).toString()).toBe(other.address);

      const v1 = devnet.accounts[1]!;
      devnet.swapHotkey(v1.hotkeyAddress, fresh.address);
      // the block's own checks see the swap: the old hotkey's call is invalid there, and the block leaves it out
      await expect(include(h, h.api.tx.subtensorModule!.setWeights!(1, [2, 3], [3, 1], 0), v1.hotkey)).rejects.toThrow('Invalid');
      expect((await query(h, devnet.bestNumber(), 'keys', 1, 1)).toString()).toBe(fresh.address);
      expect(await json(h, devnet.bestNumber(), 'weights', 1, 1)).toEqual([
        [2, 65535],
        [3, 65535],
      ]);

      const h2 = await withWeights();
      try {
        const w1 = h2.devnet.accounts[1]!;
        h2.devnet.swapHotkey(w1.hotkeyAddress, fresh.address, { afterExtrinsics: true });
        const landed = await include(h2, h2.api.tx.subtensorModule!.setWeights!(1, [2, 3], [3, 1], 0), w1.hotkey);
        expect(landed.failed).toBeNull();
        const at = (await h2.api.rpc.chain.getHeader(landed.blockHash)).number.toNumber();
        // the weights the old hotkey set in the block stay with uid 1, now the new hotkey's
        expect((await query(h2, at, 'keys', 1, 1)).toString()).toBe(fresh.address);
        expect(await json(h2, at, 'weights', 1, 1)).toEqual([
          [2, 65535],
          [3, 21845],
        ]);
      } finally {
        await h2.close();
      }
    } finally {
      await h.close();
    }
  });

  it('refuses bad input with a coded error naming the field and value, and changes nothing', async () => {
    const h = await harness({ runtime, neurons: 4, validators: 2, tempo: 1000 });
    try {
      const { devnet } = h;
      const [, a1, a2, a3] = devnet.accounts;
      expect(refusal(() => devnet.swapHotkey('nope', fresh.address))).toEqual({ code: 'DEVNET_INVALID_SWAP', path: 'hotkey', value: 'nope' });
      expect(refusal(() => devnet.swapHotkey(other.address, fresh.address))).toEqual({ code: 'DEVNET_INVALID_SWAP', path: 'hotkey', value: other.address });
      expect(refusal(() => devnet.swapHotkey(a1!.hotkeyAddress, '0x12'))).toEqual({ code: 'DEVNET_INVALID_SWAP', path: 'newHotkey', value: '0x12' });
      expect(refusal(() => devnet.swapHotkey(a1!.hotkeyAddress, a1!.hotkeyAddress))).toMatchObject({ code: 'DEVNET_INVALID_SWAP', path: 'newHotkey' });
      expect(refusal(() => devnet.swapHotkey(a1!.hotkeyAddress, a3!.hotkeyAddress))).toEqual({
        code: 'DEVNET_INVALID_SWAP',
        path: 'newHotkey',
        value: a3!.hotkeyAddress,
      });
      expect(refusal(() => devnet.swapHotkey(a1!.hotkeyAddress, fresh.address, { afterExtrinsics: 'yes' } as never))).toEqual({
        code: 'DEVNET_INVALID_SWAP',
        path: 'options.afterExtrinsics',
        value: 'yes',
      });
      // one change queued: its new hotkey, or another change of its uid, is refused until it is applied
      devnet.swapHotkey(a1!.hotkeyAddress, fresh.address);
      expect(refusal(() => devnet.swapHotkey(a2!.hotkeyAddress, fresh.address))).toMatchObject({ code: 'DEVNET_INVALID_SWAP', path: 'newHotkey' });
      expect(refusal(() => devnet.swapHotkey(a1!.hotkeyAddress, other.address))).toMatchObject({ code: 'DEVNET_INVALID_SWAP', path: 'hotkey' });
      expect(refusal(() => devnet.replaceNeuron(1, other.address))).toMatchObject({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'uid', value: 1 });
      const block = (await devnet.produceBlock())!.number;
      expect((await query(h, block, 'keys', 1, 1)).toString()).toBe(fresh.address);
      for (const uid of [0, 2, 3]) expect((await query(h, block, 'keys', 1, uid)).toString()).toBe(devnet.accounts[uid]!.hotkeyAddress);
    } finally {
      await h.close();
    }
  });

  it('over the admin RPC: devnet_swapHotkey answers the uid and both hotkeys; a refusal is -32602 whose data starts with the code', async () => {
    const h = await harness({ runtime, neurons: 4, validators: 2, tempo: 1000 });
    try {
      const admin = (...params: unknown[]) => sendFaultRequest({ url: h.devnet.url, method: 'devnet_swapHotkey', params });
      const a3 = h.devnet.accounts[3]!;
      await expect(admin(a3.hotkeyAddress, fresh.hex)).resolves.toEqual({ uid: 3, hotkey: u8aToHex(a3.hotkey.publicKey), newHotkey: fresh.hex });
      await expect(admin(other.address, fresh.hex)).rejects.toThrow(/^-32602: Invalid params: DEVNET_INVALID_SWAP: .*hotkey/);
      const block = (await h.devnet.produceBlock())!.number;
      expect((await query(h, block, 'keys', 1, 3)).toString()).toBe(fresh.address);
    } finally {
      await h.close();
    }
  });
});
