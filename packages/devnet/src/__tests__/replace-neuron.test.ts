/**
 * `devnet.replaceNeuron` / `devnet_replaceNeuron` against Subtensor's `replace_neuron` (Subtensor main 14bc6f9f9,
 * `pallets/subtensor/src/subnets/uids.rs:54-106`, `clear_neuron` at `uids.rs:23-51`), read back over a real WebSocket
 * with an unmodified ApiPromise, on both runtimes. The expected values are the chain's rules written out plainly:
 * the new hotkey in `Keys` / `Uids`, `BlockAtRegistration` (and on main `LastUpdate`) = the block of the registration, the
 * uid's own `Weights` row removed, every weight FOR it set to 0, no validator permit (main; spec 393 keeps it), the old
 * hotkey's axon gone.
 */
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';

import { sendFaultRequest } from '../cli-fault.js';
import type { Harness } from './harness.js';
import { harness, harnessWithWeights, include, refusal, storageAt, storageJson } from './harness.js';

let newcomer: { address: string; hex: string };
let newcomerCold: { address: string; hex: string };
beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  const hot = keyring.addFromUri('//replace-neuron-test//hotkey');
  const cold = keyring.addFromUri('//replace-neuron-test//coldkey');
  newcomer = { address: hot.address, hex: u8aToHex(hot.publicKey) };
  newcomerCold = { address: cold.address, hex: u8aToHex(cold.publicKey) };
});

