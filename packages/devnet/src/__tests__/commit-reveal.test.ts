import { u8aToHex } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { weightCommitHash } from '../weights-rules.js';
import type { Harness } from './harness.js';
import { harness, include, rejection } from './harness.js';

const TEMPO = 4;
let h: Harness;
const tx = () => h.api.tx.subtensorModule!;
const acct = (uid: number) => h.devnet.accounts[uid]!;

async function nextEpochStart(): Promise<number> {
  const out = await h.api.rpc.state.call('SubnetInfoRuntimeApi_get_next_epoch_start_block', u8aToHex(h.api.createType('u16', 1).toU8a()));
  const opt = h.api.createType('Option<u64>', out.toU8a(true));
  return opt.unwrap().toNumber();
}

/** Produces blocks until the next extrinsic would be included in the first block of a new epoch. */
async function alignToEpochStart(): Promise<number> {
  const start = await nextEpochStart();
  const head = h.devnet.bestNumber();
  if (start - 1 > head) await h.devnet.produceBlocks(start - 1 - head);
  return start;
}

async function epochIndex(): Promise<number> {
  return ((await h.api.query.subtensorModule!.subnetEpochIndex!(1)) as unknown as { toNumber(): number }).toNumber();
}

beforeAll(async () => {
  h = await harness({ neurons: 6, validators: 6, commitReveal: true, tempo: TEMPO, weightsSetRateLimit: 0n, ownerUid: null });
});
afterAll(async () => {
  await h.close();
});

describe('commit-reveal v2 (chain README 2.4)', () => {
  it('reveals only in epoch commit_epoch + RevealPeriodEpochs: RevealTooEarly is pool error 17; LastUpdate is set at commit', async () => {
    const a = acct(1);
    const uids = [0, 2];
    const values = [100, 200];
    const salt = [1, 2, 3, 4];
    const S = await alignToEpochStart();
    const hash = weightCommitHash(a.hotkeyHex, 1, uids, values, salt, 0n);
    const committed = await include(h, tx().commitWeights!(1, hash), a.hotkey);
    expect(committed.failed).toBeNull();
    expect(committed.events).toContain('subtensorModule.WeightsCommitted');
    const block = (await h.api.rpc.chain.getHeader(committed.blockHash)).number.toNumber();
    expect(block).toBe(S);
    const commitEpoch = await epochIndex();
    const stored = (await h.api.query.subtensorModule!.weightCommits!(1, a.hotkeyAddress)).toJSON();
    expect(stored).toEqual([[hash, commitEpoch, S, 0]]);
    expect(((await h.api.query.subtensorModule!.lastUpdate!(1)).toJSON() as number[])[1]).toBe(S);

    expect(await rejection(tx().revealWeights!(1, uids, values, salt, 0), a.hotkey)).toBe('1010: Invalid Transaction: Custom error: 17');
    await h.devnet.produceBlocks(TEMPO - 1); // head = S + 3: the next block starts epoch commit_epoch + 1
    const revealed = await include(h, tx().revealWeights!(1, uids, values, salt, 0), a.hotkey);
    expect(revealed.failed).toBeNull();
    expect(await epochIndex()).toBe(commitEpoch + 1);
    expect(revealed.events).toEqual(expect.arrayContaining(['subtensorModule.WeightsSet', 'subtensorModule.WeightsRevealed']));
    // 200 <= 32768: round(v * 65535 / 200): 100 -> 32767.5 -> 32768
    expect((await h.api.query.subtensorModule!.weights!(1, 1)).toJSON()).toEqual([
      [0, 32768],
      [2, 65535],
    ]);
    expect(((await h.api.query.subtensorModule!.lastUpdate!(1)).toJSON() as number[])[1]).toBe(S);
    expect((await h.api.query.subtensorModule!.weightCommits!(1, a.hotkeyAddress)).isEmpty).toBe(true);
  });

  it('a reveal one epoch late is rejected at the pool with 17 (CheckWeights: not in the reveal range)', async () => {
    const a = acct(2);
    const hash = weightCommitHash(a.hotkeyHex, 1, [0], [1], [9], 0n);
    await alignToEpochStart();
    expect((await include(h, tx().commitWeights!(1, hash), a.hotkey)).failed).toBeNull();
    await h.devnet.produceBlocks(2 * TEMPO - 1);
    expect(await rejection(tx().revealWeights!(1, [0], [1], [9], 0), a.hotkey)).toBe('1010: Invalid Transaction: Custom error: 17');
  });

  it('a reveal whose hash matches no commit is rejected at the pool with 16 (CheckWeights: NoWeightsCommitFound)', async () => {
    const a = acct(3);
    await alignToEpochStart();
    const hash = weightCommitHash(a.hotkeyHex, 1, [0, 1], [1, 1], [5], 0n);
    expect((await include(h, tx().commitWeights!(1, hash), a.hotkey)).failed).toBeNull();
    await h.devnet.produceBlocks(TEMPO - 1);
    expect(await rejection(tx().revealWeights!(1, [0, 1], [1, 2], [5], 0), a.hotkey)).toBe('1010: Invalid Transaction: Custom error: 16');
  });

  it('a reveal without any commit is pool error 16 (NoWeightsCommitFound -> CommitNotFound)', async () => {
    expect(await rejection(tx().revealWeights!(1, [0], [1], [1], 0), acct(4).hotkey)).toBe('1010: Invalid Transaction: Custom error: 16');
  });

  it('the 11th unrevealed commit fails with TooManyUnrevealedCommits', async () => {
    const a = acct(5);
    await alignToEpochStart();
    const base = (await h.api.rpc.system.accountNextIndex(a.hotkeyAddress)).toNumber();
    for (let i = 0; i < 11; i += 1) {
      const hash = weightCommitHash(a.hotkeyHex, 1, [i], [1], [i], 0n);
      const signed = await tx().commitWeights!(1, hash).signAsync(a.hotkey, { nonce: base + i });
      await h.api.rpc.author.submitExtrinsic(signed);
    }
    const block = await h.devnet.produceBlock();
    const events = await (await h.api.at(block!.hash)).query.system!.events!();
    const list = events as unknown as { event: { section: string; method: string }; phase: { asApplyExtrinsic: { toNumber(): number } } }[];
    const committed = list.filter((e) => e.event.method === 'WeightsCommitted');
    const failed = list.filter((e) => e.event.method === 'ExtrinsicFailed');
    expect(committed).toHaveLength(10);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.phase.asApplyExtrinsic.toNumber()).toBe(11); // after the timestamp inherent and 10 commits
    const r = await (await h.api.at(block!.hash)).query.system!.events!();
    const err = (r as unknown as { event: { method: string; data: [{ asModule: never }] } }[]).find((e) => e.event.method === 'ExtrinsicFailed')!;
    expect(h.api.registry.findMetaError(err.event.data[0].asModule).name).toBe('TooManyUnrevealedCommits');
  });

  it('commit_weights fails with CommitRevealDisabled when commit-reveal is off', async () => {
    h.devnet.setHyperparameter('commitRevealEnabled', false);
    await h.devnet.produceBlock();
    const r = await include(h, tx().commitWeights!(1, `0x${'ab'.repeat(32)}`), acct(0).hotkey);
    expect(r.failed).toBe('CommitRevealDisabled');
  });
});
