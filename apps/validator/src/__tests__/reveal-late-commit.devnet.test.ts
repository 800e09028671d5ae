/**
 * A timelocked commit that waits in the pool across an epoch boundary is filed under the next epoch, and the chain
 * reveals it an epoch after the predicted reveal block (subnets/weights.rs:345-349, reveal_commits.rs:46,66 at
 * 14bc6f9f9). The validator's due block is the chain's: the confirmation does not ask the chain for an epoch in which
 * the commit is known to be queued, and the embargo's wait and the signed outcome name the block the reveal happens in.
 */
import { connectChain, predictRevealRound, readMetagraph, readTimelockContext } from '@subnet/chain';
import { startDevnet } from '@subnet/devnet';
import { describe, expect, it } from 'vitest';

import type { PendingReveal } from '../chain-port.js';
import { createMetrics } from '../metrics.js';
import { confirmPendingReveals } from '../reveal-confirm.js';
import { timelockRecordFromJson } from '../timelock-record-json.js';
import { devnetChainPort, storageWithPendingReveal } from './commit-reveal-devnet.js';
import { useCleanups } from './helpers.js';

const cleanups = useCleanups();
const TEMPO = 10;

describe.each(['stateful', 'legacy'] as const)('a timelocked commit that lands an epoch late (real devnet, %s runtime)', (runtime) => {
  it('is due at the late epoch reveal block: a pass before it waits without asking the chain, a pass after it records the reveal there', async () => {
    // Blocks made by the test, final at once.
    const devnet = await startDevnet({ runtime, neurons: 6, validators: 2, tempo: TEMPO, weightsSetRateLimit: 0n, commitReveal: true, beacon: { period: 12 } });
    cleanups.push(() => devnet.stop());
    const chain = await devnetChainPort(devnet, cleanups, { revealCheckTimeoutMs: 5_000 });
    await devnet.produceBlock();

    // What the client will predict for a commit in the next block.
    const reader = await connectChain({ network: devnet.url });
    cleanups.push(() => reader.close());
    const snapshot = await readMetagraph(reader, { netuid: 1 });
    const expected = predictRevealRound(snapshot, await readTimelockContext(reader, snapshot.blockHash));

    // The commit is held out of the pool while the chain reaches the block before the predicted reveal block, where
    // the next epoch begins: it lands in the predicted reveal block, filed under the next epoch.
    devnet.faults.delayNextExtrinsic(1_000);
    const sent = chain.setWeights([3, 4], [30_000, 40_000]);
    sent.catch(() => undefined);
    while (devnet.faults.held === 0) await new Promise((r) => setTimeout(r, 3));
    await devnet.produceBlocks(Number(expected.revealBlock) - 1 - devnet.bestNumber());
    while (devnet.poolSize() === 0) await new Promise((r) => setTimeout(r, 3));
    await devnet.produceBlock();
    const landed = await sent;
    expect(landed.block).toBe(expected.revealBlock);
    const timelock = landed.timelock as PendingReveal;
    const record = timelockRecordFromJson(timelock.record) as { prediction: { revealBlock: bigint } | null };
    expect(record.prediction?.revealBlock).toBe(expected.revealBlock);
    const epochBlocks = runtime === 'stateful' ? TEMPO : TEMPO + 1; // run_coinbase.rs:1085 at 14bc6f9f9; spec 393: tempo + 1
    expect(timelock.dueBlock).toBe(expected.revealBlock + BigInt(epochBlocks));

    const storage = await storageWithPendingReveal(cleanups, 5, timelock);
    const metrics = createMetrics();
    const logger = { info: () => undefined, warn: () => undefined };
    let checks = 0;
    const counted = { ...chain, confirmReveal: (r: string) => ((checks += 1), chain.confirmReveal!(r)) };
    const deps = { storage, chain: counted, metrics, logger };

    // Past the predicted reveal block, before the chain's: the commit is queued; the pass waits and asks nothing.
    await devnet.produceBlocks(3);
    expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 5, status: 'waiting' }]);
    expect(checks).toBe(0);

    // The chain reveals it in the due block (its round was stored long before).
    await devnet.produceBlocks(Number(timelock.dueBlock) - devnet.bestNumber());
    expect(await confirmPendingReveals(deps)).toEqual([{ epoch: 5, status: 'revealed' }]);
    expect(checks).toBe(1);
    const row = await storage.getEpoch(5);
    expect(row?.revealStatus).toBe('revealed');
    expect(JSON.parse(row?.reveal ?? '{}')).toMatchObject({ due_block: timelock.dueBlock.toString(), block: timelock.dueBlock.toString() });
  }, 60_000);
});
