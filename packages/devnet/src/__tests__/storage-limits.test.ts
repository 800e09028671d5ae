import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import type { Harness } from './harness.js';
import { harness, waitFor } from './harness.js';

/** Storage, paged keys and block limits over a real WebSocket, for what the other suites leave open. */

let h: Harness;
/** One raw JSON-RPC call on its own connection: the reply's `result`, or its `error`. */
async function send(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message?: string; data?: unknown } }> {
  const ws = new WebSocket(h.devnet.url);
  await new Promise((r) => {
    ws.addEventListener('open', r);
  });
  const reply = new Promise<string>((r) => {
    ws.addEventListener('message', (m) => {
      r(m.data as string);
    });
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  const out = JSON.parse(await reply) as { result?: unknown; error?: { code: number; message?: string; data?: unknown } };
  ws.close();
  return out;
}

beforeAll(async () => {
  h = await harness({ neurons: 4, validators: 2, tempo: 10, ownerUid: 1, maxBlockExtrinsics: 3, seed: 'storage-limits' });
});
afterAll(async () => {
  await h.close();
});

describe('storage and limits', () => {
  it('serves SubnetOwnerHotkey as the owner uid hotkey', async () => {
    expect((await h.api.query.subtensorModule!.subnetOwnerHotkey!(1)).toString()).toBe(h.devnet.accounts[1]!.hotkeyAddress);
  });

  it('state_getKeysPaged takes a count from 0 to 1000 (0 gives no keys) and refuses a fraction or more', async () => {
    const prefix = h.api.query.subtensorModule!.uids!.keyPrefix(1);
    expect((await send('state_getKeysPaged', [prefix, 0])).result).toEqual([]);
    expect((await send('state_getKeysPaged', [prefix, 2])).result).toHaveLength(2);
    for (const count of [1.5, 1001, -1]) expect((await send('state_getKeysPaged', [prefix, count])).error?.code).toBe(-32602);
  });

  it('a mortal era signed at genesis (birth block 0) and expired is an ancient birth block, as one born later is', async () => {
    const genesis = await h.api.rpc.chain.getBlockHash(0);
    const signed = await h.api.tx.system!.remark!('0x33').signAsync(h.devnet.accounts[3]!.hotkey, {
      blockHash: genesis,
      era: h.api.createType('ExtrinsicEra', { current: 0, period: 4 }),
    });
    await h.devnet.produceBlocks(8);
    const answer = await send('author_submitExtrinsic', [signed.toHex()]);
    expect(answer.error).toMatchObject({ code: 1010, message: 'Invalid Transaction', data: 'Transaction has an ancient birth block' });
  });

  it('a block holds at most maxBlockExtrinsics extrinsics, the timestamp inherent included; the rest wait for the next', async () => {
    for (const uid of [0, 1, 2]) await h.api.tx.system!.remark!(`0x0${uid}`).signAndSend(h.devnet.accounts[uid]!.hotkey);
    await waitFor(() => h.devnet.poolSize() === 3);
    const first = await h.devnet.produceBlock();
    expect((await h.api.rpc.chain.getBlock(first!.hash)).block.extrinsics).toHaveLength(3);
    expect(h.devnet.poolSize()).toBe(1);
    const second = await h.devnet.produceBlock();
    expect((await h.api.rpc.chain.getBlock(second!.hash)).block.extrinsics).toHaveLength(2);
    expect(h.devnet.poolSize()).toBe(0);
  });
});
