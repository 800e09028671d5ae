import { u8aToHex } from '@polkadot/util';
import { blake2AsHex } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { startDevnet } from '../devnet.js';
import type { Harness } from './harness.js';
import { harness, include, waitFor } from './harness.js';

let h: Harness;

async function rawRpc(url: string, payload: string): Promise<unknown> {
  const ws = new WebSocket(url);
  await new Promise((r) => {
    ws.addEventListener('open', r);
  });
  const reply = new Promise<unknown>((r) => {
    ws.addEventListener('message', (m) => {
      r(JSON.parse(m.data as string));
    });
  });
  ws.send(payload);
  const out = await reply;
  ws.close();
  return out;
}

beforeAll(async () => {
  h = await harness({ neurons: 4, validators: 2, finalityLag: 2, tempo: 10, seed: 'surface' });
});
afterAll(async () => {
  await h.close();
});

describe('JSON-RPC surface used by @polkadot/api', () => {
  it('answers rpc_methods and system_* like a Subtensor node', async () => {
    const methods = (await h.api.rpc.rpc.methods()).methods.map((m) => m.toString());
    for (const m of ['system_accountNextIndex', 'chain_subscribeFinalizedHeads', 'state_queryStorageAt', 'author_submitAndWatchExtrinsic', 'state_call']) {
      expect(methods).toContain(m);
    }
    expect((await h.api.rpc.system.chain()).toString()).toBe('Bittensor Devnet');
    expect((await h.api.rpc.system.properties()).ss58Format.unwrap().toNumber()).toBe(42);
    expect((await h.api.rpc.system.health()).isSyncing.isFalse).toBe(true);
    expect(h.api.registry.chainDecimals).toEqual([9]);
  });

  it('serves constants and storage from the metadata', async () => {
    expect(h.api.runtimeVersion.specVersion.toNumber()).toBeGreaterThan(0);
    expect((await h.api.query.subtensorModule!.tempo!(1)).toString()).toBe('10');
    expect((await h.api.query.subtensorModule!.subnetworkN!(1)).toString()).toBe('4');
    const uid = await h.api.query.subtensorModule!.uids!(1, h.devnet.accounts[2]!.hotkeyAddress);
    expect(uid.toJSON()).toBe(2);
    expect((await h.api.query.subtensorModule!.keys!(1, 3)).toString()).toBe(h.devnet.accounts[3]!.hotkeyAddress);
    expect((await h.api.query.subtensorModule!.validatorPermit!(1)).toJSON()).toEqual([true, true, false, false]);
    const keys = await h.api.query.subtensorModule!.uids!.keysPaged({ args: [1], pageSize: 2 });
    expect(keys).toHaveLength(2);
    const all = await h.api.query.subtensorModule!.uids!.entries(1);
    expect(all.map(([, v]) => v.toJSON()).sort()).toEqual([0, 1, 2, 3]);
  });

  it('block hash = blake2_256(SCALE header); timestamps are genesisTimestamp + n * slotDuration', async () => {
    await h.devnet.produceBlocks(2);
    const hash = await h.api.rpc.chain.getBlockHash(2);
    const header = await h.api.rpc.chain.getHeader(hash);
    expect(blake2AsHex(header.toU8a(), 256)).toBe(hash.toHex());
    const block = await h.api.rpc.chain.getBlock(hash);
    expect(block.block.extrinsics[0]!.method.section).toBe('timestamp');
    const now = await (await h.api.at(hash)).query.timestamp!.now!();
    expect(now.toString()).toBe(String(1_735_689_600_000 + 2 * 12_000));
  });

  it('new heads and finalized heads subscriptions follow the finality lag', async () => {
    const best: number[] = [];
    const fin: number[] = [];
    const u1 = await h.api.rpc.chain.subscribeNewHeads((x) => {
      best.push(x.number.toNumber());
    });
    const u2 = await h.api.rpc.chain.subscribeFinalizedHeads((x) => {
      fin.push(x.number.toNumber());
    });
    await waitFor(() => best.length === 1 && fin.length === 1);
    const start = h.devnet.bestNumber();
    await h.devnet.produceBlocks(3);
    await waitFor(() => best.includes(start + 3) && fin.includes(start + 1));
    expect(best).toEqual([start, start + 1, start + 2, start + 3]);
    expect(fin.at(-1)).toBe(start + 1);
    expect((await h.api.rpc.chain.getHeader(await h.api.rpc.chain.getFinalizedHead())).number.toNumber()).toBe(start + 1);
    u1();
    u2();
  });

  it('storage subscriptions report changes; queryStorageAt and state_call answer at a block', async () => {
    const seen: string[] = [];
    const unsub = (await h.api.query.subtensorModule!.weights!(1, 1, (w: { toJSON(): unknown }) => {
      seen.push(JSON.stringify(w.toJSON()));
    })) as unknown as () => void;
    await waitFor(() => seen.length === 1);
    h.devnet.setHyperparameter('weightsSetRateLimit', 0n);
    await h.devnet.produceBlock();
    const r = await include(h, h.api.tx.subtensorModule!.setWeights!(1, [2, 3], [1, 1], 0), h.devnet.accounts[1]!.hotkey);
    expect(r.failed).toBeNull();
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual(['[]', '[[2,65535],[3,65535]]']);
    unsub();
    const out = await h.api.rpc.state.call('SubnetInfoRuntimeApi_get_next_epoch_start_block', u8aToHex(h.api.createType('u16', 1).toU8a()));
    const head = h.devnet.bestNumber();
    expect(h.api.createType('Option<u64>', out.toU8a(true)).unwrap().toNumber()).toBe(Math.floor(head / 10) * 10 + 10);
    const nonce = await h.api.call.accountNonceApi!.accountNonce!(h.devnet.accounts[1]!.hotkeyAddress);
    expect(nonce.toString()).toBe('1');
  });

  it('returns JSON-RPC errors with proper codes', async () => {
    expect(await rawRpc(h.devnet.url, '{oops')).toMatchObject({ error: { code: -32700 } });
    expect(await rawRpc(h.devnet.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'nope_nothing', params: [] }))).toMatchObject({
      id: 1,
      error: { code: -32601 },
    });
    expect(
      await rawRpc(h.devnet.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'state_getStorage', params: ['0x00', `0x${'12'.repeat(32)}`] })),
    ).toMatchObject({
      id: 2,
      error: { code: 4001 },
    });
  });
});

describe('determinism', () => {
  it('same seed and same extrinsics give the same genesis and block hashes; another seed another chain', async () => {
    const run = async (seed: string) => {
      const d = await startDevnet({ seed, neurons: 3, validators: 1 });
      const hashes = [d.genesisHash, ...(await d.produceBlocks(3)).map((b) => b.hash)];
      const hotkey = d.accounts[0]!.hotkeyAddress;
      await d.stop();
      return { hashes, hotkey };
    };
    const a = await run('alpha');
    const b = await run('alpha');
    const c = await run('beta');
    expect(b).toEqual(a);
    expect(c.hashes[0]).not.toBe(a.hashes[0]);
    expect(c.hotkey).not.toBe(a.hotkey);
  });
});
