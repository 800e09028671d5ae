import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { POOL_ERRORS } from '../rpc-errors.js';
import type { Harness } from './harness.js';
import { harness, include, rejection, waitFor } from './harness.js';

let h: Harness;
const remark = (hex: string) => h.api.tx.system!.remark!(hex);
const alice = () => h.devnet.accounts[1]!.hotkey;

beforeAll(async () => {
  h = await harness({ neurons: 3, validators: 2 });
});
afterAll(async () => {
  h.devnet.faults.reset();
  await h.close();
});

describe('fault injection', () => {
  it('dropConnections closes every socket; @polkadot/api reconnects and keeps working', async () => {
    let disconnected = 0;
    h.api.on('disconnected', () => (disconnected += 1));
    expect(h.devnet.faults.dropConnections()).toBe(1);
    await waitFor(() => disconnected === 1);
    await waitFor(() => h.api.isConnected);
    const before = h.devnet.bestNumber();
    await h.devnet.produceBlock();
    const head = await h.api.rpc.chain.getHeader();
    expect(head.number.toNumber()).toBe(before + 1);
  });

  it('stallBlockProduction stops new heads until resumeBlockProduction', async () => {
    const heads: number[] = [];
    const unsub = await h.api.rpc.chain.subscribeNewHeads((hd) => {
      heads.push(hd.number.toNumber());
    });
    await waitFor(() => heads.length === 1);
    const start = h.devnet.bestNumber();
    h.devnet.faults.stallBlockProduction();
    expect(h.devnet.faults.stalled).toBe(true);
    expect(await h.devnet.produceBlock()).toBeNull();
    expect(await h.devnet.produceBlocks(3)).toEqual([]);
    expect(h.devnet.bestNumber()).toBe(start);
    h.devnet.faults.resumeBlockProduction();
    const b = await h.devnet.produceBlock();
    expect(b?.number).toBe(start + 1);
    await waitFor(() => heads.includes(start + 1));
    expect(heads).toEqual([start, start + 1]);
    unsub();
  });

  it('rejectNextSubmission answers the next submission with the chosen pool error, once', async () => {
    h.devnet.faults.rejectNextSubmission(POOL_ERRORS.custom(6));
    expect(await rejection(remark('0x01'), alice())).toBe('1010: Invalid Transaction: Custom error: 6');
    const ok = await include(h, remark('0x02'), alice());
    expect(ok.statuses).toContain('Finalized');
  });

  it('delayNextExtrinsic holds the next submission for the given time', async () => {
    h.devnet.faults.delayNextExtrinsic(300);
    const signed = await remark('0x03').signAsync(alice());
    const t0 = Date.now();
    await h.api.rpc.author.submitExtrinsic(signed);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    const block = await h.devnet.produceBlock();
    expect(block!.extrinsics).toContain(signed.toHex());
  });

  it('held counts the submissions a delay holds: 1 while it waits (blocks produced then miss it), 0 once pooled', async () => {
    h.devnet.faults.delayNextExtrinsic(400);
    expect(h.devnet.faults.held).toBe(0);
    const signed = await remark('0x06').signAsync(alice());
    const submitted = h.api.rpc.author.submitExtrinsic(signed);
    while (h.devnet.faults.held === 0) await new Promise((r) => setTimeout(r, 5));
    expect(h.devnet.faults.held).toBe(1);
    const missed = await h.devnet.produceBlock();
    expect(missed!.extrinsics).not.toContain(signed.toHex());
    await submitted;
    expect(h.devnet.faults.held).toBe(0);
    const block = await h.devnet.produceBlock();
    expect(block!.extrinsics).toContain(signed.toHex());
  });

  it('dropNextExtrinsic accepts the next submission but never includes it; the nonce stays free', async () => {
    const nonce = (await h.api.rpc.system.accountNextIndex(alice().address)).toNumber();
    h.devnet.faults.dropNextExtrinsic();
    const lost = await remark('0x04').signAsync(alice(), { nonce });
    const hash = await h.api.rpc.author.submitExtrinsic(lost);
    expect(hash.toHex()).toBe(lost.hash.toHex());
    const block = await h.devnet.produceBlock();
    expect(block!.extrinsics).not.toContain(lost.toHex());
    expect((await h.api.rpc.system.accountNextIndex(alice().address)).toNumber()).toBe(nonce);
    const retry = await include(h, remark('0x05'), alice());
    expect(retry.failed).toBeNull();
  });
});
