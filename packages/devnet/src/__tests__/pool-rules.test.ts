import { WebSocket } from 'ws';
import { u8aToHex } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './harness.js';
import { harness, include, rejection, waitFor } from './harness.js';

let h: Harness;
const tx = () => h.api.tx.subtensorModule!;
const pair = (uid: number) => h.devnet.accounts[uid]!.hotkey;

async function submitRaw(hex: string): Promise<string> {
  try {
    await h.api.rpc.author.submitExtrinsic(hex);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('accepted');
}

beforeAll(async () => {
  h = await harness({ neurons: 6, validators: 4, weightsSetRateLimit: 3n, mechanismCount: 2, ownerUid: 5, tempo: 1000 });
});
afterAll(async () => {
  await h.close();
});

describe('pool rules (chain README 2.3) and signed-extension checks', () => {
  it('SettingWeightsTooFast is rejected in the pool as 1010 Custom error: 6, and passes once now - last >= rate limit', async () => {
    const first = await include(h, tx().setWeights!(1, [0, 1], [1, 1], 0), pair(1));
    expect(first.failed).toBeNull();
    expect(await rejection(tx().setWeights!(1, [0, 1], [1, 2], 0), pair(1))).toBe('1010: Invalid Transaction: Custom error: 6');
    await h.devnet.produceBlocks(2); // the next block is last + 3
    const again = await include(h, tx().setWeights!(1, [0, 1], [1, 3], 0), pair(1));
    expect(again.failed).toBeNull();
  });

  it('the rate limit is per mechanism storage index (mecid * 4096 + netuid)', async () => {
    const m0 = await include(h, tx().setWeights!(1, [0, 1], [1, 1], 0), pair(2));
    expect(m0.failed).toBeNull();
    const m1 = await include(h, tx().setMechanismWeights!(1, 1, [0, 1], [1, 1], 0), pair(2));
    expect(m1.failed).toBeNull();
    const ev = m1.result.events.find((e) => e.event.method === 'WeightsSet')!;
    expect(ev.event.data.toJSON()).toEqual([4097, 2]);
    expect((await h.api.query.subtensorModule!.weights!(4097, 2)).toJSON()).toEqual([
      [0, 65535],
      [1, 65535],
    ]);
    const lu = (await h.api.query.subtensorModule!.lastUpdate!(4097)).toJSON() as number[];
    expect(lu[2]).toBe(h.devnet.bestNumber());
  });

  it('an unregistered hotkey is rejected with Custom error: 1 (min stake guard first) when StakeThreshold > 0, and let through at 0', async () => {
    const { Keyring } = await import('@polkadot/keyring');
    const stranger = new Keyring({ type: 'sr25519' }).addFromUri('//Stranger');
    expect(await rejection(tx().setWeights!(1, [0], [1], 0), stranger)).toBe('1010: Invalid Transaction: Custom error: 1');
    h.devnet.setHyperparameter('stakeThreshold', 0n);
    await h.devnet.produceBlock();
    // CheckRateLimits passes a hotkey without a uid (main guards/check_rate_limits.rs:37): dispatch fails instead
    expect((await include(h, tx().setWeights!(1, [0], [1], 0), stranger)).failed).toBe('HotKeyNotRegisteredInSubNet');
    h.devnet.setHyperparameter('stakeThreshold', 1_000_000_000_000n);
    await h.devnet.produceBlock();
  });

  it('rejects a bad signature with 1010 Transaction has a bad signature', async () => {
    const signed = await tx().setWeights!(1, [0, 1], [1, 1], 0).signAsync(pair(3));
    const bytes = signed.toU8a();
    const sigStart = bytes.indexOf(1, 35); // 0x01 = Sr25519 variant after the 32-byte signer
    bytes[sigStart + 10] = (bytes[sigStart + 10]! + 1) % 256;
    expect(await submitRaw(u8aToHex(bytes))).toBe('1010: Invalid Transaction: Transaction has a bad signature');
  });

  it('rejects a signature over the wrong genesis hash (bad signature, as CheckGenesis does)', async () => {
    const signed = await tx().setWeights!(1, [0, 1], [1, 1], 0).signAsync(pair(3), {
      genesisHash: `0x${'11'.repeat(32)}`,
      era: 0,
    } as never);
    expect(await submitRaw(signed.toHex())).toBe('1010: Invalid Transaction: Transaction has a bad signature');
  });

  it('rejects an expired mortal era with 1010 Transaction has an ancient birth block', async () => {
    const head = await h.api.rpc.chain.getHeader();
    const signed = await tx().setWeights!(1, [0, 1], [1, 1], 0).signAsync(pair(3), {
      blockHash: head.hash,
      era: h.api.createType('ExtrinsicEra', { current: head.number.toNumber(), period: 4 }),
    });
    await h.devnet.produceBlocks(8);
    expect(await submitRaw(signed.toHex())).toBe('1010: Invalid Transaction: Transaction has an ancient birth block');
  });

  it('rejects a used nonce with 1010 Transaction is outdated', async () => {
    const nonce = (await h.api.rpc.system.accountNextIndex(pair(1).address)).toNumber();
    expect(nonce).toBeGreaterThan(0);
    const signed = await h.api.tx.system!.remark!('0x01').signAsync(pair(1), { nonce: nonce - 1 });
    expect(await submitRaw(signed.toHex())).toBe('1010: Invalid Transaction: Transaction is outdated');
  });

  it('holds a future nonce in the pool (status future) until the gap is filled', async () => {
    const p = pair(4);
    const nonce = (await h.api.rpc.system.accountNextIndex(p.address)).toNumber();
    const statuses: string[] = [];
    const later = await h.api.tx.system!.remark!('0x02').signAsync(p, { nonce: nonce + 1 });
    const unsub = await h.api.rpc.author.submitAndWatchExtrinsic(later, (s) => {
      statuses.push(s.type);
    });
    await waitFor(() => statuses.length > 0);
    expect(statuses[0]).toBe('Future');
    await h.devnet.produceBlock();
    expect(h.api.rpc.author.pendingExtrinsics).toBeDefined();
    expect((await h.api.rpc.author.pendingExtrinsics()).map((x) => x.toHex())).toContain(later.toHex());
    const first = await include(h, h.api.tx.system!.remark!('0x01'), p);
    expect(first.failed).toBeNull();
    await waitFor(() => statuses.includes('Finalized'));
    unsub();
    expect((await h.api.rpc.system.accountNextIndex(p.address)).toNumber()).toBe(nonce + 2);
  });

  it('rejects the same signer and nonce already in the pool with 1014 Priority is too low', async () => {
    const p = pair(0);
    const nonce = (await h.api.rpc.system.accountNextIndex(p.address)).toNumber();
    const a = await h.api.tx.system!.remark!('0x0a').signAsync(p, { nonce });
    const b = await h.api.tx.system!.remark!('0x0b').signAsync(p, { nonce });
    await h.api.rpc.author.submitExtrinsic(a);
    expect(await submitRaw(b.toHex())).toMatch(/^1014: Priority is too low/);
    expect(await submitRaw(a.toHex())).toMatch(/^1013: Transaction Already Imported/);
    expect((await h.api.rpc.system.accountNextIndex(p.address)).toNumber()).toBe(nonce + 1);
    await h.devnet.produceBlock();
  });

  it('rejects undecodable bytes with 1001 and unsigned extrinsics with 1011', async () => {
    const raw = async (hex: string) => {
      const ws = new WebSocket(h.devnet.url);
      await new Promise((r) => {
        ws.addEventListener('open', r);
      });
      const reply = new Promise<{ error: { code: number; message: string } }>((r) => {
        ws.addEventListener('message', (m) => {
          r(JSON.parse(m.data as string) as { error: { code: number; message: string } });
        });
      });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'author_submitExtrinsic', params: [hex] }));
      const out = await reply;
      ws.close();
      return out.error;
    };
    expect(await raw('0x1234')).toMatchObject({ code: 1001, message: 'Extrinsic has invalid format' });
    const unsigned = h.api.tx.system!.remark!('0x00');
    expect(await raw(unsigned.toHex())).toMatchObject({ code: 1011, message: 'Unknown Transaction Validity' });
  });
});
