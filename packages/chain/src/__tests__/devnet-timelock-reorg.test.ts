/**
 * `confirmTimelockedReveal` remembers, per connection, how far it followed a commit's queue (`next`, and `lastHash`,
 * the hash of block `next - 1`), and starts again at the commit block when that hash changed: finney reorganises the
 * blocks GRANDPA has not finalised yet, and the drand pulses that trigger a reveal come by `write_pulse` extrinsics
 * that one block author includes and another may not, so the block that revealed a commit on one branch may not on
 * another. The devnet reorganises its unfinalised head (`devnet.reorganize`) with its pulses left out where the test
 * says; real @polkadot/api over a real WebSocket, on both runtimes.
 */
import { isSubnetError } from '@subnet/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TimelockedReveal } from '../timelock-reveal.js';
import type { TimelockedCommitRecord } from '../timelock-commit.js';
import type { Harness } from './devnet-helpers.js';
import { RUNTIMES, startHarness } from './devnet-helpers.js';

const TEMPO = 20;
/** Finality this far behind the best block: every reorganisation below replaces fewer blocks. */
const LAG = 40;

describe.each(RUNTIMES)('confirmTimelockedReveal across a reorganisation of the unfinalised head, %s runtime', { timeout: 60_000 }, (runtime) => {
  let h: Harness;
  /** `TimelockedWeightCommits` reads (one per block the walk looks at) since the harness started. */
  let queueReads = 0;
  /** `chain_getFinalizedHead` requests (a confirmation waiting for finality) since the harness started. */
  let finalityPolls = 0;
  beforeAll(async () => {
    h = await startHarness({
      runtime,
      neurons: 8,
      validators: 4,
      tempo: TEMPO,
      commitReveal: true,
      weightsSetRateLimit: 0n,
      beacon: { period: 12 },
      finalityLag: LAG,
    });
    await h.devnet.produceBlock();
    const connection = h.client.connection;
    const request = connection.request.bind(connection);
    connection.request = (label, run, ...rest) => {
      if (label === 'TimelockedWeightCommits') queueReads += 1;
      if (label === 'chain_getFinalizedHead') finalityPolls += 1;
      return request(label, run, ...rest);
    };
  });
  afterAll(async () => {
    await h.close();
  });

  const commit = async (weights: Record<string, number>): Promise<TimelockedCommitRecord> =>
    (await h.includeNext(h.client.setWeights({ netuid: 1, weights, waitForReveal: false, wait: 'inBlock' }))).timelock!.record;

  /** The first block that publishes the commit's round (its pulse is readable from the block after). */
  const pulseBlock = (record: TimelockedCommitRecord): number => {
    let n = 1;
    while (h.devnet.beacon!.roundAtBlock(n) < record.revealRound) n += 1;
    return n;
  };

  const hashAt = async (n: bigint | number): Promise<string> => (await h.client.connection.api.rpc.chain.getBlockHash(n)).toHex();

  /** One check (no waiting), with the queue reads it made: the reveal, or the error it ends with. */
  const check = async (record: TimelockedCommitRecord): Promise<{ outcome: TimelockedReveal | Error; reads: number }> => {
    const before = queueReads;
    const outcome = await h.client.confirmTimelockedReveal(record, { timeoutMs: 0 }).catch((e: unknown) => e as Error);
    return { outcome, reads: queueReads - before };
  };
  const isPending = (outcome: TimelockedReveal | Error): boolean => isSubnetError(outcome, 'CHAIN_TIMELOCK_REVEAL_TIMEOUT');

  /** Produces a block and checks again until the check is no longer pending. */
  const settle = async (record: TimelockedCommitRecord): Promise<TimelockedReveal | Error> => {
    for (let i = 0; i < 4 * TEMPO; i += 1) {
      const { outcome } = await check(record);
      if (!isPending(outcome)) return outcome;
      await h.devnet.produceBlock();
    }
    throw new Error('the commit never left its queue');
  };

  /** Replaces blocks `from`..best by `branch`. */
  const replaceFrom = async (from: number, branch: readonly { pulses?: boolean }[]): Promise<void> => {
    const blocks = await h.devnet.reorganize(h.devnet.bestNumber() - from + 1, branch);
    expect(blocks?.[0]?.number).toBe(from);
  };
  const blocks = (n: number, pulses = true): { pulses: boolean }[] => Array.from({ length: n }, () => ({ pulses }));

  /** A `wait: 'finalized'` confirmation, returned once it has found its outcome and is polling for finality. */
  const waitingForFinality = async (record: TimelockedCommitRecord): Promise<{ confirmed: Promise<TimelockedReveal> }> => {
    const polls = finalityPolls;
    const state = { settled: false };
    const confirmed = h.client.confirmTimelockedReveal(record, { timeoutMs: 20_000, wait: 'finalized' }).finally(() => {
      state.settled = true;
    });
    confirmed.catch(() => undefined);
    while (finalityPolls === polls && !state.settled) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.settled).toBe(false);
    // wrapped: an async function returning the promise itself would wait for it
    return { confirmed };
  };

  it('a reorganisation of blocks the walk has not read yet (block next - 1 kept) starts nothing again: the next check reads only the new blocks', async () => {
    const record = await commit({ '5': 1 });
    expect(h.devnet.bestNumber() + 6).toBeLessThan(pulseBlock(record)); // still queued throughout
    await h.devnet.produceBlocks(3);
    const first = await check(record);
    expect(isPending(first.outcome)).toBe(true);
    expect(first.reads).toBe(4); // the predicted epoch's queue at the commit block (the commit's epoch), then 3 blocks
    const readUpTo = h.devnet.bestNumber();
    const keptHash = await hashAt(readUpTo);
    await h.devnet.produceBlocks(3);
    await replaceFrom(readUpTo + 1, blocks(3));
    expect(await hashAt(readUpTo)).toBe(keptHash);
    const second = await check(record);
    expect(isPending(second.outcome)).toBe(true);
    expect(second.reads).toBe(3); // readUpTo + 1 .. readUpTo + 3 of the branch, nothing before
  });

  it('the block that revealed the commit is replaced by a branch where the pulse comes later: the next check starts again at the commit block and reports the reveal in its new block', async () => {
    const record = await commit({ '2': 1, '3': 3 });
    const q = pulseBlock(record);
    expect(q).toBeGreaterThan(Number(record.commitBlock));
    const old = await settle(record);
    if (old instanceof Error) throw old;
    const r = Number(old.blockNumber);
    expect(r).toBeGreaterThan(q);
    expect(old.blockHash).toBe(await hashAt(r));
    // the branch leaves out every pulse from block q to two blocks past the old reveal: the round's pulse is first
    // written in block r + 3, so the reveal step finds it in block r + 4; then one more block
    await replaceFrom(q, [...blocks(r - q + 3, false), ...blocks(2)]);
    expect(h.devnet.bestNumber()).toBe(r + 4);
    expect(await hashAt(r)).not.toBe(old.blockHash);
    const again = await check(record);
    if (again.outcome instanceof Error) throw again.outcome;
    expect(again.outcome.blockNumber).toBe(BigInt(r + 4));
    expect(again.outcome.blockHash).toBe(await hashAt(r + 4));
    expect(again.outcome.stored).toEqual(old.stored);
    // it started again at the commit block: every block from the one after the commit to the new reveal was read
    // (going on from the old reveal block would have read r .. r + 4: five)
    expect(again.reads).toBe(r + 4 - Number(record.commitBlock));
  });

  it('a check that found the commit still queued, then a reorganisation to a branch where the pulse came on time: the reveal is reported in the branch block (before the walk’s read point), not as missing', async () => {
    const record = await commit({ '4': 1 });
    const q = pulseBlock(record);
    await h.devnet.produceBlocks(q - h.devnet.bestNumber());
    // branch A: block q and the seven after it carry no pulses, so the commit stays queued
    await replaceFrom(q, blocks(8, false));
    const pending = await check(record);
    expect(isPending(pending.outcome)).toBe(true);
    // branch B replaces them all (and the walk's last block q + 7) with blocks that carry their pulses, one more block
    await replaceFrom(q, blocks(9));
    const { outcome } = await check(record);
    if (outcome instanceof Error) throw outcome;
    expect(outcome.blockNumber).toBeLessThan(BigInt(q + 8));
    expect(outcome.blockNumber).toBeGreaterThan(BigInt(q));
    expect(outcome.blockHash).toBe(await hashAt(outcome.blockNumber));
    expect(outcome.stored).toEqual([65535]);
  });

  it('the reveal is dropped by a reorganisation and the commit expires on the new branch: reported as expired, never as revealed', async () => {
    const record = await commit({ '6': 1 });
    const q = pulseBlock(record);
    const old = await settle(record);
    if (old instanceof Error) throw old;
    // the branch carries no pulse for more than an epoch: the reveal epoch passes and the queue is deleted unread
    await replaceFrom(q, blocks(h.devnet.bestNumber() - q + 1 + TEMPO + 3, false));
    const { outcome } = await check(record);
    expect(outcome).toBeInstanceOf(Error);
    expect(isSubnetError(outcome, 'CHAIN_TIMELOCK_REVEAL_MISSING')).toBe(true);
    const context = (outcome as Error & { context: { revealBlock: bigint; likelyReasons: readonly string[] } }).context;
    expect(context.likelyReasons).toEqual(['expired', 'pulse_missing']);
    expect(context.revealBlock).toBeGreaterThan(old.blockNumber);
    // the devnet agrees: the branch's reveal step dropped it there as expired, and no reveal of the old branch is left
    const drops = h.devnet.timelockDrops().filter((d) => d.revealRound === record.revealRound);
    expect(drops.map((d) => [d.block, d.reason])).toEqual([[context.revealBlock, 'expired']]);
  });

  it("wait: 'finalized': 'not revealed' waits for finality too: a branch that reveals the commit replaces the block where it expired, and the reveal is reported, not the loss", async () => {
    const record = await commit({ '1': 1 });
    const q = pulseBlock(record);
    await h.devnet.produceBlocks(q - h.devnet.bestNumber());
    // branch A carries no pulse for more than an epoch: the reveal epoch passes and the queue is deleted unread
    await replaceFrom(q, blocks(TEMPO + 8, false));
    const lost = await check(record);
    expect(isSubnetError(lost.outcome, 'CHAIN_TIMELOCK_REVEAL_MISSING')).toBe(true);
    const exit = (lost.outcome as Error & { context: { revealBlock: bigint } }).context.revealBlock;
    expect(BigInt(h.devnet.finalizedNumber())).toBeLessThan(exit);
    // not final yet: with wait 'finalized' and no time to wait, it is pending, not missing
    const early = await h.client.confirmTimelockedReveal(record, { timeoutMs: 0, wait: 'finalized' }).catch((e: unknown) => e as Error);
    expect(isSubnetError(early, 'CHAIN_TIMELOCK_REVEAL_TIMEOUT')).toBe(true);
    expect((early as Error & { context: { unfinalizedExit?: boolean; value: bigint } }).context).toMatchObject({ unfinalizedExit: true, value: exit });
    // the waiting confirmation has seen the loss; branch B, where every pulse came on time, replaces branch A
    const { confirmed } = await waitingForFinality(record);
    await replaceFrom(q, blocks(TEMPO + 9));
    const reveal = await h.drive(confirmed, 15);
    expect(reveal.finalized).toBe(true);
    expect(reveal.blockNumber).toBeGreaterThan(BigInt(q));
    expect(reveal.blockNumber).toBeLessThan(exit);
    expect(reveal.blockHash).toBe(await hashAt(reveal.blockNumber));
    expect(reveal.stored).toEqual([65535]);
  });

  it("wait: 'finalized': a loss on the branch that is finalised is reported once finality reaches it, with finalized: true", async () => {
    const record = await commit({ '3': 1 });
    const q = pulseBlock(record);
    await h.devnet.produceBlocks(q - h.devnet.bestNumber());
    await replaceFrom(q, blocks(TEMPO + 8, false));
    const lost = await h.drive(
      h.client.confirmTimelockedReveal(record, { timeoutMs: 20_000, wait: 'finalized' }).catch((e: unknown) => e as Error),
      15,
    );
    expect(isSubnetError(lost, 'CHAIN_TIMELOCK_REVEAL_MISSING')).toBe(true);
    const context = (lost as Error & { context: { revealBlock: bigint; revealBlockHash: string; finalized: boolean; likelyReasons: readonly string[] } })
      .context;
    expect(context.finalized).toBe(true);
    expect(context.likelyReasons[0]).toBe('expired');
    expect(BigInt(h.devnet.finalizedNumber())).toBeGreaterThanOrEqual(context.revealBlock);
    expect(context.revealBlockHash).toBe(await hashAt(context.revealBlock));
  });

  it("wait: 'finalized': a reveal block replaced before finality is never reported finalized; the reveal in the branch that was finalised is", async () => {
    const record = await commit({ '7': 1 });
    const q = pulseBlock(record);
    const old = await settle(record);
    if (old instanceof Error) throw old;
    const r = Number(old.blockNumber);
    // it found the reveal at r and waits for finality; the branch then moves the reveal to r + 4
    const { confirmed } = await waitingForFinality(record);
    await replaceFrom(q, [...blocks(r - q + 3, false), ...blocks(2)]);
    const reveal = await h.drive(confirmed, 15);
    expect(reveal.finalized).toBe(true);
    expect(reveal.blockNumber).toBe(BigInt(r + 4));
    expect(reveal.blockHash).toBe(await hashAt(r + 4));
    expect(reveal.blockHash).not.toBe(old.blockHash);
    expect(h.devnet.finalizedNumber()).toBeGreaterThanOrEqual(r + 4);
  });
});
