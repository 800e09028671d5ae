/**
 * `devnet.reorganize`: the unfinalised head replaced by a branch from the same parent, as finney reorganises the
 * blocks GRANDPA has not finalised yet, seen by an unmodified @polkadot/api client over a real WebSocket.
 */
import { isSubnetError } from '@subnet/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sendFaultRequest } from '../cli-fault.js';
import { DEVNET_ERROR_CODES } from '../errors.js';
import type { Harness } from './harness.js';
import { harness, waitFor } from './harness.js';

const LAG = 4;
let h: Harness;
const remark = (hex: string) => h.api.tx.system!.remark!(hex);
const alice = () => h.devnet.accounts[1]!.hotkey;
const hashAt = async (n: number) => (await h.api.rpc.chain.getBlockHash(n)).toHex();
const lastStoredRound = async (hash: string) =>
  ((await (await h.api.at(hash)).query['drand']!['lastStoredRound']!()) as unknown as { toBigInt(): bigint }).toBigInt();

async function refusal(work: Promise<unknown>): Promise<{ code: string; path: unknown }> {
  try {
    await work;
  } catch (e) {
    if (isSubnetError(e)) return { code: e.code, path: e.context.path };
    throw e;
  }
  throw new Error('the reorganisation was not refused');
}

beforeAll(async () => {
  h = await harness({ neurons: 3, validators: 2, finalityLag: LAG });
  await h.devnet.produceBlocks(10);
});
afterAll(async () => {
  h.devnet.faults.reset();
  await h.close();
});