describe.each(['stateful', 'legacy'] as const)('replaceNeuron (%s runtime)', { timeout: 60_000 }, (runtime) => {
  const query = storageAt;
  const json = storageJson;

  const withWeights = (): Promise<Harness> => harnessWithWeights(runtime);

  it('gives the uid to the new hotkey in the next block with BlockAtRegistration (on main LastUpdate too) = that block, its weights cleared, weights for it zeroed', async () => {
    const h = await withWeights();
    try {
      const before = h.devnet.bestNumber();
      const old = h.devnet.accounts[2]!;
      expect(h.devnet.replaceNeuron(2, newcomer.address, newcomerCold.address)).toEqual({ uid: 2, hotkey: newcomer.hex, coldkey: newcomerCold.hex });
      // nothing changes before the next block
      expect((await query(h, h.devnet.bestNumber(), 'keys', 1, 2)).toString()).toBe(old.hotkeyAddress);
      const block = (await h.devnet.produceBlock())!.number;
      expect(block).toBe(before + 1);

      // the block before: the old neuron, untouched
      expect((await query(h, before, 'keys', 1, 2)).toString()).toBe(old.hotkeyAddress);
      expect(await json(h, before, 'weights', 1, 1)).toEqual([
        [2, 65535],
        [3, 65535],
      ]);
      expect(await json(h, before, 'weights', 1, 2)).toEqual([[3, 65535]]);
      expect(((await json(h, before, 'validatorPermit', 1)) as boolean[])[2]).toBe(true);
      // the block of the registration
      expect((await query(h, block, 'keys', 1, 2)).toString()).toBe(newcomer.address);
      expect(await json(h, block, 'uids', 1, newcomer.address)).toBe(2);
      expect(await json(h, block, 'uids', 1, old.hotkeyAddress)).toBeNull();
      expect(await json(h, block, 'blockAtRegistration', 1, 2)).toBe(block);
      // LastUpdate of the uid: main sets it to the registration block (uids.rs:100-105); finney spec 393 leaves the
      // old neuron's, here the block of uid 2's own weights in withWeights (ab0cb2e52 uids.rs:52-97).
      const oldLastUpdate = ((await json(h, before, 'lastUpdate', 1)) as number[])[2];
      expect(oldLastUpdate).toBeGreaterThan(0);
      expect(((await json(h, block, 'lastUpdate', 1)) as number[])[2]).toBe(runtime === 'stateful' ? block : oldLastUpdate);
      // main's clear_neuron drops the permit (uids.rs:50); spec 393's leaves it to the next epoch (ab0cb2e52 uids.rs:23-49)
      expect(((await json(h, block, 'validatorPermit', 1)) as boolean[])[2]).toBe(runtime === 'legacy');
      expect(((await json(h, block, 'active', 1)) as boolean[])[2]).toBe(true);
      expect((await query(h, block, 'owner', newcomer.address)).toString()).toBe(newcomerCold.address);
      expect(BigInt(String(await json(h, block, 'totalHotkeyAlpha', newcomer.address, 1)))).toBe(0n);
      // clear_neuron: the uid's own row removed, the weight FOR it set to 0 (the entry stays), others untouched
      expect(await json(h, block, 'weights', 1, 2)).toEqual([]);
      expect(await json(h, block, 'weights', 1, 1)).toEqual([
        [2, 0],
        [3, 65535],
      ]);
      // Axons(netuid, old hotkey) removed
      expect(await json(h, before, 'axons', 1, old.hotkeyAddress)).not.toBeNull();
      expect(await json(h, block, 'axons', 1, old.hotkeyAddress)).toBeNull();
      expect(await json(h, block, 'axons', 1, newcomer.address)).toBeNull();
      // other uids keep their registration
      expect(await json(h, block, 'blockAtRegistration', 1, 3)).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('a weight set in the block of the registration has LastUpdate = BlockAtRegistration (the epoch masks it); one set a block later points at the new hotkey', async () => {
    const h = await withWeights();
    try {
      const v1 = h.devnet.accounts[1]!;
      // the registration and the weights in one block: the admin change runs before the pool's extrinsics
      h.devnet.replaceNeuron(2, newcomer.address);
      const same = await include(h, h.api.tx.subtensorModule!.setWeights!(1, [2, 3], [3, 1], 0), v1.hotkey);
      expect(same.failed).toBeNull();
      const block = h.devnet.bestNumber();
      expect(await json(h, block, 'blockAtRegistration', 1, 2)).toBe(block);
      expect(((await json(h, block, 'lastUpdate', 1)) as number[])[1]).toBe(block);
      // the owner defaults to the hotkey itself
      expect((await query(h, block, 'owner', newcomer.address)).toString()).toBe(newcomer.address);

      const later = await include(h, h.api.tx.subtensorModule!.setWeights!(1, [2, 3], [3, 1], 0), v1.hotkey);
      expect(later.failed).toBeNull();
      const next = h.devnet.bestNumber();
      expect(((await json(h, next, 'lastUpdate', 1)) as number[])[1]).toBeGreaterThan(block);
      expect((await query(h, next, 'keys', 1, 2)).toString()).toBe(newcomer.address);
      expect(await json(h, next, 'weights', 1, 1)).toEqual([
        [2, 65535],
        [3, 21845],
      ]);
    } finally {
      await h.close();
    }
  });

  it('with afterExtrinsics, applies after the pool: a weight set in that block lands (WeightsSet of the uid) and is then removed with the uid', async () => {
    const h = await withWeights();
    try {
      const v1 = h.devnet.accounts[1]!;
      h.devnet.replaceNeuron(1, newcomer.address, undefined, { afterExtrinsics: true });
      const same = await include(h, h.api.tx.subtensorModule!.setWeights!(1, [2, 3], [3, 1], 0), v1.hotkey);
      expect(same.failed).toBeNull();
      expect(same.events).toContain('subtensorModule.WeightsSet');
      const block = (await h.api.rpc.chain.getHeader(same.blockHash)).number.toNumber();
      const at = await h.api.at(same.blockHash);
      const set = ((await at.query.system!.events!()) as unknown as { event: { method: string; data: { toJSON(): unknown } } }[]).filter(
        (r) => r.event.method === 'WeightsSet',
      );
      expect(set.map((r) => r.event.data.toJSON())).toEqual([[1, 1]]);
      // the state after the block: uid 1 is the newcomer's, registered in it, and has no weights
      expect(await json(h, block - 1, 'uids', 1, v1.hotkeyAddress)).toBe(1);
      expect(await json(h, block, 'uids', 1, v1.hotkeyAddress)).toBeNull();
      expect((await query(h, block, 'keys', 1, 1)).toString()).toBe(newcomer.address);
      expect(await json(h, block, 'blockAtRegistration', 1, 1)).toBe(block);
      expect(await json(h, block, 'weights', 1, 1)).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('refuses bad input with a coded error naming the field and value, and changes nothing', async () => {
    const h = await harness({ runtime, neurons: 4, validators: 2, tempo: 1000 });
    try {
      const { devnet } = h;
      for (const uid of [4, -1, 1.5, Number.NaN]) {
        expect(refusal(() => devnet.replaceNeuron(uid, newcomer.address))).toEqual({ code: 'DEVNET_INVALID_UID', path: 'uid', value: uid });
      }
      expect(refusal(() => devnet.replaceNeuron(2, 'not-an-address'))).toEqual({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'hotkey', value: 'not-an-address' });
      expect(refusal(() => devnet.replaceNeuron(2, '0x1234'))).toEqual({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'hotkey', value: '0x1234' });
      expect(refusal(() => devnet.replaceNeuron(2, newcomer.address, 'cold'))).toEqual({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'coldkey', value: 'cold' });
      const registered = devnet.accounts[3]!.hotkeyAddress;
      expect(refusal(() => devnet.replaceNeuron(2, registered))).toEqual({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'hotkey', value: registered });
      expect(refusal(() => devnet.replaceNeuron(2, newcomer.address, undefined, { afterExtrinsics: 'yes' } as never))).toEqual({
        code: 'DEVNET_INVALID_REPLACEMENT',
        path: 'options.afterExtrinsics',
        value: 'yes',
      });
      expect(refusal(() => devnet.replaceNeuron(2, newcomer.address, undefined, 1 as never))).toEqual({
        code: 'DEVNET_INVALID_REPLACEMENT',
        path: 'options',
        value: 1,
      });
      // uid 0 holds the subnet owner hotkey: replace_neuron skips it (uids.rs:67-76)
      expect(refusal(() => devnet.replaceNeuron(0, newcomer.address))).toEqual({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'uid', value: 0 });
      // one replacement queued: the same hotkey or uid again is refused until it is applied
      devnet.replaceNeuron(2, newcomer.address);
      expect(refusal(() => devnet.replaceNeuron(3, newcomer.address))).toMatchObject({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'hotkey' });
      expect(refusal(() => devnet.replaceNeuron(2, newcomerCold.address))).toMatchObject({ code: 'DEVNET_INVALID_REPLACEMENT', path: 'uid', value: 2 });
      const block = (await devnet.produceBlock())!.number;
      expect((await query(h, block, 'keys', 1, 2)).toString()).toBe(newcomer.address);
      for (const uid of [0, 1, 3]) expect((await query(h, block, 'keys', 1, uid)).toString()).toBe(devnet.accounts[uid]!.hotkeyAddress);
    } finally {
      await h.close();
    }
  });

  it('over the admin RPC: devnet_replaceNeuron answers the new holder; a refusal is -32602 whose data starts with the code', async () => {
    const h = await harness({ runtime, neurons: 4, validators: 2, tempo: 1000 });
    try {
      const admin = (...params: unknown[]) => sendFaultRequest({ url: h.devnet.url, method: 'devnet_replaceNeuron', params });
      await expect(admin(3, newcomer.hex)).resolves.toEqual({ uid: 3, hotkey: newcomer.hex, coldkey: newcomer.hex });
      await expect(admin(9, newcomerCold.address)).rejects.toThrow(/^-32602: Invalid params: DEVNET_INVALID_UID: .*uid/);
      await expect(admin(2, 'nope')).rejects.toThrow(/^-32602: Invalid params: DEVNET_INVALID_REPLACEMENT: .*hotkey.*"nope"/);
      await expect(admin(2, newcomerCold.hex, null, { afterExtrinsics: 1 })).rejects.toThrow(
        /^-32602: Invalid params: DEVNET_INVALID_REPLACEMENT: .*options\.afterExtrinsics/,
      );
      await expect(admin(2, newcomerCold.hex, null, { afterExtrinsics: true })).resolves.toEqual({
        uid: 2,
        hotkey: newcomerCold.hex,
        coldkey: newcomerCold.hex,
      });
      const block = (await h.devnet.produceBlock())!.number;
      expect((await query(h, block, 'keys', 1, 3)).toString()).toBe(newcomer.address);
      expect(await json(h, block, 'blockAtRegistration', 1, 3)).toBe(block);
      expect((await query(h, block, 'keys', 1, 2)).toString()).toBe(newcomerCold.address);
    } finally {
      await h.close();
    }
  });
});