describe('devnet.reorganize: the unfinalised head replaced by a branch from the same parent', () => {
  it('block numbers repeat with other hashes: chain_getBlockHash answers the branch, new heads and all heads announce it, finality follows it', async () => {
    const best = h.devnet.bestNumber();
    const oldHashes = [await hashAt(best - 1), await hashAt(best)];
    const newHeads: string[] = [];
    const allHeads: string[] = [];
    const unsubNew = await h.api.rpc.chain.subscribeNewHeads((hd) => {
      newHeads.push(hd.hash.toHex());
    });
    const unsubAll = await h.api.rpc.chain.subscribeAllHeads((hd) => {
      allHeads.push(hd.hash.toHex());
    });
    await waitFor(() => newHeads.length === 1 && allHeads.length === 1);
    const branch = await h.devnet.reorganize(2, [{}, {}, {}]);
    expect(branch!.map((b) => b.number)).toEqual([best - 1, best, best + 1]);
    expect(h.devnet.bestNumber()).toBe(best + 1);
    expect(h.devnet.finalizedNumber()).toBe(best + 1 - LAG);
    // the same numbers, other hashes (the branch's blocks carry no extrinsics but the timestamp inherent, as did the old)
    expect(branch![0]!.hash).not.toBe(oldHashes[0]);
    expect(branch![1]!.hash).not.toBe(oldHashes[1]);
    expect([await hashAt(best - 1), await hashAt(best), await hashAt(best + 1)]).toEqual(branch!.map((b) => b.hash));
    const header = await h.api.rpc.chain.getHeader(branch![0]!.hash);
    expect(header.parentHash.toHex()).toBe(await hashAt(best - 2));
    await waitFor(() => newHeads.length === 4 && allHeads.length === 4);
    expect(newHeads.slice(1)).toEqual(branch!.map((b) => b.hash));
    expect(allHeads.slice(1)).toEqual(branch!.map((b) => b.hash));
    unsubNew();
    unsubAll();
  });

  it('a replaced block answers by hash (header, state) until finality reaches its number, then as an unknown block (4001)', async () => {
    const best = h.devnet.bestNumber();
    const old = await hashAt(best);
    const oldTimestamp = ((await (await h.api.at(old)).query['timestamp']!['now']!()) as unknown as { toBigInt(): bigint }).toBigInt();
    await h.devnet.reorganize(1, [{}]);
    expect(await hashAt(best)).not.toBe(old);
    // still known: a client that read the old head can finish reading it, as on a node before finality prunes the fork
    expect((await h.api.rpc.chain.getHeader(old)).number.toNumber()).toBe(best);
    const storage = await h.api.rpc.state.getStorage(h.api.query['timestamp']!['now']!.key(), old);
    expect(storage).not.toBeNull();
    expect(oldTimestamp).toBeGreaterThan(0n);
    // finality passes the number: the displaced block is forgotten
    await h.devnet.produceBlocks(LAG);
    expect(h.devnet.finalizedNumber()).toBeGreaterThanOrEqual(best);
    expect(await sendFaultRequest({ url: h.devnet.url, method: 'chain_getHeader', params: [old] })).toBeNull();
    expect(await sendFaultRequest({ url: h.devnet.url, method: 'chain_getBlock', params: [old] })).toBeNull();
    const raw = await sendFaultRequest({ url: h.devnet.url, method: 'state_getStorage', params: [h.api.query['timestamp']!['now']!.key(), old] }).then(
      () => null,
      (e: unknown) => String(e),
    );
    expect(raw).toMatch(/4001.*Unknown block/);
  });

  it('refuses to replace a finalised block (DEVNET_REORG_FINALIZED) and a malformed branch (DEVNET_INVALID_REORG); the chain is unchanged', async () => {
    const best = h.devnet.bestNumber();
    const bestHash = await hashAt(best);
    expect(best - h.devnet.finalizedNumber()).toBe(LAG);
    expect(
      await refusal(
        h.devnet.reorganize(
          LAG + 1,
          Array.from({ length: LAG + 1 }, () => ({})),
        ),
      ),
    ).toEqual({
      code: DEVNET_ERROR_CODES.reorgFinalized,
      path: 'depth',
    });
    expect(await refusal(h.devnet.reorganize(2, [{}]))).toEqual({ code: DEVNET_ERROR_CODES.invalidReorg, path: 'branch' });
    expect(await refusal(h.devnet.reorganize(0))).toEqual({ code: DEVNET_ERROR_CODES.invalidReorg, path: 'depth' });
    expect(await refusal(h.devnet.reorganize(1, [{ pulses: 'no' as unknown as boolean }]))).toEqual({
      code: DEVNET_ERROR_CODES.invalidReorg,
      path: 'branch[0].pulses',
    });
    expect(await refusal(h.devnet.reorganize(1, [{ extrinsics: ['0x00'] }]))).toEqual({
      code: DEVNET_ERROR_CODES.invalidReorg,
      path: 'branch[0].extrinsics[0]',
    });
    expect(await refusal(h.devnet.reorganize(1, [{ ['__proto__']: 1 } as never]))).toMatchObject({ code: DEVNET_ERROR_CODES.invalidReorg });
    expect(h.devnet.bestNumber()).toBe(best);
    expect(await hashAt(best)).toBe(bestHash);
  });

  it('a transaction of a replaced block: its watcher hears Retracted, it returns to the pool and is included again (InBlock, Finalized) on the branch', async () => {
    const statuses: string[] = [];
    const blocks: string[] = [];
    const unsub = await remark('0x0a').signAndSend(alice(), (r) => {
      statuses.push(r.status.type);
      if (r.status.isInBlock) blocks.push(r.status.asInBlock.toHex());
    });
    await waitFor(() => h.devnet.poolSize() === 1);
    const first = (await h.devnet.produceBlock())!;
    expect(first.extrinsics).toHaveLength(2);
    await waitFor(() => statuses.includes('InBlock'));
    await h.devnet.reorganize(1, [{}, {}]);
    // left out by the branch: back in the pool
    await waitFor(() => statuses.includes('Retracted'));
    expect(h.devnet.poolSize()).toBe(1);
    const again = (await h.devnet.produceBlock())!;
    expect(again.extrinsics[1]).toBe(first.extrinsics[1]);
    await h.devnet.produceBlocks(LAG);
    await waitFor(() => statuses.includes('Finalized'));
    expect(blocks).toEqual([first.hash, again.hash]);
    expect(statuses.filter((s) => s !== 'Ready' && s !== 'Broadcast')).toEqual(['InBlock', 'Retracted', 'InBlock', 'Finalized']);
    unsub();
  });

  it("retracted: 'drop': a transaction of a replaced block the branch leaves out is forgotten (Retracted, then Dropped), never included again", async () => {
    const statuses: string[] = [];
    const unsub = await remark('0x0c').signAndSend(alice(), (r) => {
      statuses.push(r.status.type);
    });
    await waitFor(() => h.devnet.poolSize() === 1);
    const first = (await h.devnet.produceBlock())!;
    const hex = first.extrinsics[1]!;
    await waitFor(() => statuses.includes('InBlock'));
    const nonce = (await h.api.rpc.system.accountNextIndex(alice().address)).toNumber();
    await h.devnet.reorganize(1, [{}, {}], { retracted: 'drop' });
    await waitFor(() => statuses.includes('Dropped'));
    expect(h.devnet.poolSize()).toBe(0);
    const later = await h.devnet.produceBlocks(LAG + 1);
    expect(later.flatMap((b) => b.extrinsics)).not.toContain(hex);
    // its nonce is free again on the branch: the account's next index went back by one
    expect((await h.api.rpc.system.accountNextIndex(alice().address)).toNumber()).toBe(nonce - 1);
    expect(statuses.filter((s) => s !== 'Ready' && s !== 'Broadcast')).toEqual(['InBlock', 'Retracted', 'Dropped']);
    // a malformed option is refused with its path
    expect(await refusal(h.devnet.reorganize(1, [{}], { retracted: 'keep' as never }))).toEqual({
      code: DEVNET_ERROR_CODES.invalidReorg,
      path: 'options.retracted',
    });
    expect(await refusal(h.devnet.reorganize(1, [{}], { other: 1 } as never))).toEqual({ code: DEVNET_ERROR_CODES.invalidReorg, path: 'options.other' });
    unsub();
  });

  it('the branch includes the extrinsics the caller names, where it names them; one it cannot include is refused', async () => {
    const statuses: string[] = [];
    const unsub = await remark('0x0b').signAndSend(alice(), (r) => {
      statuses.push(r.status.type);
    });
    await waitFor(() => h.devnet.poolSize() === 1);
    const first = (await h.devnet.produceBlock())!;
    const hex = first.extrinsics[1]!;
    await waitFor(() => statuses.includes('InBlock'));
    // the same transaction a block later on the branch
    const branch = (await h.devnet.reorganize(1, [{}, { extrinsics: [hex] }]))!;
    expect(branch[0]!.extrinsics).toHaveLength(1);
    expect(branch[1]!.extrinsics).toEqual([branch[1]!.extrinsics[0], hex]);
    expect(h.devnet.poolSize()).toBe(0);
    await waitFor(() => statuses.filter((s) => s === 'InBlock').length === 2);
    // included twice on one branch: its nonce is used
    const refused = await refusal(h.devnet.reorganize(1, [{ extrinsics: [hex] }, { extrinsics: [hex] }]));
    expect(refused).toEqual({ code: DEVNET_ERROR_CODES.invalidReorg, path: 'branch[1].extrinsics[0]' });
    await h.devnet.produceBlocks(LAG);
    await waitFor(() => statuses.includes('Finalized'));
    unsub();
  });

  it('pulses: false leaves out the block’s drand pulses; the next block with pulses publishes every round missed', async () => {
    const best = h.devnet.bestNumber();
    const before = await lastStoredRound(await hashAt(best - 1));
    const branch = (await h.devnet.reorganize(1, [{ pulses: false }, { pulses: false }, {}]))!;
    expect(await lastStoredRound(branch[0]!.hash)).toBe(before);
    expect(await lastStoredRound(branch[1]!.hash)).toBe(before);
    expect(await lastStoredRound(branch[2]!.hash)).toBe(h.devnet.beacon!.roundAtBlock(branch[2]!.number));
  });

  it('devnet_reorganize over the admin RPC: the branch as [{ number, hash }]; a refusal is -32602 naming its code', async () => {
    const best = h.devnet.bestNumber();
    const result = (await sendFaultRequest({ url: h.devnet.url, method: 'devnet_reorganize', params: [1, [{ pulses: false }, {}]] })) as {
      number: number;
      hash: string;
    }[];
    expect(result.map((b) => b.number)).toEqual([best, best + 1]);
    expect(result[0]!.hash).toBe(await hashAt(best));
    const refused = await sendFaultRequest({ url: h.devnet.url, method: 'devnet_reorganize', params: [LAG + 1] }).then(
      () => null,
      (e: unknown) => String(e),
    );
    expect(refused).toMatch(/-32602.*DEVNET_REORG_FINALIZED/);
    // while production is stalled nothing changes
    h.devnet.faults.stallBlockProduction();
    expect(await h.devnet.reorganize(1)).toBeNull();
    h.devnet.faults.resumeBlockProduction();
    expect(h.devnet.bestNumber()).toBe(best + 1);
  });
});
